"""One WebSocket watching or playing a table. Outgoing messages go through a queue drained by one
writer task, so a slow client never holds up the table and messages keep their order.

A `state` message is built when it is sent, from the table as it is then; it carries the
events and notices this connection has not been sent yet. Connections that would be sent the
same text share one encoding (`messages.state_text`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from .errors import CloseCode
from .messages import delta_state_text, encode, state_text

if TYPE_CHECKING:
    from .live import LiveTable

log = logging.getLogger("nekobako.server")

_STATE = object()  # queue marker: send a fresh state message
_FORCED_STATE = object()  # the same, even when nothing changed (connect, sync)
_CLOSE = object()
MAX_QUEUED = 256  # unsent messages before a connection is considered dead weight


class Connection:
    def __init__(
        self,
        ws: WebSocket,
        table: LiveTable,
        user: dict[str, Any] | None,
        session: str | None = None,
        deltas: bool = False,
        lang: str = "en",
    ):
        self.ws = ws
        self.table = table
        self.user = user
        self.session = session  # the cookie that opened it, so logout can close it
        self.queue: asyncio.Queue[Any] = asyncio.Queue()
        self.sent_events = 0
        self.sent_notices = 0
        self.sent_version = -1
        self.deltas = deltas  # the client asked for `delta` messages after the first `state`
        self.lang = lang  # the reader's language (errors.request_lang): notices' and refusals' words
        self.held: dict[str, Any] | None = None  # with deltas: the last full message it was sent
        self.writer: asyncio.Task[None] | None = None
        self.state_queued = False
        self.overflowed = False
        self.muted: frozenset[int] = frozenset()  # whose chat lines its user muted (server/moderation.py)

    @property
    def seat(self) -> int | None:
        return self.table.seat_of(self.user["id"] if self.user else None)

    def start(self) -> None:
        self.writer = asyncio.create_task(self._write_loop())

    async def stop(self) -> None:
        self.queue.put_nowait(_CLOSE)
        if self.writer is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(self.writer, timeout=2)

    async def close(self, code: int, reason: str) -> None:
        """Close from the server's side; the reader then unregisters the connection."""
        await self.stop()
        with contextlib.suppress(Exception):
            await self.ws.close(code=code, reason=reason)

    def push_state(self, force: bool = False) -> None:
        """Queue a state message; one queued state message stands for any number of changes."""
        if self.state_queued and not force:
            return
        self.state_queued = True
        self._put(_FORCED_STATE if force else _STATE)

    def push(self, message: dict[str, Any]) -> None:
        self._put(message)

    def _put(self, item: Any) -> None:
        if self.queue.qsize() >= MAX_QUEUED:
            self.overflowed = True  # a client that sends but never reads; the reader closes it
            return
        self.queue.put_nowait(item)

    async def _write_loop(self) -> None:
        try:
            while True:
                item = await self.queue.get()
                if item is _CLOSE:
                    return
                if item is _STATE or item is _FORCED_STATE:
                    self.state_queued = False
                    if item is _STATE and self.sent_version == self.table.version:
                        continue
                    await self.ws.send_text(self.state_message(full=item is _FORCED_STATE))
                    continue
                await self.ws.send_text(encode(item))
        except (OSError, RuntimeError, WebSocketDisconnect):  # uvicorn's ClientDisconnected is an OSError
            return  # the socket went away; the reader notices and unregisters us
        except Exception:
            # a message that cannot be sent is a bug: say so, and close rather than fall silent
            log.exception("table %s: the connection's writer failed; closing it", self.table.id)
            with contextlib.suppress(Exception):
                await self.ws.close(code=CloseCode.INTERNAL, reason="internal error")

    def state_message(self, full: bool = False) -> str:
        """The encoded `state` message this connection is due now (with deltas: a `delta` message
        unless `full`, as on connecting and on `sync`)."""
        table = self.table
        version = table.version
        if self.deltas:
            text, self.held = delta_state_text(table, self.seat, None if full else self.held, self.lang)
            self.sent_version = version
            return text
        text, self.sent_events, self.sent_notices = state_text(
            table, self.seat, self.sent_events, self.sent_notices, self.lang
        )
        self.sent_version = version
        return text
