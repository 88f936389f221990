// Cat in the Box: the research board (colour × number grid in the table's layout) with every
// player's tokens and the neutral blockers, each player's X tokens, prediction and tricks, the
// current trick with declared colours, and your hand. Controls come only from `legal`:
// a hand card is offered when some legal action names its number; after choosing a card the
// colours offered are those with a legal `play N colour` (also clickable on the board).
import { h, roving, svg } from "../dom.js";
import { paren, t, you } from "../i18n.js";
import { breakdownTable, describer, nameTag, playerDot, roundBestText, seatName } from "./common.js";

export function roundText(view) {
  const round = t("table.roundOf", { n: view.round, total: view.rounds });
  return view.over ? round : `${round} · ${t(`catbox.phase.${view.phase}`)}`;
}

export function scoreLabel() {
  return t("table.total");
}

export function colourName(colour) {
  return t(`catbox.colour.${colour}`);
}

// Each suit has a shape of its own, so no suit is told by its colour alone (issue 17): drawn as SVG
// (no font needed), outlined so a light fill still shows on white. The suit's name is always said
// in words next to it or in the element's accessible name; the shape itself is decoration.
const SUIT_SHAPES = {
  red: ["polygon", { points: "10,1 12.6,7.2 19.4,7.6 14.2,12 15.9,18.8 10,15 4.1,18.8 5.8,12 0.6,7.6 7.4,7.2" }],
  blue: ["rect", { x: 3, y: 3, width: 14, height: 14 }],
  yellow: ["polygon", { points: "10,1.5 19,18 1,18" }],
  green: ["polygon", { points: "10,1 19,10 10,19 1,10" }],
};

export function suitMark(colour, extra = null) {
  const [tag, attrs] = SUIT_SHAPES[colour] || ["circle", { cx: 10, cy: 10, r: 8 }];
  return svg(
    "svg",
    {
      class: ["suit-mark", `suit-${colour}`, extra].filter(Boolean).join(" "),
      viewBox: "0 0 20 20",
      "aria-hidden": "true",
      focusable: "false",
    },
    svg(tag, attrs),
  );
}

// Words only a screen reader reads (the suit of a card shown by fill and shape).
const spoken = (text) => h("span", { class: "sr-only" }, text);

// What a screen reader is told after a message (table.js announces it once): a trick won (or a
// paradox), and a round over with its best scorers.
export function news(before, view, names) {
  const out = [];
  const trickWords = (last) =>
    last.winner !== null && last.winner !== undefined
      ? t(you("catbox.trickWon", last.winner === view.seat), { name: names[last.winner], n: last.trick })
      : t(you("catbox.trickParadox", last.paradox === view.seat), { name: names[last.paradox], n: last.trick });
  const round = view.last_round;
  const newRound = round && round.round !== before.last_round?.round;
  const trickKey = (v) => (v.last_trick ? `${v.round}:${v.last_trick.trick}` : null);
  if (view.last_trick && trickKey(view) !== trickKey(before)) out.push(trickWords(view.last_trick));
  else if (newRound && round.last_trick) out.push(trickWords(round.last_trick));
  if (newRound) {
    const best = Math.max(...round.seats.map((s) => s.points));
    const seats = round.seats.flatMap((s, seat) => (s.points === best ? [seat] : []));
    out.push(roundBestText(round.round, seats, names, view.seat ?? null));
  }
  return out;
}

// The event that begins a round, for the log's round headings.
export function roundOf(event) {
  return event.kind === "round_started" ? event.data.round : null;
}

// The log's words for an action (common.js `describer`).
export const describeAction = describer((words, who, say) => {
  switch (words[0]) {
    case "play":
      return say("catbox.act.play", { who, n: words[1], colour: colourName(words[2]) });
    case "discard":
      return words[1] ? say("catbox.act.discardN", { who, n: words[1] }) : say("catbox.act.discard", { who });
    case "predict":
      return say("catbox.act.predict", { who, n: words[1] });
    case "deal":
      return say("catbox.act.deal");
    case "start":
      return null; // the round_started event says it
    default:
      return undefined; // shown as it is
  }
});

function legalChoices(legal) {
  const plays = [];
  const discards = [];
  const predicts = [];
  for (const text of legal) {
    const w = text.split(/\s+/);
    if (w[0] === "play") plays.push({ text, n: Number(w[1]), colour: w[2] });
    else if (w[0] === "discard") discards.push({ text, n: Number(w[1]) });
    else if (w[0] === "predict") predicts.push({ text, n: Number(w[1]) });
  }
  return { plays, discards, predicts };
}

