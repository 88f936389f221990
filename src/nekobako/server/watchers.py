"""Anonymous watchers: at most `Limits.anonymous_sockets` per table, through all server processes
together. Each socket holds a row in the database (`store.watchers`) from its admission until it
closes; this process renews its rows' lease every `RENEW_PERIOD`, so the rows of a process that
was killed stop counting within `LEASE_SECONDS`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from ..store import watchers
from .tables import Tables

log = logging.getLogger("nekobako.server")

RENEW_PERIOD = 1.0
LEASE_SECONDS = 5.0  # a killed process's watchers free their places within this


class Watchers:
    def __init__(self, tables: Tables, most: int):
        self.tables = tables
        self.most = most
        self.mine: set[int] = set()  # rows of the sockets connected through this process
        self.task: asyncio.Task[None] | None = None

    async def admit(self, table_id: int) -> int | None:
        """A place at `table_id` (the row's id), or None when the table has no place left."""
        row = await self.tables.db(watchers.admit, table_id, self.tables.origin, self.most, time.time(), LEASE_SECONDS)
        if row is not None:
            self.mine.add(row)
        return row

    async def leave(self, row: int) -> None:
        """The socket closed: its place is free at once (or, should the database be away, when
        its lease runs out: it is no longer renewed)."""
        self.mine.discard(row)
        try:
            await self.tables.db(watchers.leave, [row])
        except Exception as exc:
            log.warning("an anonymous watcher's place is freed when its lease runs out: %s", exc)

    def start(self) -> None:
        self.task = asyncio.create_task(self._renew())

    async def _renew(self) -> None:
        failing = False
        while not self.tables.closing:
            await asyncio.sleep(RENEW_PERIOD)
            try:
                if self.mine:
                    await self.tables.db(watchers.renew, list(self.mine), time.time(), LEASE_SECONDS)
                failing = False
            except Exception as exc:
                if not failing:
                    log.warning("renewing anonymous watchers' places failed (%s); trying again", exc)
                failing = True

    async def shutdown(self) -> None:
        """Every place held through this process is given back."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
        rows, self.mine = list(self.mine), set()
        with contextlib.suppress(Exception):
            await self.tables.db(watchers.leave, rows)
