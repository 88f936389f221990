// Entry point: the top bar (account, language switch) and a small router.
//   /                   lobby          (#/table/ID opens a table on the same page)
//   /#/table/ID         a table: seats before the start, the game while it runs, results after
//   /table/ID           the same table page (a link that can be shared)
//   /replay/ID          the replay of a finished table
//   /player/NAME        a player's page: ratings with their history, win rates, recent games
//   /tutorial/GAME      a game's tutorial: a scripted first game with a text at each step
import "./ws.js"; // first: a table page's socket opens while everything else loads
import * as api from "./api.js";
import { clear, h, toast } from "./dom.js";
import { fetchOtherLanguages, onLangChange, setLang, t, lang } from "./i18n.js";
import { currentUser, loadUser, onUserChange, setUser } from "./session.js";

// Who is signed in: said inside the page (boot.js), else asked at once, while the page's module loads.
const userLoaded = loadUser();
const main = document.getElementById("main");
const nav = document.getElementById("topnav");
let unmount = null;

function route() {
  const replay = location.pathname.match(/^\/replay\/(\d+)\/?$/);
  if (replay) return { page: "replay", id: Number(replay[1]) };
  const tutorial = location.pathname.match(/^\/tutorial\/([a-z][a-z0-9_]*)\/?$/);
  if (tutorial) return { page: "tutorial", game: tutorial[1] };
  const player = location.pathname.match(/^\/player\/([^/]+)\/?$/);
  if (player) return { page: "player", name: decodeURIComponent(player[1]) };
  const table = location.hash.match(/^#\/table\/(\d+)/) || location.pathname.match(/^\/table\/(\d+)\/?$/);
  if (table) return { page: "table", id: Number(table[1]) };
  return { page: "lobby" };
}

// `moved`: the person went to another page of this one (not the first load): the focus goes to the
// new page's heading, so keyboard and screen-reader users start there instead of at <body>.
async function show(moved = false) {
  if (unmount) unmount();
  unmount = null;
  clear(main);
  main.append(h("p", { class: "muted" }, t("app.loading")));
  const where = route();
  try {
    performance.mark("nekobako:route");
    const [module] = await Promise.all([import(`./${where.page}.js`), userLoaded]);
    performance.mark("nekobako:mount"); // benchmarks/web.py: when the page module starts drawing
    clear(main);
    unmount = module.mount(main, where) || null;
    if (moved) main.querySelector("h1")?.focus();
  } catch (err) {
    clear(main);
    main.append(h("p", { class: "error" }, t("app.error", { message: err.message || err })));
    console.error(err);
  }
}

function renderNav() {
  const user = currentUser();
  clear(nav);
  if (user) {
    nav.append(
      h(
        "span",
        { class: "who", "data-testid": "whoami" },
        t("account.signedIn", { name: user.name }),
        user.guest ? h("span", { class: "badge" }, t("account.guestBadge")) : null,
      ),
      h(
        "button",
        {
          type: "button",
          class: "link",
          onclick: async () => {
            try {
              await api.logout();
            } catch (err) {
              toast(err.message, "error");
            }
            setUser(null);
          },
        },
        t("account.logout"),
      ),
    );
  }
  nav.append(
    h(
      "button",
      {
        type: "button",
        class: "lang-switch",
        id: "lang-switch",
        onclick: () => setLang(lang === "ja" ? "en" : "ja").catch((err) => toast(err.message, "error")),
      },
      // the visible name (in the other language) begins the accessible name, as WCAG 2.5.3 asks
      h("span", { lang: lang === "ja" ? "en" : "ja" }, t("lang.switch")),
      h("span", { class: "sr-only" }, ` — ${t("lang.switchLabel")}`),
    ),
  );
  const skip = document.querySelector(".skip-link");
  if (skip) skip.textContent = t("app.skip");
  nav.setAttribute("aria-label", t("app.nav"));
}

onLangChange(renderNav);
onUserChange(renderNav);
window.addEventListener("hashchange", () => show(true));

renderNav();
// the switch's other language is fetched once the page is drawn (it is not in the page)
show().then(() => setTimeout(fetchOtherLanguages, 1000));
