// The Rules button: a game's rules in a dialog, in the page's language, open at the section of the
// current phase. The rules are a page of their own (/rules/GAME?lang=…#section), rendered by the
// server from the package's Markdown with raw HTML switched off and shown here in an <iframe>, so
// this client never inserts HTML; the same address works in a new tab.
import { h } from "./dom.js";
import { lang, t } from "./i18n.js";

export function rulesUrl(game, section) {
  const anchor = section ? `#${encodeURIComponent(section)}` : "";
  return `/rules/${encodeURIComponent(game)}?lang=${lang}${anchor}`;
}

// The section a table's view is at: every game's view names its phase, and each phase has a
// section of the same name (tests/rules checks this); before the game starts, the overview.
export function phaseSection(view) {
  return view?.phase || "overview";
}

// `section` is a section name or a function asked when the button is pressed (the phase then).
export function rulesButton(game, section = null, label = null) {
  return h(
    "button",
    {
      type: "button",
      class: "rules-button",
      "data-testid": "rules-button",
      "data-key": `rules-${game}-${typeof section === "string" ? section : "phase"}`,
      "aria-haspopup": "dialog",
      onclick: () => openRules(game, typeof section === "function" ? section() : section),
    },
    label || t("rules.button"),
  );
}

let dialog = null;

export function openRules(game, section) {
  if (!dialog) {
    dialog = h(
      "dialog",
      { class: "rules-dialog", "data-testid": "rules-dialog", "aria-labelledby": "rules-dialog-title" },
      h(
        "div",
        { class: "rules-dialog-head" },
        h("h2", { id: "rules-dialog-title" }),
        h("a", { class: "rules-newtab", target: "_blank", rel: "noopener" }),
        h("button", { type: "button", class: "rules-close", onclick: () => dialog.close() }),
      ),
      h("iframe", { class: "rules-frame", "data-testid": "rules-frame" }),
    );
    document.body.append(dialog);
  }
  const url = rulesUrl(game, section);
  const title = t("rules.title", { game: t(`game.${game}`) });
  dialog.querySelector("h2").textContent = title;
  const link = dialog.querySelector(".rules-newtab");
  link.href = url;
  link.textContent = t("rules.newTab");
  dialog.querySelector(".rules-close").textContent = t("rules.close");
  const frame = dialog.querySelector("iframe");
  frame.title = title;
  // Shown first: a frame that is not laid out cannot scroll to its section. Later openings
  // replace the frame's address, so the page's Back button never walks through rules sections.
  if (!dialog.open) dialog.showModal();
  if (frame.dataset.opened) frame.contentWindow.location.replace(new URL(url, location.href).href);
  else frame.src = url;
  frame.dataset.opened = "1";
}
