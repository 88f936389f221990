"""The server's parts put together, and their life: the tables in memory (`tables.Tables`), the
lobby's changes (`rooms.Rooms`), play (`moves.Moves`), and what follows every change — the
connections told, the bots and the clock of a running table woken (`drivers`).

Who imports whom, so nothing goes in a circle: hub → rooms → moves → tables; hub → drivers →
moves. The hub listens to `Tables.changed`; the parts below it never import the hub.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy import Engine

from ..store import accounts, games
from .clock import extend_lapsed
from .drivers import drive_bots, log_if_failed, watch_clock
from .live import LiveTable
from .moves import Moves
from .rooms import Rooms
from .settings import Settings
from .tables import LIVE, Tables

log = logging.getLogger("nekobako.server")

LAG_PERIOD = 0.1
PURGE_PERIOD = 3600.0


class Hub:
    def __init__(self, engine: Engine, settings: Settings | None = None):
        self.settings = settings or Settings()
        self.limits = self.settings.limits
        self.tables = Tables(engine, self.settings)
        self.moves = Moves(self.tables)
        self.rooms = Rooms(self.tables, self.moves)
        self.workers = self.tables.workers
        self.tables.listeners.append(self.after_change)
        self.loop_lags: collections.deque[float] = collections.deque(maxlen=600)  # the last minute
        self.lag_task: asyncio.Task[None] | None = None
        self.purge_task: asyncio.Task[None] | None = None

    async def db(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run a blocking store function in a database thread."""
        return await self.tables.db(fn, *args, **kwargs)

    # -- lifecycle -----------------------------------------------------------------------------
    async def watch_loop_lag(self) -> None:
        """How late the event loop wakes up (every 0.1 s): the health endpoint reports it."""
        loop = asyncio.get_running_loop()
        while not self.tables.closing:
            expected = loop.time() + LAG_PERIOD
            await asyncio.sleep(LAG_PERIOD)
            self.loop_lags.append(max(0.0, loop.time() - expected))

    def health(self) -> dict[str, Any]:
        lags = sorted(self.loop_lags)

        def at(q: float) -> float:
            return round(lags[min(len(lags) - 1, int(q * len(lags)))] * 1000, 2) if lags else 0.0

        running = sum(1 for t in self.tables.values() if t.running)
        return {
            "ok": True,
            "tables_in_memory": len(self.tables.live),
            "running": running,
            "loop_lag_ms": {"p50": at(0.5), "p90": at(0.9), "p99": at(0.99), "max": at(1.0), "samples": len(lags)},
        }

    async def purge_accounts(self) -> None:
        """Expired sessions and unused old guest accounts go, at startup and then every hour."""
        while not self.tables.closing:
            try:
                sessions, guests = await self.db(accounts.purge)
                if sessions or guests:
                    log.info("purged %s expired sessions and %s unused guest accounts", sessions, guests)
            except Exception:
                log.exception("purging sessions and guests failed; trying again in an hour")
            await asyncio.sleep(PURGE_PERIOD)

    async def startup(self) -> None:
        """Rebuild every open and running table from the database and set its bots and clock going."""
        self.lag_task = asyncio.create_task(self.watch_loop_lag())
        self.purge_task = asyncio.create_task(self.purge_accounts())
        for table_id in await self.db(games.table_ids, list(LIVE)):
            try:
                live = await self.tables.get(table_id)
            except Exception:
                log.exception("table %s cannot be rebuilt; it stays stored but is not served", table_id)
                continue
            if live.running:
                deadlines = extend_lapsed(live.row.clock, live.row.deadlines)
                if deadlines != live.row.deadlines:
                    async with live.lock:
                        await self.tables.persist(live, values={"deadlines": deadlines})
                self.after_change(live)

    async def shutdown(self) -> None:
        self.tables.closing = True
        live_tables = self.tables.values()
        tasks = [t for live in live_tables for t in (live.bot_task, live.clock_task) if t is not None]
        tasks += [t for t in (self.lag_task, self.purge_task) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        self.workers.close()

    # -- after every change: tell everyone, wake bots and the clock -----------------------------
    def _announce(self, live: LiveTable) -> None:
        for conn in list(live.connections):
            conn.push_state()

    def after_change(self, live: LiveTable) -> None:
        self._announce(live)
        if self.tables.closing:
            return
        if live.running and (live.bot_task is None or live.bot_task.done()):
            live.bot_task = asyncio.create_task(drive_bots(self.moves, live))
            live.bot_task.add_done_callback(log_if_failed)
        if live.running and live.row.deadlines and (live.clock_task is None or live.clock_task.done()):
            live.clock_task = asyncio.create_task(watch_clock(self.moves, live))
            live.clock_task.add_done_callback(log_if_failed)
        live.clock_wake.set()

    async def close_session_sockets(self, token: str) -> None:
        """After logout: the session's table sockets close (4401), so a shared computer does not
        keep playing as the person who left."""
        doomed = [c for live in self.tables.values() for c in live.connections if c.session == token]
        for conn in doomed:
            await conn.close(4401, "logged out")

    def presence_changed(self, live: LiveTable) -> None:
        live.version += 1
        self._announce(live)
