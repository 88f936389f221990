// A table page: seats while the table is open, the game while it runs (drawn by games/<name>.js
// from the view the server sends over the WebSocket), the results and the replay link after.
import * as api from "./api.js";
import { nameTag } from "./games/common.js";
import { loadGame } from "./games/index.js";
import { announce, h, patch, toast } from "./dom.js";
import { CLOSE, colon, joinNames, onLangChange, paren, say, sentence, sentences, t } from "./i18n.js";
import { currentUser, onUserChange } from "./session.js";
import { phaseSection, rulesButton } from "./rules.js";
import { clockText, formatDuration, seatLabel, seatName, seatNames, statusLabel } from "./tables.js";
import { byOther, initialState, reduce } from "./table_state.js";
import { buildLog, describeMessage } from "./words.js";
import { TableSocket } from "./ws.js";

const SEND_TIMEOUT_MS = 8000;
// Others' moves are shown at least this far apart, so a person can follow each one (a bot's
// four plays in a row, a deal after the last trick). Settable for tests: localStorage "nekobako.pace".
const PACE_MS = Number(localStorage.getItem("nekobako.pace") ?? 900);
const BACKLOG = 12; // more waiting than this (a reconnection): catch up at once

export function mount(root, { id }) {
  let state = initialState(); // the facts, changed only by `dispatch` (table_state.js)
  const dispatch = (event) => (state = reduce(state, event));
  // what only this page's drawing needs (not facts about the table)
  const page = {
    info: null, // the game's name, all words.js needs ({name}); the first state message gives it
    bots: null, // the game's bot levels (from /api/games), asked for while the table is open
    rematch: undefined, // the rematch offer after the game: undefined until asked, then null or the offer
    module: null, // games/<name>.js
    ui: {}, // the game renderer's own selection state, kept across server messages
    refocus: false, // a keyboard player waits for their next move: the focus goes to it when it comes
    parkedAt: null, // where the focus was put while waiting (moved from there by the player: no longer waiting)
    sendingTimer: null,
    botLevels: {}, // seat → bot level chosen before the start (survives redraws)
    queue: [], // state messages waiting for their turn to be shown (pacing)
    shownAt: 0,
  };

  let hint = null; // {view, text}: the hint asked for at this position (tables with the hints option)
  async function askHint(view) {
    try {
      const answer = await api.hint(id);
      hint = { view, text: t("review.hint.answer", { action: answer.action }) };
    } catch (err) {
      hint = { view, text: err.message };
    }
    renderStatus();
  }
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
  root.append(layout);

  // What the first drawing does not need comes after it (issue 17: fewer modules in a row before a
  // phone can play): the chat box, the log panel, the rematch panel. What they are told meanwhile
  // waits for them (`withChat`).
  const later = { chat: null, chatWaiting: [], logPanel: null, rematchPanel: null };
  const withChat = (fn) => (later.chat ? fn(later.chat) : later.chatWaiting.push(fn));
  Promise.all([import("./chat.js"), import("./log.js"), import("./rematch.js")])
    .then(([chat, log, rematch]) => {
      later.chat = new chat.ChatBox((text) => {
        if (!socket.chat(text)) {
          toast(t("app.offline"), "error");
          return false;
        }
        return true;
      }, id);
      layout.append(later.chat.el);
      for (const fn of later.chatWaiting.splice(0)) fn(later.chat);
      later.logPanel = log.logPanel;
      later.rematchPanel = rematch.rematchPanel;
      render();
    })
    .catch((err) => toast(t("app.error", { message: err.message || err }), "error"));

  // ---------------------------------------------------------------- socket
  const socket = new TableSocket(id, {
    state(msg) {
      page.queue.push(msg);
      pump();
    },
    chat(msg) {
      withChat((box) => box.add(msg.message));
    },
    rematch(msg) {
      showRematch(msg.rematch);
    },
    chat_history(msg) {
      withChat((box) => box.setMessages(msg.messages));
    },
    refused(msg) {
      if (msg.code?.startsWith("chat_")) {
        toast(say(msg) || msg.reason, "error");
        return;
      }
      dispatch({ type: "refused" });
      toast(t("table.rejected", { reason: say(msg) || msg.reason }), "error");
      if (msg.code === "stale" || msg.code === "not_your_turn") socket.sync(); // our picture was old
      render();
    },
    status(connected, code) {
      dispatch({ type: "connection", connected });
      if (!connected && code !== CLOSE.NO_TABLE && !state.table) {
        // never connected: ask the REST API whether the table exists at all
        api.table(id).catch((err) => {
          if (err.status === 404) {
            socket.close();
            showNotFound();
          }
        });
      }
      if (!connected && code === CLOSE.NO_TABLE) {
        showNotFound();
        return;
      }
      renderStatus();
    },
  });

  // No such table: say so everywhere on the page (not "connecting…" forever).
  function showNotFound() {
    dispatch({ type: "notFound" });
    withChat((box) => (box.el.hidden = true));
    patch(board, h("p", { class: "error" }, t("app.notFound")), h("a", { href: "/" }, t("app.back")));
    patch(header, h("h1", {}, t("lobby.tableN", { id })));
    patch(status, t("app.notFound"));
    patch(clockBox);
  }

  // Show the waiting state messages in order; another seat's move waits until the one before it
  // has been on screen for PACE_MS.
  let pumping = false;
  async function pump() {
    if (pumping) return;
    pumping = true;
    try {
      while (page.queue.length) {
        const msg = page.queue[0];
        const wait = page.queue.length > BACKLOG || !byOther(state, msg) ? 0 : page.shownAt + PACE_MS - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        page.queue.shift();
        await onState(msg);
        page.shownAt = Date.now();
      }
    } finally {
      pumping = false;
    }
  }

  async function onState(msg) {
    const before = state.view;
    dispatch({ type: "state", msg, now: Date.now() / 1000 });
    // drawn as soon as the game's module is in (preloaded with the page): nothing else is waited for
    page.info ||= { name: msg.table.game };
    if (!page.module) page.module = await loadGame(msg.table.game);
    if (!msg.view && !page.bots) {
      page.bots = ["random"]; // until the game list answers: then the seats are drawn again
      api
        .gameInfo(msg.table.game)
        .then((info) => {
          if (info) page.bots = info.bots;
          render();
        })
        .catch(() => {});
    }
    const user = currentUser();
    const seated = user && msg.table.seats.some((s) => s.user && s.user.id === user.id);
    withChat((box) => box.setWriter(Boolean(user), seated ? "players" : "spectators"));
    if (msg.view?.over && page.rematch === undefined) {
      page.rematch = null;
      api
        .rematchState(id)
        .then((answer) => showRematch(answer.rematch))
        .catch(() => {});
    }
    if (msg.view?.over && !state.results) {
      // the spectators' channel opens to everyone once the game is over
      api
        .chat(id)
        .then((messages) => withChat((box) => box.setMessages(messages)))
        .catch(() => {});
      api
        .results(id)
        .then((results) => {
          dispatch({ type: "results", results });
          renderResults();
        })
        .catch(() => {});
    }
    const started = performance.now();
    render();
    // one User Timing entry per message drawn: benchmarks/web.py reads them (render time per message)
    performance.measure("nekobako:render", { start: started, end: performance.now() });
    announceNews(before, state.view);
  }

  const isMine = (view) =>
    Boolean(
      view && !view.over && Array.isArray(view.to_move) && view.to_move.includes(state.table?.you) && view.legal.length,
    );

  // What a screen reader hears after a message, once: the game's news (a trick or a round won, by
  // whom), then "your turn" when the move comes to this person, or the winners when the game ends.
  function announceNews(before, view) {
    if (!view) return;
    const said = before && page.module?.news ? page.module.news(before, view, names()) : [];
    if (view.over && !before?.over) {
      said.push(sentence(t("table.over")), winnersLine(view, names()));
    } else if (isMine(view) && !isMine(before)) said.push(t("table.yourTurn"));
    announce(sentences(said));
  }

  // Keyboard players keep their place: the control they pressed is disabled or gone after a move,
  // so the focus would fall back to the top of the page; it goes to the board's first enabled
  // control instead (only after keyboard use, so pointer users' pages never jump).
  let keyboardUsed = false;
  const onKeyDown = () => (keyboardUsed = true);
  const onPointerDown = () => (keyboardUsed = false);
  document.addEventListener("keydown", onKeyDown, true);
  document.addEventListener("pointerdown", onPointerDown, true);

  // Where the focus goes when the control that had it is gone (a move answered, a bot added, the
  // game started or over): the results' heading when they just appeared; else the board's next
  // move — Start, the hand's Tab stop, the move's controls; else any enabled control; else the
  // page's heading. A keyboard player put anywhere but on a move during play is waiting: the focus
  // stays parked there and comes to their next move, or to the results, unless they moved it.
  const MOVES = [
    "[data-key=start]:not(:disabled)",
    '[data-first-stop] button:not(:disabled):not([tabindex="-1"])',
    "[data-testid=controls] button:not(:disabled)",
  ];
  const ANY = "button:not(:disabled), select:not(:disabled)";
  function focusNext(wasHere, overNow) {
    const active = document.activeElement;
    // a control that became disabled under the focus (patched in place) counts as lost too
    const lost = !active || active === document.body || !active.isConnected || active.disabled === true;
    const parked = page.refocus && active === page.parkedAt;
    if (!(lost && (wasHere || page.refocus)) && !parked) return;
    if (state.sending) return;
    const targets = overNow
      ? [resultsBox.querySelector("h2")]
      : [...MOVES.flatMap((q) => [...board.querySelectorAll(q)]), ...board.querySelectorAll(ANY)];
    for (const target of targets) {
      target?.focus();
      if (target && document.activeElement === target) {
        park(target, Boolean(state.view) && !overNow && !MOVES.some((q) => target.matches(q)));
        return;
      }
    }
    if (!lost) return;
    header.querySelector("h1")?.focus();
    park(document.activeElement, true);
  }
  function park(place, waiting) {
    page.parkedAt = place;
    page.refocus = waiting && keyboardUsed;
  }

  // Send one action (a string taken from `legal`).
  function act(text) {
    if (state.sending) return;
    if (!socket.act(text)) {
      toast(t("app.offline"), "error");
      return;
    }
    page.refocus = keyboardUsed;
    dispatch({ type: "sent" }); // a move also answers the round summary
    clearTimeout(page.sendingTimer);
    page.sendingTimer = setTimeout(() => {
      // no answer in time (lost connection): let the player try again
      if (state.sending) {
        dispatch({ type: "unanswered" });
        socket.sync();
        render();
      }
    }, SEND_TIMEOUT_MS);
    render();
  }

  // ---------------------------------------------------------------- drawing
  function names() {
    const n = state.view ? state.view.players : state.table ? state.table.seats.length : 0;
    return seatNames(state.table, n);
  }

  // A person a bot replaced (left, or timed out too often) may take the seat back.
  function reclaimButton(tbl) {
    const user = currentUser();
    const mine = user && tbl?.status === "running" && tbl.seats.find((s) => s.kind === "bot" && s.user?.id === user.id);
    if (!mine) return null;
    return [
      " · ",
      h("span", { class: "replaced-you" }, t("table.replacedYou")),
      " ",
      h(
        "button",
        {
          type: "button",
          class: "primary",
          "data-key": "reclaim",
          onclick: async () => {
            try {
              await api.reclaim(id);
            } catch (err) {
              toast(err.message, "error");
            }
            socket.sync();
          },
        },
        t("table.reclaim"),
      ),
    ];
  }

  function renderHeader() {
    const tbl = state.table;
    const title = tbl ? t("table.title", { game: t(tbl.title), id: tbl.id }) : t("table.connecting");
    const me = tbl && tbl.you !== null && tbl.you !== undefined ? tbl.you : null;
    patch(
      header,
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
        tbl ? rulesButton(tbl.game, () => phaseSection(state.view)) : null,
        reclaimButton(tbl),
        me !== null && tbl.status === "running" && !tbl.seats[me].replaced ? " · " : null,
        me !== null && tbl.status === "running" && !tbl.seats[me].replaced
          ? h(
              "button",
              {
                type: "button",
                class: "link",
                "data-key": "leave-running",
                onclick: async () => {
                  if (!window.confirm(t("table.leaveConfirm"))) return;
                  try {
                    await api.leave(id);
                  } catch (err) {
                    toast(err.message, "error");
                  }
                  socket.sync();
                },
              },
              t("table.leaveTable"),
            )
          : null,
      ),
    );
  }

  function renderStatus() {
    const view = state.view;
    const tbl = state.table;
    let text = "";
    let mine = false;
    if (!state.connected && tbl) text = t("app.offline");
    else if (!tbl) text = t("table.connecting");
    else if (!view) text = t("table.waiting");
    else if (view.over) text = t("table.over");
    else if (view.to_move === "chance") text = t("table.chance");
    else {
      const seats = view.to_move;
      mine = tbl.you !== null && seats.includes(tbl.you) && view.legal.length > 0;
      const nm = names();
      // several play at once (simultaneous Shut the Box): the reader is told it is their turn and
      // who else plays, never named among them in the third person
      const others = joinNames(seats.filter((s) => s !== tbl.you).map((s) => nm[s]));
      if (mine && seats.length === 1) text = t("table.yourTurn");
      else if (mine) text = t("table.yourTurnWith", { names: others });
      else if (seats.length === 1) text = t("table.turnOf", { name: nm[seats[0]] });
      else text = t("table.turnOfMany", { names: joinNames(seats.map((s) => nm[s])) });
    }
    const round = view && page.module?.roundText ? page.module.roundText(view) : "";
    const prompt = view && !view.over ? describeMessage(view.prompt, page.info, names(), view.seat ?? null) : "";
    // hints (a table option, docs/review.md): the best move at your turn, asked for; shown until the next position
    const hintable = mine && tbl?.options?.hints;
    const hinted = hintable && hint && hint.view === view ? hint : null;
    patch(
      promptLine,
      prompt ? h("span", { class: mine ? "mine" : null }, mine ? "▶ " : "", prompt) : null,
      hintable && !hinted
        ? h(
            "button",
            { type: "button", class: "hint-button", "data-key": "hint", onclick: () => askHint(view) },
            t("review.hint.ask"),
          )
        : null,
      hinted ? h("span", { class: "hint", role: "status", "data-testid": "hint" }, " ", hinted.text) : null,
    );
    promptLine.hidden = !prompt;
    patch(
      status,
      round ? h("span", { class: "round" }, round) : null,
      h("span", { class: ["turn", mine ? "mine" : null] }, text),
    );
    status.classList.toggle("my-turn", mine);
    document.title = `${mine ? "● " : ""}${tbl ? `${t(tbl.title)} ${tbl.id}` : ""} — nekobako`;
    renderClock();
  }

  // Before the start: the clock's settings in words. During the game: the time left of each
  // seat to move (counting down), the bank of the others (real time) and timeouts in a row.
  function renderClock() {
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
    const nm = names();
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
          ? h(
              "span",
              { class: "missed" },
              paren(t("table.clockMissed", { n: missed[seat], limit: clock.timeouts ?? 3 })),
            )
          : null,
      );
    });
    patch(clockBox, items);
  }

  function renderBoard() {
    const view = state.view;
    const tbl = state.table;
    if (!tbl) return patch(board, h("p", {}, t("table.connecting")));
    if (!view) return patch(board, seatManager());
    if (!page.module) return patch(board, h("p", {}, t("app.loading")));
    const legalKey = (view.legal || []).join("|");
    if (page.ui.legalKey !== legalKey) page.ui = { legalKey };
    const fresh = board.dataset.seq !== String(state.seq); // first drawing of this position: animate
    const ctx = {
      names: names(),
      me: tbl.you ?? null,
      act,
      busy: state.sending,
      ui: page.ui,
      rerender: renderBoard,
      replay: false,
      fresh,
    };
    board.dataset.seq = state.seq; // which server message this drawing shows (for tests and debugging)
    board.setAttribute("aria-busy", String(state.sending)); // a move of this seat is on its way, unanswered
    const last = view.last_round;
    const summary =
      last && last.round !== state.summaryClosed && page.module.summary
        ? roundSummary(page.module.summary(view, ctx), last.round, () => {
            dispatch({ type: "closeSummary", round: last.round });
            renderBoard();
          })
        : null;
    patch(board, summary, page.module.render(view, ctx)); // only what changed (dom.js)
  }

  // The scores and the log are drawn in the next frame: the board and your hand (what a person acts
  // on) show first; several messages in one frame draw the side once.
  let sidePending = false;
  function renderSideSoon() {
    if (sidePending) return;
    sidePending = true;
    requestAnimationFrame(() => {
      sidePending = false;
      const started = performance.now();
      // measured when drawn (not while the log panel's module is still on its way)
      if (renderSide()) performance.measure("nekobako:render-side", { start: started, end: performance.now() });
    });
  }

  function renderSide() {
    const view = state.view;
    if (!view || !page.module || !later.logPanel) {
      patch(side);
      return false;
    }
    const nm = names();
    const entries = buildLog(view, page.info, nm, page.module, state.notices);
    const log = side.querySelector(".log");
    const atEnd = !log || log.scrollTop + log.clientHeight >= log.scrollHeight - 8; // a reader who scrolled back stays
    patch(
      side,
      h("h2", {}, t("table.scores")),
      h(
        "p",
        { class: "goal small", "data-testid": "goal" },
        describeMessage(view.goal, page.info, nm, view.seat ?? null),
      ),
      scoreTable(view, nm, page.module),
      h("h2", {}, t("table.log")),
      later.logPanel(entries, { previous: log }),
    );
    const kept = side.querySelector(".log");
    if (kept === log && atEnd) kept.scrollTop = kept.scrollHeight; // patched in place: newest line in sight
    side.dataset.seq = state.seq; // the message the scores and log show (a frame after the board: tests wait for it)
    return true;
  }

  function renderResults() {
    const view = state.view;
    if (!view?.over) {
      resultsBox.hidden = true;
      return;
    }
    resultsBox.hidden = false;
    patch(resultsBox, resultsPanel(view, state.results, names(), id, state.table));
  }

  // Whoever played goes to the rematch's table once everyone has accepted.
  function playedHere() {
    const user = currentUser();
    return Boolean(user && state.table?.seats.some((s) => s.user?.id === user.id));
  }

  function showRematch(offer) {
    page.rematch = offer;
    if (offer?.new_table && playedHere()) {
      location.hash = `#/table/${offer.new_table}`;
      return;
    }
    renderRematch();
  }

  function renderRematch() {
    rematchBox.hidden = !state.view?.over || !later.rematchPanel;
    if (rematchBox.hidden) return;
    patch(
      rematchBox,
      later.rematchPanel(id, page.rematch ?? null, {
        played: playedHere(),
        me: currentUser()?.id,
        changed: showRematch,
      }),
    );
  }

  function seatManager() {
    const tbl = state.table;
    const user = currentUser();
    const isHost = user && tbl.host && tbl.host.id === user.id;
    const mine = tbl.you !== null && tbl.you !== undefined;
    const levels = page.bots || ["random"];
    const run = async (promise) => {
      try {
        await promise;
      } catch (err) {
        toast(err.message, "error");
      }
      socket.sync();
    };
    const rows = tbl.seats.map((s, i) => {
      const controls = [];
      if (s.kind === "empty") {
        if (user && !mine)
          controls.push(h("button", { type: "button", onclick: () => run(api.join(id, i)) }, t("lobby.join")));
        if (isHost) {
          const chosen = page.botLevels[i] || levels[0];
          const select = h(
            "select",
            {
              "aria-label": t("lobby.botLevel"),
              "data-key": `bot-level-${i}`,
              onchange: (e) => (page.botLevels[i] = e.target.value),
            },
            levels.map((b) => h("option", { value: b, selected: b === chosen }, t(`bot.${b}`))),
          );
          controls.push(
            select,
            h(
              "button",
              {
                type: "button",
                "data-key": `add-bot-${i}`,
                onclick: () => run(api.addBot(id, page.botLevels[i] || levels[0], i)),
              },
              t("lobby.addBot"),
            ),
          );
        }
      } else if (s.kind === "bot" && isHost) {
        controls.push(h("button", { type: "button", onclick: () => run(api.removeSeat(id, i)) }, "✕"));
      }
      return h(
        "li",
        { class: "seat-row" },
        h("span", { class: "pc-dot", style: { "--pc": `var(--p${i})` } }),
        h(
          "span",
          { class: "seat-name" },
          t("table.seat", { n: i }),
          colon(),
          seatLabel(tbl, i),
          tbl.you === i ? paren(t("lobby.you")) : "",
        ),
        h("span", { class: "row" }, controls),
      );
    });
    const full = tbl.seats.every((s) => s.kind !== "empty");
    return h(
      "div",
      { class: "seat-manager" },
      h("p", {}, t("table.waiting")),
      user ? null : h("p", { class: "muted" }, t("lobby.needAccount"), " ", h("a", { href: "/" }, t("app.back"))),
      h("ul", { class: "seat-list" }, rows),
      h(
        "div",
        { class: "row" },
        isHost && full
          ? h(
              "button",
              { type: "button", class: "primary", "data-key": "start", onclick: () => run(api.start(id)) },
              t("table.start"),
            )
          : null,
        mine ? h("button", { type: "button", onclick: () => run(api.leave(id)) }, t("table.leaveTable")) : null,
      ),
    );
  }

  function render() {
    if (state.notFound) return showNotFound(); // e.g. the language switched
    const wasHere = layout.contains(document.activeElement);
    const overBefore = !resultsBox.hidden;
    renderHeader();
    renderStatus();
    renderResults();
    renderRematch();
    renderBoard();
    renderSideSoon();
    later.chat?.render();
    focusNext(wasHere, !overBefore && !resultsBox.hidden);
  }

  const tick = setInterval(renderClock, 1000);
  const offLang = onLangChange(render);
  const offUser = onUserChange(() => socket.close() || location.reload());
  render();
  return () => {
    document.removeEventListener("keydown", onKeyDown, true);
    document.removeEventListener("pointerdown", onPointerDown, true);
    clearInterval(tick);
    clearTimeout(page.sendingTimer);
    offLang();
    offUser();
    socket.close();
    document.title = "nekobako 猫箱";
  };
}

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

// Totals per seat, with each finished round's scores, and the winners marked.
export function scoreTable(view, names, module) {
  const rounds = view.round_scores || [];
  const label = module?.scoreLabel ? module.scoreLabel() : t("table.score");
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
            h("span", { class: "pc-dot", style: { "--pc": `var(--p${seat})` } }),
            nameTag(names, seat),
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
