"""One WebSocket watching or playing a table. Outgoing messages go through a queue drained by one
writer task, so a slow client never holds up the table and messages keep their order.

A `state` message is built when it is sent, from the table as it is then; it carries the
events and notices this connection has not been sent yet.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from .clock import decision_seconds

if TYPE_CHECKING:
    from .live import LiveTable

log = logging.getLogger("nekobako.server")

_STATE = object()  # queue marker: send a fresh state message
_FORCED_STATE = object()  # the same, even when nothing changed (connect, sync)
_CLOSE = object()
MAX_QUEUED = 256  # unsent messages before a connection is considered dead weight


class Connection:
    def __init__(self, ws: WebSocket, table: LiveTable, user: dict[str, Any] | None, session: str | None = None):
        self.ws = ws
        self.table = table
        self.user = user
        self.session = session  # the cookie that opened it, so logout can close it
        self.queue: asyncio.Queue[Any] = asyncio.Queue()
        self.sent_events = 0
        self.sent_notices = 0
        self.sent_version = -1
        self.writer: asyncio.Task[None] | None = None
        self.state_queued = False
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
                    item = self.state_message()
                await self.ws.send_text(json.dumps(item, ensure_ascii=False, separators=(",", ":")))
        except (OSError, RuntimeError, WebSocketDisconnect):  # uvicorn's ClientDisconnected is an OSError
            return  # the socket went away; the reader notices and unregisters us
        except Exception:
            # a message that cannot be sent is a bug: say so, and close rather than fall silent
            log.exception("table %s: the connection's writer failed; closing it", self.table.id)
            with contextlib.suppress(Exception):
                await self.ws.close(code=1011, reason="internal error")

    def state_message(self) -> dict[str, Any]:
        table = self.table
        seat = self.seat
        state = table.state
        view = state.view(seat) if state is not None and table.row.status in ("running", "finished") else None
        events = view["events"] if view is not None else []
        detail = table.detail(self.user)
        notices = detail["notices"]
        message = {
            "type": "state",
            "seq": table.row.seq,
            "seat": seat,
            "view": view,
            "events": events[self.sent_events :],
            "event_index": self.sent_events,
            "notices": notices[self.sent_notices :],
            "clock": clock_json(table),
            "table": detail,
        }
        self.sent_events = len(events)
        self.sent_notices = len(notices)
        self.sent_version = table.version
        return message


def clock_json(table: LiveTable) -> dict[str, Any]:
    clock = dict(table.row.clock)
    running = decision_seconds(clock) is not None and table.running
    clock["deadlines"] = dict(table.row.deadlines) if running else {}
    clock["now"] = time.time()
    return clock