export function render(view, ctx) {
  const legal = ctx.replay ? { plays: [], discards: [], predicts: [] } : legalChoices(view.legal || []);
  const ui = ctx.ui;
  const chosen = ui.card ?? null;
  const playsForChosen = chosen === null ? [] : legal.plays.filter((p) => p.n === chosen);
  const act = (text) => ctx.act(text);

  const paradox =
    view.paradox !== null && view.paradox !== undefined
      ? h(
          "div",
          { class: "banner paradox", role: "alert", "data-testid": "paradox" },
          "⚡ ",
          t(you("catbox.paradox", view.paradox === ctx.me), { name: ctx.names[view.paradox] }),
        )
      : null;

  return h(
    "div",
    { class: "catbox" },
    paradox,
    h(
      "div",
      { class: "catbox-top" },
      researchBoard(view, ctx, playsForChosen, act),
      h("div", { class: "catbox-side" }, trickArea(view, ctx), players(view, ctx)),
    ),
    handArea(view, ctx, legal, chosen, playsForChosen, act),
  );
}

function researchBoard(view, ctx, playsForChosen, act, board = view.board, title = null) {
  const layout = view.layout;
  const legalCells = new Map(playsForChosen.map((p) => [`${p.colour}:${p.n}`, p]));
  const labels = tokenLabels(ctx.names);
  const rows = layout.rows.map((colour, r) =>
    h(
      "tr",
      { class: `row-${colour}` },
      h("th", { scope: "row", class: `suit suit-${colour}` }, suitMark(colour), colourName(colour)),
      layout.numbers[r].map((n, c) => {
        const cell = board[r][c];
        const play = legalCells.get(`${colour}:${n}`);
        let content;
        let label;
        if (cell === null || cell === undefined) {
          content = "";
          label = t("catbox.cellEmpty", { colour: colourName(colour), n });
        } else if (cell === "observed" || cell === "blocker") {
          content = h("span", { class: `token neutral ${cell}` }, "▩");
          label = t("catbox.cellOf", { colour: colourName(colour), n, who: t(`catbox.${cell}`) });
        } else {
          content = h(
            "span",
            { class: "token", style: { "--pc": `var(--p${cell})` }, title: ctx.names[cell] },
            labels[cell],
          );
          label = t("catbox.cellOf", { colour: colourName(colour), n, who: ctx.names[cell] });
        }
        const inner = [h("span", { class: "cell-number" }, n), suitMark(colour, "cell-mark"), content];
        return h(
          "td",
          {
            class: ["cell", `suit-${colour}`, cell !== null ? "taken" : null, play ? "legal" : null],
            "data-cell": `${colour}-${n}`,
          },
          play
            ? h(
                "button",
                {
                  type: "button",
                  class: "cell-button",
                  "data-key": `cell-${colour}-${n}`,
                  "data-action": play.text,
                  "aria-label": t("catbox.cellPlay", { n, colour: colourName(colour) }),
                  disabled: ctx.busy,
                  onclick: () => act(play.text),
                },
                inner,
              )
            : h("span", { class: "cell-inner", role: "img", "aria-label": label }, inner),
        );
      }),
    ),
  );
  return h(
    "section",
    { class: "research", "aria-label": title || t("catbox.board") },
    title
      ? h("h3", {}, title)
      : h("h2", {}, t("catbox.board"), h("span", { class: "muted small" }, ` · ${t(`catbox.side.${layout.side}`)}`)),
    h(
      "div",
      { class: "board-scroll", tabindex: "0" }, // on a phone it may scroll sideways: the keyboard reaches it
      h(
        "table",
        { class: "research-board", "data-testid": title ? "final-board" : "research-board" },
        h("tbody", {}, rows),
      ),
    ),
    title
      ? null
      : h(
          "p",
          { class: "small muted legend" },
          view.red_broken ? t("catbox.redBroken") : t("catbox.redNotBroken"),
          view.centre?.revealed ? ` · ${t("catbox.centre", { cards: view.centre.revealed.join(", ") })}` : "",
          neutralLegend(board),
          ` · ${t("catbox.legend")}`,
        ),
  );
}

