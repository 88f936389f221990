// The lobby's tables from the server: asked for (a page at a time, the newest request's answer
// drawn), pushed (`/ws/lobby` says when they changed, server/lobby_feed.py) and polled while the
// push is not heard. Each answer is an event for the reducer (lobby_state.js).
import * as api from "./api.js";
import { toast } from "./dom.js";
import { tableQuery } from "./lobby_state.js";

const POLL_MS = 3000; // while the server's push (/ws/lobby) is not heard
const SLOW_POLL_MS = 30000; // while it is: for what it does not push (who is connected)
const PAGE = 20; // tables per page; "More tables" asks for the next page

// `refresh({more, reset})` for the lobby `page` (lobby.js): the tables again, as many as the reader
// asked to see (`wanted`: a page, one more per "More tables", up to the server's 100); past that,
// `more` asks for the next page after the last one shown. Only the newest request's answer is
// drawn: a push's refresh never undoes "More tables".
export function tableLister(page) {
  let asked = 0;
  let wanted = PAGE;
  return async function refresh({ more = false, reset = false } = {}) {
    const query = tableQuery(page.state.filters);
    if (reset) wanted = PAGE;
    const next = more && wanted >= 100; // past what one request gives: the next page, appended
    if (more && !next) wanted = Math.min(100, wanted + PAGE);
    const mine = ++asked;
    try {
      const answer = next
        ? await api.tables({ ...query, limit: PAGE, before: page.state.next })
        : await api.tables({ ...query, limit: wanted });
      if (mine !== asked) return; // a newer request (another filter, a push) answers instead
      page.dispatch({ type: "tables", page: answer, more: next });
      page.renderTables();
    } catch (err) {
      toast(err.message, "error");
    }
  };
}

// Pushed: the server says when the tables changed and `ask()` asks for the list again (a bodiless
// 304 when what it shows did not change); polled while that is not heard. Returns `close()`.
export function followTables(ask) {
  let askedAt = 0;
  let missed = false; // told while the page was hidden: asked once it shows
  const asking = () => {
    askedAt = Date.now();
    ask();
  };
  const feed = watchTables(() => {
    if (document.hidden) missed = true;
    else asking();
  });
  const onVisible = () => {
    if (!document.hidden && missed) {
      missed = false;
      asking();
    }
  };
  document.addEventListener("visibilitychange", onVisible);
  const timer = setInterval(() => {
    if (!document.hidden && (!feed.live() || Date.now() - askedAt >= SLOW_POLL_MS)) asking();
  }, POLL_MS);
  return () => {
    clearInterval(timer);
    feed.close();
    document.removeEventListener("visibilitychange", onVisible);
  };
}

// The lobby's socket (/ws/lobby): `onChange()` when the server says the tables changed, and after
// a reconnection (changes may have been missed meanwhile). `live()`: whether it is heard now.
function watchTables(onChange) {
  let socket = null;
  let closed = false;
  let retry = 0;
  let ping = null;
  function connect() {
    if (closed || typeof WebSocket !== "function") return;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const current = new WebSocket(`${scheme}//${location.host}/ws/lobby`);
    socket = current;
    current.addEventListener("open", () => {
      if (retry > 0) onChange();
      retry = 0;
      ping = setInterval(() => current.send('{"type":"ping"}'), 25000);
    });
    current.addEventListener("message", () => onChange());
    current.addEventListener("close", () => {
      clearInterval(ping);
      if (socket === current) socket = null;
      if (!closed) setTimeout(connect, Math.min(30000, 1000 * 2 ** retry++));
    });
  }
  connect();
  return {
    live: () => socket?.readyState === WebSocket.OPEN,
    close: () => {
      closed = true;
      socket?.close();
    },
  };
}
