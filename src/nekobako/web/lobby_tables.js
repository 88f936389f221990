// The lobby's list of tables: the filters, then a card per table (its seats, options, clock and
// winners; join, add a bot of a level, start, leave, open, watch, replay, its rules), then "More
// tables". Patched, not rebuilt, on every refresh: each table's card stays the same element (keyed
// by its id), so the focus and a reader's place stay where they were while tables come and go.
import * as api from "./api.js";
import { field, h, patch } from "./dom.js";
import { joinNames, labelled, t } from "./i18n.js";
import { STATUS_FILTERS } from "./lobby_state.js";
import { rulesButton } from "./rules.js";
import { currentUser } from "./session.js";
import { clockText, optionLabel, optionName, seatName, seatsSummary, statusLabel } from "./tables.js";

export function drawTables(page) {
  const state = page.state;
  const list = state.tables;
  patch(
    page.parts.tablesBox,
    h(
      "div",
      { class: "section-head" },
      h("h2", { id: "tables-title" }, t("lobby.title")),
      h("button", { type: "button", class: "link", onclick: () => page.refresh() }, t("lobby.refresh")),
    ),
    filterBar(page),
    list.length
      ? h(
          "ul",
          { class: "table-list", "data-testid": "table-list" },
          list.map((table) => tableCard(page, table)),
        )
      : h("p", { class: "muted" }, t("lobby.empty")),
    state.next
      ? h(
          "button",
          { type: "button", "data-key": "more-tables", onclick: () => page.refresh({ more: true }) },
          t("lobby.more"),
        )
      : null,
  );
}

function filterBar(page) {
  const filters = page.state.filters;
  const change = (key) => (e) => {
    page.dispatch({ type: "filter", key, value: e.target.type === "checkbox" ? e.target.checked : e.target.value });
    page.refresh({ reset: true });
  };
  return h(
    "form",
    { class: "filters row", "aria-label": t("lobby.filters"), onsubmit: (e) => e.preventDefault() },
    field(
      "filter-game",
      t("lobby.game"),
      h(
        "select",
        { id: "filter-game", "data-key": "filter-game", onchange: change("game") },
        h("option", { value: "", selected: filters.game === "" }, t("lobby.allGames")),
        page.state.games.map((g) => h("option", { value: g.name, selected: filters.game === g.name }, t(g.title))),
      ),
    ),
    field(
      "filter-status",
      t("lobby.statusFilter"),
      h(
        "select",
        { id: "filter-status", "data-key": "filter-status", onchange: change("status") },
        Object.keys(STATUS_FILTERS).map((k) =>
          h("option", { value: k, selected: filters.status === k }, t(`lobby.filter.${k}`)),
        ),
      ),
    ),
    h(
      "div",
      { class: "field check" },
      h("input", {
        id: "filter-free",
        type: "checkbox",
        "data-key": "filter-free",
        checked: filters.free,
        onchange: change("free"),
      }),
      h("label", { for: "filter-free" }, t("lobby.freeSeat")),
    ),
  );
}

function tableCard(page, table) {
  const user = currentUser();
  const info = page.state.games.find((g) => g.name === table.game);
  const mine = table.you !== null && table.you !== undefined;
  return h(
    "li",
    { class: ["table-card", `status-${table.status}`], "data-table": table.id, "data-key": `table-${table.id}` },
    h(
      "div",
      { class: "table-head" },
      h("strong", {}, t(table.title)),
      h("span", { class: "muted" }, " ", t("lobby.tableN", { id: table.id })),
      h("span", { class: ["badge", `st-${table.status}`] }, statusLabel(table.status)),
      mine && Array.isArray(table.to_move) && table.to_move.includes(table.you)
        ? h("span", { class: "badge turn" }, t("table.yourTurn"))
        : null,
    ),
    h("div", { class: "seats-line" }, seatsSummary(table, user)),
    table.status === "finished" && table.winners?.length
      ? h(
          "div",
          { class: "winners-line", "data-testid": "winners" },
          "★ ",
          t(table.winners.length > 1 ? "table.winners" : "table.winner", {
            names: joinNames(table.winners.map((seat) => seatName(table, seat))),
          }),
        )
      : null,
    h("div", { class: "options-line muted" }, optionsSummary(table, info)),
    h("div", { class: "clock-line muted", "data-testid": "clock-line" }, clockText(table.clock)),
    h("div", { class: "row actions" }, cardButtons(page, table, info, user)),
  );
}

