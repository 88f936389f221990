// Catopomp: your hand (heaven), every hell area, the combination on the table and its owner, the
// central / used / spare dice, soul gems. A play is built by selecting cards (all from the hand or
// all from your hell) and dice; the client parses the `legal` strings and offers only what some
// legal play contains, and the play buttons are exactly the legal strings matching the selection.
import { h, roving } from "../dom.js";
import { colon, paren, sentence, t, you } from "../i18n.js";
import { breakdownTable, CHANCE, describer, dieFace, nameTag, playerDot, seatName } from "./common.js";

export function roundText(view) {
  const round = t("table.round", { n: view.round });
  return view.over ? round : `${round} · ${t(`catopomp.phase.${view.phase}`)}`;
}

export function scoreLabel() {
  return t("catopomp.gems");
}

export function cardName(card) {
  if (card === "M") return t("catopomp.mitch");
  if (card === "C") return t("catopomp.catleton");
  return String(card);
}

// What a screen reader is told after a message: a round over, with who lost a soul gem.
export function news(before, view, names) {
  const round = view.last_round;
  if (!round || round.round === before.last_round?.round) return [];
  return [
    sentence(t("table.summaryTitle", { n: round.round })),
    t(you("catopomp.lostGem", round.loser === view.seat), { name: names[round.loser] }),
  ];
}

// The event that begins a round, for the log's round headings.
export function roundOf(event) {
  return event.kind === "round_start" ? event.data.round : null;
}

// The log's words for an action (common.js `describer`).
export const describeAction = describer((words, who, say, text) => {
  switch (words[0]) {
    case "play":
    case "hell":
      return say(`catopomp.act.${words[0]}`, { who, cards: playWords(parsePlay(text)) });
    case "bury":
      return say("catopomp.act.bury", { who, card: cardName(words[1] ?? "?") });
    case "pass":
      return say("catopomp.act.pass", { who });
    case "give":
      return say("catopomp.act.give", { who, card: cardName(words[1]) });
    case "discard":
      return say("catopomp.act.discard", { who, card: cardName(words[1]) });
    case "keep":
      return say("catopomp.act.keep", { who });
    case "spare":
      return say("catopomp.act.spare", { who, n: words[1] ?? "?" });
    case "dice":
      return say("catopomp.act.dice", { faces: words.slice(1).join(" ") });
    case "deal":
      return say("catopomp.act.deal");
    case "start":
      return null;
    default:
      return undefined; // shown as it is
  }
});

// "play 3 4 M=5 C +s4+d2 swap 2" → {text, hell, cards: ["3","4","M","C"], mitchAs, dice: [2], spare: 4, swap: "2"}
export function parsePlay(text) {
  const words = text.split(/\s+/);
  const out = { text, hell: words[0] === "hell", cards: [], mitchAs: null, dice: [], spare: null, swap: null };
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    if (w === "swap") {
      out.swapText = words[++i]; // "2", "M", "M=4" (a hell Mitch as the dice number) or "C"
      out.swap = out.swapText.startsWith("M=") ? "M" : out.swapText; // the hell card that leaves
    } else if (w.startsWith("+")) {
      let kind = null;
      for (const part of w.slice(1).split("+")) {
        if (part.startsWith("s")) {
          kind = "s";
          out.spare = Number(part.slice(1));
        } else if (part.startsWith("d")) {
          kind = "d";
          out.dice.push(Number(part.slice(1)));
        } else if (kind === "d") out.dice.push(Number(part));
      }
    } else if (w.startsWith("M=")) {
      out.cards.push("M");
      out.mitchAs = Number(w.slice(2));
    } else out.cards.push(w);
  }
  return out;
}

function playWords(p) {
  const parts = p.cards.map((c) =>
    c === "M" && p.mitchAs !== null ? t("catopomp.mitchAs", { n: p.mitchAs }) : cardName(c),
  );
  let text = parts.join("-");
  const dice = [];
  if (p.spare !== null) dice.push(t("catopomp.spareTag", { n: p.spare }));
  if (p.dice.length) dice.push(t(p.dice.length > 1 ? "catopomp.dice2" : "catopomp.die", { n: p.dice.join("+") }));
  if (dice.length) text += ` + ${dice.join(" + ")}`;
  if (p.swap !== null) text += paren(t("catopomp.swap", { n: p.swapText }));
  return text;
}

// multiset helpers on arrays of strings / numbers
function counts(list) {
  const m = new Map();
  for (const x of list) m.set(String(x), (m.get(String(x)) || 0) + 1);
  return m;
}
function contains(big, small) {
  const b = counts(big);
  for (const [k, n] of counts(small)) if ((b.get(k) || 0) < n) return false;
  return true;
}
function sameMultiset(a, b) {
  return a.length === b.length && contains(a, b);
}

