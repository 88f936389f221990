// The lobby: who you are (sign up / log in / guest), the tables (join, add bots, start, watch,
// replay) and the form to create a table with every option of the chosen game.
// The parts: lobby_state.js (what the lobby knows, and the reducer that changes it), lobby_feed.js
// (the tables asked for, pushed by /ws/lobby, polled), lobby_account.js, lobby_tables.js,
// lobby_create.js and lobby_games.js (drawing a panel each). This module puts them together and
// runs the effects: the first answers asked for, the language and account switches.
import * as api from "./api.js";
import { h, toast } from "./dom.js";
import { onLangChange, t } from "./i18n.js";
import { onUserChange } from "./session.js";
import { drawAccount } from "./lobby_account.js";
import { drawCreate } from "./lobby_create.js";
import { followTables, tableLister } from "./lobby_feed.js";
import { drawGames, drawRatings } from "./lobby_games.js";
import { initialLobby, reduceLobby } from "./lobby_state.js";
import { drawTables } from "./lobby_tables.js";

export function mount(root) {
  const page = new LobbyPage(root);
  return () => page.close();
}

class LobbyPage {
  constructor(root) {
    this.state = initialLobby(); // the facts, changed only by `dispatch` (lobby_state.js)
    this.editors = {}; // option name → its editor's own state (the deck editor's custom grid)
    this.parts = makeParts(() => this.goCreate());
    root.append(this.parts.head, this.parts.lobby);
    this.refresh = tableLister(this);
    api
      .gameList()
      .then((games) => {
        this.dispatch({ type: "games", games });
        this.renderGames();
        this.renderTables();
        this.renderCreate();
        drawRatings(this.parts.ratingsBox, this.state);
      })
      .catch((err) => toast(err.message, "error"));
    this.renderAll();
    this.refresh();
    api
      .ratings()
      .then((r) => {
        this.dispatch({ type: "ratings", ratings: r.ratings || [] });
        drawRatings(this.parts.ratingsBox, this.state);
      })
      .catch(() => {});
    this.stopFollowing = followTables(() => this.refresh());
    this.offLang = onLangChange(() => this.renderAll());
    this.offUser = onUserChange((user) => this.userChanged(user));
  }

  dispatch(event) {
    this.state = reduceLobby(this.state, event);
  }

  // A request about a table (join, a bot, start, leave): `then(answer)`, then the list again; a
  // refusal is said.
  async act(promise, then) {
    try {
      const result = await promise;
      if (then) then(result);
      await this.refresh();
    } catch (err) {
      toast(err.message, "error");
    }
  }

  // On a phone the form comes after the whole table list: the button under the heading brings it
  // into view with the focus on its first control.
  goCreate() {
    const createBox = this.parts.createBox;
    createBox.scrollIntoView({ block: "start" });
    const first = createBox.querySelector("select:not(:disabled), input:not(:disabled)");
    (first || createBox.querySelector("h2"))?.focus({ preventScroll: true });
  }

  renderGames() {
    drawGames(this.parts.gamesBox, this.state);
  }

  renderTables() {
    drawTables(this);
  }

  renderCreate() {
    drawCreate(this);
  }

  renderAll() {
    this.parts.title.textContent = t("lobby.heading");
    this.parts.toCreate.textContent = t("lobby.create");
    this.renderGames();
    drawAccount(this);
    this.renderTables();
    this.renderCreate();
    drawRatings(this.parts.ratingsBox, this.state);
  }

  userChanged(user) {
    const active = document.activeElement;
    const move = !active || active === document.body || !active.isConnected || this.parts.accountBox.contains(active);
    this.renderAll();
    this.refresh();
    // signed in: the account form is gone, the focus goes on to creating a table; signed out
    // (the top bar's button is gone): to the guest name
    if (move) document.getElementById(user ? "create-game" : "guest-name")?.focus();
  }

  close() {
    this.stopFollowing();
    this.offLang();
    this.offUser();
  }
}

// The page's parts, each drawn by one module.
function makeParts(goCreate) {
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
  const head = h("div", { class: "lobby-head" }, title, toCreate);
  const lobby = h(
    "div",
    { class: "lobby" },
    accountBox,
    h("div", { class: "lobby-col" }, gamesBox, tablesBox, ratingsBox),
    createBox,
  );
  return { accountBox, tablesBox, createBox, ratingsBox, gamesBox, title, toCreate, head, lobby };
}
