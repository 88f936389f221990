// The game log as the table and the replay show it: the whole game, oldest first, one group per
// round (a heading, then its moves, each followed by what it caused), scrolled to the newest line.
import { h } from "./dom.js";
import { t } from "./i18n.js";

// `previous`: the log element this one replaces; a reader who scrolled back keeps their place.
export function logPanel(entries, { current = null, previous = null } = {}) {
  const groups = [];
  let group = { title: null, items: [] };
  for (const e of entries) {
    if (e.kind === "round") {
      if (group.title || group.items.length) groups.push(group);
      group = { title: e.text, items: [] };
    } else group.items.push(e);
  }
  groups.push(group);
  const list = h(
    "div",
    { class: "log", "data-testid": "log", "data-key": "log", tabindex: "0", role: "log", "aria-label": t("table.log") },
    groups.map((g) =>
      h(
        "section",
        { class: "log-round" },
        g.title ? h("h3", { class: "log-round-title" }, g.title) : null,
        h(
          "ol",
          {},
          g.items.map((e) =>
            h(
              "li",
              {
                class: [`log-${e.kind}`, current !== null && e.index === current ? "current" : null],
                "data-index": e.index ?? null,
              },
              e.text,
            ),
          ),
        ),
      ),
    ),
  );
  const keep =
    previous && previous.scrollTop + previous.clientHeight < previous.scrollHeight - 8 ? previous.scrollTop : null;
  // newest line in sight once the panel is in the page, unless the reader scrolled back
  requestAnimationFrame(() => {
    list.scrollTop = keep ?? list.scrollHeight;
  });
  return list;
}
