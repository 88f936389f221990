"""Signals between server processes that share one PostgreSQL database: "these tables are now at
these revisions" (one notification per group commit, sent right after it committed: never
before, never for a change that was rolled back), and short messages outside a change (who is
connected where, chat).

A signal is a `NOTIFY` of its own, not part of the transaction that made the change: PostgreSQL
takes one lock for the whole database while a notifying transaction commits, so with the
notification inside, the group commits of every process waited for each other's disk flush. A
signal's transaction has nothing to make durable and does not wait for the disk
(`synchronous_commit` off), so it holds that lock for no time worth measuring.

Signals leave through an outbox: queued by the event loop without waiting (no lock it shares), sent
by one thread of their own over one connection kept open, all that gathered meanwhile in one
statement. Sent from database threads through the engine's pool, the hand-off, checkout and
statement around each `NOTIFY` took 7 % of a busy process's time with the interpreter lock held,
and a database that stalled held database threads that commits wait for.

Every process `LISTEN`s on one channel through a connection of its own and hands each signal
from another process to the hub. A signal can be missed (the listening connection drops, a
process dies between its commit and its signal, or its outbox dropped it while the database was
away); the hub also compares revisions every second,
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
import queue
import threading
import time
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
OUTBOX_LIMIT = 10_000  # signals waiting while the database is away; past it they are dropped
SIGNALS_PER_STATEMENT = 100
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
        self.outbox = Outbox(self._url) if self.enabled else None

    def tables_changed(self, revisions: Mapping[int, int]) -> None:
        """The tables a group commit changed and their new revisions (after the commit): one
        signal for each `TABLES_PER_SIGNAL` of them (on SQLite, called for every group commit: nothing)."""
        if self.outbox is None:
            return
        items = list(revisions.items())
        for start in range(0, len(items), TABLES_PER_SIGNAL):
            self.send({"k": "tables", "r": {str(t): r for t, r in items[start : start + TABLES_PER_SIGNAL]}})

    def send(self, message: dict[str, Any]) -> None:
        """A signal, queued for the outbox's thread: it returns at once. Nothing on SQLite."""
        if self.outbox is not None:
            self.outbox.put(self._payload(message))

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
        if self.outbox is not None:
            await asyncio.to_thread(self.outbox.close)

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


class Outbox:
    """Signals on their way out: one thread sends them in order over one connection of its own,
    opened on the first signal and again after it breaks (a restart, `pg_terminate_backend`:
    the batch that found it broken is sent anew). While the database is away the thread logs
    once, pauses more and more between tries (at most `MAX_BACKOFF` seconds) and drops what it
    could not send: the other processes catch up by the revision check.

    `put` takes no lock the thread may hold: a `SimpleQueue` and counters each written by one
    side only. With a `queue.Queue` and a shared count under a lock, the event loop waited for
    the thread whenever the thread held the lock while waiting for the interpreter lock (a
    convoy: `Queue.put` and its `Condition.notify` were 5.3 % of a busy process's samples for
    about a hundred signals a second)."""

    def __init__(self, url: str):
        self.url = url
        self.queue: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self.thread: threading.Thread | None = None
        self._starting = threading.Lock()
        self._sent = threading.Condition()  # for `drained` only: `put` never takes it
        self.queued = 0  # written by `put` only (the event loop)
        self.refused = 0  # written by `put` only: the outbox was full
        self.finished = 0  # written by the thread only: sent, or dropped while the database was away
        self.failed = 0  # written by the thread only
        self.conn: psycopg.Connection[Any] | None = None  # opened by the first signal

    @property
    def unsent(self) -> int:
        """Queued or being sent."""
        return self.queued - self.finished

    @property
    def dropped(self) -> int:
        """Not sent: the outbox was full, or the database refused them."""
        return self.refused + self.failed

    def put(self, payload: str) -> None:
        """Called on the event loop (every caller is), which makes `queued` and `refused` exact."""
        if self.thread is None:
            with self._starting:
                if self.thread is None:
                    self.thread = threading.Thread(target=self._run, name="nekobako-signals", daemon=True)
                    self.thread.start()
        if self.unsent >= OUTBOX_LIMIT:
            self.refused += 1
            return
        self.queued += 1
        self.queue.put(payload)

    def drained(self, timeout: float) -> bool:
        """Wait until everything queued so far was sent or dropped (benchmarks and tests)."""
        with self._sent:
            return self._sent.wait_for(lambda: self.unsent == 0, timeout)

    def close(self, timeout: float = 5.0) -> None:
        """Send what is queued (for `timeout` seconds at most), then close the connection."""
        if self.thread is None:
            return
        self.queue.put(None)
        self.thread.join(timeout)

    def _done(self, sent: int, dropped: int) -> None:
        self.failed += dropped
        self.finished += sent + dropped
        with self._sent:
            self._sent.notify_all()

    def _run(self) -> None:
        failures = 0
        while True:
            batch = self._take(SIGNALS_PER_STATEMENT)
            payloads = [p for p in batch if p is not None]
            try:
                if payloads:
                    self._send(payloads)
            except Exception as error:
                if failures == 0:
                    log.warning("sending signals to other processes failed (%s); they catch up within a second", error)
                failures += 1
                rest = self._take(OUTBOX_LIMIT, wait=False)  # older than any revision check by the next try
                batch += rest
                self._done(0, len(payloads) + sum(p is not None for p in rest))
                if None not in batch:
                    time.sleep(min(MAX_BACKOFF, 0.1 * 2**failures))
            else:
                if failures:
                    log.warning("signals to other processes are sent again after %s failed tries", failures)
                failures = 0
                self._done(len(payloads), 0)
            if None in batch:  # closing
                if self.conn is not None:
                    self.conn.close()
                return

    def _take(self, most: int, wait: bool = True) -> list[str | None]:
        """What is queued, up to `most` (the first waited for unless not `wait`), and the closing
        mark (None) last when it came."""
        batch: list[str | None] = []
        with contextlib.suppress(queue.Empty):
            if wait:
                batch.append(self.queue.get())
            while (not batch or batch[-1] is not None) and len(batch) < most:
                batch.append(self.queue.get_nowait())
        return batch

    def _send(self, payloads: list[str]) -> None:
        """One statement of `pg_notify` calls; on a kept connection that broke meanwhile, once more
        on a new one."""
        import psycopg  # only here: a SQLite server does not load it

        statement = "SELECT " + ", ".join(["pg_notify(%s, %s)"] * len(payloads))
        arguments = [part for payload in payloads for part in (CHANNEL, payload)]
        for _ in range(2):
            fresh = self.conn is None
            if self.conn is None:
                self.conn = psycopg.connect(self.url, autocommit=True, connect_timeout=5, application_name=SENDER_NAME)
                self.conn.execute("SET synchronous_commit = off")
            try:
                self.conn.execute(statement, arguments)
                return
            except psycopg.OperationalError:
                self.conn.close()
                self.conn = None
                if fresh:
                    raise
