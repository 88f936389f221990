// Drawing a table page from its state (table_state.js): the header, the turn and prompt lines, the
// clock, the board (the seats before the start: table_seats.js; then the game's own renderer), the
// scores and log beside it, the results and the rematch panel, and what a screen reader is told.
// Each function patches one part of the page (`page.parts`, made by table.js) from `page.state`;
// none changes the state but through `page.dispatch`.
import * as api from "./api.js";
import { announce, h, patch } from "./dom.js";
import { joinNames, paren, sentence, sentences, t } from "./i18n.js";
import { phaseSection, rulesButton } from "./rules.js";
import { clockText, formatDuration, seatName, seatNames, statusLabel } from "./tables.js";
import { resultsPanel, roundSummary, scoreTable, winnersLine } from "./table_panels.js";
import { seatManager } from "./table_seats.js";
import { currentUser } from "./session.js";
import { buildLog, describeMessage } from "./words.js";

// The seats' names as the game and the log say them.
export function names(state) {
  const n = state.view ? state.view.players : state.table ? state.table.seats.length : 0;
  return seatNames(state.table, n);
}

const isMine = (state, view) =>
  Boolean(
    view && !view.over && Array.isArray(view.to_move) && view.to_move.includes(state.table?.you) && view.legal.length,
  );

// What a screen reader hears after a message, once: the game's news (a trick or a round won, by
// whom), then "your turn" when the move comes to this person, or the winners when the game ends.
export function announceNews(page, before) {
  const view = page.state.view;
  if (!view) return;
  const nm = names(page.state);
  const said = before && page.module?.news ? page.module.news(before, view, nm) : [];
  if (view.over && !before?.over) {
    said.push(sentence(t("table.over")), winnersLine(view, nm));
  } else if (isMine(page.state, view) && !isMine(page.state, before)) said.push(t("table.yourTurn"));
  announce(sentences(said));
}

// No such table: say so everywhere on the page (not "connecting…" forever).
export function drawNotFound(page) {
  const { board, header, status, clockBox } = page.parts;
  page.withChat((box) => (box.el.hidden = true));
  patch(board, h("p", { class: "error" }, t("app.notFound")), h("a", { href: "/" }, t("app.back")));
  patch(header, h("h1", {}, t("lobby.tableN", { id: page.id })));
  patch(status, t("app.notFound"));
  patch(clockBox);
}

// A person a bot replaced (left, or timed out too often) may take the seat back.
function reclaimButton(page, tbl) {
  const user = currentUser();
  const mine = user && tbl?.status === "running" && tbl.seats.find((s) => s.kind === "bot" && s.user?.id === user.id);
  if (!mine) return null;
  return [
    " · ",
    h("span", { class: "replaced-you" }, t("table.replacedYou")),
    " ",
    h(
      "button",
      { type: "button", class: "primary", "data-key": "reclaim", onclick: () => page.run(api.reclaim(page.id)) },
      t("table.reclaim"),
    ),
  ];
}

// A seated player may leave a running game (after a confirmation): a bot plays the seat to the end.
function leaveButton(page, tbl, me) {
  if (me === null || tbl.status !== "running" || tbl.seats[me].replaced) return [null, null];
  const leave = () => {
    if (window.confirm(t("table.leaveConfirm"))) page.run(api.leave(page.id));
  };
  return [
    " · ",
    h("button", { type: "button", class: "link", "data-key": "leave-running", onclick: leave }, t("table.leaveTable")),
  ];
}

export function drawHeader(page) {
  const tbl = page.state.table;
  const title = tbl ? t("table.title", { game: t(tbl.title), id: tbl.id }) : t("table.connecting");
  const me = tbl && tbl.you !== null && tbl.you !== undefined ? tbl.you : null;
  patch(
    page.parts.header,
    h("h1", { tabindex: "-1", "data-key": "title" }, title),
    h(
      "p",
      { class: "muted" },
      tbl ? statusLabel(tbl.status) : "",
      " · ",
      me === null ? t("table.spectator") : t("table.youAre", { name: seatName(tbl, me) }),
      " · ",
      h("a", { href: "/" }, t("app.back")),
      tbl ? " · " : null,
      tbl ? rulesButton(tbl.game, () => phaseSection(page.state.view)) : null,
      reclaimButton(page, tbl),
      ...(tbl ? leaveButton(page, tbl, me) : [null, null]),
    ),
  );
}

