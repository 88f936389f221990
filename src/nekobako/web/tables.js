// Words about tables shared by the lobby, the table page and the replay: seat names, statuses,
// option names and values.
import { deckText, isDeck } from "./deck.js";
import { h } from "./dom.js";
import { paren, t } from "./i18n.js";

export function statusLabel(status) {
  return t(`lobby.status.${status}`);
}

// The name shown for a seat: the player's name, "bot (level)", or "empty seat".
export function seatName(table, seat) {
  const s = table?.seats ? table.seats[seat] : null;
  if (!s) return t("table.seat", { n: seat });
  if (s.kind === "empty") return t("lobby.emptySeat");
  if (s.kind === "bot" && !s.user) return t("lobby.bot", { n: seat, level: t(`bot.${s.bot}`) });
  if (s.replaced && s.user) return t("lobby.replacedBy", { name: s.user.name });
  return s.user ? s.user.name : t("table.seat", { n: seat });
}

// A person's name as a link to their page (/player/NAME).
export function playerLink(name) {
  return h("a", { class: "player-link", href: `/player/${encodeURIComponent(name)}` }, name);
}

// A seat's name as seatName says it, linked to the player's page when a person sits there.
export function seatLabel(table, seat) {
  const s = table?.seats ? table.seats[seat] : null;
  const text = seatName(table, seat);
  if (s?.kind === "bot") return h("span", { class: "bot-name" }, text);
  return s?.user && !s.replaced ? playerLink(s.user.name) : text;
}

// Every seat's name; `bots` says which are bots (their labels are drawn on one line: nameTag).
export function seatNames(table, count) {
  const n = count ?? (table?.seats ? table.seats.length : 0);
  const out = [];
  for (let i = 0; i < n; i++) out.push(seatName(table, i));
  out.bots = out.map((_, i) => table?.seats?.[i]?.kind === "bot");
  return out;
}

export function seatsSummary(table, user) {
  return table.seats.map((s, i) =>
    h(
      "span",
      { class: ["seat-chip", `kind-${s.kind}`, table.you === i ? "me" : null] },
      h("span", { class: "pc-dot", style: { "--pc": `var(--p${i})` } }),
      seatLabel(table, i),
      table.you === i && user ? paren(t("lobby.you")) : "",
    ),
  );
}

// An option's name and a value's label, from the keys the game's description gives (`label`, and
// `labels` beside `choices`); a value without a label reads as itself (a number, on/off, a deck).
export function optionName(spec) {
  return t(spec.label);
}

export function optionLabel(spec, value) {
  if (value === undefined || value === null) return t("lobby.defaultValue");
  const shown = JSON.stringify(value);
  const i = (spec.choices || []).findIndex((choice) => JSON.stringify(choice) === shown);
  if (spec.labels?.[i]) return t(spec.labels[i]);
  if (isDeck(value)) return deckText(value);
  if (value === true) return t("lobby.on");
  if (value === false) return t("lobby.off");
  return typeof value === "object" ? shown : String(value);
}

export function formatDuration(seconds) {
  const s = Math.ceil(seconds);
  if (s >= 86400) return t("table.durationDays", { d: Math.floor(s / 86400), h: Math.floor((s % 86400) / 3600) });
  if (s >= 3600)
    return t("table.durationHours", {
      h: Math.floor(s / 3600),
      m: String(Math.floor((s % 3600) / 60)).padStart(2, "0"),
    });
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// A table's clock in words, for the lobby and the table before anyone joins.
export function clockText(clock) {
  if (!clock || clock.kind === "none") return t("lobby.clock.none");
  const main =
    clock.kind === "realtime"
      ? t("clock.realtime", { bank: formatDuration(clock.bank ?? clock.seconds), inc: clock.increment ?? 0 })
      : t("clock.turn", { days: t("clock.days", { n: clock.days }) });
  return `${main} · ${t("clock.timeouts", { n: clock.timeouts ?? 3 })}`;
}