// The neutral tokens on the board, named by shape (never by colour alone): observed tokens, or
// blockers at 2 players.
function neutralLegend(board) {
  const cells = board.flat();
  if (cells.includes("blocker")) return ` · ${t("catbox.legendBlocker")}`;
  if (cells.includes("observed")) return ` · ${t("catbox.legendObserved")}`;
  return "";
}

// The trick in play; when none is (a trick just completed, or the round ended), the last finished
// trick with its winner marked. "Last trick" shows that one again while the next is being played.
function trickArea(view, ctx) {
  const trick = view.trick || [];
  const last = view.last_trick;
  const showLast = last && (!trick.length || ctx.ui.showLast);
  const toggle =
    last && trick.length
      ? h(
          "button",
          {
            type: "button",
            class: "small",
            "data-key": "last-trick",
            "aria-pressed": ctx.ui.showLast ? "true" : "false",
            onclick: () => {
              ctx.ui.showLast = !ctx.ui.showLast;
              ctx.rerender();
            },
          },
          t("catbox.lastTrickButton"),
        )
      : null;
  return h(
    "section",
    { class: "trick", "aria-label": t("catbox.trick"), "data-testid": "trick" },
    h("h2", {}, t("catbox.trick"), " ", toggle),
    trick.length ? trickCards(trick, ctx, null, ctx.fresh) : null,
    showLast ? lastTrick(last, ctx, !trick.length && ctx.fresh) : null,
    !trick.length && !last ? h("p", { class: "muted small" }, t("catbox.trickEmpty")) : null,
  );
}

export function lastTrick(last, ctx, fresh = false) {
  const outcome =
    last.winner !== null && last.winner !== undefined
      ? h(
          "p",
          { class: "trick-outcome" },
          "★ ",
          t(you("catbox.trickWon", last.winner === ctx.me), { name: ctx.names[last.winner], n: last.trick }),
        )
      : h(
          "p",
          { class: "trick-outcome paradox" },
          "⚡ ",
          t(you("catbox.trickParadox", last.paradox === ctx.me), { name: ctx.names[last.paradox], n: last.trick }),
        );
  return h(
    "div",
    { class: "last-trick", "data-testid": "last-trick" },
    last.plays.length ? trickCards(last.plays, ctx, last.winner, fresh) : null,
    outcome,
  );
}

// Cards in play order, each with its player; the winner's card marked. The newest card of a
// position drawn for the first time travels in from its player's side (not with reduced motion).
function trickCards(plays, ctx, winner, fresh) {
  return h(
    "ol",
    { class: "trick-cards" },
    plays.map((card, i) =>
      h(
        "li",
        {
          class: [card.seat === winner ? "won" : null, fresh && i === plays.length - 1 ? "arrive" : null],
          style: { "--from": `${(card.seat - (ctx.me ?? 0)) * 40}px` },
        },
        h(
          "span",
          { class: `card declared suit-${card.colour}`, "data-colour": card.colour },
          card.number,
          suitMark(card.colour, "card-mark"),
          spoken(` ${colourName(card.colour)}`),
        ),
        h(
          "span",
          { class: "small" },
          playerDot(card.seat),
          nameTag(ctx.names, card.seat),
          i === 0 ? paren(t("catbox.leader")) : "",
          card.seat === winner ? ` ★` : "",
        ),
      ),
    ),
  );
}

// The round that just ended: the final board, each seat's breakdown, the revealed discards and
// the paradox player's hand (all from the view's `last_round`).
export function summary(view, ctx) {
  const last = view.last_round;
  const predicted = last.seats.some((s) => s.prediction !== null);
  const rows = last.seats.map((s, seat) =>
    h(
      "tr",
      { class: s.paradox ? "paradox" : null },
      h("th", { scope: "row" }, seatName(ctx.names, seat)),
      h("td", {}, last.discards[seat] ?? "—"),
      predicted ? h("td", {}, s.prediction ?? "—") : null,
      h("td", {}, s.tricks),
      h(
        "td",
        { title: t("catbox.groupTitle", { n: s.group }) },
        s.paradox ? `⚡ ${t("catbox.paradoxShort")}` : s.hit ? `✓ +${s.bonus}` : `✗ 0`,
        h("span", { class: "small muted" }, paren(t("catbox.groupOf", { n: s.group }))),
      ),
      h("td", {}, s.points > 0 ? `+${s.points}` : s.points),
      h("td", { class: "total" }, s.total),
    ),
  );
  return h(
    "div",
    { class: "summary-body" },
    researchBoard(view, ctx, [], () => {}, last.board, t("catbox.finalBoard")),
    h(
      "div",
      {},
      last.last_trick ? h("h3", {}, t("catbox.lastTrick")) : null,
      last.last_trick ? lastTrick(last.last_trick, ctx) : null,
      breakdownTable(
        [
          "table.player",
          "catbox.discardCol",
          predicted ? "catbox.prediction" : null,
          "catbox.tricks",
          "catbox.bonus",
          "catbox.points",
          "table.total",
        ],
        rows,
      ),
      last.paradox !== null
        ? h(
            "p",
            { "data-testid": "paradox-hand" },
            "⚡ ",
            t(you("catbox.paradoxHand", last.paradox === ctx.me), { name: ctx.names[last.paradox] }),
            " ",
            (last.paradox_hand || []).map((n) => h("span", { class: "card small-card" }, n)),
          )
        : null,
    ),
  );
}

