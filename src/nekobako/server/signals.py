"""Signals between server processes that share one PostgreSQL database: "table N is now at
revision R" (sent by `NOTIFY` inside the transaction that made the change, so it is heard exactly
when the change is committed, never before and never for a change that was rolled back), and
short messages outside a change (who is connected where, chat).

Every process `LISTEN`s on one channel through a connection of its own and hands each signal
from another process to the hub. A signal can be missed (the listening connection drops); the
hub also compares revisions every second, so a missed signal delays a change by a second at most.
On SQLite (one process) nothing is sent and nothing listened to.

Why PostgreSQL and not Redis pub/sub (both measured with `benchmarks/pubsub.py`, docs/deploy.md):
the notification commits with the change in one transaction, the database several processes
need anyway is the only service to run, and its latency and throughput are far above what the
tables need.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

import orjson
from sqlalchemy import Connection, Engine, text

log = logging.getLogger("nekobako.server")

CHANNEL = "nekobako"
MAX_BACKOFF = 5.0
Handler = Callable[[dict[str, Any]], None]


class Signals:
    def __init__(self, engine: Engine, origin: str):
        self.engine = engine
        self.origin = origin  # this process: signals it sent itself are not handed back
        self._own = "," + orjson.dumps({"o": origin}).decode()[1:]  # how every payload of ours ends
        self.enabled = engine.dialect.name == "postgresql"
        self.handler: Handler | None = None
        self.task: asyncio.Task[None] | None = None
        self.connected = asyncio.Event()
        self.reconnected: Callable[[], None] | None = None  # after a gap: look for missed changes

    def table_changed(self, table_id: int, revision: int) -> tuple[str, str] | None:
        """The notification (channel, payload) the transaction that brings `table_id` to
        `revision` sends (`games.Change.signal`): heard when it commits. None on SQLite."""
        if not self.enabled:
            return None
        return CHANNEL, self._payload({"k": "table", "t": table_id, "r": revision})

    def send(self, message: dict[str, Any]) -> None:
        """Outside any change (a database thread): sent at once."""
        if self.enabled:
            with self.engine.begin() as conn:
                self._notify(conn, message)

    def _notify(self, conn: Connection, message: dict[str, Any]) -> None:
        conn.execute(
            text("SELECT pg_notify(:channel, :payload)"), {"channel": CHANNEL, "payload": self._payload(message)}
        )

    def _payload(self, message: dict[str, Any]) -> str:
        return orjson.dumps({**message, "o": self.origin}).decode()

    def start(self, handler: Handler) -> None:
        self.handler = handler
        if self.enabled:
            self.task = asyncio.create_task(self._listen())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task

    async def _listen(self) -> None:
        """Listen until stopped; after a lost connection, connect again (with a growing pause)."""
        import psycopg  # only here: a SQLite server does not load it

        url = self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        failures = 0
        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.connected.set()
                    if not first and self.reconnected is not None:
                        self.reconnected()
                    first, failures = False, 0
                    async for notify in conn.notifies():
                        self._dispatch(notify.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.connected.clear()
                if failures == 0:
                    log.warning("listening for other processes' changes failed (%s); connecting again", exc)
                failures += 1
                await asyncio.sleep(min(MAX_BACKOFF, 0.1 * 2**failures))

    def _dispatch(self, payload: str) -> None:
        if payload.endswith(self._own):  # every process hears its own signals too: half of them
            return
        try:
            message = orjson.loads(payload)
        except ValueError:
            log.warning("a signal that is not JSON: %r", payload[:200])
            return
        if not isinstance(message, dict) or message.get("o") == self.origin or self.handler is None:
            return
        try:
            self.handler(message)
        except Exception:
            log.exception("handling signal %r failed", payload[:200])