function legalChoices(legal) {
  const out = { plays: [], pass: null, bury: [], give: [], discard: [], keep: null, spare: [] };
  for (const text of legal) {
    const w = text.split(/\s+/);
    if (w[0] === "play" || w[0] === "hell") out.plays.push(parsePlay(text));
    else if (w[0] === "pass") out.pass = text;
    else if (w[0] === "bury") out.bury.push({ text, card: w[1] });
    else if (w[0] === "give") out.give.push({ text, card: w[1] });
    else if (w[0] === "discard") out.discard.push({ text, card: w[1] });
    else if (w[0] === "keep") out.keep = text;
    else if (w[0] === "spare") out.spare.push({ text, face: Number(w[1]) });
  }
  return out;
}

// The current selection as a would-be play: which source, which cards, which dice.
function selectionOf(view, ui) {
  const hand = view.hand || [];
  const hell = (view.hell && view.seat !== null ? view.hell[view.seat] : []) || [];
  const centre = view.dice?.centre || [];
  const mySpare = view.dice?.spare && view.seat !== null ? view.dice.spare[view.seat] : null;
  return {
    handCards: [...ui.hand].map((i) => String(hand[i])),
    hellCards: [...ui.hell].map((i) => String(hell[i])),
    dice: [...ui.dice].map((i) => centre[i]),
    spare: ui.spare ? mySpare : null,
  };
}

// Does legal play `p` agree with the selection (exactly, or as a part of it when `partial`)?
// A hell card selected together with hand cards stands for a Cat-leton swap.
function agrees(p, sel, partial) {
  const cmp = partial ? contains : sameMultiset;
  let cards;
  if (p.hell) {
    if (sel.handCards.length) return false;
    cards = sel.hellCards;
  } else {
    if (sel.hellCards.length > 1) return false;
    if (sel.hellCards.length === 1 && String(p.swap) !== sel.hellCards[0]) return false;
    cards = sel.handCards;
  }
  if (!cmp(p.cards, cards)) return false;
  if (!cmp(p.dice, sel.dice)) return false;
  if (sel.spare !== null && p.spare !== sel.spare) return false;
  if (!partial && sel.spare === null && p.spare !== null) return false;
  return true;
}

export function render(view, ctx) {
  const legal = ctx.replay ? legalChoices([]) : legalChoices(view.legal || []);
  const ui = ctx.ui;
  ui.hand = ui.hand || new Set();
  ui.hell = ui.hell || new Set();
  ui.dice = ui.dice || new Set();
  ui.spare = ui.spare || false;
  const sel = selectionOf(view, ui);
  const nothingSelected = !ui.hand.size && !ui.hell.size && !ui.dice.size && !ui.spare;
  const matches = nothingSelected ? [] : legal.plays.filter((p) => agrees(p, sel, false));

  // An item may be added to the selection when some legal play still agrees with the result.
  const canAdd = (change) => {
    const next = {
      handCards: [...sel.handCards],
      hellCards: [...sel.hellCards],
      dice: [...sel.dice],
      spare: sel.spare,
    };
    change(next);
    return legal.plays.some((p) => agrees(p, next, true));
  };
  const toggle = (set, i) => {
    if (set.has(i)) set.delete(i);
    else set.add(i);
    ctx.rerender();
  };
  const selecting = legal.plays.length > 0;

  return h(
    "div",
    { class: "catopomp" },
    h("div", { class: "catopomp-top" }, tableArea(view, ctx), diceArea(view, ctx, selecting, ui, canAdd, toggle)),
    h("div", { class: "hells" }, hellAreas(view, ctx, selecting, ui, canAdd, toggle)),
    myArea(view, ctx, legal, selecting, ui, canAdd, toggle, matches, nothingSelected),
  );
}

function tableArea(view, ctx) {
  const table = view.table;
  return h(
    "section",
    { class: "combo-area", "aria-label": t("catopomp.table"), "data-testid": "table-combo" },
    h("h2", {}, t("catopomp.table")),
    table ? combination(table, ctx, ctx.fresh) : h("p", { class: "muted" }, t("catopomp.tableEmpty")),
    view.removed?.length
      ? h("p", { class: "small muted" }, t("catopomp.removed", { cards: view.removed.map(cardName).join(", ") }))
      : null,
  );
}

