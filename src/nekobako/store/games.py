"""Tables (game rooms), their seats, stored actions and notices.

Every change to a table goes through `commit_changes`, one transaction that may append actions,
update the table row, the seats that changed and add notices together — so the database never holds an
action without the seat and status changes it caused, and a crash in between loses nothing that
anyone was told about.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import Any, Literal, Protocol, get_args

import orjson
from sqlalchemy import JSON, Connection, Engine, bindparam, insert, select, update

from .database import aware, hold, now, reading
from .leases import StartedLease
from .quotas import limit_hosting
from .schema import actions, leases, notices, seats, tables

SeatKind = Literal["empty", "human", "bot"]
Replaced = Literal["left", "timeout"]
"""Why a bot plays for a seat that a person sat in."""
TableStatus = Literal["open", "running", "finished", "abandoned"]
TABLE_STATUSES: tuple[TableStatus, ...] = get_args(TableStatus)
NoticeKind = Literal["started", "finished", "replaced", "timeout", "returned"]


@dataclass
class SeatRow:
    seat: int
    kind: SeatKind = "empty"
    user_id: int | None = None
    bot: str | None = None
    replaced: Replaced | None = None


@dataclass
class NoticeRow:
    kind: NoticeKind
    seat: int | None
    seq: int
    data: dict[str, Any]
    created_at: datetime


@dataclass
class TableRow:
    id: int
    game: str
    players: int
    options: dict[str, Any]
    clock: dict[str, Any]
    status: TableStatus
    host_id: int | None
    seed: int
    seq: int
    revision: int
    deadlines: dict[str, float]
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    seats: list[SeatRow] = field(default_factory=list)
    notices: list[NoticeRow] = field(default_factory=list)


def create_table(
    engine: Engine,
    *,
    game: str,
    players: int,
    options: dict[str, Any],
    clock: dict[str, Any],
    host_id: int,
    seed: int,
    most_hosted: int | None = None,
) -> int:
    """A new open table with the host at seat 0; returns its id. With `most_hosted`: unless the
    host already hosts that many open or running tables (`quotas.HostsTooMany`), counted in the
    same transaction under a lock on the host, so the quota holds across server processes."""
    row = new_table_row(game, players, options, clock, host_id, seed)
    check = None if most_hosted is None else partial(limit_hosting, host_id=host_id, most=most_hosted)
    return insert_table(engine, row, check=check)


def new_table_row(
    game: str, players: int, options: dict[str, Any], clock: dict[str, Any], host_id: int, seed: int
) -> TableRow:
    """An open table not stored yet (id 0): the host at seat 0, the other seats empty."""
    return TableRow(
        id=0,
        game=game,
        players=players,
        options=options,
        clock=clock,
        status="open",
        host_id=host_id,
        seed=seed,
        seq=0,
        revision=0,
        deadlines={},
        created_at=now(),
        started_at=None,
        finished_at=None,
        seats=[SeatRow(0, "human", host_id)] + [SeatRow(s) for s in range(1, players)],
    )


def insert_table(
    engine: Engine,
    row: TableRow,
    *,
    entries: Sequence[str] = (),
    check: Callable[[Connection], None] | None = None,
    lease: StartedLease | None = None,
) -> int:
    """Store a new table as `row` has it (its status, seats, notices and, with `entries`, its first
    record entries: a table made and started at once) in one transaction; returns its id. The
    caller keeps `row` (with that id) as the table in memory: nothing is read back. `check` runs
    first in the same transaction and refuses by raising (the quotas, under their locks); `lease`
    is taken in it too (a table started at once; `lease.taken` says whether it was made)."""
    with engine.begin() as conn:
        if check is not None:
            check(conn)
        if conn.dialect.name == "postgresql":
            return _insert_postgres(conn, row, entries, lease)
        table_id = _insert(conn, row, entries)
        if lease is not None:
            lease(conn, table_id)
    return table_id


_TABLE_COLUMNS = tuple(c.name for c in tables.columns if c.name != "id")  # a `TableRow` field each


def _insert(conn: Connection, row: TableRow, entries: Sequence[str]) -> int:
    """A new table as a few statements (SQLite: no round trips to save)."""
    result = conn.execute(insert(tables).values({name: getattr(row, name) for name in _TABLE_COLUMNS}))
    key = result.inserted_primary_key
    assert key is not None
    table_id = int(key[0])
    conn.execute(insert(seats), [seat_values(table_id, r) for r in row.seats])
    if entries:
        stamp = now()
        rows = [dict(table_id=table_id, seq=i, entry=e, created_at=stamp) for i, e in enumerate(entries)]
        conn.execute(insert(actions), rows)
    if row.notices:
        conn.execute(insert(notices), [notice_values(table_id, n) for n in row.notices])
    return table_id


def _insert_postgres(conn: Connection, row: TableRow, entries: Sequence[str], lease: StartedLease | None) -> int:
    """The table row, its seats, first entries, notices and lease as one statement through
    psycopg (as `_send_postgres`): one round trip, and none of SQLAlchemy's work per statement,
    which was most of a new table's time in the database thread (docs/server.md)."""
    driver = conn.connection.driver_connection
    assert driver is not None
    params: dict[str, Any] = _seat_arrays(row.seats)
    placeholders = []
    for name in _TABLE_COLUMNS:
        json_type = isinstance(tables.c[name].type, JSON)
        params[name] = orjson.dumps(getattr(row, name)).decode() if json_type else getattr(row, name)
        placeholders.append(f"%({name})s{'::json' if json_type else ''}")
    steps = [
        f"t AS (INSERT INTO {tables.name} ({', '.join(_TABLE_COLUMNS)})"
        f" VALUES ({', '.join(placeholders)}) RETURNING id)",
        f"s AS (INSERT INTO {seats.name} (table_id, seat, kind, user_id, bot, replaced)"
        f" SELECT t.id, u.seat, u.kind, u.user_id, u.bot, u.replaced FROM t, {_SEATS_UNNEST})",
    ]
    if entries:
        steps.append(_entries_step("t", 0, entries, now(), params))
    if row.notices:
        steps.append(_notices_step("t", row.notices, params))
    if lease is not None:
        params.update(holder=lease.holder, until=lease.until)
        steps.append(
            f"l AS (INSERT INTO {leases.name} (table_id, holder, until, epoch) SELECT t.id, %(holder)s, %(until)s, 1"
            " FROM t ON CONFLICT (table_id) DO NOTHING RETURNING table_id)"
        )
    taken = "EXISTS (SELECT 1 FROM l)" if lease is not None else "false"
    with driver.cursor() as cursor:
        cursor.execute(f"WITH {', '.join(steps)} SELECT id, {taken} FROM t", params)
        found = cursor.fetchone()
    assert found is not None
    if lease is not None:
        lease.taken = found[1]
    return int(found[0])


