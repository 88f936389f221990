// One WebSocket per open table page (docs/protocol.md, "Play"). Reconnects by itself with a
// growing delay; on every (re)connection the server sends a full `state` message, so a reload or
// a dropped network resumes exactly where the game is. After that first message the server sends
// only what changed (`delta` messages, applied by delta.js); a delta that does not follow the
// message held here asks for the whole state again (`sync`).
import { applyPatch } from "./delta.js";

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
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/tables/${this.tableId}?deltas=1`;
  }

  connect() {
    if (this.closed) return;
    const socket = new WebSocket(this.url());
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.held = null; // the server starts every connection with a full state
      this.retry = 0;
      this.handlers.status?.(true);
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.sendRaw({ type: "ping" }), 25000);
    });
    socket.addEventListener("message", (event) => {
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
    });
    socket.addEventListener("close", (event) => {
      clearInterval(this.pingTimer);
      if (this.socket !== socket) return;
      this.handlers.status?.(false, event.code);
      if (this.closed || event.code === 4404 || event.code === 4403) return;
      const delay = Math.min(8000, 300 * 2 ** this.retry++);
      setTimeout(() => this.connect(), delay);
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
