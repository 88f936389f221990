"""The tables a server process holds in memory, and the one way to change one: `persist`.

One rule holds throughout: in the table's actor (`actor`), a change is computed on copies,
committed to the database in one transaction, and only then swapped into memory and announced
(`changed`). A table whose last commit is in doubt is read back from the database before its
next change (by its actor).

Several processes may serve one (PostgreSQL) database. The database, not a process's memory,
orders the changes: each commit names the revision it was computed from, and a commit from a copy
that fell behind is refused (`StaleCopy`); the copy is read again and the actor checks and
computes the change again. Other processes hear of each group commit, once it committed,
through `signals` and bring their copies up to date (`refresh`).
"""

from __future__ import annotations

import asyncio
import collections
import logging
import math
import os
import secrets
import socket
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import Engine

from ..i18n import Message
from ..store import accounts, games
from ..store.games import NoticeRow, SeatRow, StaleCopy
from .choices import ChoiceTracker
from .errors import ApiError, Refusal
from .faults import Faults
from .live import LiveTable, advance, rebuild
from .quantiles import quantiles_ms
from .settings import Settings
from .signals import Signals
from .workers import Workers

log = logging.getLogger("nekobako.server")

LIVE = ("open", "running")  # tables always in memory
MAX_TABLE_ID = 2**31 - 1  # the id column is a 32-bit integer; larger numbers name no table

Listener = Callable[[LiveTable], None]


class Stale(Exception):
    """The copy in memory was behind the database; it has been read again, so check and compute
    the change again."""


