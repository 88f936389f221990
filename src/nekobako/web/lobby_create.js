// The lobby's form to create a table: the game, its seats, the clock, and every option of the game
// with the engine's explanation under it (research options folded under "Advanced"). What the
// person chooses goes to the state (lobby_state.js) as they choose it; the form is drawn from it.
import * as api from "./api.js";
import { deckField } from "./deck.js";
import { field, h, replaceKeepingFocus, toast } from "./dom.js";
import { paren, t } from "./i18n.js";
import { tableRequest } from "./lobby_state.js";
import { rulesButton } from "./rules.js";
import { currentUser } from "./session.js";
import { optionLabel, optionName } from "./tables.js";

export function drawCreate(page) {
  const box = page.parts.createBox;
  const { games, form } = page.state;
  const user = currentUser();
  const info = games.find((g) => g.name === form.game) || games[0];
  if (!info) {
    replaceKeepingFocus(
      box,
      h("h2", { id: "create-title", tabindex: "-1" }, t("lobby.create")),
      h("p", {}, t("app.loading")),
    );
    return;
  }
  const optionFields = info.options.filter((spec) => !spec.advanced).map((spec) => optionField(page, spec));
  const advancedFields = info.options.filter((spec) => spec.advanced).map((spec) => optionField(page, spec));
  replaceKeepingFocus(
    box,
    h("h2", { id: "create-title", tabindex: "-1" }, t("lobby.create")),
    user ? null : h("p", { class: "muted" }, t("lobby.needAccount")),
    h(
      "form",
      { class: "create-form", "data-testid": "create-form", onsubmit: (e) => create(e, page) },
      h("div", { class: "grid-fields" }, tableFields(page, info)),
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
              ontoggle: (e) => page.dispatch({ type: "form", changes: { advancedOpen: e.target.open } }),
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

async function create(e, page) {
  e.preventDefault();
  try {
    const table = await api.createTable(...tableRequest(page.state.form));
    toast(t("lobby.created", { id: table.id }));
    location.hash = `#/table/${table.id}`;
  } catch (err) {
    // said once: beside the form when it is there (an option error), else as a toast
    const box = page.parts.createBox.querySelector(".form-error");
    if (box) box.textContent = err.message;
    else toast(err.message, "error");
  }
}

// The game, its seats, the clock and the clock's numbers.
function tableFields(page, info) {
  const { games, form } = page.state;
  const set = (changes) => {
    page.dispatch({ type: "form", changes });
    page.renderCreate();
  };
  const gameSelect = h(
    "select",
    {
      id: "create-game",
      "data-key": "create-game",
      onchange: (e) => {
        if (page.state.form.game !== e.target.value) page.editors = {}; // the deck editor's custom grid
        page.dispatch({ type: "formGame", game: e.target.value });
        page.renderCreate();
      },
    },
    games.map((g) => h("option", { value: g.name, selected: g.name === info.name }, t(g.title))),
  );
  const seatSelect = h(
    "select",
    { id: "create-seats", "data-key": "create-seats", onchange: (e) => set({ seats: Number(e.target.value) }) },
    range(info.min_players, info.max_players).map((n) => h("option", { value: n, selected: n === form.seats }, n)),
  );
  const clockSelect = h(
    "select",
    { id: "create-clock", "data-key": "create-clock", onchange: (e) => set({ clock: e.target.value }) },
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
        oninput: (e) => page.dispatch({ type: "form", changes: { [key]: Number(e.target.value) } }),
      }),
    );
  return [
    field("create-game", t("lobby.game"), gameSelect),
    field("create-seats", t("lobby.seats"), seatSelect),
    field("create-clock", t("lobby.clock"), clockSelect),
    form.clock === "realtime"
      ? [
          number("create-seconds", t("lobby.clockSeconds"), "seconds", 5, 3600),
          number("create-increment", t("lobby.clockIncrement"), "increment", 0, 600),
        ]
      : form.clock === "turn"
        ? number("create-days", t("lobby.clockDays"), "days", 1, 14)
        : null,
    form.clock === "none" ? null : number("create-timeouts", t("lobby.clockTimeouts"), "timeouts", 1, 10),
  ];
}

// One option of the game: a menu of its choices, the deck editor (deck.js) for a deck, else a
// text field for a value (JSON where it parses); its help under it.
function optionField(page, spec) {
  const id = `opt-${spec.name}`;
  const current = page.state.form.options[spec.name];
  const set = (value) => page.dispatch({ type: "option", name: spec.name, value });
  let control;
  if (spec.choices) control = choiceSelect(spec, id, current, set);
  else if (spec.presets) {
    page.editors[spec.name] = page.editors[spec.name] || {};
    control = deckField(spec, id, current, page.editors[spec.name], set, () => page.renderCreate());
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
        set(value);
      },
    });
  }
  return h(
    "div",
    { class: ["option-field", longChoice(control) ? "wide" : null], "data-option": spec.name },
    h("label", { for: id }, optionName(spec)),
    control,
    h("p", { class: "help", id: `${id}-help` }, t(spec.help)),
  );
}

// Does the select's shown choice need more than half the form (Shut the Box's "Every open tile ≤ 6
// (default)")? Then its field takes a row of its own, the words whole. Width is counted in half
// ems: a CJK character is two, anything else one; 24 fill a half-width select.
function longChoice(control) {
  const parts = [control].flat(); // the deck editor is several elements
  const select =
    parts.find((el) => el?.tagName === "SELECT") || parts.map((el) => el?.querySelector?.("select")).find(Boolean);
  const text = select?.selectedOptions[0]?.textContent || "";
  return [...text].reduce((n, c) => n + (c.codePointAt(0) >= 0x2e80 ? 2 : 1), 0) > 24;
}

// An option with a list of choices (and "default" first when the default is no value).
function choiceSelect(spec, id, current, set) {
  const choices = spec.default === null ? [null, ...spec.choices] : spec.choices;
  return h(
    "select",
    {
      id,
      "data-key": id,
      "aria-describedby": `${id}-help`,
      onchange: (e) => {
        const choice = choices[Number(e.target.value)];
        set(choice === null ? undefined : choice);
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
}

function range(a, b) {
  const out = [];
  for (let i = a; i <= b; i++) out.push(i);
  return out;
}
