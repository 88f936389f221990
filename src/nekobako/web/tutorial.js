// A tutorial (/tutorial/GAME): a first game against scripted bots on the real table UI, with the
// step's text in a panel that points at the part of the table concerned. The server applies the
// tutorial driver (POST /api/tutorials/GAME: the steps done and a move tried), so this page holds no
// rule: it draws the learner's view with the game's renderer and passes each move on. The steps
// done are kept in localStorage, so the page opens where it was left.
import * as api from "./api.js";
import { loadGame } from "./games/index.js";
import { announce, h, patch, toast } from "./dom.js";
import { onLangChange, say, t } from "./i18n.js";
import { rulesButton } from "./rules.js";
import { roundSummary, scoreTable } from "./table_panels.js";
import { logPanel } from "./log.js";
import { buildLog } from "./words.js";

// Where each part a script may point at is drawn: the first selector found in the page wins.
const POINTS = {
  controls: ["[data-testid=game] [data-testid=controls]"],
  dice: ["[data-testid=dice]", ".dice-row"],
  tiles: [".tiles"],
  hand: ["[data-testid=hand]"],
  hell: [".hell-area.mine"],
  board: [".research", "[data-testid=game]"],
  trick: ["[data-testid=trick]", "[data-testid=table-combo]"],
  players: ["[data-testid=players]"],
  scores: ["[data-testid=round-summary]", "[data-testid=scores]"],
  table: ["[data-testid=game]"],
};
const TEXT_ID = "tutorial-text";

export function mount(root, { game }) {
  const saved = `nekobako.tutorial.${game}`;
  const page = {
    step: Number(localStorage.getItem(saved)) || 0,
    answer: null, // the server's last answer: {seat, lesson, view, refused}
    refusal: null, // why the last try was not played, in words
    module: null,
    info: null,
    ui: {},
    busy: false,
    error: null,
  };
  const title = h("h1", { tabindex: "-1" });
  const header = h("header", { class: "table-header" }, title);
  const panel = h("section", {
    class: "tutorial-panel panel",
    "data-testid": "tutorial",
    "aria-labelledby": "tutorial-step",
  });
  const board = h("section", { class: "game-area", "data-testid": "game", "aria-label": t("tutorial.table") });
  const side = h("aside", { class: "side" });
  root.append(
    h("div", { class: "table-page tutorial" }, header, panel, h("div", { class: "table-body" }, board, side)),
  );

  async function ask(move) {
    page.busy = true;
    render();
    try {
      const answer = await api.tutorial(game, page.step, move);
      page.error = null;
      const moved = move !== undefined && !answer.refused;
      page.refusal = answer.refused ? say(answer.refused) : null;
      page.answer = answer;
      if (moved || move === undefined) page.ui = {};
      page.step = answer.lesson.step;
      localStorage.setItem(saved, String(page.step));
      page.busy = false;
      render();
      if (answer.refused) announce(page.refusal);
      else if (moved) {
        announce(say(answer.lesson.text));
        // the control used may be gone with the step: the step's words are where the focus goes on
        if (!document.activeElement || document.activeElement === document.body)
          panel.querySelector(`#${TEXT_ID}`)?.focus();
      }
    } catch (err) {
      page.busy = false;
      page.error = err.message;
      render();
      if (move !== undefined) toast(err.message, "error");
    }
  }

  function restart() {
    page.step = 0;
    localStorage.removeItem(saved);
    ask();
  }

  function renderPanel() {
    const answer = page.answer;
    if (!answer) return patch(panel, h("p", { class: page.error ? "error" : "muted" }, page.error || t("app.loading")));
    const lesson = answer.lesson;
    panel.dataset.step = String(lesson.step); // steps done: where a reload resumes
    patch(
      panel,
      h(
        "h2",
        { id: "tutorial-step" },
        t("tutorial.step", { step: Math.min(lesson.step + 1, lesson.steps), steps: lesson.steps }),
      ),
      h("p", { id: TEXT_ID, class: "tutorial-text", tabindex: "-1", "data-testid": "tutorial-text" }, say(lesson.text)),
      lesson.expected
        ? h("p", { class: "tutorial-expected" }, t("tutorial.expected", { move: lesson.expected }))
        : null,
      page.refusal
        ? h(
            "p",
            { class: "error tutorial-refusal", "data-testid": "tutorial-refusal" },
            t("tutorial.notThis", { reason: page.refusal }),
          )
        : null,
      h(
        "div",
        { class: "row wrap" },
        h(
          "button",
          { type: "button", "data-key": "tutorial-show", class: "primary", onclick: () => show(root, page) },
          t("tutorial.show"),
        ),
        rulesButton(game, lesson.rules, t("tutorial.rules")),
        h("button", { type: "button", "data-key": "tutorial-restart", onclick: restart }, t("tutorial.restart")),
        lesson.over
          ? h("a", { class: "button", href: "/", "data-key": "tutorial-lobby" }, t("tutorial.toLobby"))
          : null,
      ),
    );
  }

  function renderBoard() {
    const answer = page.answer;
    if (!answer || !page.module) return patch(board, h("p", { class: "muted" }, t("app.loading")));
    const view = answer.view;
    const ctx = {
      names: names(page),
      me: answer.seat,
      act: (text) => ask(text),
      busy: page.busy || answer.lesson.over,
      ui: page.ui,
      rerender: render,
      replay: false,
      fresh: false,
    };
    const summary =
      answer.lesson.over && view.last_round && page.module.summary
        ? roundSummary(page.module.summary(view, ctx), view.last_round.round, null)
        : null;
    patch(board, summary, page.module.render(view, ctx));
  }

  function render() {
    patch(title, t("tutorial.title", { game: t(`game.${game}`) }));
    document.title = t("tutorial.title", { game: t(`game.${game}`) });
    renderPanel();
    renderBoard();
    drawSide(side, page);
    markPoint(root, page);
  }

  render();
  Promise.all([loadGame(game), api.gameInfo(game).catch(() => null)])
    .then(([module, info]) => {
      page.module = module;
      page.info = info;
      return ask();
    })
    .catch((err) => {
      page.error = t("app.error", { message: err.message || err });
      render();
    });
  const offLang = onLangChange(render);
  return () => offLang();
}

