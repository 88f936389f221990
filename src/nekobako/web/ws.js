// One WebSocket per open table page (docs/protocol.md, "Play"). Reconnects by itself with a
// growing delay; on every (re)connection the server sends a full `state` message, so a reload or
// a dropped network resumes exactly where the game is.

export class TableSocket {
  // handlers: {state(msg), refused(msg), chat(msg), chat_history(msg), status(connected: bool)}
  constructor(tableId, handlers) {
    this.tableId = tableId;
    this.handlers = handlers;
    this.seq = null; // seq of the last state message: actions answer it
    this.socket = null;
    this.closed = false;
    this.retry = 0;
    this.pingTimer = null;
    this.connect();
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/tables/${this.tableId}`;
  }

  connect() {
    if (this.closed) return;
    const socket = new WebSocket(this.url());
    this.socket = socket;
    socket.addEventListener("open", () => {
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
      if (msg.type === "state") {
        this.seq = msg.seq;
        this.handlers.state?.(msg);
      } else if (msg.type === "refused") {
        this.handlers.refused?.(msg);
      } else if (msg.type === "chat" || msg.type === "chat_history") {
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
