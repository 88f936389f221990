// Shut the Box: every player's board of tiles, their dice, scores and eliminations. Controls are
// built only from `legal`: the roll buttons are the `roll` / `roll 1` strings; a tile can be
// selected only when some legal `shut …` contains the selection plus that tile, and the shut
// button appears when the selection is exactly a legal `shut …`.
import { h, roving } from "../dom.js";
import { labelled, paren, t } from "../i18n.js";
import { breakdownTable, CHANCE, describer, dieFace, nameTag, roundBestText } from "./common.js";

export function roundText(view) {
  return t("table.round", { n: view.round });
}

export function scoreLabel() {
  return t("shutbox.totalPenalty");
}

// What a screen reader is told after a message: a round over, with the lowest penalty.
export function news(before, view, names) {
  const round = view.last_round;
  if (!round || round.round === before.last_round?.round) return [];
  const penalties = round.seats.map((s) => (s.shut ? 0 : s.penalty)).filter((p) => p !== null && p !== undefined);
  const best = Math.min(...penalties);
  const seats = round.seats.flatMap((s, seat) => ((s.shut ? 0 : s.penalty) === best ? [seat] : []));
  return [roundBestText(round.round, seats, names, view.seat ?? null)];
}

// For the log's round headings: round 1 begins with the start player, the next one after a round is
// scored (unless the game ended).
export function roundOf(event) {
  return event.kind === "start" ? 1 : null;
}

export function roundAfter(event) {
  return event.kind === "round_scored" ? event.data.round + 1 : null;
}

// The log's words for an action (common.js `describer`).
export const describeAction = describer((words, who, say) => {
  switch (words[0]) {
    case "roll":
      return say(words[1] === "1" ? "shutbox.act.roll1" : "shutbox.act.roll", { who });
    case "dice":
      return say("shutbox.act.dice", { faces: words.slice(1).join(" + ") });
    case "shut":
      return say("shutbox.act.shut", { who, tiles: words.slice(1).join(" + ") });
    case "start":
      return null; // the engine's `start` event says it in words
    default:
      return undefined; // shown as it is
  }
});

// Parse the legal strings once: {roll, roll1, shuts: [[tiles...], ...]}.
function legalChoices(legal) {
  const out = { roll: false, roll1: false, shuts: [] };
  for (const text of legal) {
    const words = text.split(/\s+/);
    if (text === "roll") out.roll = true;
    else if (text === "roll 1") out.roll1 = true;
    else if (words[0] === "shut") out.shuts.push({ text, tiles: words.slice(1).map(Number) });
  }
  return out;
}

export function render(view, ctx) {
  const me = view.seat;
  const legal = legalChoices(view.legal || []);
  const ui = ctx.ui;
  ui.selected = ui.selected || [];
  const canShut = !ctx.replay && legal.shuts.length > 0;

  const selected = new Set(ui.selected);
  const sum = [...selected].reduce((a, b) => a + b, 0);
  const exact = legal.shuts.find((s) => s.tiles.length === selected.size && s.tiles.every((x) => selected.has(x)));
  // a tile is offered when some legal shut contains the current selection and that tile
  const selectable = (tile) =>
    legal.shuts.some((s) => s.tiles.includes(tile) && [...selected].every((x) => s.tiles.includes(x)));

  const toggle = (tile) => {
    if (selected.has(tile)) ui.selected = ui.selected.filter((x) => x !== tile);
    else ui.selected = [...ui.selected, tile];
    ctx.rerender();
  };

  const order = boardOrder(view, me);
  const boards = order.map((seat) =>
    playerBoard(view, ctx, seat, seat === me && canShut, {
      selected,
      selectable,
      toggle,
      focusKey: ui.tileKey,
      remember: (key) => (ui.tileKey = key),
    }),
  );

  let controls = null;
  if (!ctx.replay && me !== null && (legal.roll || legal.roll1 || canShut)) {
    const dice = view.dice[me] || [];
    const total = dice.reduce((a, b) => a + b, 0);
    controls = h(
      "div",
      { class: "controls", "data-testid": "controls" },
      legal.roll
        ? h(
            "button",
            {
              type: "button",
              class: "primary big",
              "data-key": "roll",
              "data-action": "roll",
              disabled: ctx.busy,
              onclick: () => ctx.act("roll"),
            },
            t("shutbox.roll"),
          )
        : null,
      legal.roll1
        ? h(
            "button",
            {
              type: "button",
              class: "big",
              "data-key": "roll1",
              "data-action": "roll 1",
              disabled: ctx.busy,
              onclick: () => ctx.act("roll 1"),
            },
            t("shutbox.roll1"),
          )
        : null,
      canShut
        ? h(
            "div",
            { class: "shut-controls" },
            h(
              "p",
              {},
              t("shutbox.select", { total }),
              " ",
              h("strong", { class: sum > total ? "error" : null }, t("shutbox.selected", { sum, total })),
            ),
            h(
              "div",
              { class: "row" },
              h(
                "button",
                {
                  type: "button",
                  class: "primary big",
                  "data-key": "shut",
                  "data-action": exact ? exact.text : "",
                  disabled: !exact || ctx.busy,
                  onclick: () => exact && ctx.act(exact.text),
                },
                t("shutbox.shut", {
                  tiles: exact ? exact.tiles.join(" + ") : [...selected].sort((a, b) => a - b).join(" + ") || "…",
                }),
              ),
              selected.size
                ? h(
                    "button",
                    {
                      type: "button",
                      "data-key": "clear",
                      onclick: () => {
                        ui.selected = [];
                        ctx.rerender();
                      },
                    },
                    t("shutbox.clear"),
                  )
                : null,
            ),
            h(
              "details",
              { class: "choices" },
              h("summary", {}, t("shutbox.options"), paren(legal.shuts.length)),
              h(
                "div",
                { class: "row wrap" },
                legal.shuts.map((s) =>
                  h(
                    "button",
                    {
                      type: "button",
                      class: "small",
                      "data-key": `choice-${s.text}`,
                      "data-action": s.text,
                      disabled: ctx.busy,
                      onclick: () => ctx.act(s.text),
                    },
                    s.tiles.join(" + "),
                  ),
                ),
              ),
            ),
          )
        : null,
    );
  }

  return h("div", { class: "shutbox" }, controls, h("div", { class: "boards" }, boards));
}

