// The game log in words: recorded actions (history, redacted for the viewer) interleaved with the
// engine's events. Events, prompts and goals are worded from the catalogue (`<game>.event.<kind>`,
// `<game>.prompt.<kind>`, the game's messages.po) by the same rule as nekobako.i18n.events in
// Python (tests/i18n checks both give the same words); actions by each game module's
// `describeAction`.
import { CHANCE } from "./games/common.js";
import { colon, has, joinList, joinNames, paren, t, valueText, you } from "./i18n.js";

const SEAT_KEYS = new Set(["who", "seat", "to", "from", "owner", "winner", "loser", "leader", "target"]);
const SEAT_LIST_KEYS = new Set(["winners", "seats", "losers", "players"]);

export function seatName(seat, names) {
  return names?.[seat] ?? t("words.seat", { n: seat });
}

function fieldText(game, key, value, names, viewer = null) {
  if (SEAT_KEYS.has(key) && Number.isInteger(value))
    return value === viewer ? t("words.reader") : seatName(value, names);
  if (SEAT_LIST_KEYS.has(key) && Array.isArray(value) && value.every((v) => Number.isInteger(v)))
    return value.length ? joinNames(value.map((s) => seatName(s, names))) : t("words.none");
  if (value !== null && typeof value === "object" && !Array.isArray(value) && !("key" in value)) {
    const keys = Object.keys(value);
    if (keys.every((k) => /^\d+$/.test(k))) {
      const pairs = keys.map((k) => `${seatName(Number(k), names)}${colon()}${fieldText(game, "", value[k], names)}`);
      return pairs.length ? joinList(pairs) : t("words.none");
    }
  }
  if (Array.isArray(value) && value.length && value.every((v) => Number.isInteger(v))) return value.join(" ");
  if (typeof value === "string" && has(`${game}.${key}.${value}`)) return t(`${game}.${key}.${value}`);
  return valueText(value);
}

// An event ({kind, seat, data}) in words; `viewer` is the reader's seat (second person when the
// event is theirs). `family`: "event", or "prompt" for a view's prompt and goal.
export function describeEvent(event, info, names, viewer = null, family = "event") {
  const game = info?.name;
  const key = `${game}.${family}.${event.kind}`;
  const data = event.data || {};
  const who = event.seat === null || event.seat === undefined ? "" : seatName(event.seat, names);
  if (has(key)) {
    const params = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, fieldText(game, k, v, names, viewer)]));
    params.who = who;
    if (!("n" in data)) {
      // plural forms count the seats listed ("winner" / "winners"), as nekobako.i18n.events
      const list = Object.entries(data).find(([k, v]) => SEAT_LIST_KEYS.has(k) && Array.isArray(v));
      params.n = list ? list[1].length : 1;
    }
    return t(you(key, event.seat !== null && event.seat !== undefined && event.seat === viewer), params);
  }
  // Not in the catalogue: the event's name and its facts, still readable.
  const facts = Object.entries(data)
    .map(([k, v]) => `${k.replace(/_/g, " ")} ${fieldText(game, k, v, names)}`)
    .join(", ");
  const what = event.kind.replace(/_/g, " ");
  return `${who ? `${who}${colon()}` : ""}${what}${facts ? paren(facts) : ""}`;
}

// A view's `prompt` or `goal` ({kind, seat, data}) in words, for the reader at `viewer`.
export function describeMessage(message, info, names, viewer = null) {
  return message ? describeEvent(message, info, names, viewer, "prompt") : "";
}

// Log entries, oldest first: {kind: "action"|"chance"|"event"|"notice"|"round", seat, text, index}.
// Table notices (a bot took a seat, …) are placed at the position (`seq`) they happened. A "round"
// entry heads each round: the game module's `roundOf(event)` names the events that begin one (the
// heading goes before the event, or before the chance step — a deal — that caused it), and
// `roundAfter(event)` those after which one begins (the heading goes before the next move).
export function buildLog(view, info, names, gameModule, notices = []) {
  const out = [];
  const history = view.history || [];
  const events = (view.events || []).slice().sort((a, b) => a.at - b.at);
  const pending = notices.slice().sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
  const roundOf = gameModule.roundOf || (() => null);
  const roundAfter = gameModule.roundAfter || (() => null);
  let nextRound = null;
  const heading = (n) => ({ kind: "round", text: t("table.round", { n }), round: n });
  let e = 0;
  let n = 0;
  const flushEvents = (upTo) => {
    while (e < events.length && events[e].at <= upTo) {
      const ev = events[e++];
      const round = roundOf(ev);
      if (round !== null && round !== undefined) {
        const last = out[out.length - 1];
        if (last && last.kind === "chance" && last.index === ev.at - 1) out.splice(out.length - 1, 0, heading(round));
        else out.push(heading(round));
      }
      out.push({
        kind: "event",
        seat: ev.seat,
        text: describeEvent(ev, info, names, view.seat ?? null),
        eventKind: ev.kind,
      });
      const after = roundAfter(ev);
      if (after !== null && after !== undefined) nextRound = after;
    }
    while (n < pending.length && (pending[n].seq ?? 0) <= upTo) {
      const notice = pending[n];
      const aboutReader = notice.seat !== null && notice.seat === (view.seat ?? null);
      out.push({ kind: "notice", seat: notice.seat, text: t(you(notice.key, aboutReader), notice.params) });
      n++;
    }
  };
  flushEvents(0);
  history.forEach(([seat, text], i) => {
    const words = gameModule.describeAction(seat, text, names, view.seat ?? null);
    if (words && nextRound !== null) {
      out.push(heading(nextRound));
      nextRound = null;
    }
    if (words) out.push({ kind: seat === CHANCE ? "chance" : "action", seat, text: words, index: i });
    flushEvents(i + 1);
  });
  flushEvents(Infinity);
  return out;
}
