// The replay viewer: step through a finished table move by move, every hand visible. The record
// (GET /api/tables/{id}/record) gives the moves; the position after each step is the server's
// full view (GET /api/tables/{id}/replay?step=N) — the client re-implements no rule, so it never
// computes a position itself.
import * as api from "./api.js";
import { CHANCE } from "./games/common.js";
import { loadGame } from "./games/index.js";
import { h, patch, toast } from "./dom.js";
import { onLangChange, t } from "./i18n.js";
import { phaseSection, rulesButton } from "./rules.js";
import { logPanel } from "./log.js";
import { roundSummary, scoreTable } from "./table_panels.js";
import { seatNames } from "./tables.js";
import { buildLog } from "./words.js";
import { chatList } from "./chat.js";
import { reviewPanel } from "./review.js";

const PLAY_MS = 700;
const ROUND_END = new Set(["round_scored", "gem_lost", "game_over"]);

// "start N" (who begins) has no line in the log, where an engine event says it; the move list
// still names it in words rather than notation.
function startWords(game, text, names) {
  const m = text.match(/^start (\d+)$/);
  return m ? t(`${game}.act.start`, { who: names[Number(m[1])] ?? m[1] }) : null;
}

export function mount(root, { id }) {
  const page = {
    table: null,
    record: null,
    info: null,
    module: null,
    step: 0,
    views: new Map(),
    playing: null,
    stepsAvailable: true,
    error: null,
    chat: [], // the table's chat, both channels; each message shows from the step it was written at
  };
  const header = h("header", { class: "table-header" });
  const bar = h("div", { class: "replay-bar", role: "toolbar", "aria-label": t("replay.move") });
  const board = h("section", { class: "game-area", "data-testid": "replay-board" });
  const side = h("aside", { class: "side" });
  const pageBox = h("div", { class: "table-page replay" }, header, bar, h("div", { class: "table-body" }, board, side));
  root.append(pageBox);
  let review = null; // the review panel, once the table is known (web/review.js)

  const total = () => (page.record ? page.record.actions.length : 0);
  const names = () => namesOf(page);
  const renderBar = () => drawBar(bar, page, total(), { go, togglePlay });

  async function viewAt(step) {
    if (page.views.has(step)) return page.views.get(step);
    if (step === total() && page.record.final) return page.record.final;
    if (!page.stepsAvailable) return null;
    try {
      const answer = await api.replayStep(id, step);
      const view = answer.view || answer;
      page.views.set(step, view);
      return view;
    } catch (err) {
      if (err.status === 404 || err.status === 405) page.stepsAvailable = false;
      else toast(err.message, "error");
      return null;
    }
  }

  async function go(step) {
    const n = Math.max(0, Math.min(total(), step));
    page.step = n;
    renderBar();
    side.querySelectorAll(".move-list li").forEach((li, i) => {
      li.classList.toggle("current", i + 1 === n);
    });
    const view = await viewAt(n);
    if (page.step !== n) return; // a later click won
    page.view = view; // the position shown (its phase picks the rules section)
    renderBoard(view);
  }

  function renderBoard(view) {
    if (!view) {
      if (page.stepsAvailable) {
        patch(board, h("p", { class: "muted" }, t("app.loading")));
        drawSide(side, page, null, go);
        return;
      }
      patch(board, noPosition(page));
      drawSide(side, page, null, go);
      return;
    }
    const ctx = {
      names: names(),
      me: null,
      act: () => {},
      busy: true,
      ui: {},
      rerender: () => {},
      replay: true,
      fresh: false,
    };
    // the round summary at the step a round ends (and the step after, its deal), as at the table
    const shown = view.history ? view.history.length : 0;
    const ended = (view.events || []).some((e) => e.at >= shown - 1 && ROUND_END.has(e.kind));
    const summary =
      view.last_round && ended && page.module.summary
        ? roundSummary(page.module.summary(view, ctx), view.last_round.round, null)
        : null;
    patch(board, summary, page.module.render(view, ctx));
    drawSide(side, page, view, go);
  }

  function togglePlay() {
    if (page.playing) {
      clearInterval(page.playing);
      page.playing = null;
    } else {
      if (page.step >= total()) go(0);
      page.playing = setInterval(() => {
        if (page.step >= total()) return togglePlay();
        go(page.step + 1);
      }, PLAY_MS);
    }
    renderBar();
  }

  function onKey(e) {
    if (!page.record || e.target.closest("input, select, textarea")) return;
    if (e.key === "ArrowRight") go(page.step + 1);
    else if (e.key === "ArrowLeft") go(page.step - 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(total());
    else if (e.key === " " && !e.target.closest("button")) togglePlay();
    else return;
    e.preventDefault();
  }

  async function load() {
    try {
      page.table = await api.table(id);
      drawHeader(header, page, id);
      page.module = await loadGame(page.table.game);
      page.info = await api.gameInfo(page.table.game).catch(() => null);
      page.record = await api.record(id);
      page.chat = await api.chat(id).catch(() => []);
      await go(total());
      review = reviewPanel({ id, table: page.table, names: names(), onGo: (ply) => go(ply) });
      pageBox.append(review);
      if (location.hash === "#review") review.scrollIntoView();
    } catch (err) {
      page.error = err.status === 409 ? t("replay.unavailable") : t("app.error", { message: err.message });
      renderBar();
    }
  }

  drawHeader(header, page, id);
  renderBar();
  load();
  document.addEventListener("keydown", onKey);
  const offLang = onLangChange(() => {
    drawHeader(header, page, id);
    go(page.step);
    review?.refresh();
  });
  return () => {
    document.removeEventListener("keydown", onKey);
    clearInterval(page.playing);
    review?.stop();
    offLang();
  };
}

// names as on the table page (seat names; "Bot 1 (random)"), else the record's names
function namesOf(page) {
  return page.table?.seats ? seatNames(page.table) : page.record?.names ? page.record.names : [];
}

function drawHeader(header, page, id) {
  const tbl = page.table;
  patch(
    header,
    h("h1", {}, tbl ? t("replay.title", { game: t(tbl.title), id }) : t("app.loading")),
    h(
      "p",
      { class: "muted small" },
      t("replay.keys"),
      " · ",
      h("a", { href: "/" }, t("app.back")),
      tbl ? " · " : null,
      tbl ? rulesButton(tbl.game, () => phaseSection(page.view)) : null,
    ),
  );
}

// First, previous, play / pause, next, last, the slider and where the replay is.
function drawBar(bar, page, last, { go, togglePlay }) {
  if (!page.record)
    return patch(bar, page.error ? h("p", { class: "error" }, page.error) : h("p", {}, t("app.loading")));
  const n = page.step;
  patch(
    bar,
    h(
      "button",
      { type: "button", "data-key": "first", onclick: () => go(0), disabled: n === 0 },
      "« ",
      t("replay.first"),
    ),
    h(
      "button",
      { type: "button", "data-key": "prev", onclick: () => go(n - 1), disabled: n === 0 },
      "◀ ",
      t("replay.prev"),
    ),
    h(
      "button",
      { type: "button", "data-key": "play", class: "primary", onclick: togglePlay },
      page.playing ? `❚❚ ${t("replay.pause")}` : `▶ ${t("replay.play")}`,
    ),
    h(
      "button",
      { type: "button", "data-key": "next", onclick: () => go(n + 1), disabled: n === last },
      t("replay.next"),
      " ▶",
    ),
    h(
      "button",
      { type: "button", "data-key": "last", onclick: () => go(last), disabled: n === last },
      t("replay.last"),
      " »",
    ),
    h("input", {
      type: "range",
      min: 0,
      max: last,
      value: n,
      "data-key": "slider",
      "aria-label": t("replay.move"),
      oninput: (e) => go(Number(e.target.value)),
    }),
    h(
      "span",
      { class: "position", "data-testid": "replay-position" },
      n === 0 ? t("replay.start") : t("replay.step", { n, total: last }),
    ),
  );
}

// The server gives no position for this step: say so, and show what the record itself tells up
// to this move (its moves and the events they caused), without computing a position.
function noPosition(page) {
  const final = page.record.final;
  const upTo = page.step;
  const partial = final && {
    ...final,
    history: (final.history || []).slice(0, upTo),
    events: (final.events || []).filter((e) => e.at <= upTo),
  };
  const log = partial ? buildLog(partial, page.info, namesOf(page), page.module).reverse() : [];
  return [
    h("p", { class: "banner notice", "data-testid": "replay-no-position" }, t("replay.noPositions")),
    h(
      "ul",
      { class: "log panel" },
      log.map((e) => h("li", { class: `log-${e.kind}` }, e.text)),
    ),
  ];
}

// The scores and the log at the step shown, the list of moves (each a button to its position) and
// the chat written up to it.
function drawSide(side, page, view, go) {
  const nm = namesOf(page);
  const moves = page.record ? page.record.actions : [];
  const items = moves.map((entry, i) => {
    const m = entry.match(/^\s*(\d+)\s*:\s*(.*)$/);
    const seat = m ? Number(m[1]) : CHANCE;
    const text = m ? m[2] : entry;
    const words = page.module.describeAction(seat, text, nm) || startWords(page.table.game, text, nm) || text;
    return h(
      "li",
      { class: i + 1 === page.step ? "current" : null },
      h("button", { type: "button", "data-key": `move-${i + 1}`, onclick: () => go(i + 1) }, words),
    );
  });
  const log = view ? buildLog(view, page.info, nm, page.module) : [];
  patch(
    side,
    view ? h("h2", {}, t("table.scores")) : null,
    view ? scoreTable(view, nm, page.module) : null,
    log.length ? h("h2", {}, t("table.log")) : null,
    log.length ? logPanel(log, { current: page.step - 1, previous: null }) : null,
    h("h2", {}, t("replay.move")),
    h("ol", { class: "move-list", "data-testid": "move-list", "data-key": "moves" }, items),
    h("h2", {}, t("chat.title")),
    chatList(page.chat.filter((m) => m.seq <= page.step)),
  );
  // keep the current move, and its line in the log, in sight inside their lists (without
  // scrolling the page): the lists are patched, so they are where the reader left them
  for (const [list, current] of [
    [side.querySelector(".move-list"), side.querySelector(".move-list li.current")],
    [side.querySelector(".log"), side.querySelector(".log li.current")],
  ])
    if (list && current)
      list.scrollTop += current.getBoundingClientRect().top - list.getBoundingClientRect().top - list.clientHeight / 2;
}
