// What the table's socket says, handled: each frame becomes an event for the reducer
// (table_state.js) and the page is drawn again (table_draw.js). State messages are shown in order,
// paced, and each sets off what the page asks the server for next (bot levels, results, the
// rematch offer, the chat after the game).
import * as api from "./api.js";
import { loadGame } from "./games/index.js";
import { toast } from "./dom.js";
import { CLOSE, say, t } from "./i18n.js";
import { currentUser } from "./session.js";
import { announceNews } from "./table_draw.js";
import { byOther } from "./table_state.js";
import { TableSocket } from "./ws.js";

// Others' moves are shown at least this far apart, so a person can follow each one (a bot's
// four plays in a row, a deal after the last trick). Settable for tests: localStorage "nekobako.pace".
const PACE_MS = Number(localStorage.getItem("nekobako.pace") ?? 900);
const BACKLOG = 12; // more waiting than this (a reconnection): catch up at once

// The socket of the table `page` shows (table.js TablePage), its frames handled.
export function openTableSocket(page) {
  const show = paced(
    (msg) => onState(page, msg),
    (msg) => byOther(page.state, msg),
  );
  const socket = new TableSocket(page.id, {
    state: show,
    chat(msg) {
      page.withChat((box) => box.add(msg.message));
    },
    rematch(msg) {
      page.showRematch(msg.rematch);
    },
    chat_history(msg) {
      page.withChat((box) => box.setMessages(msg.messages));
    },
    refused(msg) {
      if (msg.code?.startsWith("chat_")) {
        toast(say(msg) || msg.reason, "error");
        return;
      }
      page.dispatch({ type: "refused" });
      toast(t("table.rejected", { reason: say(msg) || msg.reason }), "error");
      if (msg.code === "stale" || msg.code === "not_your_turn") socket.sync(); // our picture was old
      page.render();
    },
    status(connected, code) {
      page.dispatch({ type: "connection", connected });
      if (!connected && code !== CLOSE.NO_TABLE && !page.state.table) {
        // never connected: ask the REST API whether the table exists at all
        api.table(page.id).catch((err) => {
          if (err.status === 404) {
            socket.close();
            page.showNotFound();
          }
        });
      }
      if (!connected && code === CLOSE.NO_TABLE) {
        page.showNotFound();
        return;
      }
      page.renderStatus();
    },
  });
  return socket;
}

// Show the waiting state messages in order (`show(msg)`, awaited); another seat's move
// (`byOther(msg)`) waits until the one before it has been on screen for PACE_MS.
function paced(show, byOther) {
  const queue = [];
  let pumping = false;
  let shownAt = 0;
  async function pump() {
    if (pumping) return;
    pumping = true;
    try {
      while (queue.length) {
        const msg = queue[0];
        const wait = queue.length > BACKLOG || !byOther(msg) ? 0 : shownAt + PACE_MS - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        queue.shift();
        await show(msg);
        shownAt = Date.now();
      }
    } finally {
      pumping = false;
    }
  }
  return (msg) => {
    queue.push(msg);
    pump();
  };
}

// One state message: reduced, then what it sets off, then drawn and announced.
async function onState(page, msg) {
  const before = page.state.view;
  page.dispatch({ type: "state", msg, now: Date.now() / 1000 });
  // drawn as soon as the game's module is in (preloaded with the page): nothing else is waited for
  if (!page.module) page.module = await loadGame(msg.table.game);
  if (!msg.view && !page.state.bots) {
    page.dispatch({ type: "bots", bots: ["random"] }); // until the game list answers: then the seats are drawn again
    api
      .gameInfo(msg.table.game)
      .then((info) => {
        if (info) page.dispatch({ type: "bots", bots: info.bots });
        page.render();
      })
      .catch(() => {});
  }
  const user = currentUser();
  const seated = user && msg.table.seats.some((s) => s.user && s.user.id === user.id);
  page.withChat((box) => box.setWriter(Boolean(user), seated ? "players" : "spectators"));
  if (msg.view?.over && page.state.rematch === undefined) {
    page.dispatch({ type: "rematch", offer: null });
    api
      .rematchState(page.id)
      .then((answer) => page.showRematch(answer.rematch))
      .catch(() => {});
  }
  if (msg.view?.over && !page.state.results) {
    // the spectators' channel opens to everyone once the game is over
    api
      .chat(page.id)
      .then((messages) => page.withChat((box) => box.setMessages(messages)))
      .catch(() => {});
    api
      .results(page.id)
      .then((results) => {
        page.dispatch({ type: "results", results });
        page.renderResults();
      })
      .catch(() => {});
  }
  const started = performance.now();
  page.render();
  // one User Timing entry per message drawn: benchmarks/web.py reads them (render time per message)
  performance.measure("nekobako:render", { start: started, end: performance.now() });
  announceNews(page, before);
}
