// The rematch panel under a finished game's results (docs/protocol.md, "Rematch"): one click
// offers the same seats and options to everyone who played; each of them accepts or declines;
// when the last accepts, every page goes to the new table. An offer lapses at `expires_at` (the
// server's `rematch_seconds`, 10 minutes by default); the panel says when, asks the server again
// at that moment, and then offers to make a new one.
import * as api from "./api.js";
import { h, toast } from "./dom.js";
import { joinNames, t } from "./i18n.js";

let lapseTimer = null; // one per page: each drawing of the panel replaces it

function clock(iso) {
  return new Date(iso).toLocaleTimeString(document.documentElement.lang, { hour: "2-digit", minute: "2-digit" });
}

// `offer`: the Rematch object or null; `played`: whether the reader sat at the table;
// `me`: the reader's user id; `changed(offer)`: called with the answer's offer.
export function rematchPanel(tableId, offer, { played, me, changed }) {
  const run = (promise) =>
    promise.then((answer) => changed(answer.rematch)).catch((err) => toast(err.message, "error"));
  const button = (key, label, onclick, primary) =>
    h("button", { type: "button", class: primary ? "primary" : null, "data-key": key, onclick }, label);
  const names = (users) => joinNames(users.map((u) => u?.name ?? "?"));
  const parts = [h("h2", {}, t("rematch.title"))];
  clearTimeout(lapseTimer);
  const pending = offer && !offer.declined_by && !offer.new_table;
  if (pending && !offer.expired && offer.expires_at) {
    // at the lapse, the server's word (a fast clock here only asks again a second later)
    const wait = Math.max(1000, Date.parse(offer.expires_at) - Date.now() + 500);
    lapseTimer = setTimeout(
      () =>
        api.rematchState(tableId).then(
          (answer) => changed(answer.rematch),
          () => {},
        ),
      wait,
    );
  }
  if (pending && offer.expired) {
    parts.push(h("p", {}, t("rematch.lapsed", { name: offer.offered_by.name })));
    if (played) parts.push(button("rematch", t("rematch.offer_again"), () => run(api.rematch(tableId)), true));
  } else if (!offer) {
    parts.push(
      played
        ? button("rematch", t("rematch.offer"), () => run(api.rematch(tableId)), true)
        : h("p", { class: "muted" }, t("rematch.none")),
    );
  } else if (offer.declined_by) {
    parts.push(h("p", {}, t("rematch.declined", { name: offer.declined_by.name })));
  } else if (offer.new_table) {
    parts.push(
      h(
        "p",
        {},
        t("rematch.started"),
        " ",
        h("a", { href: `/table/${offer.new_table}` }, t("lobby.tableN", { id: offer.new_table })),
      ),
    );
  } else {
    const waiting = offer.waiting.some((u) => u?.id === me);
    parts.push(
      h("p", {}, t("rematch.offered", { name: offer.offered_by.name })),
      h("p", { class: "muted" }, t("rematch.accepted", { names: names(offer.accepted) })),
      offer.waiting.length ? h("p", { class: "muted" }, t("rematch.waiting", { names: names(offer.waiting) })) : null,
      offer.expires_at
        ? h(
            "p",
            { class: "muted", "data-testid": "rematch-expires" },
            t("rematch.expires", { time: clock(offer.expires_at) }),
          )
        : null,
      waiting
        ? h(
            "div",
            { class: "row" },
            button("rematch-accept", t("rematch.accept"), () => run(api.rematch(tableId)), true),
            button("rematch-decline", t("rematch.decline"), () => run(api.declineRematch(tableId))),
          )
        : null,
    );
  }
  return h("section", { class: "rematch panel", "data-testid": "rematch", "aria-live": "polite" }, parts);
}
