// The lobby: who you are (sign up / log in / guest), the tables (join, add bots, start, watch,
// replay) and the form to create a table with every option of the chosen game.
import * as api from "./api.js";
import { h, patch, replaceKeepingFocus, toast } from "./dom.js";
import { joinNames, labelled, onLangChange, paren, t } from "./i18n.js";
import { currentUser, onUserChange, setUser } from "./session.js";
import { deckField } from "./deck.js";
import { rulesButton } from "./rules.js";
import { clockText, optionLabel, optionName, playerLink, seatName, seatsSummary, statusLabel } from "./tables.js";

const POLL_MS = 3000; // while the server's push (/ws/lobby) is not heard
const SLOW_POLL_MS = 30000; // while it is: for what it does not push (who is connected)
const PAGE = 20; // tables per page; "More tables" asks for the next page
// the status filter's choices: the statuses each stands for
const STATUS_FILTERS = { active: "open,running", open: "open", running: "running", finished: "finished" };

export function mount(root) {
  const state = { games: [], tables: [], next: null, form: null, error: null };
  const filters = { game: "", status: "active", free: false };
  const botLevels = new Map(); // table id → bot level chosen in its card
  const accountBox = h("section", { class: "panel account", "aria-labelledby": "account-title" });
  const tablesBox = h("section", { class: "panel tables", "aria-labelledby": "tables-title" });
  const createBox = h("section", { class: "panel create", "aria-labelledby": "create-title" });
  const ratingsBox = h("section", { class: "panel ratings", "aria-labelledby": "ratings-title" });
  const gamesBox = h("section", { class: "panel games", "aria-labelledby": "games-title", "data-testid": "games" });
  // the page's one <h1>, where the focus goes when the lobby opens (app.js)
  const title = h("h1", { class: "page-title", tabindex: "-1" });
  // On a phone the lobby is one column and the form comes after the whole table list: this button,
  // right under the heading (shown under 900 px only), brings it into view with the focus on it.
  const toCreate = h("button", {
    type: "button",
    class: "to-create primary",
    "data-key": "to-create",
    onclick: goCreate,
  });
  function goCreate() {
    createBox.scrollIntoView({ block: "start" });
    const first = createBox.querySelector("select:not(:disabled), input:not(:disabled)");
    (first || createBox.querySelector("h2"))?.focus({ preventScroll: true });
  }
  root.append(
    h("div", { class: "lobby-head" }, title, toCreate),
    h(
      "div",
      { class: "lobby" },
      accountBox,
      h("div", { class: "lobby-col" }, gamesBox, tablesBox, ratingsBox),
      createBox,
    ),
  );

  // ---------------------------------------------------------------- games (each with its rules)
  function renderGames() {
    patch(
      gamesBox,
      h("h2", { id: "games-title" }, t("lobby.gameList")),
      h(
        "ul",
        { class: "game-list" },
        state.games.map((g) =>
          h(
            "li",
            { "data-game": g.name, "data-key": `game-${g.name}` },
            h("strong", { class: "game-name" }, t(g.title)),
            h("span", { class: "muted" }, t("lobby.players", { min: g.min_players, max: g.max_players })),
            rulesButton(g.name, "overview"),
            g.tutorial
              ? h(
                  "a",
                  { class: "button learn", href: `/tutorial/${g.name}`, "data-key": `learn-${g.name}` },
                  t("lobby.learn"),
                  h("span", { class: "sr-only" }, ` — ${t(g.title)}`),
                )
              : null,
          ),
        ),
      ),
    );
  }

  // ---------------------------------------------------------------- account
  const draft = { name: "", password: "", guest: "" };
  function renderAccount() {
    const user = currentUser();
    if (user) {
      replaceKeepingFocus(
        accountBox,
        h("h2", { id: "account-title" }, t("account.signedIn", { name: user.name })),
        user.guest ? h("p", { class: "muted" }, t("account.guestBadge")) : null,
      );
      accountBox.hidden = true;
      return;
    }
    accountBox.hidden = false;
    // typed text survives a redraw (language switch) through `draft`
    const keep = (key) => (e) => (draft[key] = e.target.value);
    const name = h("input", {
      id: "acc-name",
      name: "name",
      autocomplete: "username",
      required: true,
      maxlength: 24,
      value: draft.name,
      oninput: keep("name"),
    });
    const password = h("input", {
      id: "acc-password",
      name: "password",
      type: "password",
      autocomplete: "current-password",
      minlength: 8,
      value: draft.password,
      oninput: keep("password"),
    });
    const guestName = h("input", {
      id: "guest-name",
      name: "guest",
      required: true,
      maxlength: 24,
      value: draft.guest,
      oninput: keep("guest"),
    });
    async function submit(kind) {
      try {
        const who =
          kind === "guest"
            ? await api.guest(guestName.value.trim())
            : kind === "signup"
              ? await api.signup(name.value.trim(), password.value)
              : await api.login(name.value.trim(), password.value);
        draft.password = "";
        setUser(who);
      } catch (err) {
        toast(err.message, "error");
      }
    }
    replaceKeepingFocus(
      accountBox,
      h("h2", { id: "account-title" }, t("account.title")),
      h("p", { class: "muted" }, t("account.intro")),
      h(
        "div",
        { class: "account-forms" },
        h(
          "form",
          {
            class: "stack",
            "data-testid": "login-form",
            onsubmit: (e) => {
              e.preventDefault();
              submit(e.submitter?.value === "signup" ? "signup" : "login");
            },
          },
          h("label", { for: "acc-name" }, t("account.name")),
          name,
          h("label", { for: "acc-password" }, t("account.password")),
          password,
          h(
            "div",
            { class: "row" },
            h("button", { type: "submit", value: "login", class: "primary" }, t("account.login")),
            h("button", { type: "submit", value: "signup" }, t("account.signup")),
          ),
        ),
        h(
          "form",
          {
            class: "stack",
            "data-testid": "guest-form",
            onsubmit: (e) => {
              e.preventDefault();
              submit("guest");
            },
          },
          h("label", { for: "guest-name" }, t("account.guestName")),
          guestName,
          h("div", { class: "row" }, h("button", { type: "submit", class: "primary" }, t("account.guest"))),
        ),
      ),
    );
  }

  // ---------------------------------------------------------------- tables
  async function act(promise, then) {
    try {
      const result = await promise;
      if (then) then(result);
      await refresh();
    } catch (err) {
      toast(err.message, "error");
    }
  }

  function tableCard(table) {
    const user = currentUser();
    const info = state.games.find((g) => g.name === table.game);
    const mine = table.you !== null && table.you !== undefined;
    const isHost = user && table.host && table.host.id === user.id;
    const emptySeats = table.seats.filter((s) => s.kind === "empty").length;
    const open = table.status === "open";
    const buttons = [];
    const go = () => (location.hash = `#/table/${table.id}`);
    if (mine) buttons.push(h("button", { type: "button", class: "primary", onclick: go }, t("lobby.open")));
    if (open && !mine && emptySeats > 0 && user)
      buttons.push(
        h("button", { type: "button", class: "primary", onclick: () => act(api.join(table.id), go) }, t("lobby.join")),
      );
    if (open && isHost && emptySeats > 0 && info) {
      // the chosen level survives the list's refresh
      const chosen = botLevels.get(table.id) || info.bots[0];
      const select = h(
        "select",
        {
          "aria-label": t("lobby.botLevel"),
          class: "bot-level",
          "data-key": `bot-level-${table.id}`,
          onchange: (e) => botLevels.set(table.id, e.target.value),
        },
        info.bots.map((b) => h("option", { value: b, selected: b === chosen }, botLabel(info, b))),
      );
      buttons.push(
        h(
          "span",
          { class: "bot-adder" },
          select,
          h(
            "button",
            {
              type: "button",
              "data-key": `add-bot-${table.id}`,
              onclick: () => act(api.addBot(table.id, botLevels.get(table.id) || info.bots[0])),
            },
            t("lobby.addBot"),
          ),
        ),
      );
    }
    if (open && isHost && emptySeats === 0)
      buttons.push(
        h(
          "button",
          { type: "button", class: "primary", onclick: () => act(api.start(table.id), go) },
          t("lobby.start"),
        ),
      );
    if (open && mine)
      buttons.push(h("button", { type: "button", onclick: () => act(api.leave(table.id)) }, t("lobby.leave")));
    if (!mine) buttons.push(h("button", { type: "button", onclick: go }, t("lobby.watch")));
    if (table.status === "finished")
      buttons.push(h("a", { class: "button", href: `/replay/${table.id}` }, t("lobby.replay")));
    buttons.push(rulesButton(table.game, "overview"));
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
      h("div", { class: "row actions" }, buttons),
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

  function filterBar() {
    const change = (key) => (e) => {
      filters[key] = e.target.type === "checkbox" ? e.target.checked : e.target.value;
      refresh({ reset: true });
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
          state.games.map((g) => h("option", { value: g.name, selected: filters.game === g.name }, t(g.title))),
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

  // Patched, not rebuilt, on every refresh: each table's card stays the same element (keyed by
  // its id), so the focus and a reader's place stay where they were while tables come and go.
  function renderTables() {
    const list = state.tables;
    patch(
      tablesBox,
      h(
        "div",
        { class: "section-head" },
        h("h2", { id: "tables-title" }, t("lobby.title")),
        h("button", { type: "button", class: "link", onclick: () => refresh() }, t("lobby.refresh")),
      ),
      filterBar(),
      list.length
        ? h("ul", { class: "table-list", "data-testid": "table-list" }, list.map(tableCard))
        : h("p", { class: "muted" }, t("lobby.empty")),
      state.next
        ? h(
            "button",
            { type: "button", "data-key": "more-tables", onclick: () => refresh({ more: true }) },
            t("lobby.more"),
          )
        : null,
    );
  }

  // ---------------------------------------------------------------- create
  const form = {
    game: null,
    seats: 2,
    clock: "none",
    seconds: 300,
    increment: 10,
    days: 1,
    timeouts: 3,
    options: {},
    editors: {}, // option name → its editor's own state (the deck editor's custom grid)
    advancedOpen: false,
  };

  function renderCreate() {
    const user = currentUser();
    const info = state.games.find((g) => g.name === form.game) || state.games[0];
    if (!info) {
      replaceKeepingFocus(
        createBox,
        h("h2", { id: "create-title", tabindex: "-1" }, t("lobby.create")),
        h("p", {}, t("app.loading")),
      );
      return;
    }
    form.game = info.name;
    form.seats = Math.min(Math.max(form.seats, info.min_players), info.max_players);
    const gameSelect = h(
      "select",
      {
        id: "create-game",
        "data-key": "create-game",
        onchange: (e) => {
          if (form.game !== e.target.value) {
            form.options = {};
            form.editors = {};
          }
          form.game = e.target.value;
          renderCreate();
        },
      },
      state.games.map((g) => h("option", { value: g.name, selected: g.name === info.name }, t(g.title))),
    );
    const seatSelect = h(
      "select",
      {
        id: "create-seats",
        "data-key": "create-seats",
        onchange: (e) => {
          form.seats = Number(e.target.value);
          renderCreate();
        },
      },
      range(info.min_players, info.max_players).map((n) => h("option", { value: n, selected: n === form.seats }, n)),
    );
    const clockSelect = h(
      "select",
      {
        id: "create-clock",
        "data-key": "create-clock",
        onchange: (e) => {
          form.clock = e.target.value;
          renderCreate();
        },
      },
      ["none", "realtime", "turn"].map((k) =>
        h("option", { value: k, selected: form.clock === k }, t(`lobby.clock.${k === "turn" ? "turnbased" : k}`)),
      ),
    );
    const number = (id, label, key, min, max) =>
      field(
        id,
        label,
        h("input", {
          id,
          type: "number",
          min,
          max,
          value: form[key],
          "data-key": id,
          oninput: (e) => (form[key] = Number(e.target.value)),
        }),
      );
    const clockValue =
      form.clock === "realtime"
        ? [
            number("create-seconds", t("lobby.clockSeconds"), "seconds", 5, 3600),
            number("create-increment", t("lobby.clockIncrement"), "increment", 0, 600),
          ]
        : form.clock === "turn"
          ? number("create-days", t("lobby.clockDays"), "days", 1, 14)
          : null;
    const timeoutsField =
      form.clock === "none" ? null : number("create-timeouts", t("lobby.clockTimeouts"), "timeouts", 1, 10);

    const optionFields = info.options.filter((spec) => !spec.advanced).map((spec) => optionField(spec));
    const advancedFields = info.options.filter((spec) => spec.advanced).map((spec) => optionField(spec));

    async function submit(e) {
      e.preventDefault();
      const clock =
        form.clock === "realtime"
          ? { kind: "realtime", bank: form.seconds, increment: form.increment, timeouts: form.timeouts }
          : form.clock === "turn"
            ? { kind: "turn", days: form.days, timeouts: form.timeouts }
            : { kind: "none" };
      const options = {};
      for (const [k, v] of Object.entries(form.options)) if (v !== "" && v !== undefined) options[k] = v;
      try {
        const table = await api.createTable(form.game, form.seats, options, clock);
        toast(t("lobby.created", { id: table.id }));
        location.hash = `#/table/${table.id}`;
      } catch (err) {
        // said once: beside the form when it is there (an option error), else as a toast
        const box = createBox.querySelector(".form-error");
        if (box) box.textContent = err.message;
        else toast(err.message, "error");
      }
    }

    replaceKeepingFocus(
      createBox,
      h("h2", { id: "create-title", tabindex: "-1" }, t("lobby.create")),
      user ? null : h("p", { class: "muted" }, t("lobby.needAccount")),
      h(
        "form",
        { class: "create-form", "data-testid": "create-form", onsubmit: submit },
        h(
          "div",
          { class: "grid-fields" },
          field("create-game", t("lobby.game"), gameSelect),
          field("create-seats", t("lobby.seats"), seatSelect),
          field("create-clock", t("lobby.clock"), clockSelect),
          clockValue,
          timeoutsField,
        ),
        optionFields.length
          ? h(
              "div",
              { class: "section-head" },
              h("h3", {}, t("lobby.options")),
              rulesButton(info.name, "options", t("rules.options")),
            )
          : null,
        h("div", { class: "option-fields" }, optionFields),
        advancedFields.length
          ? h(
              "details",
              {
                class: "advanced",
                "data-testid": "advanced-options",
                open: form.advancedOpen,
                ontoggle: (e) => (form.advancedOpen = e.target.open),
              },
              h("summary", {}, t("lobby.advanced")),
              h("p", { class: "help" }, t("lobby.advancedHelp")),
              h("div", { class: "option-fields" }, advancedFields),
            )
          : null,
        h("p", { class: "form-error error", role: "alert" }),
        h("button", { type: "submit", class: "primary", disabled: !user }, t("lobby.createButton")),
      ),
    );
  }

  function optionField(spec) {
    const id = `opt-${spec.name}`;
    const current = form.options[spec.name];
    let control;
    if (spec.choices) {
      const choices = spec.default === null ? [null, ...spec.choices] : spec.choices;
      control = h(
        "select",
        {
          id,
          "data-key": id,
          "aria-describedby": `${id}-help`,
          onchange: (e) => {
            const choice = choices[Number(e.target.value)];
            form.options[spec.name] = choice === null ? undefined : choice;
          },
        },
        choices.map((choice, i) => {
          const label = optionLabel(spec, choice);
          const isDefault = choice !== null && JSON.stringify(choice) === JSON.stringify(spec.default);
          const selected =
            current === undefined
              ? choice === null || (spec.default !== null && isDefault)
              : JSON.stringify(current) === JSON.stringify(choice);
          return h("option", { value: i, selected }, isDefault ? `${label}${paren(t("lobby.default"))}` : label);
        }),
      );
    } else if (spec.presets) {
      form.editors[spec.name] = form.editors[spec.name] || {};
      const ui = form.editors[spec.name];
      control = deckField(spec, id, current, ui, (value) => (form.options[spec.name] = value), renderCreate);
    } else {
      control = h("input", {
        id,
        "data-key": id,
        "aria-describedby": `${id}-help`,
        placeholder: spec.default === null ? t("lobby.defaultValue") : JSON.stringify(spec.default),
        value: current === undefined ? "" : typeof current === "string" ? current : JSON.stringify(current),
        oninput: (e) => {
          const raw = e.target.value.trim();
          let value = raw;
          try {
            value = raw === "" ? undefined : JSON.parse(raw);
          } catch {
            value = raw;
          }
          form.options[spec.name] = value;
        },
      });
    }
    return h(
      "div",
      { class: "option-field", "data-option": spec.name },
      h("label", { for: id }, optionName(spec)),
      control,
      h("p", { class: "help", id: `${id}-help` }, t(spec.help)),
    );
  }

  // ---------------------------------------------------------------- data
  // The tables again, as many as the reader asked to see (`wanted`: a page, one more per "More
  // tables", up to the server's 100); past that, `more` asks for the next page after the last one
  // shown. Only the newest request's answer is drawn: a push's refresh never undoes "More tables".
  let asked = 0;
  let wanted = PAGE;
  async function refresh({ more = false, reset = false } = {}) {
    const query = { status: STATUS_FILTERS[filters.status], game: filters.game, seatsFree: filters.free };
    if (reset) wanted = PAGE;
    const next = more && wanted >= 100; // past what one request gives: the next page, appended
    if (more && !next) wanted = Math.min(100, wanted + PAGE);
    const mine = ++asked;
    try {
      const page = next
        ? await api.tables({ ...query, limit: PAGE, before: state.next })
        : await api.tables({ ...query, limit: wanted });
      if (mine !== asked) return; // a newer request (another filter, a push) answers instead
      state.tables = next ? state.tables.concat(page.tables) : page.tables;
      state.next = page.next;
      renderTables();
    } catch (err) {
      toast(err.message, "error");
    }
  }

  // ---------------------------------------------------------------- ratings
  function renderRatings() {
    const byGame = new Map();
    for (const r of state.ratings || []) {
      if (!byGame.has(r.game)) byGame.set(r.game, []);
      byGame.get(r.game).push(r);
    }
    patch(
      ratingsBox,
      h("h2", { id: "ratings-title" }, t("lobby.ratings")),
      byGame.size
        ? h(
            "div",
            { class: "ratings-grid" },
            [...byGame].map(([game, list]) => {
              return h(
                "div",
                {},
                h("h3", {}, t(`game.${game}`)),
                h(
                  "ol",
                  { class: "rating-list" },
                  list
                    .slice(0, 5)
                    .map((r) =>
                      h(
                        "li",
                        {},
                        playerLink(r.user.name),
                        ` — ${Math.round(r.rating)} `,
                        h("span", { class: "muted small" }, t("lobby.games", { n: r.games })),
                      ),
                    ),
                ),
              );
            }),
          )
        : h("p", { class: "muted" }, t("lobby.noRatings")),
    );
  }

  function renderAll() {
    title.textContent = t("lobby.heading");
    toCreate.textContent = t("lobby.create");
    renderGames();
    renderAccount();
    renderTables();
    renderCreate();
    renderRatings();
  }

  api
    .gameList()
    .then((games) => {
      state.games = games;
      renderGames();
      renderTables();
      renderCreate();
      renderRatings();
    })
    .catch((err) => toast(err.message, "error"));

  renderAll();
  refresh();
  api
    .ratings()
    .then((r) => {
      state.ratings = r.ratings || [];
      renderRatings();
    })
    .catch(() => {});
  // Pushed: the server says when the tables changed (server/lobby_feed.py) and the list is asked
  // for again (a bodiless 304 when what it shows did not change); polled while that is not heard.
  let askedAt = 0;
  let missed = false; // told while the page was hidden: asked once it shows
  const ask = () => {
    askedAt = Date.now();
    refresh();
  };
  const feed = watchTables(() => {
    if (document.hidden) missed = true;
    else ask();
  });
  const onVisible = () => {
    if (!document.hidden && missed) {
      missed = false;
      ask();
    }
  };
  document.addEventListener("visibilitychange", onVisible);
  const timer = setInterval(() => {
    if (!document.hidden && (!feed.live() || Date.now() - askedAt >= SLOW_POLL_MS)) ask();
  }, POLL_MS);
  const offLang = onLangChange(renderAll);
  const offUser = onUserChange((user) => {
    const active = document.activeElement;
    const move = !active || active === document.body || !active.isConnected || accountBox.contains(active);
    renderAll();
    refresh();
    // signed in: the account form is gone, the focus goes on to creating a table; signed out
    // (the top bar's button is gone): to the guest name
    if (move) document.getElementById(user ? "create-game" : "guest-name")?.focus();
  });
  return () => {
    clearInterval(timer);
    feed.close();
    document.removeEventListener("visibilitychange", onVisible);
    offLang();
    offUser();
  };
}

// The lobby's socket (/ws/lobby): `onChange()` when the server says the tables changed, and after
// a reconnection (changes may have been missed meanwhile). `live()`: whether it is heard now.
function watchTables(onChange) {
  let socket = null;
  let closed = false;
  let retry = 0;
  let ping = null;
  function connect() {
    if (closed || typeof WebSocket !== "function") return;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const current = new WebSocket(`${scheme}//${location.host}/ws/lobby`);
    socket = current;
    current.addEventListener("open", () => {
      if (retry > 0) onChange();
      retry = 0;
      ping = setInterval(() => current.send('{"type":"ping"}'), 25000);
    });
    current.addEventListener("message", () => onChange());
    current.addEventListener("close", () => {
      clearInterval(ping);
      if (socket === current) socket = null;
      if (!closed) setTimeout(connect, Math.min(30000, 1000 * 2 ** retry++));
    });
  }
  connect();
  return {
    live: () => socket?.readyState === WebSocket.OPEN,
    close: () => {
      closed = true;
      socket?.close();
    },
  };
}

function field(id, label, control) {
  return h("div", { class: "field" }, h("label", { for: id }, label), control);
}

function range(a, b) {
  const out = [];
  for (let i = a; i <= b; i++) out.push(i);
  return out;
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
