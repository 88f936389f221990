// A deck option (a list of [number, copies]) chosen from the game's presets or edited card by
// card — never typed as JSON. The presets and the bounds come from the game's option description.
import { h } from "./dom.js";
import { paren, t } from "./i18n.js";

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// "1–12 ×4, 13 ×2 (50 cards)": runs of numbers with the same copies.
export function deckText(pairs) {
  const sorted = [...pairs].sort((a, b) => a[0] - b[0]);
  const runs = [];
  for (const [n, c] of sorted) {
    const last = runs[runs.length - 1];
    if (last && last.to === n - 1 && last.copies === c) last.to = n;
    else runs.push({ from: n, to: n, copies: c });
  }
  const text = runs.map((r) => `${r.from === r.to ? r.from : `${r.from}–${r.to}`} ×${r.copies}`).join(", ");
  return `${text}${paren(t("deck.cards", { n: sorted.reduce((sum, [, c]) => sum + c, 0) }))}`;
}

export function isDeck(value) {
  return Array.isArray(value) && value.length > 0 && value.every((p) => Array.isArray(p) && p.length === 2);
}

// The editor: `current` the chosen deck (undefined: the default), `ui` keeps whether the custom
// grid is open across redraws, `set(value)` stores a new deck (undefined for the default).
export function deckField(spec, id, current, ui, set, redraw) {
  const deck = current ?? spec.default;
  const presetIndex = spec.presets.findIndex((p) => same(p.value, deck));
  const custom = ui.custom || presetIndex < 0;
  const select = h(
    "select",
    {
      id,
      "data-key": id,
      "aria-describedby": `${id}-help`,
      onchange: (e) => {
        const value = e.target.value;
        ui.custom = value === "custom";
        if (!ui.custom) {
          const preset = spec.presets[Number(value)].value;
          set(same(preset, spec.default) ? undefined : preset);
        }
        redraw();
      },
    },
    spec.presets.map((p, i) => h("option", { value: i, selected: !custom && i === presetIndex }, t(p.label))),
    h("option", { value: "custom", selected: custom }, t("deck.custom")),
  );
  const [low, high] = spec.bounds?.number ?? [1, 12];
  const [, most] = spec.bounds?.copies ?? [1, 8];
  const copies = new Map(deck.map(([n, c]) => [n, c]));
  const total = h("p", { class: "muted", "data-testid": "deck-total" }, deckText(deck));
  const grid = custom
    ? h(
        "fieldset",
        { class: "deck-grid" },
        h("legend", {}, t("deck.copies")),
        Array.from({ length: high - low + 1 }, (_, i) => low + i).map((n) => {
          const cell = `${id}-n${n}`;
          return h(
            "div",
            { class: "deck-cell" },
            h("label", { for: cell }, String(n)),
            h("input", {
              id: cell,
              type: "number",
              min: 0,
              max: most,
              value: copies.get(n) ?? 0,
              "data-key": cell,
              oninput: (e) => {
                const c = Math.max(0, Math.min(most, Math.floor(Number(e.target.value) || 0)));
                if (c) copies.set(n, c);
                else copies.delete(n);
                const next = [...copies].sort((a, b) => a[0] - b[0]);
                set(same(next, spec.default) ? undefined : next);
                total.textContent = deckText(next);
              },
            }),
          );
        }),
      )
    : null;
  return [select, grid, total];
}
