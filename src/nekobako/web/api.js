// The server's REST API (docs/protocol.md), one small function per endpoint. Every call sends the
// session cookie and the page's language (Accept-Language); a refused request throws an ApiError
// whose message is the server's reason worded from its key and params in the page's language.
import { boot } from "./boot.js";
import { lang, say, t } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, code, message, key = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.key = key; // the catalogue key of the reason (error.*, engine.*, <game>.*), when the server sent one
  }
}

async function call(method, path, body) {
  const init = { method, credentials: "same-origin", headers: { Accept: "application/json", "Accept-Language": lang } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, "network", t("app.network", { detail: String(err.message || err) }));
  }
  let data = null;
  const text = await response.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = { error: text };
    }
  }
  if (!response.ok) {
    const message = say(data) || data?.error || `${response.status} ${response.statusText}`;
    throw new ApiError(response.status, data?.code || "error", message, data?.key ?? null);
  }
  return data;
}

// Accounts
export const me = () => call("GET", "/api/auth/me");
export const signup = (name, password) => call("POST", "/api/auth/signup", { name, password });
export const login = (name, password) => call("POST", "/api/auth/login", { name, password });
export const guest = (name) => call("POST", "/api/auth/guest", { name });
export const logout = () => call("POST", "/api/auth/logout");

// Lobby
export const games = () => call("GET", "/api/games").then((d) => d.games);
// One page of tables, newest first: {tables, next} (`next`: pass as `before` for the next page).
export const tables = ({ status = "open,running", game = "", seatsFree = false, limit = 20, before = null } = {}) => {
  const query = new URLSearchParams({ status, limit: String(limit) });
  if (game) query.set("game", game);
  if (seatsFree) query.set("seats_free", "true");
  if (before) query.set("before", String(before));
  return call("GET", `/api/tables?${query}`);
};
export const table = (id) => call("GET", `/api/tables/${id}`);
export const createTable = (game, seats, options, clock) =>
  call("POST", "/api/tables", { game, seats, options, clock });
export const join = (id, seat) => call("POST", `/api/tables/${id}/join`, seat === undefined ? {} : { seat });
export const leave = (id) => call("POST", `/api/tables/${id}/leave`);
export const reclaim = (id) => call("POST", `/api/tables/${id}/reclaim`);
export const addBot = (id, level, seat) =>
  call("POST", `/api/tables/${id}/bots`, seat === undefined ? { level } : { level, seat });
export const fillBots = (id, level) => call("POST", `/api/tables/${id}/bots`, { level, fill: true });
export const removeSeat = (id, seat) => call("DELETE", `/api/tables/${id}/seats/${seat}`);
export const start = (id) => call("POST", `/api/tables/${id}/start`);
export const results = (id) => call("GET", `/api/tables/${id}/results`);
export const record = (id) => call("GET", `/api/tables/${id}/record`);
export const rematchState = (id) => call("GET", `/api/tables/${id}/rematch`);
export const rematch = (id) => call("POST", `/api/tables/${id}/rematch`);
export const declineRematch = (id) => call("POST", `/api/tables/${id}/rematch/decline`);
export const chat = (id) => call("GET", `/api/tables/${id}/chat`).then((d) => d.messages);
export const mutes = () => call("GET", "/api/mutes").then((d) => d.muted);
export const mute = (user) => call("POST", "/api/mutes", { user }).then((d) => d.muted);
export const unmute = (user) => call("DELETE", `/api/mutes/${user}`).then((d) => d.muted);
export const report = (id, user, reason) => call("POST", `/api/tables/${id}/reports`, { user, reason });
export const player = (name) => call("GET", `/api/players/${encodeURIComponent(name)}`);
export const ratings = (game) => call("GET", `/api/ratings${game ? `?game=${encodeURIComponent(game)}` : ""}`);

// Replays: the full view (every hand) after `step` recorded entries of a finished game.
// A tutorial's step after `step` steps done; with `move`, that move tried there.
export const tutorial = (game, step, move) =>
  call("POST", `/api/tutorials/${encodeURIComponent(game)}`, move === undefined ? { step } : { step, move });
export const replayStep = (id, step) => call("GET", `/api/tables/${id}/replay?step=${step}`);
// Reviews of a finished game's seat (docs/review.md): what is stored, and asking for one.
export const review = (id, seat) => call("GET", `/api/tables/${id}/reviews/${seat}`);
export const startReview = (id, seat) => call("POST", `/api/tables/${id}/reviews/${seat}`);
// The best move at your turn, at a table with the hints option.
export const hint = (id) => call("POST", `/api/tables/${id}/hint`);

// Games are fetched once per page load and shared (titles, options, bot levels, messages); the
// lobby and replay pages hold them already (server/pages.py boot).
let gamesPromise = boot.games ? Promise.resolve(boot.games) : null;
export function gameList() {
  if (!gamesPromise)
    gamesPromise = games().catch((err) => {
      gamesPromise = null; // a failed fetch is tried again next time
      throw err;
    });
  return gamesPromise;
}
export async function gameInfo(name) {
  const list = await gameList();
  return list.find((g) => g.name === name) || null;
}
