// English and Japanese, from the one catalogue the server, the engine and the terminal use
// (`nekobako.i18n`: gettext .po files; docs/i18n.md says how to add a message). The words of the
// page's language come inside the page (boot.js: no request before the first drawing); another
// language is asked for (`/api/catalogue?lang=`) when the reader switches to it, and fetched
// ahead once the page has drawn, so the switch is immediate. `t()` stays synchronous.
// The browser's language is the default; a choice made with the switch is remembered (localStorage,
// and a cookie so the server puts that language's words in the next page).
import { boot } from "./boot.js";

async function loadCatalogue(only = null) {
  const response = await fetch(only ? `/api/catalogue?lang=${only}` : "/api/catalogue", {
    credentials: "same-origin",
    headers: { Accept: "application/json" },
  });
  if (!response.ok) throw new Error(`/api/catalogue answered ${response.status}`); // for the console; setLang words it
  const catalogue = await response.json();
  for (const l of catalogue.langs) if (catalogue[l]) STRINGS[l] = catalogue[l];
  return catalogue;
}

const STRINGS = {}; // language → its words, as they arrive
const CATALOGUE = boot.catalogue || (await loadCatalogue());
for (const l of CATALOGUE.langs) if (CATALOGUE[l]) STRINGS[l] = CATALOGUE[l];

// The server's WebSocket close codes by name ({NO_TABLE: 4404, …}), from server/errors.py.
export const CLOSE = Object.freeze({ ...CATALOGUE.close_codes });

export const LANGS = [...CATALOGUE.langs];
const STORAGE_KEY = "nekobako.lang";
const COOKIE = "nekobako_lang"; // server/errors.py LANG_COOKIE
const listeners = new Set();

function initialLang() {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (saved && LANGS.includes(saved)) return saved;
  } catch {
    // storage may be unavailable (private mode): fall through to the browser's language
  }
  const wanted = navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const tag of wanted) {
    const base = String(tag || "")
      .toLowerCase()
      .split("-")[0];
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

function remember(chosen) {
  // biome-ignore lint/suspicious/noDocumentCookie: one fixed name, a value from LANGS; CookieStore is not in every browser
  document.cookie = `${COOKIE}=${chosen}; path=/; max-age=31536000; SameSite=Lax`;
}

export let lang = initialLang();
if (!STRINGS[lang]) {
  // the page came in another language than the one chosen here (a choice older than the cookie)
  remember(lang);
  await loadCatalogue(lang);
}
document.documentElement.lang = lang;

// Plural forms: English one/other, Japanese one form for every number (as nekobako.i18n.plural_index).
function pluralIndex(n) {
  if (lang === "ja") return 0;
  return n === 1 ? 0 : 1;
}

function words(key, params) {
  const found = STRINGS[lang][key] ?? STRINGS.en?.[key];
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
  return key in STRINGS[lang] || key in (STRINGS.en || {});
}

// Switch to `next` (its words asked for first when the page does not have them yet).
export async function setLang(next) {
  if (!LANGS.includes(next) || next === lang) return;
  if (!STRINGS[next]) {
    // said in the words the page has: the other language's are what failed
    await loadCatalogue(next).catch((err) => {
      throw new Error(t("app.catalogueFailed"), { cause: err });
    });
  }
  lang = next;
  document.documentElement.lang = lang;
  try {
    localStorage.setItem(STORAGE_KEY, lang);
  } catch {
    // not remembered here: the cookie still is
  }
  remember(lang);
  for (const fn of listeners) fn(lang);
}

// The other languages' words, fetched while the reader reads, so the switch needs no wait.
export function fetchOtherLanguages() {
  return Promise.all(LANGS.filter((l) => !STRINGS[l]).map((l) => loadCatalogue(l).catch(() => {})));
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

// Punctuation the code puts around words, as each language writes it: Japanese takes full-width
// marks and no space before them ("Aki（あなた）", "減点合計：12", "ゲーム終了。").
export function paren(text) {
  return lang === "ja" ? `（${text}）` : ` (${text})`;
}
export function colon() {
  return lang === "ja" ? "：" : ": ";
}
export function labelled(name, value) {
  return `${name}${colon()}${value}`;
}
// A sentence ended as its language ends one; several said one after another (the live region).
export function sentence(text) {
  return /[.!?。！？]$/.test(text) ? text : `${text}${lang === "ja" ? "。" : "."}`;
}
export function sentences(list) {
  return list.filter(Boolean).join(lang === "ja" ? "" : " ");
}

// Exposed for the tests: every key exists in both languages.
export async function missingKeys() {
  await loadCatalogue();
  const out = [];
  for (const l of LANGS) for (const k of Object.keys(STRINGS.en)) if (!(k in STRINGS[l])) out.push(`${l}:${k}`);
  for (const k of Object.keys(STRINGS.ja)) if (!(k in STRINGS.en)) out.push(`en:${k}`);
  return out;
}
