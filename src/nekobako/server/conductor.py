"""Which process drives which running table: the one that holds its lease (`store.leases`).

Every second the conductor renews this process's leases, gives up those of tables that no longer
run, and claims running tables nobody drives (new ones, or those whose holder died and whose
lease ran out `LEASE_SECONDS` ago). Bots and the clock of a table move only in its holder, so
they are driven by one process at a time. A holder paused past its lease (SIGSTOP, a machine
that stalls) may wake up with its drivers still running and about to commit: every driver's
commit names the lease epoch it acts under and is refused in the committing transaction once
another process claimed the table (`store.leases`, `games.Change.fence`), and the driver stops.

Tables this process keeps in memory are also checked against the database's revisions, so a
change whose signal was missed shows within a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..store import leases
from ..store.games import LeaseLost
from .actor import Command, Refresh, catch_up, send
from .clock import extend_lapsed
from .errors import Refusal
from .live import LiveTable
from .tables import Tables

log = logging.getLogger("nekobako.server")

PERIOD = 1.0
LEASE_SECONDS = 3.0  # a dead holder's tables are taken over within this and one PERIOD
CLAIM_BATCH = 100  # tables claimed per round, so surviving processes share a dead one's tables


class Conductor:
    def __init__(self, tables: Tables, wake: Callable[[LiveTable], None], stop: Callable[[LiveTable], None]):
        self.tables = tables
        self.wake = wake  # start the bots and clock of a table now held
        self.stop = stop  # stop them when the lease was lost
        self.held = tables.leases  # table → epoch of this process's lease
        self.broken: set[int] = set()  # tables that cannot be rebuilt: logged once, left alone
        self.task: asyncio.Task[None] | None = None

    @property
    def holder(self) -> str:
        return self.tables.origin

    def start(self) -> None:
        self.task = asyncio.create_task(self._run())

    async def shutdown(self) -> None:
        """Give up every lease, so another process takes the tables over at once."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
        with contextlib.suppress(Exception):
            await self.tables.db(leases.release, self.holder)
        self.held.clear()

    async def _run(self) -> None:
        failures = 0
        while not self.tables.closing:
            try:
                await self.round()
                if failures:
                    log.warning("leases are renewed again after %s failed rounds", failures)
                failures = 0
            except Exception as exc:
                if failures == 0:
                    log.warning("renewing and claiming leases failed (%s); trying again", exc)
                failures += 1
            await asyncio.sleep(PERIOD)

    async def round(self) -> None:
        tables = self.tables
        stamp = time.time()
        before = dict(self.held)  # a table claimed while the renewal runs is not lost
        kept = await tables.db(leases.renew, self.holder, stamp, LEASE_SECONDS)
        for table_id in [i for i, epoch in before.items() if kept.get(i) != epoch and self.held.get(i) == epoch]:
            log.warning("table %s: another process took over its bots and clock", table_id)
            del self.held[table_id]
            live = tables.live.get(table_id)
            if live is not None:
                self.stop(live)
        done = [i for i in self.held if (t := tables.live.get(i)) is not None and t.row.status != "running"]
        if done:
            await tables.db(leases.release, self.holder, done)
            for table_id in done:
                self.held.pop(table_id, None)
        await self.catch_up()
        orphans = [i for i in await tables.db(leases.orphans, stamp, CLAIM_BATCH * 4) if i not in self.broken]
        random.shuffle(orphans)
        if orphans:
            await self.claim(orphans[:CLAIM_BATCH])

    async def claim(self, table_ids: list[int]) -> None:
        """Claim tables and set their bots and clock going."""
        won = await self.tables.db(leases.claim, table_ids, self.holder, time.time(), LEASE_SECONDS)
        for table_id, epoch in won.items():
            self.held[table_id] = epoch
            try:
                live = await self.tables.get(table_id)
                await send(self.tables, live, Refresh())
            except Exception:
                log.exception("table %s cannot be rebuilt; it stays stored but is not served", table_id)
                self.broken.add(table_id)
                continue
            await self._extend_lapsed_deadlines(live)
            self.wake(live)

    def adopt(self, live: LiveTable) -> None:
        """A table this process started with a new lease (epoch 1) in the same transaction: held
        without a claim; its copy is that transaction's, and no deadline lapsed."""
        self.held[live.id] = 1
        self.wake(live)

    async def release(self, table_id: int) -> None:
        """A table this process drove is over: its lease goes at once."""
        self.held.pop(table_id, None)
        await self.tables.db(leases.release, self.holder, [table_id])

    async def _extend_lapsed_deadlines(self, live: LiveTable) -> None:
        """Time nobody drove the table (the server was down) does not count against a person."""
        epoch = self.held.get(live.id)
        if epoch is not None:
            with contextlib.suppress(LeaseLost, Refusal):
                await send(self.tables, live, ExtendDeadlines(epoch))

    async def catch_up(self) -> None:
        """Copies in memory that fell behind the database (a missed signal) are brought up to it
        by their actors; the round does not wait for them: waiting for tables being changed made
        a busy server's rounds so long that its own leases ran out."""
        await catch_up(self.tables, self.tables.values(), wait=False)


@dataclass(frozen=True, slots=True)
class ExtendDeadlines(Command):
    """Due times that passed while nobody drove the table start again (`clock.extend_lapsed`),
    under lease `epoch`."""

    epoch: int

    async def apply(self, tables: Tables, live: LiveTable) -> None:
        deadlines = extend_lapsed(live.row.clock, live.row.deadlines)
        if deadlines != live.row.deadlines and live.running:
            await tables.persist(live, values={"deadlines": deadlines}, lease=self.epoch)
