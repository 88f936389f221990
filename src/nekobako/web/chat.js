// Table chat (docs/protocol.md, "Chat"): the players' channel and the spectators' own. The box
// keeps its own elements, so the text being typed survives every redraw of the table; messages
// are shown as text only (h() never parses HTML).
//
// Under the lines, a logged-in reader may mute a writer (docs/protocol.md, "Muting and
// reporting": the server stops sending their lines at every table; the lines already shown go at
// once) or report one to the operator with an optional reason. One select names the writers, so
// the controls are two buttons for the keyboard and a screen reader, not two per line.
import * as api from "./api.js";
import { announce, h, patch, toast } from "./dom.js";
import { lang, paren, t } from "./i18n.js";
import { currentUser } from "./session.js";
import { playerLink } from "./tables.js";

export const MAX_REASON = 500;

export const MAX_CHARS = 500;

function line(m) {
  return h(
    "li",
    { class: ["chat-message", `chat-${m.channel}`], "data-key": `chat-${m.id}`, "data-id": m.id, "data-seq": m.seq },
    m.seat !== null && m.seat !== undefined
      ? h("span", { class: "pc-dot", style: { "--pc": `var(--p${m.seat})` } })
      : null,
    playerLink(m.user.name),
    m.channel === "spectators" ? h("span", { class: "muted small" }, paren(t("chat.spectator"))) : null,
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
  // send(text) → true when the message left (the socket is open); tableId: where reports point
  constructor(send, tableId = null) {
    this.send = send;
    this.tableId = tableId;
    this.muted = []; // the reader's muted players (User objects), from the server
    this.reporting = false; // the report form is open
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
    this.moderation = h("div", { class: "chat-moderation", "data-testid": "chat-moderation" });
    this.who = h("select", {
      id: "chat-who",
      name: "chat-who",
      "data-testid": "chat-who",
      onchange: () => this.render(),
    });
    this.reason = h("textarea", { id: "chat-reason", name: "reason", maxlength: MAX_REASON, rows: 2 });
    this.el = h(
      "section",
      { class: "chat panel", "aria-labelledby": "chat-title", "data-testid": "chat" },
      this.title,
      this.list,
      this.form,
      this.moderation,
    );
    if (currentUser() && tableId !== null) {
      api
        .mutes()
        .then((muted) => this.setMuted(muted))
        .catch(() => {});
    }
    this.render();
  }

  setMuted(muted) {
    this.muted = muted;
    this.drawn = null;
    this.render();
  }

  // the other people who wrote here, and the muted ones (so they can be unmuted), by name
  writers() {
    const me = currentUser()?.id;
    const byId = new Map();
    for (const m of this.messages) if (m.user.id !== me) byId.set(m.user.id, m.user);
    for (const u of this.muted) byId.set(u.id, u);
    return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  async toggleMute(user) {
    const wasMuted = this.muted.some((u) => u.id === user.id);
    try {
      this.setMuted(await (wasMuted ? api.unmute(user.id) : api.mute(user.id)));
      announce(t(wasMuted ? "chat.unmuted" : "chat.mutedNow", { name: user.name }));
      if (wasMuted && this.tableId !== null) this.setMessages(await api.chat(this.tableId)); // their lines again
    } catch (err) {
      toast(err.message, "error");
    }
  }

  async sendReport(user) {
    try {
      await api.report(this.tableId, user.id, this.reason.value.trim() || null);
      this.reason.value = "";
      this.reporting = false;
      this.render();
      toast(t("chat.reported", { name: user.name }));
    } catch (err) {
      toast(err.message, "error");
    }
  }

  renderModeration() {
    const writers = this.writers();
    this.moderation.hidden = !currentUser() || this.tableId === null || writers.length === 0;
    if (this.moderation.hidden) return;
    const chosen = writers.find((u) => String(u.id) === this.who.value) ?? writers[0];
    const isMuted = (u) => this.muted.some((m) => m.id === u.id);
    patch(
      this.who,
      writers.map((u) =>
        h(
          "option",
          { value: u.id, "data-key": `who-${u.id}`, selected: u.id === chosen.id },
          isMuted(u) ? t("chat.mutedName", { name: u.name }) : u.name,
        ),
      ),
    );
    this.who.value = String(chosen.id);
    const muted = this.muted.map((u) => u.name);
    patch(
      this.moderation,
      h(
        "div",
        { class: "row chat-moderate", "data-key": "moderate" },
        h("label", { for: "chat-who" }, t("chat.who")),
        this.who,
        h(
          "button",
          {
            type: "button",
            "data-key": "chat-mute",
            onclick: () => this.toggleMute(chosen),
          },
          t(isMuted(chosen) ? "chat.unmute" : "chat.mute"),
        ),
        h(
          "button",
          {
            type: "button",
            "data-key": "chat-report",
            "aria-expanded": this.reporting ? "true" : "false",
            "aria-controls": "chat-report-form",
            onclick: () => {
              this.reporting = !this.reporting;
              this.render();
              if (this.reporting) this.reason.focus();
            },
          },
          t("chat.report"),
        ),
      ),
      muted.length
        ? h("p", { class: "muted small", "data-key": "muted-list" }, t("chat.mutedList", { names: muted.join(", ") }))
        : null,
      this.reporting
        ? h(
            "form",
            {
              id: "chat-report-form",
              class: "chat-report",
              "data-key": "report-form",
              "aria-label": t("chat.reportTitle", { name: chosen.name }),
              onsubmit: (e) => {
                e.preventDefault();
                this.sendReport(chosen);
              },
            },
            h("p", { class: "small" }, t("chat.reportHelp", { name: chosen.name })),
            h("label", { for: "chat-reason" }, t("chat.reason")),
            this.reason,
            h(
              "div",
              { class: "row" },
              h("button", { type: "submit", class: "primary", "data-key": "chat-report-send" }, t("chat.reportSend")),
              h(
                "button",
                {
                  type: "button",
                  "data-key": "chat-report-cancel",
                  onclick: () => {
                    this.reporting = false;
                    this.render();
                  },
                },
                t("chat.cancel"),
              ),
            ),
          )
        : null,
    );
  }

  setMessages(list) {
    this.messages = [...list];
    this.renderList();
    this.renderModeration();
  }

  add(message) {
    if (this.messages.some((m) => m.id === message.id)) return;
    const newWriter = !this.messages.some((m) => m.user.id === message.user.id);
    this.messages = [...this.messages, message];
    this.renderList();
    if (newWriter) this.renderModeration();
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
    const muted = new Set(this.muted.map((u) => u.id)); // lines shown before the mute go at once
    patch(this.list, chatList(this.messages.filter((m) => !muted.has(m.user.id))));
    if (atBottom) this.list.scrollTop = this.list.scrollHeight;
  }

  render() {
    patch(this.title, t("chat.title"));
    patch(this.label, t(this.channel === "players" ? "chat.labelPlayers" : "chat.labelSpectators"));
    patch(this.button, t("chat.send"));
    this.form.hidden = !this.writable;
    this.renderList();
    this.renderModeration();
  }
}
