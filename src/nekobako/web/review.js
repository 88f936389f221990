// The review of a finished game on the replay page (docs/review.md): pick a seat, ask the server
// to rate its decisions (POST /api/tables/{id}/reviews/{seat}), follow the progress (GET, polled),
// then draw the seat's value over the game as an SVG chart with each decision marked and labelled.
// The words come from the catalogue (review.*); the numbers from the server: nothing is rated here.
import * as api from "./api.js";
import { h, patch } from "./dom.js";
import { joinList, labelled, sentences, t } from "./i18n.js";
import { currentUser } from "./session.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 640;
const HEIGHT = 200;
const PAD = { left: 40, right: 12, top: 14, bottom: 22 };
const POLL_MS = 1000;
const LABELS = ["best", "good", "inaccuracy", "mistake", "blunder"];
const SIGNS = { inaccuracy: "?!", mistake: "?", blunder: "??" }; // as chess annotates them

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const child of children)
    if (child !== null) el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return el;
}

const percent = (v) => `${Math.round(v * 100)}%`;

function decisionText(d) {
  const label = t(`review.label.${d.label}`);
  const base = t("review.panel.decision", { n: d.ply + 1, played: d.chosen, label });
  return d.best === d.chosen ? base : sentences([base, t("review.panel.bestWas", { best: d.best })]);
}

// The seat's value before each decision (the best move's value) as a line; each decision a dot
// coloured by its label, with a drop to what the chosen move was worth where it lost value.
export function reviewChart(review) {
  const ds = review.decisions;
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const x = (i) => PAD.left + (ds.length === 1 ? innerW / 2 : (i * innerW) / (ds.length - 1));
  const y = (v) => PAD.top + (1 - Math.max(0, Math.min(1, v))) * innerH;
  const grid = [1, 0.5, 0].map((v) =>
    svg(
      "g",
      { class: "chart-grid" },
      svg("line", { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(v), y2: y(v) }),
      svg("text", { x: PAD.left - 6, y: y(v) + 4, "text-anchor": "end" }, percent(v)),
    ),
  );
  const line = ds.map((d, i) => `${x(i).toFixed(1)},${y(d.value).toFixed(1)}`).join(" ");
  const marks = ds.map((d, i) =>
    svg(
      "g",
      { class: `review-mark mark-${d.label}`, "data-label": d.label, "data-ply": d.ply },
      d.loss > 0 ? svg("line", { x1: x(i), x2: x(i), y1: y(d.value), y2: y(d.chosen_value), class: "drop" }) : null,
      svg("circle", { cx: x(i), cy: y(d.value), r: SIGNS[d.label] ? 5 : 3 }),
      SIGNS[d.label] ? svg("text", { x: x(i), y: y(d.value) - 8, "text-anchor": "middle" }, SIGNS[d.label]) : null,
      svg("title", {}, decisionText(d)),
    ),
  );
  const counts = LABELS.filter((l) => review.counts[l]).map((l) => labelled(t(`review.label.${l}`), review.counts[l]));
  return svg(
    "svg",
    {
      class: "review-chart",
      viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
      role: "img",
      "aria-label": t("review.panel.chart", { n: ds.length, counts: joinList(counts) }),
      "data-testid": "review-chart",
      "data-decisions": ds.length,
    },
    ...grid,
    svg("polyline", { points: line, class: "chart-line", fill: "none" }),
    ...marks,
  );
}

// The panel: a seat picker, the button that asks for a review, its progress, then the chart, the
// accuracy and the decisions that lost value (each a button that shows the position before it).
export function reviewPanel({ id, table, names, onGo }) {
  const root = h("section", { class: "review panel", id: "review", "data-testid": "review" });
  const me = currentUser();
  const own = table.seats.findIndex((s) => me && s.user && s.user.id === me.id);
  const state = { seat: Math.max(own, 0), body: null, error: null, timer: null, stopped: false };

  async function load() {
    clearTimeout(state.timer);
    try {
      state.body = await api.review(id, state.seat);
      state.error = null;
    } catch (err) {
      state.error = err.message;
    }
    render();
    if (state.body?.status === "running" && !state.stopped) state.timer = setTimeout(load, POLL_MS);
  }

  async function ask() {
    try {
      state.body = await api.startReview(id, state.seat);
      state.error = null;
    } catch (err) {
      state.error = err.message;
    }
    render();
    if (state.body?.status === "running") state.timer = setTimeout(load, POLL_MS);
  }

  function progress(body) {
    const { done, total } = body;
    return h(
      "div",
      { class: "review-progress", role: "status" },
      h("progress", { max: Math.max(total, 1), value: done, "aria-label": t("review.panel.computing") }),
      " ",
      total ? t("review.panel.progress", { done, total }) : t("review.panel.computing"),
    );
  }

  function result(review) {
    if (!review.decisions.length) return h("p", {}, t("review.panel.none"));
    const worse = review.decisions.filter((d) => SIGNS[d.label]);
    const method =
      review.method === "solver" ? t("review.panel.solver") : t("review.panel.search", { n: review.iterations });
    return h(
      "div",
      {},
      h(
        "p",
        { class: "review-accuracy", "data-testid": "review-accuracy" },
        t("review.panel.accuracy", { accuracy: review.accuracy.toFixed(1) }),
        " · ",
        method,
      ),
      reviewChart(review),
      h("p", { class: "muted small" }, joinList(LABELS.map((l) => labelled(t(`review.label.${l}`), review.counts[l])))),
      worse.length
        ? h(
            "ul",
            { class: "review-list" },
            worse.map((d) =>
              h(
                "li",
                { class: `mark-${d.label}` },
                h("button", { type: "button", class: "link", onclick: () => onGo(d.ply) }, decisionText(d)),
              ),
            ),
          )
        : null,
    );
  }

  function render() {
    const body = state.body;
    const picker = h(
      "label",
      {},
      t("review.panel.seat"),
      " ",
      h(
        "select",
        {
          "data-key": "review-seat",
          onchange: (e) => {
            state.seat = Number(e.target.value);
            state.body = null;
            load();
          },
        },
        names.map((name, seat) => h("option", { value: seat, selected: seat === state.seat }, name)),
      ),
    );
    const canAsk = currentUser() && body && (body.status === "none" || body.status === "failed");
    patch(
      root,
      h("h2", {}, t("review.panel.title")),
      h("p", { class: "muted small" }, t("review.panel.about")),
      h("div", { class: "row" }, picker),
      state.error ? h("p", { class: "error", role: "alert" }, state.error) : null,
      body?.status === "failed" ? h("p", { class: "error" }, t("review.panel.failed")) : null,
      body?.status === "none" && !currentUser() ? h("p", {}, t("review.panel.logIn")) : null,
      canAsk
        ? h(
            "button",
            { type: "button", class: "primary", "data-key": "review-start", onclick: ask },
            t("review.panel.start"),
          )
        : null,
      body?.status === "running" ? progress(body) : null,
      body?.status === "done" ? result(body.review) : null,
    );
  }

  render();
  load();
  root.refresh = render; // the page's language changed
  root.stop = () => {
    state.stopped = true;
    clearTimeout(state.timer);
  };
  return root;
}
