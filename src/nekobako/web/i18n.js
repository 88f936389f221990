// English and Japanese, from the one catalogue the server, the engine and the terminal use
// (`nekobako.i18n`: gettext .po files; docs/i18n.md says how to add a message). The server serves it
// as `/api/catalogue` with the WebSocket close codes; this module loads it once, before any page
// draws (top-level await), so `t()` stays synchronous.
// The browser's language is the default; a choice made with the switch is remembered.

async function loadCatalogue() {
  const response = await fetch("/api/catalogue", {
    credentials: "same-origin",
    headers: { Accept: "application/json" },
  });
  if (!response.ok) throw new Error(`the catalogue did not load (${response.status})`);
  return response.json();
}

const CATALOGUE = await loadCatalogue();
const STRINGS = Object.fromEntries(CATALOGUE.langs.map((l) => [l, CATALOGUE[l]]));

// The server's WebSocket close codes by name ({NO_TABLE: 4404, …}), from server/errors.py.
export const CLOSE = Object.freeze({ ...CATALOGUE.close_codes });

export const LANGS = Object.keys(STRINGS);
const STORAGE_KEY = "nekobako.lang";
const listeners = new Set();

function initialLang() {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (saved && STRINGS[saved]) return saved;
  } catch {
    // storage may be unavailable (private mode): fall through to the browser's language
  }
  const wanted = navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const tag of wanted) {
    const base = String(tag || "")
      .toLowerCase()
      .split("-")[0];
    if (STRINGS[base]) return base;
  }
  return "en";
}

export let lang = initialLang();
document.documentElement.lang = lang;

// Plural forms: English one/other, Japanese one form for every number (as nekobako.i18n.plural_index).
function pluralIndex(n) {
  if (lang === "ja") return 0;
  return n === 1 ? 0 : 1;
}

function words(key, params) {
  const found = STRINGS[lang][key] ?? STRINGS.en[key];
  if (found === undefined) return undefined;
  return Array.isArray(found) ? found[Math.min(pluralIndex(params.n), found.length - 1)] : found;
}

// A parameter in words, as nekobako.i18n.value_text: a message ({key, params}) rendered, nothing as
// "none", lists joined the language's way.
export function valueText(value) {
  if (value === null || value === undefined) return t("words.none");
  if (Array.isArray(value)) return value.length ? joinList(value.map(valueText)) : t("words.none");
  if (typeof value === "object" && "key" in value) return t(value.key, value.params || {});
  return String(value);
}

// t("table.turnOf", {name: "Ann"}) → "Ann's turn". Unknown keys show themselves (easy to spot).
export function t(key, params = {}) {
  const template = words(key, params) ?? key;
  return template.replace(/\{(\w+)\}/g, (all, name) => (name in params ? valueText(params[name]) : all));
}

// A message from the server ({key, params}: a refusal, an error) in the page's language.
export function say(message) {
  return message?.key ? t(message.key, message.params || {}) : "";
}

// `key.you` (second person: "You win trick 5") when the message is about the reader and the
// catalogue has that form, else `key` (as nekobako.i18n.you).
export function you(key, aboutReader) {
  return aboutReader && has(`${key}.you`) ? `${key}.you` : key;
}

export function has(key) {
  return key in STRINGS[lang] || key in STRINGS.en;
}

// {en: "...", ja: "..."} from the server → the string for the current language.
export function pick(texts) {
  if (texts === null || texts === undefined) return "";
  if (typeof texts === "string") return texts;
  return texts[lang] || texts.en || Object.values(texts)[0] || "";
}

export function setLang(next) {
  if (!STRINGS[next] || next === lang) return;
  lang = next;
  document.documentElement.lang = lang;
  try {
    localStorage.setItem(STORAGE_KEY, lang);
  } catch {
    // not remembered: fine
  }
  for (const fn of listeners) fn(lang);
}

export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

// Join names the way each language does: "Ann, Bo and Cy" / "Ann、Bo、Cy" (as nekobako.i18n.join_list).
export function joinNames(names) {
  if (lang === "ja") return names.join("、");
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} ${t("words.and")} ${names[names.length - 1]}`;
}

export function joinList(items) {
  return items.join(lang === "ja" ? "、" : ", ");
}

// Exposed for the tests: every key exists in both languages.
export function missingKeys() {
  const out = [];
  for (const l of LANGS) for (const k of Object.keys(STRINGS.en)) if (!(k in STRINGS[l])) out.push(`${l}:${k}`);
  for (const k of Object.keys(STRINGS.ja)) if (!(k in STRINGS.en)) out.push(`en:${k}`);
  return out;
}
