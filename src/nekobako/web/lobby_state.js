// What the lobby knows, and the one function that changes it: the server's answers (the game
// list, a page of tables, the ratings) and the person's own choices (filters, a bot level on a
// card, what they typed in the account forms and the create form) are events reduced into a new
// state. lobby_feed.js asks for the tables and hears the server's push; lobby_account.js,
// lobby_tables.js, lobby_create.js and lobby_games.js draw states; lobby.js runs the effects.
// Pure: no DOM, no socket, no clock.

// the status filter's choices: the statuses each stands for
export const STATUS_FILTERS = { active: "open,running", open: "open", running: "running", finished: "finished" };

export function initialLobby() {
  return {
    games: [],
    tables: [],
    next: null, // where the next page of tables begins (the server's `next`), null at the end
    ratings: [],
    filters: { game: "", status: "active", free: false },
    botLevels: {}, // table id → bot level chosen in its card (survives the list's refresh)
    draft: { name: "", password: "", guest: "" }, // typed in the account forms (survives a redraw)
    form: {
      game: null,
      seats: 2,
      clock: "none",
      seconds: 300,
      increment: 10,
      days: 1,
      timeouts: 3,
      options: {}, // option name → value typed or chosen (undefined or "": the game's default)
      advancedOpen: false,
    },
  };
}

// The create form fitted to the games: a game that exists (the first one when none is chosen),
// as many seats as it allows.
function fitted(form, games) {
  const info = games.find((g) => g.name === form.game) || games[0];
  if (!info) return form;
  const seats = Math.min(Math.max(form.seats, info.min_players), info.max_players);
  return info.name === form.game && seats === form.seats ? form : { ...form, game: info.name, seats };
}

export function reduceLobby(state, event) {
  switch (event.type) {
    case "games":
      return { ...state, games: event.games, form: fitted(state.form, event.games) };
    case "tables": // a page of tables: the whole list, or (`more`) the next page after it
      return {
        ...state,
        tables: event.more ? state.tables.concat(event.page.tables) : event.page.tables,
        next: event.page.next,
      };
    case "ratings":
      return { ...state, ratings: event.ratings };
    case "filter":
      return { ...state, filters: { ...state.filters, [event.key]: event.value } };
    case "botLevel":
      return { ...state, botLevels: { ...state.botLevels, [event.table]: event.level } };
    case "draft":
      return { ...state, draft: { ...state.draft, [event.key]: event.value } };
    case "form": // the create form's own fields (seats, clock, its numbers, the advanced options opened)
      return { ...state, form: fitted({ ...state.form, ...event.changes }, state.games) };
    case "formGame": {
      // another game: its options start from their defaults
      const options = event.game === state.form.game ? state.form.options : {};
      return { ...state, form: fitted({ ...state.form, game: event.game, options }, state.games) };
    }
    case "option":
      return { ...state, form: { ...state.form, options: { ...state.form.options, [event.name]: event.value } } };
    default:
      throw new Error(`unknown lobby event ${event.type}`);
  }
}

// The request for the tables the filters ask for.
export function tableQuery(filters) {
  return { status: STATUS_FILTERS[filters.status], game: filters.game, seatsFree: filters.free };
}

// The table the create form describes: [game, seats, options (the defaults left out), clock].
export function tableRequest(form) {
  const clock =
    form.clock === "realtime"
      ? { kind: "realtime", bank: form.seconds, increment: form.increment, timeouts: form.timeouts }
      : form.clock === "turn"
        ? { kind: "turn", days: form.days, timeouts: form.timeouts }
        : { kind: "none" };
  const options = {};
  for (const [k, v] of Object.entries(form.options)) if (v !== "" && v !== undefined) options[k] = v;
  return [form.game, form.seats, options, clock];
}