def process_name() -> str:
    """This server process among others (host, pid and a random part: pids are reused)."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(3)}"


class Committer:
    """Group commit: changes to any tables that wait while a transaction is being committed go
    into the next one together, so a busy server flushes to disk once for many actions instead
    of once for each. A change is still told its outcome only after its transaction committed
    (commit before announce), and a stale change is refused alone (`games.commit_changes`)."""

    MAX_BATCH = 64
    # At least this long between the starts of two transactions of one process: a busy server's
    # changes gather into fewer, larger transactions (each costs a thread hand-off, a signal and
    # PostgreSQL's per-transaction work), while a change that finds the last transaction long
    # past is committed at once. 10 ms took a fifth off PostgreSQL's CPU per action and a tenth
    # off the servers' at 500 tables (docs/server.md, "Fewer, larger group commits").
    GAP = 0.010

    def __init__(self, tables: Tables):
        self.tables = tables
        self.waiting: list[tuple[games.Change, asyncio.Future[int]]] = []
        self.busy = False
        self.task: asyncio.Task[None] | None = None
        self.batches = 0  # for the health endpoint: how well commits are grouped, and how long they take
        self.changes = 0
        self.durations: collections.deque[float] = collections.deque(maxlen=1000)
        self.last_start = -math.inf  # when the last transaction began (time.monotonic)

    async def commit(self, change: games.Change) -> int:
        """The table's new revision once `change` is committed; raises what kept it out."""
        done: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.waiting.append((change, done))
        if not self.busy:
            self.busy = True
            self.task = asyncio.create_task(self._drain())
        return await done

    def report(self) -> dict[str, Any]:
        """For the health endpoint: changes and transactions so far, and how long the last
        transactions took (waiting for a database thread included)."""
        return {"changes": self.changes, "transactions": self.batches, "ms": quantiles_ms(self.durations)}

    async def _drain(self) -> None:
        try:
            while self.waiting:
                wait = self.last_start + self.GAP - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)  # more changes join this transaction meanwhile
                self.last_start = time.monotonic()
                batch, self.waiting = self.waiting[: self.MAX_BATCH], self.waiting[self.MAX_BATCH :]
                started = time.perf_counter()
                try:
                    results: list[int | Exception] = await self.tables.db(
                        games.commit_changes, [change for change, _ in batch]
                    )
                except Exception as exc:  # nothing of the batch is stored (or it is unknown)
                    results = [exc] * len(batch)
                self.durations.append(time.perf_counter() - started)
                self.batches += 1
                self.changes += len(batch)
                stored: dict[int, int] = {}
                for (change, done), result in zip(batch, results, strict=True):
                    if not isinstance(result, Exception):
                        stored[change.table_id] = result
                    if done.done():
                        continue
                    if isinstance(result, Exception):
                        done.set_exception(result)
                    else:
                        done.set_result(result)
                if stored:
                    self.tables.tell_others(stored)
        finally:
            self.busy = False


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
        # the tables whose bots and clock this process drives → the epoch of its lease (`conductor`)
        self.leases: dict[int, int] = {}
        self.finished_order: dict[int, None] = {}  # finished tables in memory, oldest first
        self.listeners: list[Listener] = []
        self._loading = asyncio.Lock()
        self.origin = process_name()
        self.signals = Signals(engine, self.origin)
        self.committer = Committer(self)

    async def db(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run a blocking store function in a database thread."""
        return await self.workers.db(fn, self.engine, *args, **kwargs)

    def changed(self, live: LiveTable) -> None:
        """After a change was committed and swapped in: tell every listener."""
        for listener in self.listeners:
            listener(live)

    def tell_others(self, revisions: dict[int, int]) -> None:
        """Committed changes (table → new revision), told to the other processes (none on SQLite)
        through the signals' outbox, while the next group commit goes on."""
        if not self.closing:
            self.signals.tables_changed(revisions)

    def values(self) -> list[LiveTable]:
        return list(self.live.values())

    # -- reading tables into memory ------------------------------------------------------------
    async def get(self, table_id: int) -> LiveTable:
        live = self.live.get(table_id)
        if live is not None:
            return live
        if not 0 < table_id <= MAX_TABLE_ID:  # the database would refuse such a number with an error
            raise ApiError(404, "not_found", Message("error.no_table", id=table_id))
        async with self._loading:
            live = self.live.get(table_id)
            if live is None:
                live = self.live.setdefault(table_id, await self._load(table_id))  # (or one `add`ed meanwhile)
                self.keep_or_evict(live)
        return live

    def add(self, live: LiveTable) -> LiveTable:
        """A table this process has just stored, kept as it was stored (nothing read back); the
        copy a request read from the database meanwhile (in the lobby's list) if there is one."""
        live = self.live.setdefault(live.id, live)
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
            raise ApiError(404, "not_found", Message("error.no_table", id=table_id))
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

    async def reload(self, live: LiveTable, *, stale: bool = False) -> None:
        """Make memory match the database again after a commit whose outcome is unknown, or one
        refused because another process changed the table first (`stale`, no warning: that is
        how processes take turns). In the actor. Raises when the database cannot be read; the
        table then stays `uncertain`."""
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
        log.log(
            logging.INFO if stale else logging.WARNING,
            "table %s reloaded from the database at seq %s",
            live.id,
            live.row.seq,
        )

    async def refresh(self, live: LiveTable, revision: int | None = None) -> bool:
        """Bring a copy up to the database after another process changed the table (to `revision`
        when known): read the row, seats and notices and apply only the new record entries. Tells
        the listeners and returns True when something changed. Without `revision` (a process that
        has just claimed the table, most often one it has just made) the stored revision is asked
        first: one small query instead of reading the table again when nothing changed. In the
        table's actor only (`actor.Refresh`), which then tells the listeners."""
        if revision is None:
            revision = (await self.db(games.revisions, [live.id])).get(live.id, live.row.revision + 1)
        if live.row.revision >= revision:
            return False
        row = await self.db(games.load_table, live.id)
        if row is None or row.revision <= live.row.revision:
            return False
        state, tracker = live.state, live.tracker
        if row.status in ("running", "finished"):
            if state is not None and tracker is not None and row.seq >= live.row.seq:
                new = await self.db(games.load_actions, live.id, live.row.seq)
                state, tracker = state.clone(), tracker.copy()
                advance(state, tracker, new, live.row.seq)
                entries = [*live.entries, *new]
            else:
                entries = await self.db(games.load_actions, live.id)
                state, tracker = await asyncio.to_thread(rebuild, row, entries)
            row.seq = len(entries)
            live.entries = entries
        missing = [s.user_id for s in row.seats if s.user_id is not None and s.user_id not in live.users]
        if row.host_id is not None and row.host_id not in live.users:
            missing.append(row.host_id)
        if missing:
            live.users.update(await self.db(accounts.users_by_id, missing))
        live.row, live.state, live.tracker = row, state, tracker
        live.version += 1
        self.keep_or_evict(live)
        return True

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
        check: Callable[[Any], None] | None = None,
        lease: int | None = None,
        locks: tuple[str, ...] = (),
    ) -> None:
        """Commit one change, then (and only then) show it in memory; in the table's actor only.
        Shielded: once the commit has started, cancelling the actor (at shutdown) cannot leave
        memory behind the database. `check` and
        `locks`: a quota counted in the commit (`games.Change`). `lease`: a
        driver's change, made under this epoch of this process's lease; refused with `LeaseLost`
        (nothing changes) once another process holds the table."""

        changed_seats = [new for old, new in zip(live.row.seats, seat_rows or (), strict=False) if new != old]
        change = games.Change(
            live.id,
            live.row.revision,
            values=values,
            seat_rows=changed_seats,
            first_seq=first_seq,
            entries=entries or (),
            new_notices=new_notices or (),
            extra=extra,
            check=check,
            hooks=self.faults if self.faults.active else None,
            fence=None if lease is None else (self.origin, lease),
            locks=locks,
        )

        async def work() -> None:
            live.row.revision = await self.committer.commit(change)
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

        landing = asyncio.ensure_future(work())
        try:
            await asyncio.shield(landing)
        except asyncio.CancelledError:  # the step's task was cancelled: its commit still lands
            live.landing = (landing, live.version)  # the actor's next step waits for it
            raise
        except StaleCopy:
            await self.reload(live, stale=True)
            raise Stale() from None
        self.keep_or_evict(live)

    async def after_failed_commit(self, live: LiveTable, stored_seq: int) -> None:
        """A commit raised: it may or may not have reached the database (the connection can drop
        between COMMIT and its reply). Read the table back and tell the player what is true."""
        live.uncertain = True
        try:
            await self.reload(live)
        except Exception:
            log.warning("table %s: cannot read the table back; it reloads before its next change", live.id)
            raise Refusal("unavailable", Message("error.store_unknown")) from None
        if live.row.seq < stored_seq:
            raise Refusal("unavailable", Message("error.not_stored"))
        log.warning("table %s: the action was stored although its commit reported a failure", live.id)