def seat_values(table_id: int, row: SeatRow) -> dict[str, Any]:
    return {
        "table_id": table_id,
        "seat": row.seat,
        "kind": row.kind,
        "user_id": row.user_id,
        "bot": row.bot,
        "replaced": row.replaced,
    }


def load_table(engine: Engine, table_id: int) -> TableRow | None:
    with reading(engine) as conn:
        row = conn.execute(select(tables).where(tables.c.id == table_id)).first()
        if row is None:
            return None
        seat_rows = conn.execute(select(seats).where(seats.c.table_id == table_id).order_by(seats.c.seat)).all()
        notice_rows = conn.execute(select(notices).where(notices.c.table_id == table_id).order_by(notices.c.id)).all()
    return TableRow(
        id=row.id,
        game=row.game,
        players=row.players,
        options=dict(row.options),
        clock=dict(row.clock),
        status=row.status,
        host_id=row.host_id,
        seed=row.seed,
        seq=row.seq,
        revision=row.revision,
        deadlines={str(k): float(v) for k, v in dict(row.deadlines).items()},
        created_at=aware(row.created_at),
        started_at=aware(row.started_at),
        finished_at=aware(row.finished_at),
        seats=[SeatRow(r.seat, r.kind, r.user_id, r.bot, r.replaced) for r in seat_rows],
        notices=[NoticeRow(r.kind, r.seat, r.seq, dict(r.data), aware(r.created_at)) for r in notice_rows],
    )


