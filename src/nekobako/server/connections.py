"""One WebSocket watching or playing a table. Outgoing messages go through a queue drained by one
writer task, so a slow client never holds up the table and messages keep their order. What is
ready when the writer wakes goes out at once: as one frame holding a JSON array of the messages
when the client asked for it (`?batch=1`, the browser does), since every frame written is a
system call (the positions of a chain of moves: several messages at once).

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

_CLOSE = object()
MAX_QUEUED = 256  # unsent messages before a connection is considered dead weight
BEHIND = 8  # unsent messages past which positions that pass are no longer frozen (coalesced instead)


class _State:
    """Queue marker: send a state message (`force`: even when nothing changed: connect, sync),
    built when it is sent, from the table as it is then or from the position it was frozen at
    (`Connection.freeze`)."""

    __slots__ = ("force", "position")

    def __init__(self, force: bool):
        self.force = force
        self.position: LiveTable | None = None


class Connection:
    def __init__(
        self,
        ws: WebSocket,
        table: LiveTable,
        user: dict[str, Any] | None,
        session: str | None = None,
        deltas: bool = False,
        lang: str = "en",
        batch: bool = False,
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
        self.batch = batch  # the client reads a frame holding a JSON array of messages (`?batch=1`)
        self.held: dict[str, Any] | None = None  # with deltas: the last full message it was sent
        self.writer: asyncio.Task[None] | None = None
        self.queued: _State | None = None  # the state marker waiting in the queue, not built yet
        self.overflowed = False

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
        """Queue a state message; one queued state message stands for any number of changes (and
        is made a forced one when asked)."""
        if self.queued is not None:
            self.queued.force = self.queued.force or force
            return
        marker = _State(force)
        if self._put(marker):
            self.queued = marker

    def freeze(self, position: LiveTable) -> None:
        """The queued state message is to show `position` (a copy of the table that stays as it
        is now: `LiveTable.snapshot`), built when its turn comes: a position that passes at once
        (a chain of moves committed together) still reaches this reader as a message of its own,
        which the browser paces. A reader far behind gets it coalesced."""
        marker = self.queued
        if marker is None or self.queue.qsize() > BEHIND:
            return
        marker.position = position
        self.queued = None

    def push(self, message: dict[str, Any]) -> None:
        self._put(message)

    def _put(self, item: Any) -> bool:
        if self.queue.qsize() >= MAX_QUEUED:
            self.overflowed = True  # a client that sends but never reads; the reader closes it
            return False
        self.queue.put_nowait(item)
        return True

    async def _write_loop(self) -> None:
        try:
            closing = False
            while not closing:
                items = [await self.queue.get()]
                while not self.queue.empty():  # what is ready goes out in one go
                    items.append(self.queue.get_nowait())
                closing = _CLOSE in items
                texts = [
                    text for item in items[: items.index(_CLOSE) if closing else None] for text in self._texts(item)
                ]
                if self.batch and len(texts) > 1:
                    await self.ws.send_text(f"[{','.join(texts)}]")
                    continue
                for text in texts:
                    await self.ws.send_text(text)
        except (OSError, RuntimeError, WebSocketDisconnect):  # uvicorn's ClientDisconnected is an OSError
            return  # the socket went away; the reader notices and unregisters us
        except Exception:
            # a message that cannot be sent is a bug: say so, and close rather than fall silent
            log.exception("table %s: the connection's writer failed; closing it", self.table.id)
            with contextlib.suppress(Exception):
                await self.ws.close(code=CloseCode.INTERNAL, reason="internal error")

    def _texts(self, item: Any) -> list[str]:
        """The encoded messages a queue item stands for (none: a state with nothing new)."""
        if not isinstance(item, _State):
            return [encode(item)]
        if self.queued is item:
            self.queued = None
        if item.position is not None:
            return [self.state_message(full=item.force, table=item.position)]
        if item.force or self.sent_version != self.table.version:
            return [self.state_message(full=item.force)]
        return []

    def state_message(self, full: bool = False, table: LiveTable | None = None) -> str:
        """The encoded `state` message this connection is due now, of the table or of a position
        it passed (with deltas: a `delta` message unless `full`, as on connecting and on `sync`)."""
        table = table or self.table
        version = table.version
        seat = table.seat_of(self.user["id"] if self.user else None)
        if self.deltas:
            text, self.held = delta_state_text(table, seat, None if full else self.held, self.lang)
            self.sent_version = version
            return text
        text, self.sent_events, self.sent_notices = state_text(
            table, seat, self.sent_events, self.sent_notices, self.lang
        )
        self.sent_version = version
        return text
