"""The server's parts put together, and their life: the tables in memory (`tables.Tables`), the
lobby (`rooms.Rooms`), and what follows every change — the connections told, the bots and the
clock of a running table woken (`drivers`).

Every change to a table is a command to that table's actor (`actor`; the commands are in
`moves`, `rooms` and `conductor`), handled one at a time; the socket, the lobby's requests, the
drivers, the conductor and other processes' signals only send commands. Who imports whom (A → B:
B imports A), in layers with no circle: live → tables → actor → moves, conductor → drivers,
rooms → hub; live → messages → connections. The hub listens to `Tables.changed`; the parts
below it never import the hub (the endpoints above it do).

With several processes on one database, the hub also hears other processes' changes
(`signals`) and has the tables' actors bring their copies up to date, and drives the bots and
clocks only of the tables whose lease it holds (`conductor`).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import Engine

from ..store import accounts, attempts, watchers
from . import actor
from .collector import CollectorWatch, tune
from .conductor import Conductor
from .drivers import drive_bots, log_if_failed, watch_clock
from .errors import CloseCode
from .live import LiveTable
from .quantiles import quantiles_ms
from .rooms import Rooms
from .settings import Settings
from .tables import Tables
from .watchers import Watchers

log = logging.getLogger("nekobako.server")

LAG_PERIOD = 0.1
PURGE_PERIOD = 3600.0
PRESENCE_PERIOD = 10.0  # each process says who is connected through it this often (and that it lives)
PRESENCE_CHUNK = 100  # tables per signal (a PostgreSQL notification carries at most 8000 bytes)
Reader = Callable[[LiveTable, Any, dict[str, Any]], bool]  # (table, connection, message) → may it read it?


class Hub:
    def __init__(self, engine: Engine, settings: Settings | None = None):
        self.settings = settings or Settings()
        self.limits = self.settings.limits
        self.tables = Tables(engine, self.settings)
        self.rooms = Rooms(self.tables)
        self.workers = self.tables.workers
        self.tables.listeners.append(self.after_change)
        self.conductor = Conductor(self.tables, self.after_change, self.stop_drivers)
        self.watchers = Watchers(self.tables, self.limits.anonymous_sockets)
        self.rooms.started = self.claim_started
        self.loop_lags: collections.deque[float] = collections.deque(maxlen=600)  # the last minute
        self.lag_task: asyncio.Task[None] | None = None
        self.collector = CollectorWatch()  # pauses of the garbage collector, for the health endpoint
        self.purge_task: asyncio.Task[None] | None = None
        self.presence_task: asyncio.Task[None] | None = None
        self.readers: dict[str, Reader] = {}  # message type → who may read it (default: everyone)
        self.heard: dict[str, float] = {}  # other processes → when they last said anything
        self.signal_listeners: list[Callable[[dict[str, Any]], None]] = []  # every signal heard (lobby_feed)

    async def db(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run a blocking store function in a database thread."""
        return await self.tables.db(fn, *args, **kwargs)

    async def get_fresh(self, table_id: int) -> LiveTable:
        """The table as the database has it now (`actor.get_fresh`)."""
        return await actor.get_fresh(self.tables, table_id)

    async def send(self, live: LiveTable, command: actor.Command) -> Any:
        """`command` to the table's actor; its outcome, or its refusal raised."""
        return await actor.send(self.tables, live, command)

    # -- lifecycle -----------------------------------------------------------------------------
    async def watch_loop_lag(self) -> None:
        """How late the event loop wakes up (every 0.1 s): the health endpoint reports it."""
        loop = asyncio.get_running_loop()
        while not self.tables.closing:
            expected = loop.time() + LAG_PERIOD
            await asyncio.sleep(LAG_PERIOD)
            self.loop_lags.append(max(0.0, loop.time() - expected))

    def health(self) -> dict[str, Any]:
        running = sum(1 for t in self.tables.values() if t.running)
        return {
            "ok": True,
            "process": self.tables.origin,
            "drives": len(self.conductor.held),
            "commits": self.tables.committer.report(),
            "tables_in_memory": len(self.tables.live),
            "running": running,
            "loop_lag_ms": {**quantiles_ms(self.loop_lags), "samples": len(self.loop_lags)},
            "collector": self.collector.report(),
            "bot_warm_up": self.workers.warm_up,
        }

    async def purge_accounts(self) -> None:
        """Expired sessions, unused old guest accounts, rate-limit counts older than every window
        and dead processes' watchers go, at startup and then every hour."""
        while not self.tables.closing:
            try:
                sessions, guests = await self.db(accounts.purge)
                if sessions or guests:
                    log.info("purged %s expired sessions and %s unused guest accounts", sessions, guests)
                await self.db(attempts.purge, time.time() - PURGE_PERIOD - 60)  # older than any window
                await self.db(watchers.purge, time.time())
            except Exception:
                log.exception("purging sessions and guests failed; trying again in an hour")
            await asyncio.sleep(PURGE_PERIOD)

    async def startup(self) -> None:
        """Start listening to other processes and claiming the running tables nobody drives (all
        of them, after a restart of the only process), whose bots and clocks then go on."""
        self.lag_task = asyncio.create_task(self.watch_loop_lag())
        self.purge_task = asyncio.create_task(self.purge_accounts())
        signals = self.tables.signals
        signals.start(self.on_signal)
        signals.reconnected = lambda: log.info("listening to other processes again")
        self.watchers.start()
        self.conductor.start()  # its first round claims the tables at once, without holding up the start
        if signals.enabled:
            self.presence_task = asyncio.create_task(self.keep_presence())
        self.collector.start()
        self.workers.start_searches()  # bot search processes load the compiled search now, not at the first move
        if self.settings.tune_collector:
            tune()

    async def shutdown(self) -> None:
        self.tables.closing = True
        self.collector.stop()
        live_tables = self.tables.values()
        tasks = [t for live in live_tables for t in (live.bot_task, live.clock_task) if t is not None]
        tasks += [t for t in (self.lag_task, self.purge_task, self.presence_task) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        await actor.stop(self.tables, live_tables)
        await self.conductor.shutdown()
        await self.watchers.shutdown()
        await self.tables.signals.stop()
        self.workers.close()

    async def claim_started(self, live: LiveTable, leased: bool) -> None:
        """The process that starts a game drives it (when no other holds it already); `leased`:
        its lease was made in the transaction that started it, and the copy here is that
        transaction's."""
        if leased:
            self.conductor.adopt(live)
        else:
            await self.conductor.claim([live.id])

    def on_signal(self, message: dict[str, Any]) -> None:
        """Another process changed a table (a copy held here is brought up to date, in a task),
        said who is connected through it, or sent a message to a table's connections."""
        self.heard[str(message.get("o"))] = time.monotonic()
        for listener in self.signal_listeners:
            listener(message)
        kind = message.get("k")
        if kind == "tables":
            for key, revision in message.get("r", {}).items():
                live = self.tables.live.get(int(key))
                if live is not None and isinstance(revision, int) and live.row.revision < revision:
                    actor.post(self.tables, live, actor.Refresh(revision))
        elif kind == "presence":
            for key, users in message.get("p", {}).items():
                live = self.tables.live.get(int(key))
                if live is not None:
                    self._set_elsewhere(live, str(message.get("o")), frozenset(users))
        elif kind == "message":
            live = self.tables.live.get(message.get("t", 0))
            if live is not None:
                self._deliver(live, message["m"])

    # -- after every change: tell everyone, wake bots and the clock -----------------------------
    def _announce(self, live: LiveTable) -> None:
        for conn in list(live.connections):
            conn.push_state()

    def after_change(self, live: LiveTable) -> None:
        self._announce(live)
        if self.tables.closing or live.id not in self.conductor.held:
            return
        if live.row.status != "running":
            task = asyncio.create_task(self.conductor.release(live.id))
            task.add_done_callback(log_if_failed)
            return
        if live.running and (live.bot_task is None or live.bot_task.done()):
            live.bot_task = asyncio.create_task(drive_bots(self.tables, live))
            live.bot_task.add_done_callback(log_if_failed)
        if live.running and live.row.deadlines and (live.clock_task is None or live.clock_task.done()):
            live.clock_task = asyncio.create_task(watch_clock(self.tables, live))
            live.clock_task.add_done_callback(log_if_failed)
        live.clock_wake.set()

    def stop_drivers(self, live: LiveTable) -> None:
        """The lease was lost (this process paused too long): its new holder drives the table."""
        for task in (live.bot_task, live.clock_task):
            if task is not None:
                task.cancel()
        live.bot_task = live.clock_task = None

    async def close_session_sockets(self, token: str) -> None:
        """After logout: the session's table sockets close (4401), so a shared computer does not
        keep playing as the person who left."""
        doomed = [c for live in self.tables.values() for c in live.connections if c.session == token]
        for conn in doomed:
            await conn.close(CloseCode.LOGGED_OUT, "logged out")

    def presence_changed(self, live: LiveTable) -> None:
        """Someone connected or left through this process: shown here, and told to the others."""
        live.version += 1
        self._announce(live)
        self._send({"k": "presence", "p": {str(live.id): _presence(live)}})

    def broadcast(self, live: LiveTable, message: dict[str, Any]) -> None:
        """`message` (not a state: chat, rematch) to every connection at the table that may read it
        (`readers`), on this process and on the others."""
        self._deliver(live, message)
        self._send({"k": "message", "t": live.id, "m": message})

    def _deliver(self, live: LiveTable, message: dict[str, Any]) -> None:
        may_read = self.readers.get(message.get("type", ""))
        for conn in list(live.connections):
            if may_read is None or may_read(live, conn, message):
                conn.push(message)

    def send_signal(self, message: dict[str, Any]) -> None:
        """`message` to the other processes (none on SQLite)."""
        self._send(message)

    def _send(self, message: dict[str, Any]) -> None:
        if not self.tables.closing:
            self.tables.signals.send(message)

    def _set_elsewhere(self, live: LiveTable, origin: str, entry: frozenset[int] | None) -> None:
        before = live.elsewhere.get(origin)
        if not entry:
            live.elsewhere.pop(origin, None)
        else:
            live.elsewhere[origin] = entry
        if live.elsewhere.get(origin) != before:
            live.version += 1
            self._announce(live)

    async def keep_presence(self) -> None:
        """Every `PRESENCE_PERIOD`: say again who is connected through this process (a process that
        started meanwhile learns it; saying anything tells the others this process lives), and
        forget what processes silent for three periods said (they died)."""
        while not self.tables.closing:
            await asyncio.sleep(PRESENCE_PERIOD)
            watched = [t for t in self.tables.values() if t.connections]
            for start in range(0, max(1, len(watched)), PRESENCE_CHUNK):
                chunk = watched[start : start + PRESENCE_CHUNK]
                self._send({"k": "presence", "p": {str(t.id): _presence(t) for t in chunk}})
            cutoff = time.monotonic() - 3 * PRESENCE_PERIOD
            for origin in [o for o, at in self.heard.items() if at < cutoff]:
                del self.heard[origin]
                for live in self.tables.values():
                    self._set_elsewhere(live, origin, None)


def _presence(live: LiveTable) -> list[int]:
    """Who is connected to `live` through this process (anonymous watchers are counted in the
    database: `watchers`)."""
    return sorted({c.user["id"] for c in live.connections if c.user is not None})
