// Pieces shared by the game renderers: dice with pips, player colour dots, name tags, the round
// breakdown table, and the frame of every game's describeAction (`describer`).
import { h } from "../dom.js";
import { joinNames, labelled, t, you } from "../i18n.js";

// The seat of chance (deals, dice) in views' `history` and `to_move` (engine.CHANCE).
export const CHANCE = -1;

// A game's `describeAction(seat, text, names, viewer)`: an action in the log's words, the seat's
// own moves in the second person for the reader at `viewer` ("You roll two dice").
// `phrase(words, who, say, text)` words the action's notation `text` split into `words` — `who`
// the seat's name, `say(key, params)` a catalogue entry, in the second person for the reader's
// seat — and returns null to say nothing (an event says it), or undefined for a notation the game
// does not word: then chance's own text stands as it is, a seat's is labelled with its name.
export function describer(phrase) {
  return (seat, text, names, viewer = null) => {
    const words = text.split(/\s+/);
    const who = names[seat] ?? seat;
    const say = (key, params) => t(you(key, seat === viewer), params);
    const said = phrase(words, who, say, text);
    if (said !== undefined) return said;
    return seat === CHANCE ? text : labelled(who, text);
  };
}

// Pip positions on a 3×3 grid, numbered 1..9 left to right, top to bottom.
const PIPS = { 1: [5], 2: [1, 9], 3: [1, 5, 9], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9] };

// A die showing `face`. Pass `attrs` to make it a button (selectable die) instead of a picture.
export function dieFace(face, attrs = null, extraClass = null) {
  const pips = [];
  for (let cell = 1; cell <= 9; cell++) pips.push(h("span", { class: PIPS[face]?.includes(cell) ? "pip on" : "pip" }));
  const label = t("catopomp.die", { n: face });
  if (attrs) return h("button", { type: "button", class: ["die", extraClass], "aria-label": label, ...attrs }, pips);
  return h("span", { class: ["die", extraClass], role: "img", "aria-label": label, "data-face": face }, pips);
}

// The best of a finished round, for the reader at `reader`: "you" is the subject of its own
// sentence ("you and Bo had the best round"), never tacked on at the end of a list ("Bo and you").
export function roundBestText(n, seats, names, reader) {
  const others = joinNames(seats.filter((s) => s !== reader).map((s) => names[s]));
  if (!seats.includes(reader)) return t("table.roundBest", { n, names: others });
  return seats.length > 1 ? t("table.roundBestShared.you", { n, names: others }) : t("table.roundBest.you", { n });
}

// A seat's name where it stands on its own (a table's row, a board's heading): a bot's label
// ("Bot 3 · greedy", "ボット3 · 貪欲") stays on one line; a person's name wraps at its spaces.
export function nameTag(names, seat) {
  return names.bots?.[seat] ? h("span", { class: "bot-name" }, names[seat]) : names[seat];
}

export function playerDot(seat) {
  return h("span", { class: "pc-dot", style: { "--pc": `var(--p${seat})` }, "aria-hidden": "true" });
}

// A seat's dot and name as one piece: a bot's name never breaks, so the dot would otherwise sit
// alone on the line above it in a narrow column.
export function seatName(names, seat) {
  return h("span", { class: "who" }, playerDot(seat), nameTag(names, seat));
}

// A round summary's breakdown: one column per catalogue key (null keys are left out), one row per
// seat as the game builds it. On a phone it may scroll sideways: a region the keyboard reaches.
export function breakdownTable(headers, rows) {
  return h(
    "div",
    { class: "table-scroll", tabindex: "0", role: "region", "aria-label": t("table.breakdown") },
    h(
      "table",
      { class: "summary-table", "data-testid": "breakdown" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          headers.filter((key) => key).map((key) => h("th", { scope: "col" }, t(key))),
        ),
      ),
      h("tbody", {}, rows),
    ),
  );
}
