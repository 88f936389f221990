// What a table page knows, and the one function that changes it: each server message and each
// step of the person's own (a move sent, a refusal, the summary closed, a bot level chosen) and
// each answer the page asked for (results, bot levels, the rematch offer, a hint) is an event
// reduced into a new state. table_socket.js turns the socket's frames into events, table_draw.js
// and table_seats.js draw states, table.js runs the effects (timers, loading). Pure: no DOM, no
// socket, no clock (events carry `now`).
import { CHANCE } from "./games/common.js";

export function initialState() {
  return {
    table: null,
    view: null,
    seq: null,
    clock: null,
    clockOffset: 0, // server time − local time, seconds
    connected: false,
    notFound: false,
    results: null,
    notices: [], // table notices, each once (a reconnection sends them all again)
    sending: false, // a move is on its way: controls stay disabled until this seat's choices change
    sentLegalKey: "",
    summaryClosed: null, // the round whose summary the person closed (or answered by a move)
    info: null, // the game's name, all words.js needs ({name}); the first state message gives it
    bots: null, // the game's bot levels (from /api/games), asked for while the table is open
    botLevels: {}, // seat → bot level chosen before the start (survives redraws)
    rematch: undefined, // the rematch offer after the game: undefined until asked, then null or the offer
    hint: null, // {view, text}: the hint asked for at this position (tables with the hints option)
  };
}

const legalKey = (view) => (view?.legal ? view.legal : []).join("|");
const noticeKey = (n) => `${n.kind}|${n.seat}|${n.seq}|${n.at}`;

export function reduce(state, event) {
  switch (event.type) {
    case "state": {
      const msg = event.msg;
      const known = new Set(state.notices.map(noticeKey));
      const fresh = (msg.notices || []).filter((n) => !known.has(noticeKey(n)) && known.add(noticeKey(n)));
      return {
        ...state,
        table: msg.table,
        info: state.info ?? { name: msg.table.game },
        view: msg.view,
        seq: msg.seq,
        clock: msg.clock,
        clockOffset: msg.clock && typeof msg.clock.now === "number" ? msg.clock.now - event.now : state.clockOffset,
        notices: fresh.length ? [...state.notices, ...fresh] : state.notices,
        // other seats acting at the same time send state messages too: only a change of this
        // seat's choices answers the move
        sending: state.sending && legalKey(msg.view) === state.sentLegalKey,
      };
    }
    case "sent": {
      const last = state.view?.last_round;
      return {
        ...state,
        sending: true,
        sentLegalKey: legalKey(state.view),
        summaryClosed: last ? last.round : state.summaryClosed,
      };
    }
    case "refused":
    case "unanswered":
      return { ...state, sending: false };
    case "connection":
      return { ...state, connected: event.connected };
    case "notFound":
      return { ...state, notFound: true };
    case "results":
      return { ...state, results: event.results };
    case "closeSummary":
      return { ...state, summaryClosed: event.round };
    case "bots":
      return { ...state, bots: event.bots };
    case "botLevel":
      return { ...state, botLevels: { ...state.botLevels, [event.seat]: event.level } };
    case "rematch":
      return { ...state, rematch: event.offer };
    case "hint":
      return { ...state, hint: { view: event.view, text: event.text } };
    default:
      throw new Error(`unknown table event ${event.type}`);
  }
}

// Is `msg` a new position reached by another seat's move (not chance, not this person's own)?
// Those are shown one by one, paced, so a person can follow them.
export function byOther(state, msg) {
  if (!state.view || !msg.view || msg.seq <= (state.seq ?? -1)) return false;
  const history = msg.view.history || [];
  const last = history[history.length - 1];
  return Boolean(last) && last[0] !== CHANCE && last[0] !== (msg.table.you ?? null);
}
