"""The lobby, pushed (issue 17): `ws://HOST/ws/lobby` tells every open lobby page that the tables
changed (`{"type": "tables", "revision": N}`), and the page asks for its page of the list again —
a bodiless 304 when what it shows did not change — instead of asking every three seconds.

What changed is not sent: a page's filters, its paging and who reads it decide what it shows, and
`GET /api/tables` already answers exactly that. The socket only says when to ask.

Heard from: every change this process makes or hears of (`Tables.changed`: seats, start, moves,
the end), a table created here, and with several processes every other process's change (the
signal each group commit sends, heard whether or not this process holds the tables) and creation (a
`lobby` signal). Pages are told at most once per `PERIOD`: the first change at once, the ones that
follow together at the end of the period, so a busy server's moves do not become a request per
move per reader. A page whose socket is down polls as before (web/lobby.js).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from .errors import CloseCode
from .guards import same_origin_socket
from .hub import Hub
from .live import LiveTable

PERIOD = 1.0  # seconds: at most one message per page this often
MAX_PAGES = 5000  # lobby sockets per process; more are closed (their pages poll)
MAX_FRAME = 100  # characters: a ping fits


class LobbyFeed:
    def __init__(self, hub: Hub):
        self.hub = hub
        self.revision = 0  # changes published so far
        self.published = asyncio.Event()  # replaced on every publication; set when it is out of date
        self.pages = 0
        self.sent_at = 0.0
        self.later: asyncio.TimerHandle | None = None
        hub.tables.listeners.append(self.table_changed)
        hub.signal_listeners.append(self.heard)

    def table_changed(self, _live: LiveTable) -> None:
        self.changed()

    def created(self) -> None:
        """A table was made here: told here, and to the other processes' lobbies."""
        self.changed()
        self.hub.send_signal({"k": "lobby"})

    def heard(self, signal: dict[str, Any]) -> None:
        if signal.get("k") in ("tables", "lobby"):
            self.changed()

    def changed(self) -> None:
        if self.later is not None:
            return  # told at the end of the period with the rest
        wait = self.sent_at + PERIOD - time.monotonic()
        if wait <= 0:
            self.publish()
        else:
            self.later = asyncio.get_running_loop().call_later(wait, self.publish)

    def publish(self) -> None:
        self.later = None
        self.sent_at = time.monotonic()
        self.revision += 1
        done, self.published = self.published, asyncio.Event()
        done.set()

    async def serve(self, ws: WebSocket) -> None:
        """One lobby page: told each new revision until it leaves. Each page waits on its own, so a
        slow one holds up nobody."""
        if not same_origin_socket(ws):
            await ws.close(code=CloseCode.FOREIGN_ORIGIN)
            return
        await ws.accept()
        if self.pages >= MAX_PAGES:
            await ws.close(code=CloseCode.TOO_MANY_WATCHERS, reason="too many lobby pages; this one polls")
            return
        self.pages += 1
        reader = asyncio.create_task(_until_closed(ws))
        seen = self.revision
        try:
            while not reader.done():
                if self.revision == seen:
                    waiting = asyncio.create_task(self.published.wait())
                    await asyncio.wait((reader, waiting), return_when=asyncio.FIRST_COMPLETED)
                    waiting.cancel()
                    continue
                seen = self.revision
                await ws.send_json({"type": "tables", "revision": seen})
        except (OSError, RuntimeError, WebSocketDisconnect):
            pass  # the page went away
        finally:
            self.pages -= 1
            reader.cancel()
            with contextlib.suppress(BaseException):
                await reader


async def _until_closed(ws: WebSocket) -> None:
    """Read (and ignore) what the page sends until it goes: pings keep proxies from closing it.
    Anything longer than a ping is no lobby page's: the socket is closed."""
    while (message := await ws.receive())["type"] != "websocket.disconnect":
        if len(message.get("text") or "") > MAX_FRAME or message.get("bytes") is not None:
            await ws.close(code=CloseCode.POLICY, reason="a lobby socket only listens")
            return


async def lobby_socket(ws: WebSocket) -> None:
    await ws.app.state.lobby_feed.serve(ws)


routes = [WebSocketRoute("/ws/lobby", lobby_socket)]
