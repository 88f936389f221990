// One WebSocket per open table page (docs/protocol.md, "Play"). Reconnects by itself with a
// growing delay; on every (re)connection the server sends a full `state` message, so a reload or
// a dropped network resumes exactly where the game is. After that first message the server sends
// only what changed (`delta` messages, applied by delta.js); a delta that does not follow the
// message held here asks for the whole state again (`sync`).
//
// A table page's socket is opened as soon as this module runs (app.js imports it first thing), in
// parallel with the modules; the page's TableSocket takes it over with whatever it has received by
// then. Before any of that, the page itself holds this reader's first state message (boot.js), so
// the table is drawn without waiting for the socket at all.
import { boot } from "./boot.js";
import { applyPatch } from "./delta.js";

function socketUrl(tableId) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws/tables/${tableId}?deltas=1`;
}

let early = null; // {tableId, socket, events: [...]} until a TableSocket takes it
let inPage = boot.state || null; // the first state message, used once by its table's TableSocket
const opened = location.pathname.match(/^\/table\/(\d+)\/?$/) || location.hash.match(/^#\/table\/(\d+)/);
if (opened && typeof WebSocket === "function") {
  const socket = new WebSocket(socketUrl(Number(opened[1])));
  early = { tableId: Number(opened[1]), socket, events: [] };
  for (const type of ["open", "message", "close"]) socket.addEventListener(type, (e) => early?.events.push(e));
  setTimeout(() => {
    if (early?.socket === socket) {
      socket.close(); // nobody came for it (the page went elsewhere)
      early = null;
    }
  }, 15000);
}

import { CLOSE } from "./i18n.js";

export class TableSocket {
  // handlers: {state(msg), refused(msg), chat(msg), chat_history(msg), rematch(msg), status(connected: bool)}
  constructor(tableId, handlers) {
    this.tableId = tableId;
    this.handlers = handlers;
    this.seq = null; // seq of the last state message: actions answer it
    this.held = null; // the last whole state message (deltas apply to it)
    this.socket = null;
    this.closed = false;
    this.retry = 0;
    this.pingTimer = null;
    this.connect();
    const first = inPage?.table?.id === tableId ? inPage : null;
    inPage = null;
    if (first)
      queueMicrotask(() => {
        if (this.held || this.closed) return; // the socket was quicker
        this.held = first;
        this.seq = first.seq;
        this.handlers.state?.(first);
      });
  }

  connect() {
    if (this.closed) return;
    const adopted = early && early.tableId === this.tableId ? early : null;
    if (early && !adopted) early.socket.close();
    early = null;
    const socket = adopted ? adopted.socket : new WebSocket(socketUrl(this.tableId));
    this.socket = socket;
    const on = {};
    on.open = () => {
      this.held = null; // the server starts every connection with a full state
      this.retry = 0;
      this.handlers.status?.(true);
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.sendRaw({ type: "ping" }), 25000);
    };
    on.message = (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      if (msg.type === "delta") {
        msg = this.applyDelta(msg);
        if (!msg) return;
      }
      if (msg.type === "state") {
        this.held = msg;
        this.seq = msg.seq;
        this.handlers.state?.(msg);
      } else if (msg.type === "refused") {
        this.handlers.refused?.(msg);
      } else if (msg.type === "chat" || msg.type === "chat_history" || msg.type === "rematch") {
        this.handlers[msg.type]?.(msg);
      }
    };
    on.close = (event) => {
      clearInterval(this.pingTimer);
      if (this.socket !== socket) return;
      this.handlers.status?.(false, event.code);
      if (this.closed || event.code === CLOSE.NO_TABLE || event.code === CLOSE.FOREIGN_ORIGIN) return;
      const delay = Math.min(8000, 300 * 2 ** this.retry++);
      setTimeout(() => this.connect(), delay);
    };
    for (const type of ["open", "message", "close"]) socket.addEventListener(type, on[type]);
    // what came before, in order, once the page has its TableSocket (a microtask runs before the
    // socket's next event)
    if (adopted)
      queueMicrotask(() => {
        for (const event of adopted.events) on[event.type](event);
      });
  }

  // The whole state a delta leads to, or null (then the whole state is asked for, once).
  applyDelta(msg) {
    if (this.held && msg.base === this.held.version) {
      try {
        return { ...applyPatch(this.held, msg.patch), clock: msg.clock };
      } catch {
        // a patch that does not fit: fall through to a resync
      }
    }
    if (this.held) this.sync();
    this.held = null; // until the full state comes
    return null;
  }

  sendRaw(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  // Play `action` (canonical notation taken from `legal`) answering the last state seen.
  act(action) {
    return this.sendRaw({ type: "action", seq: this.seq, action });
  }

  chat(text) {
    return this.sendRaw({ type: "chat", text });
  }

  sync() {
    return this.sendRaw({ type: "sync" });
  }

  close() {
    this.closed = true;
    clearInterval(this.pingTimer);
    if (this.socket) this.socket.close();
  }
}