// Whose turn it is, in words, and whether it is the reader's.
function turnWords(state) {
  const view = state.view;
  const tbl = state.table;
  if (!state.connected && tbl) return { text: t("app.offline"), mine: false };
  if (!tbl) return { text: t("table.connecting"), mine: false };
  if (!view) return { text: t("table.waiting"), mine: false };
  if (view.over) return { text: t("table.over"), mine: false };
  if (view.to_move === "chance") return { text: t("table.chance"), mine: false };
  const seats = view.to_move;
  const mine = tbl.you !== null && seats.includes(tbl.you) && view.legal.length > 0;
  const nm = names(state);
  // several play at once (simultaneous Shut the Box): the reader is told it is their turn and
  // who else plays, never named among them in the third person
  const others = joinNames(seats.filter((s) => s !== tbl.you).map((s) => nm[s]));
  if (mine && seats.length === 1) return { text: t("table.yourTurn"), mine };
  if (mine) return { text: t("table.yourTurnWith", { names: others }), mine };
  if (seats.length === 1) return { text: t("table.turnOf", { name: nm[seats[0]] }), mine };
  return { text: t("table.turnOfMany", { names: joinNames(seats.map((s) => nm[s])) }), mine };
}

// The turn line, the prompt line (with the hint button at tables with hints), the page title and
// the clock.
export function drawStatus(page) {
  const { state, parts } = page;
  const view = state.view;
  const tbl = state.table;
  const { text, mine } = turnWords(state);
  const round = view && page.module?.roundText ? page.module.roundText(view) : "";
  const prompt = view && !view.over ? describeMessage(view.prompt, state.info, names(state), view.seat ?? null) : "";
  // hints (a table option, docs/review.md): the best move at your turn, asked for; shown until the next position
  const hintable = mine && tbl?.options?.hints;
  const hinted = hintable && state.hint && state.hint.view === view ? state.hint : null;
  patch(
    parts.promptLine,
    prompt ? h("span", { class: mine ? "mine" : null }, mine ? "▶ " : "", prompt) : null,
    hintable && !hinted
      ? h(
          "button",
          { type: "button", class: "hint-button", "data-key": "hint", onclick: () => page.askHint(view) },
          t("review.hint.ask"),
        )
      : null,
    hinted ? h("span", { class: "hint", role: "status", "data-testid": "hint" }, " ", hinted.text) : null,
  );
  parts.promptLine.hidden = !prompt;
  patch(
    parts.status,
    round ? h("span", { class: "round" }, round) : null,
    h("span", { class: ["turn", mine ? "mine" : null] }, text),
  );
  parts.status.classList.toggle("my-turn", mine);
  document.title = `${mine ? "● " : ""}${tbl ? `${t(tbl.title)} ${tbl.id}` : ""} — nekobako`;
  drawClock(page);
}

// Before the start: the clock's settings in words. During the game: the time left of each
// seat to move (counting down), the bank of the others (real time) and timeouts in a row.
export function drawClock(page) {
  const state = page.state;
  const clockBox = page.parts.clockBox;
  const clock = state.clock || state.table?.clock;
  if (!state.view) {
    patch(clockBox, state.table ? h("span", { class: "muted" }, clockText(state.table.clock)) : null);
    return;
  }
  if (!clock || clock.kind === "none" || state.view.over) {
    patch(clockBox, state.view.over ? null : h("span", { class: "muted" }, t("table.noClock")));
    return;
  }
  const now = Date.now() / 1000 + state.clockOffset;
  const nm = names(state);
  const deadlines = clock.deadlines || {};
  const banks = clock.banks || {};
  const missed = clock.missed || {};
  const seats = nm.map((_, seat) => String(seat)).filter((seat) => seat in deadlines || seat in banks);
  const items = seats.map((seat) => {
    const running = seat in deadlines;
    const left = running ? Math.max(0, deadlines[seat] - now) : banks[seat];
    return h(
      "span",
      { class: ["clock-item", running ? null : "idle", running && left < 10 ? "urgent" : null], "data-seat": seat },
      t("table.clockLeft", { name: nm[Number(seat)] ?? seat, time: formatDuration(left) }),
      missed[seat]
        ? h("span", { class: "missed" }, paren(t("table.clockMissed", { n: missed[seat], limit: clock.timeouts ?? 3 })))
        : null,
    );
  });
  patch(clockBox, items);
}

