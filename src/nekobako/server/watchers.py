"""Anonymous watchers: at most `Limits.anonymous_sockets` per table, through all server processes
together. Each socket holds a row in the database (`store.watchers`) from its admission until it
closes; this process renews its rows' lease every `RENEW_PERIOD`, so the rows of a process that
was killed stop counting within `LEASE_SECONDS`.

A process that stalls longer than that (SIGSTOP, a machine that froze) finds, when it wakes, that
rows of its sockets may have been given to watchers of another process meanwhile: each such
socket asks for a place again and, when the table has none left, is closed (4429) — the places
were given away while its process was silent, and the limit holds over all processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from ..store import watchers
from .tables import Tables

log = logging.getLogger("nekobako.server")

RENEW_PERIOD = 1.0
LEASE_SECONDS = 5.0  # a killed process's watchers free their places within this


@dataclass
class Place:
    """One anonymous socket's counted place at a table: its row, and what to do when the place
    was lost and no other is left (`lost`: close the socket)."""

    table_id: int
    row: int
    lost: Callable[[], Awaitable[None]] | None = None
    gone: bool = False  # the socket closed


class Watchers:
    def __init__(self, tables: Tables, most: int):
        self.tables = tables
        self.most = most
        self.mine: dict[int, Place] = {}  # rows of the sockets connected through this process
        self.task: asyncio.Task[None] | None = None

    async def admit(self, table_id: int) -> Place | None:
        """A place at `table_id`, or None when the table has no place left."""
        row = await self.tables.db(watchers.admit, table_id, self.tables.origin, self.most, time.time(), LEASE_SECONDS)
        if row is None:
            return None
        place = Place(table_id, row)
        self.mine[row] = place
        return place

    async def leave(self, place: Place) -> None:
        """The socket closed: its place is free at once (or, should the database be away, when
        its lease runs out: it is no longer renewed)."""
        place.gone = True
        self.mine.pop(place.row, None)
        try:
            await self.tables.db(watchers.leave, [place.row])
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
                    asked = list(self.mine)
                    kept = await self.tables.db(watchers.renew, asked, time.time(), LEASE_SECONDS)
                    for row in [r for r in asked if r not in kept and r in self.mine]:
                        await self._admit_again(self.mine.pop(row))
                failing = False
            except Exception as exc:
                if not failing:
                    log.warning("renewing anonymous watchers' places failed (%s); trying again", exc)
                failing = True

    async def _admit_again(self, place: Place) -> None:
        """A place whose lease ran out and was given away (this process was silent too long):
        another one if the table has one left, else the socket is closed."""
        row = await self.tables.db(
            watchers.admit, place.table_id, self.tables.origin, self.most, time.time(), LEASE_SECONDS
        )
        if row is not None and place.gone:  # the socket closed meanwhile
            await self.tables.db(watchers.leave, [row])
            return
        if row is not None:
            place.row = row
            self.mine[row] = place
            return
        log.warning("table %s: an anonymous watcher's place lapsed and was given away; closing it", place.table_id)
        if place.lost is not None:
            await place.lost()

    async def shutdown(self) -> None:
        """Every place held through this process is given back."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
        rows, self.mine = list(self.mine), {}
        with contextlib.suppress(Exception):
            await self.tables.db(watchers.leave, rows)