function players(view, ctx) {
  const predicting = (view.prediction_values || []).length > 0; // no predictions at 2 players: no column
  const rows = [];
  for (let seat = 0; seat < view.players; seat++) {
    const toMove = Array.isArray(view.to_move) && view.to_move.includes(seat);
    const xs = view.x_tokens[seat] || {};
    rows.push(
      h(
        "tr",
        { class: [toMove ? "to-move" : null, seat === view.seat ? "me" : null], "data-seat": seat },
        h(
          "th",
          { scope: "row" },
          playerDot(seat),
          nameTag(ctx.names, seat),
          seat === view.leader && view.phase === "play"
            ? h("span", { title: t("catbox.leaderMark"), "aria-label": t("catbox.leaderMark") }, " ▶")
            : "",
        ),
        h(
          "td",
          { class: "xs" },
          view.layout.rows.map((c) =>
            h(
              "span",
              {
                class: ["x-token", `suit-${c}`, xs[c] ? "covered" : "void"],
                role: "img",
                "aria-label": xs[c]
                  ? t("catbox.covered", { colour: colourName(c) })
                  : t("catbox.void", { colour: colourName(c) }),
                title: xs[c]
                  ? t("catbox.covered", { colour: colourName(c) })
                  : t("catbox.void", { colour: colourName(c) }),
              },
              suitMark(c),
              xs[c] ? null : h("span", { class: "void-cross", "aria-hidden": "true" }, "✕"),
            ),
          ),
        ),
        predicting
          ? h(
              "td",
              {},
              view.predictions && view.predictions[seat] !== null && view.predictions[seat] !== undefined
                ? view.predictions[seat]
                : t("catbox.noPrediction"),
            )
          : null,
        h("td", {}, view.tricks[seat]),
        h(
          "td",
          {},
          view.hand_counts[seat],
          view.phase === "discard"
            ? h(
                "span",
                {
                  class: "small muted",
                  title: t(view.discarded[seat] ? "catbox.discardedMark" : "catbox.discardingMark"),
                },
                " ",
                view.discarded[seat] ? "✓" : "…",
              )
            : null,
        ),
        h("td", { class: "total" }, view.scores[seat]),
      ),
    );
  }
  return h(
    "section",
    { class: "catbox-players", "aria-label": t("table.players") },
    h(
      "div",
      { class: "table-scroll" },
      h(
        "table",
        { class: "players-table", "data-testid": "players" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", { scope: "col" }, t("table.player")),
            h("th", { scope: "col", title: t("catbox.xTokens") }, "✕"),
            predicting ? h("th", { scope: "col", title: t("catbox.prediction") }, t("catbox.predictionShort")) : null,
            h("th", { scope: "col", title: t("catbox.tricks") }, t("catbox.tricksShort")),
            h("th", { scope: "col", title: t("catbox.cards") }, t("catbox.cardsShort")),
            h("th", { scope: "col" }, t("table.total")),
          ),
        ),
        h("tbody", {}, rows),
      ),
    ),
    h("p", { class: "small muted legend" }, t("catbox.playersLegend")),
  );
}