// The seats before the start; the game, drawn by its own module, while it runs and after.
export function drawBoard(page) {
  const { state, parts } = page;
  const board = parts.board;
  const view = state.view;
  const tbl = state.table;
  if (!tbl) return patch(board, h("p", {}, t("table.connecting")));
  if (!view) return patch(board, seatManager(page));
  if (!page.module) return patch(board, h("p", {}, t("app.loading")));
  const legalKey = (view.legal || []).join("|");
  if (page.ui.legalKey !== legalKey) page.ui = { legalKey };
  const fresh = board.dataset.seq !== String(state.seq); // first drawing of this position: animate
  const ctx = {
    names: names(state),
    me: tbl.you ?? null,
    act: page.act,
    busy: state.sending,
    ui: page.ui,
    rerender: () => drawBoard(page),
    replay: false,
    fresh,
  };
  board.dataset.seq = state.seq; // which server message this drawing shows (for tests and debugging)
  board.setAttribute("aria-busy", String(state.sending)); // a move of this seat is on its way, unanswered
  const last = view.last_round;
  const summary =
    last && last.round !== state.summaryClosed && page.module.summary
      ? roundSummary(page.module.summary(view, ctx), last.round, () => {
          page.dispatch({ type: "closeSummary", round: last.round });
          drawBoard(page);
        })
      : null;
  patch(board, summary, page.module.render(view, ctx)); // only what changed (dom.js)
}

// The scores and the log beside the board; false while there is nothing to draw there yet (the
// log panel's module still on its way).
export function drawSide(page) {
  const { state, parts } = page;
  const side = parts.side;
  const view = state.view;
  if (!view || !page.module || !page.later.logPanel) {
    patch(side);
    return false;
  }
  const nm = names(state);
  const entries = buildLog(view, state.info, nm, page.module, state.notices);
  const log = side.querySelector(".log");
  const atEnd = !log || log.scrollTop + log.clientHeight >= log.scrollHeight - 8; // a reader who scrolled back stays
  patch(
    side,
    h("h2", {}, t("table.scores")),
    h(
      "p",
      { class: "goal small", "data-testid": "goal" },
      describeMessage(view.goal, state.info, nm, view.seat ?? null),
    ),
    scoreTable(view, nm, page.module),
    h("h2", {}, t("table.log")),
    page.later.logPanel(entries, { previous: log }),
  );
  const kept = side.querySelector(".log");
  if (kept === log && atEnd) kept.scrollTop = kept.scrollHeight; // patched in place: newest line in sight
  side.dataset.seq = state.seq; // the message the scores and log show (a frame after the board: tests wait for it)
  return true;
}

export function drawResults(page) {
  const { state, parts } = page;
  const view = state.view;
  if (!view?.over) {
    parts.resultsBox.hidden = true;
    return;
  }
  parts.resultsBox.hidden = false;
  patch(parts.resultsBox, resultsPanel(view, state.results, names(state), page.id, state.table));
}

// Whoever played goes to the rematch's table once everyone has accepted.
export function playedHere(state) {
  const user = currentUser();
  return Boolean(user && state.table?.seats.some((s) => s.user?.id === user.id));
}

export function drawRematch(page) {
  const box = page.parts.rematchBox;
  box.hidden = !page.state.view?.over || !page.later.rematchPanel;
  if (box.hidden) return;
  patch(
    box,
    page.later.rematchPanel(page.id, page.state.rematch ?? null, {
      played: playedHere(page.state),
      me: currentUser()?.id,
      changed: page.showRematch,
    }),
  );
}