// The seats' names: "you" for the learner, the bots by seat.
function names(page) {
  const players = page.answer?.view.players || 0;
  const list = Array.from({ length: players }, (_, s) =>
    s === page.answer.seat ? t("tutorial.you") : t("tutorial.bot", { seat: s }),
  );
  list.bots = Object.fromEntries(list.map((_, s) => [s, s !== page.answer.seat]));
  return list;
}

// The part of the table the step is about.
function pointed(root, page) {
  const point = page.answer?.lesson.point;
  for (const selector of POINTS[point] || []) {
    const found = root.querySelector(selector);
    if (found) return found;
  }
  return null;
}

// "Show me on the table": the step's part scrolled into view, with the focus on it.
function show(root, page) {
  const target = pointed(root, page);
  if (!target) return;
  target.scrollIntoView({ block: "center" });
  const focusable = target.matches("button, [tabindex]")
    ? target
    : target.querySelector("button:not(:disabled), [tabindex]");
  if (focusable) focusable.focus();
  else {
    target.setAttribute("tabindex", "-1");
    target.focus();
  }
}

function drawSide(side, page) {
  const view = page.answer?.view;
  if (!view || !page.module) return patch(side);
  const log = buildLog(view, page.info, names(page), page.module);
  patch(
    side,
    h("h2", {}, t("table.scores")),
    scoreTable(view, names(page), page.module),
    log.length ? h("h2", {}, t("table.log")) : null,
    log.length ? logPanel(log) : null,
  );
}

// The part of the step outlined, described by the step's words.
function markPoint(root, page) {
  for (const el of root.querySelectorAll(".tutorial-point")) {
    el.classList.remove("tutorial-point");
    el.removeAttribute("aria-describedby");
  }
  const target = pointed(root, page);
  if (target) {
    target.classList.add("tutorial-point");
    target.setAttribute("aria-describedby", TEXT_ID); // a screen reader hears the step's words there
  }
}
