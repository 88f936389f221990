// A table before the start: its seats, with join, add a bot of a chosen level per seat (the host),
// remove a bot (the host), start (the host, once every seat is taken) and leave.
import * as api from "./api.js";
import { h } from "./dom.js";
import { colon, paren, t } from "./i18n.js";
import { currentUser } from "./session.js";
import { seatLabel } from "./tables.js";

// The controls of seat `i` (`s`): join an empty seat, or (the host) add a bot there; remove a bot.
function seatControls(page, s, i, { user, isHost, mine, levels }) {
  const id = page.id;
  const controls = [];
  if (s.kind === "empty") {
    if (user && !mine)
      controls.push(h("button", { type: "button", onclick: () => page.run(api.join(id, i)) }, t("lobby.join")));
    if (isHost) {
      const chosen = page.state.botLevels[i] || levels[0];
      const select = h(
        "select",
        {
          "aria-label": t("lobby.botLevel"),
          "data-key": `bot-level-${i}`,
          onchange: (e) => page.dispatch({ type: "botLevel", seat: i, level: e.target.value }),
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
            onclick: () => page.run(api.addBot(id, page.state.botLevels[i] || levels[0], i)),
          },
          t("lobby.addBot"),
        ),
      );
    }
  } else if (s.kind === "bot" && isHost) {
    controls.push(h("button", { type: "button", onclick: () => page.run(api.removeSeat(id, i)) }, "✕"));
  }
  return controls;
}

export function seatManager(page) {
  const id = page.id;
  const tbl = page.state.table;
  const user = currentUser();
  const who = {
    user,
    isHost: user && tbl.host && tbl.host.id === user.id,
    mine: tbl.you !== null && tbl.you !== undefined,
    levels: page.state.bots || ["random"],
  };
  const rows = tbl.seats.map((s, i) =>
    h(
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
      h("span", { class: "row" }, seatControls(page, s, i, who)),
    ),
  );
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
      who.isHost && full
        ? h(
            "button",
            { type: "button", class: "primary", "data-key": "start", onclick: () => page.run(api.start(id)) },
            t("table.start"),
          )
        : null,
      who.mine ? h("button", { type: "button", onclick: () => page.run(api.leave(id)) }, t("table.leaveTable")) : null,
    ),
  );
}