// What the reader may do with a table: open or watch it, join, add a bot, start, leave, replay.
function cardButtons(page, table, info, user) {
  const mine = table.you !== null && table.you !== undefined;
  const isHost = user && table.host && table.host.id === user.id;
  const emptySeats = table.seats.filter((s) => s.kind === "empty").length;
  const open = table.status === "open";
  const buttons = [];
  const go = () => (location.hash = `#/table/${table.id}`);
  if (mine) buttons.push(h("button", { type: "button", class: "primary", onclick: go }, t("lobby.open")));
  if (open && !mine && emptySeats > 0 && user)
    buttons.push(
      h(
        "button",
        { type: "button", class: "primary", onclick: () => page.act(api.join(table.id), go) },
        t("lobby.join"),
      ),
    );
  if (open && isHost && emptySeats > 0 && info) buttons.push(botAdder(page, table, info));
  if (open && isHost && emptySeats === 0)
    buttons.push(
      h(
        "button",
        { type: "button", class: "primary", onclick: () => page.act(api.start(table.id), go) },
        t("lobby.start"),
      ),
    );
  if (open && mine)
    buttons.push(h("button", { type: "button", onclick: () => page.act(api.leave(table.id)) }, t("lobby.leave")));
  if (!mine) buttons.push(h("button", { type: "button", onclick: go }, t("lobby.watch")));
  if (table.status === "finished")
    buttons.push(h("a", { class: "button", href: `/replay/${table.id}` }, t("lobby.replay")));
  buttons.push(rulesButton(table.game, "overview"));
  return buttons;
}

// The host's bot level and "Add a bot"; the chosen level survives the list's refresh.
function botAdder(page, table, info) {
  const level = () => page.state.botLevels[table.id] || info.bots[0];
  const chosen = level();
  const select = h(
    "select",
    {
      "aria-label": t("lobby.botLevel"),
      class: "bot-level",
      "data-key": `bot-level-${table.id}`,
      onchange: (e) => page.dispatch({ type: "botLevel", table: table.id, level: e.target.value }),
    },
    info.bots.map((b) => h("option", { value: b, selected: b === chosen }, botLabel(info, b))),
  );
  return h(
    "span",
    { class: "bot-adder" },
    select,
    h(
      "button",
      {
        type: "button",
        "data-key": `add-bot-${table.id}`,
        onclick: () => page.act(api.addBot(table.id, level())),
      },
      t("lobby.addBot"),
    ),
  );
}

// Every option in words (a deck as "1–12 ×4"); research options only when not at their default.
function optionsSummary(table, info) {
  if (!info) return "";
  return info.options
    .filter((spec) => !spec.advanced || JSON.stringify(table.options[spec.name]) !== JSON.stringify(spec.default))
    .map((spec) => labelled(optionName(spec), optionLabel(spec, table.options[spec.name])))
    .join(" · ");
}

// A bot level as its menu shows it: its name and, where the ladder rated it (`nekobako ladder`,
// shipped with the package and listed by /api/games), its rating with mu ± 2 sigma.
function botLabel(info, level) {
  const rating = info.ratings?.[level];
  if (!rating) return t(`bot.${level}`);
  return t("lobby.botRating", {
    level: t(`bot.${level}`),
    mu: rating.mu.toFixed(1),
    spread: (2 * rating.sigma).toFixed(1),
  });
}
