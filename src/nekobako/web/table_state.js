// What a table page knows, and the one function that changes it: each server message and each
// step of the person's own (a move sent, a refusal, the summary closed) is an event reduced into a
// new state; table.js only draws states and runs the effects (socket, timers, loading). Pure: no
// DOM, no socket, no clock (events carry `now`).
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