def table_ids(
    engine: Engine,
    statuses: Iterable[str],
    *,
    game: str | None = None,
    before: int | None = None,
    limit: int | None = None,
    seats_free: bool = False,
) -> list[int]:
    """Ids of tables with one of `statuses`: all of them oldest first, or with `limit` the newest
    first (below `before`, of `game`, with an empty seat), for the lobby's pages."""
    query = select(tables.c.id).where(tables.c.status.in_(list(statuses)))
    if seats_free:
        empty = select(seats.c.table_id).where(seats.c.table_id == tables.c.id, seats.c.kind == "empty")
        query = query.where(empty.exists())
    if game is not None:
        query = query.where(tables.c.game == game)
    if before is not None:
        query = query.where(tables.c.id < before)
    query = query.order_by(tables.c.id) if limit is None else query.order_by(tables.c.id.desc()).limit(limit)
    with reading(engine) as conn:
        return [r.id for r in conn.execute(query)]


_REVISIONS = select(tables.c.id, tables.c.revision).where(tables.c.id.in_(bindparam("ids", expanding=True)))


def revisions(engine: Engine, table_ids: Iterable[int]) -> dict[int, int]:
    """The stored revision of each table named (to find copies in memory that fell behind)."""
    with reading(engine) as conn:
        return {r.id: r.revision for r in conn.execute(_REVISIONS, {"ids": list(table_ids)})}


def load_actions(engine: Engine, table_id: int, since: int = 0) -> list[str]:
    """The stored record entries from index `since` on."""
    query = select(actions.c.entry).where(actions.c.table_id == table_id, actions.c.seq >= since)
    with reading(engine) as conn:
        return [r.entry for r in conn.execute(query.order_by(actions.c.seq))]


class StaleCopy(Exception):
    """The table changed in the database since the caller read it (another process changed it)."""


class LeaseLost(Exception):
    """A driver's change (a bot's move, the clock's) from a process that no longer holds the
    table's lease, or holds a later one (`Change.fence`): another process drives the table."""


@dataclass
class Change:
    """One change to one table, committed only if the table is still at `revision`. Actions are
    inserted at `first_seq`, `first_seq+1`… (the primary key refuses a second writer of the same
    seq, too); `seat_rows` are the seats that changed (only those are written). `check` runs
    in the same transaction before it is written and refuses it by raising (a quota counted under
    its lock: `store.quotas`); `extra` runs after it (ratings of a finished game); `hooks` inject
    faults in tests (they raise before the change is written or after it is committed). `fence`
    (holder, epoch): a change a table's driver made, committed only while that process holds
    that lease (`store.leases`; else `LeaseLost`). `locks`: the named locks (`database.hold`)
    its `check` takes; a transaction takes every change's at its start, sorted, so checks of one
    group commit never take theirs in an order another transaction could cross. Other processes
    hear of committed changes from the server (`server.signals`), not from here."""

    table_id: int
    revision: int
    values: dict[str, Any] | None = None
    seat_rows: Sequence[SeatRow] = ()
    first_seq: int = 0
    entries: Sequence[str] = ()
    new_notices: Sequence[NoticeRow] = ()
    check: Callable[[Connection], None] | None = None
    extra: Callable[[Connection], None] | None = None
    hooks: CommitHooks | None = None
    fence: tuple[str, int] | None = None
    locks: Sequence[str] = ()

    @property
    def plays(self) -> bool:
        """Does it store played actions (not a game's opening deal)? What the fault hooks ask."""
        return bool(self.entries) and self.first_seq > 0


def commit_change(engine: Engine, table_id: int, *, revision: int, **fields: Any) -> int:
    """Commit one change (`Change`); returns the table's new revision, or raises `StaleCopy` (and
    changes nothing) when another writer got there first."""
    result = commit_changes(engine, [Change(table_id, revision, **fields)])[0]
    if isinstance(result, Exception):
        raise result
    return result


