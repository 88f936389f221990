// The game log in words: recorded actions (history, redacted for the viewer) interleaved with the
// engine's events. Event templates come from the server (`messages` of /api/games, the engine's
// own en/ja words); actions are put in words by each game module's `describeAction`.
import { CHANCE } from "./games/common.js";
import { joinNames, lang, pick, t } from "./i18n.js";

const SEAT_LIST_KEYS = new Set(["winners", "seats", "losers", "players"]);
const SEAT_KEYS = new Set(["owner", "to", "from", "winner", "loser", "leader", "target", "seat"]);

function formatValue(key, value, names, module) {
  const special = module?.eventValue ? module.eventValue(key, value) : undefined;
  if (special !== undefined) return special;
  if (Array.isArray(value)) {
    if (SEAT_LIST_KEYS.has(key) && value.every((v) => Number.isInteger(v)))
      return joinNames(value.map((s) => names[s] ?? s));
    return value.map((v) => formatValue("", v, names, module)).join(lang === "ja" ? "、" : ", ");
  }
  if (typeof value === "object" && value !== null) {
    return Object.entries(value)
      .map(([k, v]) => {
        // keys that are seat numbers ({"0": 4}) read as names
        const label = /^\d+$/.test(k) ? `${names[Number(k)] ?? k}: ` : SEAT_KEYS.has(k) ? "" : `${k} `;
        return `${label}${formatValue(k, v, names, module)}`;
      })
      .join(" ");
  }
  if (SEAT_KEYS.has(key) && Number.isInteger(value)) return names[value] ?? value;
  if (value === null || value === undefined) return "—";
  return String(value);
}

export function describeEvent(event, info, names, module = null) {
  const messages = info?.messages || {};
  const template = messages[event.kind];
  const who =
    event.seat === null || event.seat === undefined ? "" : (names[event.seat] ?? t("table.seat", { n: event.seat }));
  const data = event.data || {};
  if (template) {
    return pick(template).replace(/\{(\w+)\}/g, (all, key) => {
      if (key === "who") return who;
      if (key in data) return formatValue(key, data[key], names, module);
      return all;
    });
  }
  // No template from the server: the event's name and its facts, still readable.
  const facts = Object.entries(data)
    .map(([k, v]) => `${k.replace(/_/g, " ")} ${formatValue(k, v, names, module)}`)
    .join(", ");
  const what = event.kind.replace(/_/g, " ");
  return `${who ? `${who}: ` : ""}${what}${facts ? ` (${facts})` : ""}`;
}

// A view's `prompt` or `goal` ({kind, seat, data}) in words: the same catalogue as the events.
export function describeMessage(message, info, names, module = null) {
  return message ? describeEvent(message, info, names, module) : "";
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
      out.push({ kind: "event", seat: ev.seat, text: describeEvent(ev, info, names, gameModule), eventKind: ev.kind });
      const after = roundAfter(ev);
      if (after !== null && after !== undefined) nextRound = after;
    }
    while (n < pending.length && (pending[n].seq ?? 0) <= upTo) {
      out.push({ kind: "notice", seat: pending[n].seat, text: pick(pending[n].text) });
      n++;
    }
  };
  flushEvents(0);
  history.forEach(([seat, text], i) => {
    const words = gameModule.describeAction(seat, text, names);
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