function handArea(view, ctx, legal, chosen, playsForChosen, act) {
  // replay: every hand, face up
  if (ctx.replay && view.hands) {
    return h(
      "section",
      { class: "hands-all", "data-testid": "all-hands" },
      view.hands.map((hand, seat) =>
        h(
          "div",
          { class: "hand-row" },
          h("h3", {}, playerDot(seat), t("replay.hand", { name: ctx.names[seat] })),
          h(
            "div",
            { class: "hand" },
            hand.map((n) => h("span", { class: "card" }, n)),
          ),
          view.discards && view.discards[seat] !== null && view.discards[seat] !== undefined
            ? h("span", { class: "small muted" }, t("catbox.discardOf", { n: view.discards[seat] }))
            : null,
        ),
      ),
    );
  }
  if (!view.hand) return null; // spectators have no hand
  const usable = new Set([...legal.plays.map((p) => p.n), ...legal.discards.map((d) => d.n)]);
  const pick = (n) => {
    ctx.ui.card = ctx.ui.card === n ? null : n;
    ctx.rerender();
    // the chosen card's choices (colours, or discard) come into view: on a phone they would sit
    // below the screen's edge under the trick and the hand (the least scroll that shows them)
    if (ctx.ui.card !== null) document.querySelector("[data-testid=controls]")?.scrollIntoView({ block: "nearest" });
  };
  // Each copy of a number is its own card; selecting one selects "a card of that number".
  let markedChosen = false;
  const cards = view.hand.map((n, i) => {
    const isChosen = chosen === n && !markedChosen;
    if (isChosen) markedChosen = true;
    return h(
      "button",
      {
        type: "button",
        class: ["card", "hand-card", isChosen ? "selected" : null],
        "data-key": `card-${i}`,
        "data-card": n,
        "aria-pressed": isChosen ? "true" : "false",
        disabled: !usable.has(n) || ctx.busy,
        onclick: () => pick(n),
      },
      n,
    );
  });
  const controls = [];
  if (legal.predicts.length) {
    controls.push(
      h("p", {}, t("catbox.phase.predict")),
      h(
        "div",
        { class: "row" },
        legal.predicts.map((p) =>
          h(
            "button",
            {
              type: "button",
              class: "primary",
              "data-key": p.text,
              "data-action": p.text,
              disabled: ctx.busy,
              onclick: () => act(p.text),
            },
            t("catbox.predict", { n: p.n }),
          ),
        ),
      ),
    );
  } else if (legal.discards.length) {
    const d = legal.discards.find((x) => x.n === chosen);
    controls.push(
      h("p", {}, t("catbox.phase.discard")),
      d
        ? h(
            "button",
            {
              type: "button",
              class: "primary",
              "data-key": "discard",
              "data-action": d.text,
              disabled: ctx.busy,
              onclick: () => act(d.text),
            },
            t("catbox.discardThis", { n: d.n }),
          )
        : h("p", { class: "muted" }, t("catbox.chooseCard")),
    );
  } else if (legal.plays.length) {
    if (chosen === null || !playsForChosen.length) controls.push(h("p", { class: "muted" }, t("catbox.chooseCard")));
    else
      controls.push(
        h("p", {}, t("catbox.chooseColour", { n: chosen })),
        h(
          "div",
          { class: "row colour-choices" },
          playsForChosen.map((p) =>
            h(
              "button",
              {
                type: "button",
                class: ["colour-button", `suit-${p.colour}`],
                "data-key": p.text,
                "data-action": p.text,
                disabled: ctx.busy,
                onclick: () => act(p.text),
              },
              suitMark(p.colour),
              `${p.n} · ${colourName(p.colour)}`,
            ),
          ),
        ),
      );
  }
  return h(
    "section",
    { class: "my-hand", "aria-label": t("catbox.hand"), "data-testid": "hand" },
    h(
      "h2",
      {},
      t("catbox.hand"),
      view.discard !== null && view.discard !== undefined
        ? h("span", { class: "small muted" }, ` · ${t("catbox.yourDiscard", { n: view.discard })}`)
        : null,
    ),
    // one Tab stop (arrow keys move along the hand); the chosen card's choices come next
    roving(
      h("div", { class: "hand", role: "toolbar", "aria-label": t("catbox.hand"), "data-first-stop": "" }, cards),
      ctx.ui.handKey,
      (key) => (ctx.ui.handKey = key),
    ),
    h("div", { class: "controls", "data-testid": "controls" }, controls),
  );
}

// A one- or two-character label per seat for the board tokens: the name's initial, with the seat
// number added when two players share an initial (the colour tells them apart too).
function tokenLabels(names) {
  const first = names.map((n) =>
    String(n || "?")
      .trim()
      .slice(0, 1)
      .toUpperCase(),
  );
  return first.map((c, i) => (first.filter((x) => x === c).length > 1 ? `${c}${i}` : c));
}