def commit_changes(engine: Engine, changes: Sequence[Change]) -> list[int | Exception]:
    """Commit changes to several tables in one transaction (one disk flush for all of them: group
    commit). Per change: the new revision, or the exception that kept it out — `StaleCopy`, its
    `check`'s refusal or a fault raised before any of its rows was written; the others are
    committed all the same. Any other error rolls the whole transaction back and is raised
    (nothing of any change is stored).

    The table row is updated first, so on PostgreSQL a second writer waits for the row and then
    finds the revision moved on. Changes with a `check` go first: the quota locks they take are
    taken before any table row, so two processes never wait for each other in a circle. On
    PostgreSQL the changes without `check` or `extra` are sent together in pipeline mode, one
    round trip for all of them, and the plain moves among them as one statement."""
    stamp = now()
    postgres = engine.dialect.name == "postgresql"
    results: dict[int, int | Exception] = {}
    ready: list[int] = []  # past their hooks and checks
    with engine.begin() as conn:
        held = _fences(conn, changes)
        for name in sorted({name for change in changes for name in change.locks}):
            hold(conn, name)
        for index in sorted(range(len(changes)), key=lambda i: changes[i].check is None):
            change = changes[index]
            if change.fence is not None and held.get(change.table_id) != change.fence:
                results[index] = LeaseLost(f"table {change.table_id}: lease {change.fence} is no longer held")
                continue
            try:
                if change.hooks is not None:
                    change.hooks.before_commit(change.plays)
                if change.check is not None:
                    change.check(conn)
            except Exception as exc:  # an injected failure or a refusal, before any row of this change
                results[index] = exc
                continue
            if postgres and change.check is None and change.extra is None:
                ready.append(index)  # for the pipeline below
                continue
            moved = _write_postgres(conn, change, stamp) if postgres else _write(conn, change, stamp)
            results[index] = _settled(change, moved)
            if moved and change.extra is not None:
                change.extra(conn)
        if ready:
            driver = conn.connection.driver_connection
            assert driver is not None
            moves = [index for index in ready if _plain_move(changes[index])]
            with driver.pipeline():
                together = _send_moves(driver, [changes[index] for index in moves], stamp) if moves else None
                sent = [(index, _send_postgres(driver, changes[index], stamp)) for index in ready if index not in moves]
            if together is not None:  # the pipeline is synced: every answer is in
                with together:
                    stored = {row[0] for row in together.fetchall()}
                for index in moves:
                    results[index] = _settled(changes[index], changes[index].table_id in stored)
            for index, cursor in sent:
                with cursor:
                    results[index] = _settled(changes[index], cursor.fetchone() is not None)
    for index, change in enumerate(changes):
        if change.hooks is not None and not isinstance(results[index], Exception):
            try:
                change.hooks.after_commit(change.plays)
            except Exception as exc:  # an injected lost acknowledgement: stored, reported as failed
                results[index] = exc
    return [results[index] for index in range(len(changes))]


def _fences(conn: Connection, changes: Sequence[Change]) -> dict[int, tuple[str, int]]:
    """The leases (holder, epoch) of the tables of the fenced changes, share-locked until the
    transaction ends (in table order, as every statement that locks several leases): a claim
    waits for this commit, and a commit after a claim sees the new holder."""
    fenced = sorted({c.table_id for c in changes if c.fence is not None})
    if not fenced:
        return {}
    if conn.dialect.name == "postgresql":  # psycopg itself: prepared after five runs, no compiling
        driver = conn.connection.driver_connection
        assert driver is not None
        with driver.cursor() as cursor:
            cursor.execute(
                f"SELECT table_id, holder, epoch FROM {leases.name} WHERE table_id = ANY(%(ids)s)"
                " ORDER BY table_id FOR SHARE",
                {"ids": fenced},
            )
            return {table_id: (holder, epoch) for table_id, holder, epoch in cursor.fetchall()}
    query = (
        select(leases.c.table_id, leases.c.holder, leases.c.epoch)
        .where(leases.c.table_id.in_(fenced))
        .order_by(leases.c.table_id)
        .with_for_update(read=True)
    )
    return {r.table_id: (r.holder, r.epoch) for r in conn.execute(query)}


