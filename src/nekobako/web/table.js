// A table page: seats while the table is open, the game while it runs (drawn by games/<name>.js
// from the view the server sends over the WebSocket), the results and the replay link after.
// The parts: table_state.js (what the page knows, and the reducer that changes it),
// table_socket.js (the socket's frames turned into events), table_draw.js and table_seats.js
// (drawing), table_focus.js (where a keyboard player's focus goes), table_panels.js (the results
// and round panels, shared with the replay and the tutorial). This module puts them together and
// runs the effects: sending a move, the clock's tick, the modules loaded after the first drawing.
import * as api from "./api.js";
import { h, toast } from "./dom.js";
import { onLangChange, t } from "./i18n.js";
import { onUserChange } from "./session.js";
import {
  drawBoard,
  drawClock,
  drawHeader,
  drawNotFound,
  drawRematch,
  drawResults,
  drawSide,
  drawStatus,
  playedHere,
} from "./table_draw.js";
import { FocusKeeper } from "./table_focus.js";
import { openTableSocket } from "./table_socket.js";
import { initialState, reduce } from "./table_state.js";

// the panels other pages draw too, where they have always been found
export { resultsPanel, roundSummary, scoreTable, winnersLine } from "./table_panels.js";

const SEND_TIMEOUT_MS = 8000;

export function mount(root, { id }) {
  const page = new TablePage(root, id);
  return () => page.close();
}

class TablePage {
  constructor(root, id) {
    this.id = id;
    this.state = initialState(); // the facts, changed only by `dispatch` (table_state.js)
    this.module = null; // games/<name>.js
    this.ui = {}; // the game renderer's own selection state, kept across server messages
    this.sendingTimer = null;
    this.sidePending = false;
    this.parts = makeParts();
    root.append(this.parts.layout);
    this.focus = new FocusKeeper();
    // handed to the drawing functions and the rematch panel as they are
    this.act = (text) => this.sendMove(text);
    this.showRematch = (offer) => this.rematchOffered(offer);
    this.loadLater();
    this.socket = openTableSocket(this);
    this.tick = setInterval(() => drawClock(this), 1000);
    this.offLang = onLangChange(() => this.render());
    this.offUser = onUserChange(() => this.socket.close() || location.reload());
    this.render();
  }

  dispatch(event) {
    this.state = reduce(this.state, event);
  }

  // What the first drawing does not need comes after it (issue 17: fewer modules in a row before a
  // phone can play): the chat box, the log panel, the rematch panel. What they are told meanwhile
  // waits for them (`withChat`).
  loadLater() {
    this.later = { chat: null, chatWaiting: [], logPanel: null, rematchPanel: null };
    const later = this.later;
    Promise.all([import("./chat.js"), import("./log.js"), import("./rematch.js")])
      .then(([chat, log, rematch]) => {
        later.chat = new chat.ChatBox((text) => {
          if (!this.socket.chat(text)) {
            toast(t("app.offline"), "error");
            return false;
          }
          return true;
        }, this.id);
        this.parts.layout.append(later.chat.el);
        for (const fn of later.chatWaiting.splice(0)) fn(later.chat);
        later.logPanel = log.logPanel;
        later.rematchPanel = rematch.rematchPanel;
        this.render();
      })
      .catch((err) => toast(t("app.error", { message: err.message || err }), "error"));
  }

  withChat(fn) {
    return this.later.chat ? fn(this.later.chat) : this.later.chatWaiting.push(fn);
  }

  // A request of the person's (join, a bot, start, leave, reclaim): a refusal is said, and the
  // table's state is asked for again either way.
  async run(promise) {
    try {
      await promise;
    } catch (err) {
      toast(err.message, "error");
    }
    this.socket.sync();
  }

  async askHint(view) {
    try {
      const answer = await api.hint(this.id);
      this.dispatch({ type: "hint", view, text: t("review.hint.answer", { action: answer.action }) });
    } catch (err) {
      this.dispatch({ type: "hint", view, text: err.message });
    }
    this.renderStatus();
  }

  // Send one action (a string taken from `legal`).
  sendMove(text) {
    if (this.state.sending) return;
    if (!this.socket.act(text)) {
      toast(t("app.offline"), "error");
      return;
    }
    this.focus.sent();
    this.dispatch({ type: "sent" }); // a move also answers the round summary
    clearTimeout(this.sendingTimer);
    this.sendingTimer = setTimeout(() => {
      // no answer in time (lost connection): let the player try again
      if (this.state.sending) {
        this.dispatch({ type: "unanswered" });
        this.socket.sync();
        this.render();
      }
    }, SEND_TIMEOUT_MS);
    this.render();
  }

  rematchOffered(offer) {
    this.dispatch({ type: "rematch", offer });
    if (offer?.new_table && playedHere(this.state)) {
      location.hash = `#/table/${offer.new_table}`;
      return;
    }
    drawRematch(this);
  }

  showNotFound() {
    this.dispatch({ type: "notFound" });
    drawNotFound(this);
  }

  renderStatus() {
    drawStatus(this);
  }

  renderResults() {
    drawResults(this);
  }

  // The scores and the log are drawn in the next frame: the board and your hand (what a person acts
  // on) show first; several messages in one frame draw the side once.
  renderSideSoon() {
    if (this.sidePending) return;
    this.sidePending = true;
    requestAnimationFrame(() => {
      this.sidePending = false;
      const started = performance.now();
      // measured when drawn (not while the log panel's module is still on its way)
      if (drawSide(this)) performance.measure("nekobako:render-side", { start: started, end: performance.now() });
    });
  }

  render() {
    if (this.state.notFound) return this.showNotFound(); // e.g. the language switched
    const { layout, resultsBox, board, header } = this.parts;
    const wasHere = layout.contains(document.activeElement);
    const overBefore = !resultsBox.hidden;
    drawHeader(this);
    drawStatus(this);
    drawResults(this);
    drawRematch(this);
    drawBoard(this);
    this.renderSideSoon();
    this.later.chat?.render();
    const overNow = !overBefore && !resultsBox.hidden;
    const where = { board, results: resultsBox, header };
    this.focus.next({ wasHere, overNow, playing: Boolean(this.state.view), sending: this.state.sending }, where);
  }

  close() {
    this.focus.close();
    clearInterval(this.tick);
    clearTimeout(this.sendingTimer);
    this.offLang();
    this.offUser();
    this.socket.close();
    document.title = "nekobako 猫箱";
  }
}

// The page's parts, each drawn by one function of table_draw.js.
function makeParts() {
  const header = h("header", { class: "table-header" });
  // drawn on every message, so not a live region: the announcer says what is new (announceNews)
  const status = h("div", { class: "turn-line", "data-testid": "turn" });
  const promptLine = h("p", { class: "prompt-line", "data-testid": "prompt" });
  const clockBox = h("div", { class: "clock", "data-testid": "clock" });
  const board = h("section", { class: "game-area", "data-testid": "game" });
  const side = h("aside", { class: "side" });
  const resultsBox = h("section", { class: "results", "data-testid": "results", hidden: true });
  const rematchBox = h("div", { class: "rematch-box", hidden: true });
  const layout = h(
    "div",
    { class: "table-page" },
    header,
    h("div", { class: "status-bar" }, status, clockBox),
    promptLine,
    resultsBox,
    rematchBox,
    h("div", { class: "table-body" }, board, side),
  );
  return { header, status, promptLine, clockBox, board, side, resultsBox, rematchBox, layout };
}
