// The panels a finished round or game is shown in, on a table page and drawn the same way in the
// replay and the tutorial: the round summary's frame, the scores per round, the winners in words and
// the results with places, totals and rating changes.
import { nameTag } from "./games/common.js";
import { h } from "./dom.js";
import { joinNames, t } from "./i18n.js";
import { seatLabel } from "./tables.js";

// The last finished round (final board and each seat's breakdown, drawn by the game module) in a
// panel that stays until the person closes it or makes their next move.
export function roundSummary(content, round, onClose) {
  return h(
    "section",
    {
      class: "round-summary panel",
      "data-testid": "round-summary",
      "aria-label": t("table.summaryTitle", { n: round }),
    },
    h(
      "header",
      { class: "row" },
      h("h2", {}, t("table.summaryTitle", { n: round })),
      onClose
        ? h(
            "button",
            { type: "button", class: "link", "data-key": "close-summary", onclick: onClose },
            "✕ ",
            t("table.close"),
          )
        : null,
    ),
    content,
  );
}

// Totals per seat, with each finished round's scores, and the winners marked. In the side column
// (300 px) a long game's rounds scroll sideways inside the panel, a region the keyboard reaches,
// rather than spill over its edge; a seat's dot stays on the line of its name.
export function scoreTable(view, names, module) {
  const rounds = view.round_scores || [];
  const label = module?.scoreLabel ? module.scoreLabel() : t("table.score");
  return h(
    "div",
    {
      class: "table-scroll",
      tabindex: "0",
      role: "region",
      "aria-label": t("table.scores"),
      "data-key": "scores-scroll",
    },
    scoreRows(view, names, rounds, label),
  );
}

function scoreRows(view, names, rounds, label) {
  return h(
    "table",
    { class: "scores", "data-testid": "scores", "data-key": "scores" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, t("table.player")),
        rounds.map((_, r) =>
          h("th", { scope: "col", title: t("table.round", { n: r + 1 }) }, t("table.roundShort", { n: r + 1 })),
        ),
        h("th", { scope: "col" }, label),
      ),
    ),
    h(
      "tbody",
      {},
      names.map((_, seat) =>
        h(
          "tr",
          { class: [view.winners?.includes(seat) ? "winner" : null, view.seat === seat ? "me" : null] },
          h(
            "th",
            { scope: "row" },
            h(
              "span",
              { class: "who" },
              h("span", { class: "pc-dot", style: { "--pc": `var(--p${seat})` } }),
              nameTag(names, seat),
            ),
          ),
          rounds.map((row) => h("td", {}, fmt(row[seat]))),
          h("td", { class: "total" }, fmt(view.scores[seat])),
        ),
      ),
    ),
  );
}

// Who won, in words: "You win!" to the one winner reading it, "You share the win with Bo!" to one
// of several (the reader is addressed, not listed as "Bo and you").
export function winnersLine(view, names) {
  const winners = view.winners || [];
  const others = joinNames(winners.filter((s) => s !== view.seat).map((s) => names[s]));
  if (winners.includes(view.seat))
    return winners.length > 1 ? t("table.winners.you", { names: others }) : t("table.winner.you");
  return t(winners.length > 1 ? "table.winners" : "table.winner", { names: others });
}

// `table` (optional): the table, so the people's names link to their pages.
export function resultsPanel(view, results, names, id, table = null) {
  const winners = view.winners || [];
  const places = results?.places ? results.places : null;
  const order = names.map((_, s) => s);
  if (places) order.sort((a, b) => places[a] - places[b]);
  const ratings = results?.ratings ? results.ratings : [];
  return h(
    "div",
    { class: "results-inner" },
    h("h2", { tabindex: "-1", "data-key": "results-title" }, t("table.over")),
    h("p", { class: "winners" }, "★ ", winnersLine(view, names)),
    h(
      "table",
      { class: "scores" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", {}, t("table.place")),
          h("th", {}, t("table.player")),
          h("th", {}, t("table.total")),
          ratings.length ? h("th", {}, t("account.rating")) : null,
        ),
      ),
      h(
        "tbody",
        {},
        order.map((seat) => {
          const rating = ratings.find((r) => r.seat === seat);
          return h(
            "tr",
            { class: winners.includes(seat) ? "winner" : null },
            h("td", {}, places ? places[seat] : winners.includes(seat) ? 1 : ""),
            h(
              "th",
              { scope: "row" },
              h("span", { class: "pc-dot", style: { "--pc": `var(--p${seat})` } }),
              table ? seatLabel(table, seat) : nameTag(names, seat),
            ),
            h("td", {}, fmt(view.scores[seat])),
            ratings.length
              ? h("td", {}, rating ? `${Math.round(rating.before)} → ${Math.round(rating.after)}` : "")
              : null,
          );
        }),
      ),
    ),
    h(
      "p",
      { class: "row" },
      h("a", { class: "button primary", href: `/replay/${id}`, "data-testid": "replay-link" }, t("table.replayLink")),
      h("a", { class: "button", href: `/replay/${id}#review`, "data-testid": "review-link" }, t("review.panel.link")),
      h(
        "a",
        { class: "button", href: `/api/tables/${id}/record`, download: `nekobako-table-${id}.json` },
        t("table.downloadRecord"),
      ),
      h("a", { class: "button", href: "/" }, t("app.back")),
    ),
  );
}

function fmt(x) {
  if (x === null || x === undefined) return "";
  return Number.isInteger(x) ? String(x) : String(Math.round(x * 100) / 100);
}