def _settled(change: Change, moved: bool) -> int | Exception:
    """A change's outcome once its first statement ran: its new revision, or stale (it changed nothing)."""
    if not moved:
        return StaleCopy(f"table {change.table_id} is no longer at revision {change.revision}")
    return change.revision + 1


MOVE_VALUES = frozenset({"seq", "deadlines", "clock"})  # what a move sets in its table's row


def _plain_move(change: Change) -> bool:
    """A move and nothing else (no seat, notice, status or other column): most changes by far,
    written together with the batch's others by `_send_moves`."""
    values = change.values
    return (
        bool(change.entries)
        and values is not None
        and values.keys() == MOVE_VALUES
        and not change.seat_rows
        and not change.new_notices
    )


def _send_moves(driver: Any, moves: Sequence[Change], stamp: datetime) -> Any:
    """Plain moves (`_plain_move`) of several tables as one statement: the batch as one JSON
    parameter (encoded in C, parsed by PostgreSQL) instead of one statement, a query to convert
    and a dozen parameters to adapt per move. Each table row moves only from its revision, and
    only a moved table's actions are inserted. The cursor's rows are
    the ids of the tables that moved (a table missing there was stale)."""
    batch = [
        {"id": m.table_id, "revision": m.revision, "first_seq": m.first_seq, "entries": list(m.entries)}
        | (m.values or {})
        for m in moves
    ]
    cursor = driver.cursor()
    cursor.execute(
        f"WITH c AS (SELECT * FROM json_to_recordset(%(batch)s::json) AS c(id int, revision int, seq int,"
        " first_seq int, deadlines json, clock json, entries text[])),"
        f" moved AS (UPDATE {tables.name} AS t SET revision = c.revision + 1, seq = c.seq,"
        " deadlines = c.deadlines, clock = c.clock FROM c WHERE t.id = c.id AND t.revision = c.revision"
        " RETURNING t.id),"
        f" a AS (INSERT INTO {actions.name} (table_id, seq, entry, created_at)"
        " SELECT c.id, c.first_seq + e.i - 1, e.entry, %(stamp)s FROM c JOIN moved ON moved.id = c.id,"
        " unnest(c.entries) WITH ORDINALITY AS e(entry, i))"
        " SELECT id FROM moved",
        {"batch": orjson.dumps(batch).decode(), "stamp": stamp},
    )
    return cursor


def _write(conn: Connection, change: Change, stamp: datetime) -> bool:
    """A change as a few statements (SQLite: no round trips to save). False when stale."""
    table_id, revision = change.table_id, change.revision
    moved = conn.execute(
        update(tables)
        .where(tables.c.id == table_id, tables.c.revision == revision)
        .values(revision=revision + 1, **(change.values or {}))
    )
    if moved.rowcount != 1:
        return False
    if change.entries:
        rows = [
            dict(table_id=table_id, seq=change.first_seq + i, entry=e, created_at=stamp)
            for i, e in enumerate(change.entries)
        ]
        conn.execute(insert(actions), rows)
    if change.seat_rows:
        conn.execute(
            update(seats).where(seats.c.table_id == table_id, seats.c.seat == bindparam("at")),
            [
                {"at": r.seat, "kind": r.kind, "user_id": r.user_id, "bot": r.bot, "replaced": r.replaced}
                for r in change.seat_rows
            ],
        )
    if change.new_notices:
        conn.execute(insert(notices), [notice_values(table_id, n) for n in change.new_notices])
    return True


def _write_postgres(conn: Connection, change: Change, stamp: datetime) -> bool:
    """One change, alone (`_send_postgres`). False when stale."""
    driver = conn.connection.driver_connection
    assert driver is not None
    with _send_postgres(driver, change, stamp) as cursor:
        return cursor.fetchone() is not None


