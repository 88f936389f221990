"""The tables a server process holds in memory, and the one way to change one: `persist`.

One rule holds throughout: under the table's lock, a change is computed on copies, committed to
the database in one transaction, and only then swapped into memory and announced (`changed`).
A table whose last commit is in doubt is read back from the database before its next change.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy import Engine

from ..store import accounts, games
from ..store.games import NoticeRow, SeatRow
from .choices import ChoiceTracker
from .errors import ApiError, Refusal
from .faults import Faults
from .live import LiveTable, rebuild
from .settings import Settings
from .workers import Workers

log = logging.getLogger("nekobako.server")

LIVE = ("open", "running")  # tables always in memory
MAX_TABLE_ID = 2**31 - 1  # the id column is a 32-bit integer; larger numbers name no table

Listener = Callable[[LiveTable], None]


class Tables:
    """Every table in this process's memory, the database and pools they are stored through, and
    the listeners told after each change (the hub announces it and wakes bots and the clock)."""

    def __init__(self, engine: Engine, settings: Settings):
        self.engine = engine
        self.settings = settings
        self.limits = settings.limits
        self.closing = False
        self.workers = Workers(settings)
        self.faults = Faults()
        self.live: dict[int, LiveTable] = {}
        self.finished_order: dict[int, None] = {}  # finished tables in memory, oldest first
        self.listeners: list[Listener] = []
        self._loading = asyncio.Lock()

    async def db(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run a blocking store function in a database thread."""
        return await self.workers.db(fn, self.engine, *args, **kwargs)

    def changed(self, live: LiveTable) -> None:
        """After a change was committed and swapped in: tell every listener."""
        for listener in self.listeners:
            listener(live)

    def values(self) -> list[LiveTable]:
        return list(self.live.values())

    # -- reading tables into memory ------------------------------------------------------------
    async def get(self, table_id: int) -> LiveTable:
        live = self.live.get(table_id)
        if live is not None:
            return live
        if not 0 < table_id <= MAX_TABLE_ID:  # the database would refuse such a number with an error
            raise ApiError(404, "not_found", f"there is no table {table_id}")
        async with self._loading:
            live = self.live.get(table_id)
            if live is None:
                live = await self._load(table_id)
                self.live[table_id] = live
                self.keep_or_evict(live)
        return live

    def keep_or_evict(self, live: LiveTable) -> None:
        """Finished and abandoned tables are kept in memory only while someone may look at them:
        the most recent `finished_in_memory` of them (the rest are read again on demand)."""
        if live.row.status not in ("finished", "abandoned"):
            return
        self.finished_order[live.id] = None
        excess = len(self.finished_order) - self.limits.finished_in_memory
        for table_id in list(self.finished_order)[: max(0, excess)]:
            old = self.live.get(table_id)
            if old is not None and old.connections:
                continue  # someone watches it; evicted later
            del self.finished_order[table_id]
            self.live.pop(table_id, None)

    async def _load(self, table_id: int) -> LiveTable:
        row = await self.db(games.load_table, table_id)
        if row is None:
            raise ApiError(404, "not_found", f"there is no table {table_id}")
        user_ids = [s.user_id for s in row.seats if s.user_id is not None]
        if row.host_id is not None:
            user_ids.append(row.host_id)
        users = await self.db(accounts.users_by_id, user_ids)
        live = LiveTable(row=row, users=users)
        if row.status in ("running", "finished"):
            entries = await self.db(games.load_actions, table_id)
            live.state, live.tracker = await asyncio.to_thread(rebuild, row, entries)
            live.entries = entries
            live.row.seq = len(entries)
        return live

    async def reload(self, live: LiveTable) -> None:
        """Make memory match the database again after a commit whose outcome is unknown (lock
        held). Raises when the database cannot be read; the table then stays `uncertain`."""
        fresh = await self._load(live.id)
        live.row, live.users, live.state, live.tracker, live.entries = (
            fresh.row,
            fresh.users,
            fresh.state,
            fresh.tracker,
            fresh.entries,
        )
        live.uncertain = False
        live.version += 1
        log.warning("table %s reloaded from the database at seq %s", live.id, live.row.seq)

    async def settle_uncertain(self, live: LiveTable) -> None:
        """Before any change to a table whose last commit is in doubt (lock held)."""
        if not live.uncertain:
            return
        try:
            await self.reload(live)
        except Exception:
            log.warning("table %s: the database is still unreachable", live.id)
            raise Refusal("unavailable", "the server cannot reach its database; try again in a moment") from None

    # -- changing a table ----------------------------------------------------------------------
    async def persist(
        self,
        live: LiveTable,
        *,
        values: dict[str, Any] | None = None,
        seat_rows: list[SeatRow] | None = None,
        first_seq: int = 0,
        entries: list[str] | None = None,
        new_notices: list[NoticeRow] | None = None,
        state: tuple[Any, ChoiceTracker] | None = None,
        users: dict[int, dict[str, Any]] | None = None,
        extra: Callable[[Any], None] | None = None,
    ) -> None:
        """Commit one change, then (and only then) show it in memory. Shielded: once the commit
        has started, cancelling the caller cannot leave memory behind the database."""

        async def work() -> None:
            await self.db(
                games.commit_change,
                live.id,
                values=values,
                seat_rows=seat_rows,
                first_seq=first_seq,
                entries=entries or (),
                new_notices=new_notices or (),
                extra=extra,
                hooks=self.faults if self.faults.active else None,
            )
            for key, value in (values or {}).items():
                setattr(live.row, key, value)
            if seat_rows is not None:
                live.row.seats = seat_rows
            if new_notices:
                live.row.notices = [*live.row.notices, *new_notices]
            if state is not None:
                live.state, live.tracker = state
            if entries:
                live.entries = [*live.entries[:first_seq], *entries]
            if users:
                live.users.update(users)
            live.version += 1

        await asyncio.shield(asyncio.ensure_future(work()))
        self.keep_or_evict(live)

    async def after_failed_commit(self, live: LiveTable, stored_seq: int) -> None:
        """A commit raised: it may or may not have reached the database (the connection can drop
        between COMMIT and its reply). Read the table back and tell the player what is true."""
        live.uncertain = True
        try:
            await self.reload(live)
        except Exception:
            log.warning("table %s: cannot read the table back; it reloads before its next change", live.id)
            raise Refusal(
                "unavailable",
                "the server lost its database and cannot tell yet whether your action was stored; "
                "the table shows the truth as soon as it is back",
            ) from None
        if live.row.seq < stored_seq:
            raise Refusal("unavailable", "the server could not store the action; nothing changed, try again")
        log.warning("table %s: the action was stored although its commit reported a failure", live.id)
