// Table chat (docs/protocol.md, "Chat"): the players' channel and the spectators' own. The box
// keeps its own elements, so the text being typed survives every redraw of the table; messages
// are shown as text only (h() never parses HTML).
import { h, patch } from "./dom.js";
import { lang, t } from "./i18n.js";
import { playerLink } from "./tables.js";

export const MAX_CHARS = 500;

function line(m) {
  return h(
    "li",
    { class: ["chat-message", `chat-${m.channel}`], "data-key": `chat-${m.id}`, "data-id": m.id, "data-seq": m.seq },
    m.seat !== null && m.seat !== undefined
      ? h("span", { class: "pc-dot", style: { "--pc": `var(--p${m.seat})` } })
      : null,
    playerLink(m.user.name),
    m.channel === "spectators" ? h("span", { class: "muted small" }, ` (${t("chat.spectator")})`) : null,
    ": ",
    h("span", { class: "chat-text", title: m.at ? new Date(m.at).toLocaleString() : null }, m.text),
  );
}

// A list of messages (the replay shows the ones written up to the step shown).
export function chatList(messages) {
  return h(
    "div",
    { class: "chat-log", role: "log", "aria-live": "polite", "data-testid": "chat-log", "data-key": "chat-log" },
    messages.length ? h("ol", { class: "chat-lines" }, messages.map(line)) : h("p", { class: "muted" }, t("chat.none")),
  );
}

export class ChatBox {
  // send(text) → true when the message left (the socket is open)
  constructor(send) {
    this.send = send;
    this.messages = [];
    this.drawn = null; // the messages and language the list shows: drawn again only when they change
    this.writable = false;
    this.channel = "players";
    this.list = h("div", { class: "chat-list" });
    this.input = h("input", {
      id: "chat-input",
      name: "chat",
      maxlength: MAX_CHARS,
      autocomplete: "off",
      "data-testid": "chat-input",
    });
    this.label = h("label", { for: "chat-input" });
    this.button = h("button", { type: "submit" });
    this.title = h("h2", { id: "chat-title" });
    this.form = h(
      "form",
      {
        class: "chat-form row",
        onsubmit: (e) => {
          e.preventDefault();
          const text = this.input.value.trim();
          if (text && this.send(text)) this.input.value = "";
        },
      },
      this.label,
      this.input,
      this.button,
    );
    this.el = h(
      "section",
      { class: "chat panel", "aria-labelledby": "chat-title", "data-testid": "chat" },
      this.title,
      this.list,
      this.form,
    );
    this.render();
  }

  setMessages(list) {
    this.messages = [...list];
    this.renderList();
  }

  add(message) {
    if (this.messages.some((m) => m.id === message.id)) return;
    this.messages = [...this.messages, message];
    this.renderList();
  }

  // who may write, and in which channel ("players" when seated)
  setWriter(writable, channel) {
    if (writable === this.writable && channel === this.channel) return;
    this.writable = writable;
    this.channel = channel;
    this.render();
  }

  // Patched, not rebuilt: the lines already shown stay the same elements (a reader's place, a
  // selection); the list is measured (a layout) only when it changes, never on a table's redraw.
  renderList() {
    if (this.drawn?.messages === this.messages && this.drawn.lang === lang) return;
    this.drawn = { messages: this.messages, lang };
    const atBottom =
      !this.list.firstChild || this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - 4;
    patch(this.list, chatList(this.messages));
    if (atBottom) this.list.scrollTop = this.list.scrollHeight;
  }

  render() {
    patch(this.title, t("chat.title"));
    patch(this.label, t(this.channel === "players" ? "chat.labelPlayers" : "chat.labelSpectators"));
    patch(this.button, t("chat.send"));
    this.form.hidden = !this.writable;
    this.renderList();
  }
}