def _send_postgres(driver: Any, change: Change, stamp: datetime) -> Any:
    """A change as one statement: the table row's update (which refuses a stale revision) and,
    each only if that row moved, the actions and notices inserted and the changed seats updated.
    Sent through psycopg itself, whose prepared statements (after five
    runs of the same text) skip planning too. Returns the cursor, whose one row (none when
    stale) is read at once or after the pipeline it was sent in."""
    params: dict[str, Any] = {"id": change.table_id, "revision": change.revision}
    sets = ["revision = %(revision)s + 1"]
    for key, value in (change.values or {}).items():
        column = tables.c[key]  # a name that is not a column raises here
        json_type = isinstance(column.type, JSON)
        params[key] = orjson.dumps(value).decode() if json_type else value
        sets.append(f"{column.name} = %({key})s{'::json' if json_type else ''}")
    steps = [
        f"moved AS (UPDATE {tables.name} SET {', '.join(sets)}"
        " WHERE id = %(id)s AND revision = %(revision)s RETURNING id)"
    ]
    if change.entries:
        steps.append(_entries_step("moved", change.first_seq, change.entries, stamp, params))
    if change.seat_rows:
        params.update(_seat_arrays(change.seat_rows))
        steps.append(
            f"s AS (UPDATE {seats.name} SET kind = u.kind, user_id = u.user_id, bot = u.bot, replaced = u.replaced"
            f" FROM moved, {_SEATS_UNNEST} WHERE {seats.name}.table_id = moved.id AND {seats.name}.seat = u.seat)"
        )
    if change.new_notices:
        steps.append(_notices_step("moved", change.new_notices, params))
    cursor = driver.cursor()
    cursor.execute(f"WITH {', '.join(steps)} SELECT 1 FROM moved", params)
    return cursor


def _seat_arrays(rows: Sequence[SeatRow]) -> dict[str, list[Any]]:
    """Seat rows as one array per column, for `unnest` (named `u`: seat, kind, user_id, bot, replaced)."""
    return {
        "s_seat": [r.seat for r in rows],
        "s_kind": [r.kind for r in rows],
        "s_user": [r.user_id for r in rows],
        "s_bot": [r.bot for r in rows],
        "s_replaced": [r.replaced for r in rows],
    }


_SEATS_UNNEST = (
    "unnest(%(s_seat)s::int[], %(s_kind)s::text[], %(s_user)s::int[], %(s_bot)s::text[], %(s_replaced)s::text[])"
    " AS u(seat, kind, user_id, bot, replaced)"
)


def _entries_step(source: str, first_seq: int, entries: Sequence[str], stamp: datetime, params: dict[str, Any]) -> str:
    """The step that inserts record entries from `first_seq` on for the table `source` names."""
    params.update(first_seq=first_seq, entries=list(entries), stamp=stamp)
    return (
        f"a AS (INSERT INTO {actions.name} (table_id, seq, entry, created_at)"
        f" SELECT {source}.id, %(first_seq)s + e.i - 1, e.entry, %(stamp)s"
        f" FROM {source}, unnest(%(entries)s::text[]) WITH ORDINALITY AS e(entry, i))"
    )


def _notices_step(source: str, rows: Sequence[NoticeRow], params: dict[str, Any]) -> str:
    """The step that inserts notices, in order (a notice's id is its place among the table's)."""
    params.update(
        n_kind=[n.kind for n in rows],
        n_seat=[n.seat for n in rows],
        n_seq=[n.seq for n in rows],
        n_data=[orjson.dumps(n.data).decode() for n in rows],
        n_at=[n.created_at for n in rows],
    )
    return (
        f"n AS (INSERT INTO {notices.name} (table_id, kind, seat, seq, data, created_at)"
        f" SELECT {source}.id, n.kind, n.seat, n.seq, n.data::json, n.at FROM {source},"
        " unnest(%(n_kind)s::text[], %(n_seat)s::int[], %(n_seq)s::int[], %(n_data)s::text[],"
        " %(n_at)s::timestamptz[]) WITH ORDINALITY AS n(kind, seat, seq, data, at, i) ORDER BY n.i)"
    )


def notice_values(table_id: int, notice: NoticeRow) -> dict[str, Any]:
    return {
        "table_id": table_id,
        "kind": notice.kind,
        "seat": notice.seat,
        "seq": notice.seq,
        "data": notice.data,
        "created_at": notice.created_at,
    }


class CommitHooks(Protocol):
    """Told whether a commit stores played actions (not a game's opening deal)."""

    def before_commit(self, has_entries: bool) -> None: ...

    def after_commit(self, has_entries: bool) -> None: ...