// The round that just ended: every final board with its dice and penalty, and why the game ended
// after it (a shut box, the last round, eliminations).
export function summary(view, ctx) {
  const last = view.last_round;
  return h(
    "div",
    { class: "summary-body" },
    breakdownTable(
      ["table.player", "shutbox.openTiles", "shutbox.dice", "shutbox.penaltyCol", "shutbox.totalPenalty"],
      last.seats.map((s, seat) =>
        h(
          "tr",
          { class: s.shut ? "winner" : s.eliminated ? "paradox" : null },
          h("th", { scope: "row" }, nameTag(ctx.names, seat)),
          h("td", {}, s.shut ? t("shutbox.shutBox") : last.boards[seat].join(" ") || "—"),
          h(
            "td",
            {},
            (last.dice[seat] || []).map((f) => dieFace(f)),
          ),
          h("td", {}, s.penalty ?? t("shutbox.noTurn")),
          h(
            "td",
            { class: "total" },
            s.total,
            s.eliminated ? h("span", { class: "badge bad" }, t("shutbox.eliminated")) : null,
          ),
        ),
      ),
    ),
    last.finish ? h("p", { class: "banner", "data-testid": "finish" }, t(`shutbox.finish.${last.finish}`)) : null,
  );
}

// Own board first, then the others in seat order.
function boardOrder(view, me) {
  const seats = [];
  for (let s = 0; s < view.players; s++) seats.push(s);
  if (me === null || me === undefined) return seats;
  return [me, ...seats.filter((s) => s !== me)];
}

// Were these dice just rolled (the position's last entry is their roll)?
function rolledNow(view, seat) {
  const history = view.history || [];
  const last = history[history.length - 1];
  const before = history[history.length - 2];
  return Boolean(last && last[0] === CHANCE && last[1].startsWith("dice") && before && before[0] === seat);
}

function playerBoard(view, ctx, seat, interactive, sel) {
  const open = new Set(view.boards[seat]);
  const active = (view.current === seat || (view.current === null && (view.active || []).includes(seat))) && !view.over;
  const dice = view.dice[seat] || [];
  const tiles = [];
  for (let n = 1; n <= view.tiles; n++) {
    const isOpen = open.has(n);
    const isSelected = interactive && sel.selected.has(n);
    const can = interactive && isOpen && (isSelected || sel.selectable(n));
    const label = isOpen ? t("shutbox.tile", { n }) : t("shutbox.tileClosed", { n });
    tiles.push(
      interactive && isOpen
        ? h(
            "button",
            {
              type: "button",
              class: ["tile", "open", isSelected ? "selected" : null],
              "data-key": `tile-${n}`,
              "data-tile": n,
              "aria-pressed": isSelected ? "true" : "false",
              "aria-label": label,
              disabled: !can || ctx.busy,
              onclick: () => sel.toggle(n),
            },
            n,
          )
        : h(
            "span",
            { class: ["tile", isOpen ? "open" : "shut"], "data-tile": n, role: "img", "aria-label": label },
            isOpen ? n : "",
          ),
    );
  }
  const badges = [];
  if (view.eliminated[seat]) badges.push(h("span", { class: "badge bad" }, t("shutbox.eliminated")));
  if (view.shut[seat]) badges.push(h("span", { class: "badge good" }, t("shutbox.shutBox")));
  if (view.penalty[seat] !== null && view.penalty[seat] !== undefined)
    badges.push(h("span", { class: "badge" }, t("shutbox.penalty", { n: view.penalty[seat] })));
  if (active) badges.push(h("span", { class: "badge turn" }, t("shutbox.playing")));
  return h(
    "section",
    {
      class: [
        "player-board",
        active ? "active" : null,
        seat === view.seat ? "mine" : null,
        view.eliminated[seat] ? "out" : null,
      ],
      "data-seat": seat,
      "aria-label": t("shutbox.board", { name: ctx.names[seat] }),
      style: { "--pc": `var(--p${seat})` },
    },
    h(
      "header",
      {},
      h("span", { class: "pc-dot" }),
      h("strong", {}, nameTag(ctx.names, seat)),
      h("span", { class: "score" }, labelled(t("shutbox.totalPenalty"), view.scores[seat])),
      badges,
    ),
    interactive
      ? roving(
          h(
            "div",
            {
              class: "tiles",
              style: { "--n": view.tiles },
              role: "toolbar",
              "aria-label": t("shutbox.board", { name: ctx.names[seat] }),
              "data-first-stop": "",
            },
            tiles,
          ),
          sel.focusKey,
          sel.remember,
        )
      : h("div", { class: "tiles", style: { "--n": view.tiles } }, tiles),
    h(
      "div",
      { class: "dice-row", role: "group", "aria-label": t("shutbox.dice") },
      dice.map((f) => dieFace(f, null, ctx.fresh && rolledNow(view, seat) ? "rolled" : null)),
      dice.length > 1 ? h("span", { class: "dice-total" }, `= ${dice.reduce((a, b) => a + b, 0)}`) : null,
    ),
  );
}
