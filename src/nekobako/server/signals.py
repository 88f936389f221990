"""Signals between server processes that share one PostgreSQL database: "these tables are now at
these revisions" (one notification per group commit, sent right after it committed: never
before, never for a change that was rolled back), and short messages outside a change (who is
connected where, chat).

A signal is a `NOTIFY` of its own, not part of the transaction that made the change: PostgreSQL
takes one lock for the whole database while a notifying transaction commits, so with the
notification inside, the group commits of every process waited for each other's disk flush. A
signal's transaction has nothing to make durable and does not wait for the disk
(`synchronous_commit` off), so it holds that lock for no time worth measuring. Signals go
through one connection of their own, kept open (opened again after it breaks): through the
engine's pool, the checkout, options and statement around each `NOTIFY` took 7 % of a busy
process's time, with the interpreter lock held.

Every process `LISTEN`s on one channel through a connection of its own and hands each signal
from another process to the hub. A signal can be missed (the listening connection drops, or a
process dies between its commit and its signal); the hub also compares revisions every second,
so a missed signal delays a change by a second at most. On SQLite (one process) nothing is sent
and nothing listened to.

Why PostgreSQL and not Redis pub/sub (both measured with `benchmarks/pubsub.py`, docs/deploy.md):
the database several processes need anyway is the only service to run, and its latency and
throughput are far above what the tables need.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import orjson
from sqlalchemy import Engine

if TYPE_CHECKING:
    import psycopg

log = logging.getLogger("nekobako.server")

CHANNEL = "nekobako"
TABLES_PER_SIGNAL = 200  # a notification carries at most 8000 bytes; a table takes about 15
MAX_BACKOFF = 5.0
SENDER_NAME, LISTENER_NAME = "nekobako signals", "nekobako listener"  # in pg_stat_activity
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
        self._sender: psycopg.Connection[Any] | None = None  # opened by the first signal
        self._sending = threading.Lock()  # database threads take turns on it

    def tables_changed(self, revisions: Mapping[int, int]) -> None:
        """The tables a group commit changed and their new revisions (a database thread, after
        the commit): one signal for each `TABLES_PER_SIGNAL` of them."""
        items = list(revisions.items())
        for start in range(0, len(items), TABLES_PER_SIGNAL):
            self.send({"k": "tables", "r": {str(t): r for t, r in items[start : start + TABLES_PER_SIGNAL]}})

    def send(self, message: dict[str, Any]) -> None:
        """A signal (a database thread), sent at once in a transaction of its own that does not
        wait for the disk. Nothing on SQLite."""
        if not self.enabled:
            return
        import psycopg  # only here: a SQLite server does not load it

        arguments = (CHANNEL, self._payload(message))
        with self._sending:
            if self._sender is not None:
                try:
                    self._sender.execute("SELECT pg_notify(%s, %s)", arguments)
                    return
                except psycopg.OperationalError:  # the connection broke (a restart): once more, anew
                    self._close_sender()
            self._sender = psycopg.connect(self._url, autocommit=True, connect_timeout=5, application_name=SENDER_NAME)
            self._sender.execute("SET synchronous_commit = off")
            self._sender.execute("SELECT pg_notify(%s, %s)", arguments)

    def _close_sender(self) -> None:
        if self._sender is not None:
            with contextlib.suppress(Exception):
                self._sender.close()
            self._sender = None

    def _payload(self, message: dict[str, Any]) -> str:
        return orjson.dumps({**message, "o": self.origin}).decode()

    @property
    def _url(self) -> str:
        return self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)

    def start(self, handler: Handler) -> None:
        self.handler = handler
        if self.enabled:
            self.task = asyncio.create_task(self._listen())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
        with self._sending:
            self._close_sender()

    async def _listen(self) -> None:
        """Listen until stopped; after a lost connection, connect again (with a growing pause)."""
        import psycopg  # only here: a SQLite server does not load it

        url = self._url
        failures = 0
        first = True
        while True:
            try:
                connecting = psycopg.AsyncConnection.connect(url, autocommit=True, application_name=LISTENER_NAME)
                async with await connecting as conn:
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