// A combination with every part of it: the cards (Mdm Mitch with the number she stands for,
// Cat-leton as 0), the dice and where they came from, "from hell", and its strength in words.
export function combination(table, ctx, fresh = false) {
  const p = parsePlay(table.text);
  const dice = [
    ...p.dice.map((face) =>
      h(
        "span",
        { class: "combo-die", "data-origin": "centre" },
        dieFace(face, null, fresh ? "rolled" : null),
        h("span", { class: "small muted" }, t("catopomp.fromCentre")),
      ),
    ),
    ...(p.spare !== null
      ? [
          h(
            "span",
            { class: "combo-die", "data-origin": "spare" },
            dieFace(p.spare, null, "spare"),
            h("span", { class: "small muted" }, t("catopomp.fromSpare")),
          ),
        ]
      : []),
  ];
  const cards = table.cards.map((c) => {
    const s = String(c);
    const note = s === "M" ? `= ${p.mitchAs ?? 0}` : s === "C" ? "= 0" : null; // Mitch alone counts 0
    return h("span", { class: "combo-card" }, card(c), note ? h("span", { class: "small muted" }, note) : null);
  });
  return h(
    "div",
    { class: ["combo-play", fresh ? "arrive" : null], "data-testid": "combination" },
    h(
      "div",
      { class: "hand combo" },
      cards,
      dice.length ? h("span", { class: "combo-plus", "aria-hidden": "true" }, "+") : null,
      dice,
    ),
    h(
      "p",
      {},
      playerDot(table.owner),
      t(you("catopomp.tableBy", table.owner === ctx.me), { text: playWords(p), name: ctx.names[table.owner] }),
      table.from === "hell" ? h("span", { class: "badge hell-badge" }, t("catopomp.fromHell")) : null,
    ),
    h("p", { class: "strength", "data-testid": "strength" }, strengthWords(table)),
  );
}

export function strengthWords(table) {
  const values = table.values || [];
  const low = values.length ? Math.min(...values) : table.rank;
  return t(`catopomp.strength.${table.kind}`, { size: table.size, rank: table.rank, low });
}

// The round that just ended: who lost a gem, what everyone still held, the last play.
export function summary(view, ctx) {
  const last = view.last_round;
  return h(
    "div",
    { class: "summary-body" },
    h(
      "p",
      { class: "banner" },
      "♦ ",
      t(you("catopomp.lostGem", last.loser === ctx.me), { name: ctx.names[last.loser] }),
    ),
    breakdownTable(
      ["table.player", "catopomp.cardsLeft", "catopomp.hell", "catopomp.gems"],
      last.seats.map((s, seat) =>
        h(
          "tr",
          { class: s.lost_gem ? "paradox" : null },
          h("th", { scope: "row" }, seatName(ctx.names, seat)),
          h("td", {}, s.cards_left),
          h(
            "td",
            {},
            h(
              "span",
              { class: "summary-cards" },
              (last.hell[seat] || []).map((c) => card(c)),
            ),
          ),
          h("td", {}, s.lost_gem ? `${s.gems} (−1)` : s.gems),
        ),
      ),
    ),
    last.table ? h("div", {}, h("h3", {}, t("catopomp.lastPlay")), combination(last.table, ctx)) : null,
  );
}

// Is the position's last entry the roll of the central dice?
function justRolled(view) {
  const history = view.history || [];
  const last = history[history.length - 1];
  return Boolean(last && last[0] === CHANCE && last[1].startsWith("dice"));
}

function diceArea(view, ctx, selecting, ui, canAdd, toggle) {
  const dice = view.dice || { centre: [], used: [], spare: [] };
  const centre = dice.centre.map((face, i) => {
    const chosen = ui.dice.has(i);
    if (!selecting) return dieFace(face, null, ctx.fresh && justRolled(view) ? "rolled" : null);
    return dieFace(
      face,
      {
        "data-key": `die-${i}`,
        "data-die": face,
        "aria-pressed": chosen ? "true" : "false",
        disabled: ctx.busy || !(chosen || canAdd((n) => n.dice.push(face))),
        onclick: () => toggle(ui.dice, i),
      },
      chosen ? "selected" : null,
    );
  });
  const others = [];
  for (let seat = 0; seat < view.players; seat++) {
    const used = dice.used?.[seat] || [];
    const spare = dice.spare ? dice.spare[seat] : null;
    if (used.length)
      others.push(
        h(
          "div",
          { class: "dice-line" },
          h("span", { class: "small" }, t("catopomp.usedDice", { name: ctx.names[seat] })),
          used.map((f) => dieFace(f, null, "used")),
        ),
      );
    if (spare !== null && spare !== undefined) {
      const mine = seat === view.seat && selecting;
      others.push(
        h(
          "div",
          { class: "dice-line" },
          h("span", { class: "small" }, t("catopomp.spareDie", { name: ctx.names[seat] })),
          mine
            ? dieFace(
                spare,
                {
                  "data-key": "spare",
                  "data-spare": spare,
                  "aria-pressed": ui.spare ? "true" : "false",
                  disabled: ctx.busy || !(ui.spare || canAdd((n) => (n.spare = spare))),
                  onclick: () => {
                    ui.spare = !ui.spare;
                    ctx.rerender();
                  },
                },
                ["spare", ui.spare ? "selected" : null].filter(Boolean).join(" "),
              )
            : dieFace(spare, null, "spare"),
        ),
      );
    }
  }
  return h(
    "section",
    { class: "dice-area", "aria-label": t("catopomp.dice"), "data-testid": "dice" },
    h("h2", {}, t("catopomp.dice")),
    h("div", { class: "dice-line" }, h("span", { class: "small" }, t("catopomp.centreDice")), centre),
    others,
    h("p", { class: "small muted legend" }, t("catopomp.diceLegend")),
  );
}

function hellAreas(view, ctx, selecting, ui, canAdd, toggle) {
  const out = [];
  for (let seat = 0; seat < view.players; seat++) {
    const hell = view.hell?.[seat] || [];
    const mine = seat === view.seat;
    const toMove = Array.isArray(view.to_move) && view.to_move.includes(seat);
    const badges = [];
    if (view.out?.[seat]) badges.push(h("span", { class: "badge good" }, t("catopomp.out")));
    if (view.passed?.includes(seat)) badges.push(h("span", { class: "badge" }, t("catopomp.passed")));
    if (view.boost_used?.[seat]) badges.push(h("span", { class: "badge" }, t("catopomp.boostUsed")));
    const cards = hell.map((c, i) => {
      if (mine && selecting) {
        const chosen = ui.hell.has(i);
        return card(c, {
          "data-key": `hell-${i}`,
          "data-hell": c,
          "aria-pressed": chosen ? "true" : "false",
          disabled: ctx.busy || !(chosen || canAdd((n) => n.hellCards.push(String(c)))),
          onclick: () => toggle(ui.hell, i),
          extra: chosen ? "selected" : null,
        });
      }
      // transfer phase: give / discard this hell card
      return card(c, { extra: "hell" });
    });
    out.push(
      h(
        "section",
        {
          class: ["hell-area", toMove ? "to-move" : null, mine ? "mine" : null],
          "data-seat": seat,
          "aria-label": t("catopomp.hellOf", { name: ctx.names[seat] }),
          style: { "--pc": `var(--p${seat})` },
        },
        h(
          "header",
          {},
          playerDot(seat),
          h("strong", {}, nameTag(ctx.names, seat)),
          h(
            "span",
            {
              class: "gems",
              role: "img",
              title: t("catopomp.gemsN", { n: view.gems[seat] }),
              "aria-label": t("catopomp.gemsN", { n: view.gems[seat] }),
              "data-gems": view.gems[seat],
            },
            Array.from({ length: Math.max(0, view.gems[seat]) }, () => h("span", { class: "gem" })),
          ),
          h("span", { class: "small muted" }, t("catopomp.cards", { n: view.hand_counts[seat] })),
          badges,
        ),
        mine && selecting
          ? roving(
              h(
                "div",
                { class: "hell-row", role: "toolbar", "aria-label": t("catopomp.hellOf", { name: ctx.names[seat] }) },
                h("span", { class: "small muted" }, `${t("catopomp.hell")}${colon().trimEnd()}`),
                cards.length ? cards : h("span", { class: "muted" }, "—"),
              ),
              ui.hellKey,
              (key) => (ui.hellKey = key),
            )
          : h(
              "div",
              { class: "hell-row" },
              h("span", { class: "small muted" }, `${t("catopomp.hell")}${colon().trimEnd()}`),
              cards.length ? cards : h("span", { class: "muted" }, "—"),
            ),
        ctx.replay && view.hands
          ? h(
              "div",
              { class: "heaven-row", "data-testid": "replay-hand" },
              h("span", { class: "small muted" }, `${t("replay.hand", { name: ctx.names[seat] })}${colon().trimEnd()}`),
              view.hands[seat].map((c) => card(c)),
            )
          : null,
      ),
    );
  }
  return out;
}

function myArea(view, ctx, legal, selecting, ui, canAdd, toggle, matches, nothingSelected) {
  if (!view.hand) return null; // spectators and replays have no "my hand"
  const hand = view.hand;
  const buryable = new Set(legal.bury.map((b) => String(b.card)));
  const cards = hand.map((c, i) => {
    if (selecting) {
      const chosen = ui.hand.has(i);
      return card(c, {
        "data-key": `hand-${i}`,
        "data-card": c,
        "aria-pressed": chosen ? "true" : "false",
        disabled: ctx.busy || !(chosen || canAdd((n) => n.handCards.push(String(c)))),
        onclick: () => toggle(ui.hand, i),
        extra: chosen ? "selected" : null,
      });
    }
    if (buryable.has(String(c))) {
      const b = legal.bury.find((x) => String(x.card) === String(c));
      return card(c, {
        "data-key": `bury-${i}`,
        "data-card": c,
        "data-action": b.text,
        title: t("catopomp.bury", { card: cardName(c) }),
        disabled: ctx.busy,
        onclick: () => ctx.act(b.text),
      });
    }
    return card(c);
  });

  const controls = [];
  if (legal.spare.length) {
    controls.push(
      h("p", {}, t("catopomp.phase.spare")),
      h(
        "div",
        { class: "row" },
        legal.spare.map((s) =>
          dieFace(s.face, {
            "data-key": s.text,
            "data-action": s.text,
            title: t("catopomp.spare", { n: s.face }),
            disabled: ctx.busy,
            onclick: () => ctx.act(s.text),
          }),
        ),
      ),
    );
  }
  if (legal.bury.length)
    controls.push(
      h("p", {}, t("catopomp.phase.bury")),
      h(
        "div",
        { class: "row wrap" },
        legal.bury.map((b) => actionButton(ctx, b.text, t("catopomp.bury", { card: cardName(b.card) }))),
      ),
    );
  if (legal.give.length || legal.discard.length || legal.keep) {
    const passer = view.transfer_to; // the view says who passed: no reading of the history
    controls.push(
      h("p", {}, t("catopomp.phase.transfer")),
      h(
        "div",
        { class: "row wrap" },
        legal.give.map((g) =>
          actionButton(
            ctx,
            g.text,
            t("catopomp.give", { card: cardName(g.card), name: passer === null ? "?" : ctx.names[passer] }),
          ),
        ),
        legal.discard.map((d) => actionButton(ctx, d.text, t("catopomp.discard", { card: cardName(d.card) }))),
        legal.keep ? actionButton(ctx, legal.keep, t("catopomp.keep")) : null,
      ),
    );
  }
  if (selecting) {
    controls.push(
      h("p", { class: "small muted" }, t("catopomp.select")),
      h(
        "div",
        { class: "row wrap play-buttons" },
        matches.map((p) => actionButton(ctx, p.text, t("catopomp.playAs", { text: playWords(p) }), "primary")),
        !nothingSelected && !matches.length ? h("span", { class: "muted" }, t("catopomp.noMatch")) : null,
        !nothingSelected
          ? h(
              "button",
              {
                type: "button",
                "data-key": "clear",
                onclick: () => {
                  ui.hand.clear();
                  ui.hell.clear();
                  ui.dice.clear();
                  ui.spare = false;
                  ctx.rerender();
                },
              },
              t("catopomp.clear"),
            )
          : null,
        legal.pass ? actionButton(ctx, legal.pass, t("catopomp.pass")) : null,
      ),
    );
  } else if (legal.pass) controls.push(actionButton(ctx, legal.pass, t("catopomp.pass")));

  return h(
    "section",
    { class: "my-hand", "aria-label": t("catopomp.hand"), "data-testid": "hand" },
    h("h2", {}, t("catopomp.hand")),
    roving(
      h("div", { class: "hand", role: "toolbar", "aria-label": t("catopomp.hand"), "data-first-stop": "" }, cards),
      ui.handKey,
      (key) => (ui.handKey = key),
    ),
    h("div", { class: "controls", "data-testid": "controls" }, controls),
  );
}

function actionButton(ctx, text, label, cls = null) {
  return h(
    "button",
    {
      type: "button",
      class: cls,
      "data-key": text,
      "data-action": text,
      disabled: ctx.busy,
      onclick: () => ctx.act(text),
    },
    label,
  );
}

// One card: a picture, or a button when `attrs` has a click handler.
function card(c, attrs = null) {
  const s = String(c);
  const cls = ["card", "cp-card", s === "M" ? "mitch" : s === "C" ? "catleton" : null, attrs?.extra];
  const label = s === "M" || s === "C" ? cardName(s) : s;
  const face = s === "M" ? "M" : s === "C" ? "C" : s;
  if (attrs?.onclick) {
    const rest = { ...attrs };
    delete rest.extra;
    return h("button", { type: "button", class: cls, "aria-label": label, ...rest }, face);
  }
  return h("span", { class: cls, title: label }, face);
}
