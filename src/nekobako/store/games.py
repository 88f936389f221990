"""Tables (game rooms), their seats, stored actions and notices.

Every change to a table goes through `commit_change`, one transaction that may append actions,
rewrite seats, update the table row and add notices together — so the database never holds an
action without the seat and status changes it caused, and a crash in between loses nothing that
anyone was told about.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, Protocol, get_args

from sqlalchemy import Connection, Engine, delete, insert, select, update

from .database import aware, now
from .schema import actions, notices, seats, tables

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
) -> int:
    """A new open table with the host at seat 0; returns its id."""
    with engine.begin() as conn:
        result = conn.execute(
            insert(tables).values(
                game=game,
                players=players,
                options=options,
                clock=clock,
                status="open",
                host_id=host_id,
                seed=seed,
                seq=0,
                deadlines={},
                created_at=now(),
            )
        )
        key = result.inserted_primary_key
        assert key is not None
        table_id = key[0]
        rows = [SeatRow(0, "human", host_id)] + [SeatRow(s) for s in range(1, players)]
        conn.execute(insert(seats), [seat_values(table_id, r) for r in rows])
    return table_id


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
    with engine.connect() as conn:
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
) -> list[int]:
    """Ids of tables with one of `statuses`: all of them oldest first, or with `limit` the newest
    first (below `before`, of `game`), for the lobby's pages."""
    query = select(tables.c.id).where(tables.c.status.in_(list(statuses)))
    if game is not None:
        query = query.where(tables.c.game == game)
    if before is not None:
        query = query.where(tables.c.id < before)
    query = query.order_by(tables.c.id) if limit is None else query.order_by(tables.c.id.desc()).limit(limit)
    with engine.connect() as conn:
        return [r.id for r in conn.execute(query)]


def load_actions(engine: Engine, table_id: int) -> list[str]:
    with engine.connect() as conn:
        rows = conn.execute(select(actions.c.entry).where(actions.c.table_id == table_id).order_by(actions.c.seq))
        return [r.entry for r in rows]


def commit_change(
    engine: Engine,
    table_id: int,
    *,
    values: dict[str, Any] | None = None,
    seat_rows: Sequence[SeatRow] | None = None,
    first_seq: int = 0,
    entries: Sequence[str] = (),
    new_notices: Sequence[NoticeRow] = (),
    extra: Callable[[Connection], None] | None = None,
    hooks: CommitHooks | None = None,
) -> None:
    """Apply one change to a table atomically. Actions are inserted at `first_seq`, `first_seq+1`…
    (the primary key refuses a second writer of the same seq). `extra` runs inside the same
    transaction (ratings of a finished game); `hooks` inject faults in tests."""
    stamp = now()
    if hooks is not None:
        hooks.before_commit(bool(entries) and first_seq > 0)
    with engine.begin() as conn:
        if entries:
            conn.execute(
                insert(actions),
                [
                    {"table_id": table_id, "seq": first_seq + i, "entry": entry, "created_at": stamp}
                    for i, entry in enumerate(entries)
                ],
            )
        if values:
            conn.execute(update(tables).where(tables.c.id == table_id).values(**values))
        if seat_rows is not None:
            conn.execute(delete(seats).where(seats.c.table_id == table_id))
            conn.execute(insert(seats), [seat_values(table_id, r) for r in seat_rows])
        if new_notices:
            conn.execute(
                insert(notices),
                [
                    {
                        "table_id": table_id,
                        "kind": n.kind,
                        "seat": n.seat,
                        "seq": n.seq,
                        "data": n.data,
                        "created_at": n.created_at,
                    }
                    for n in new_notices
                ],
            )
        if extra is not None:
            extra(conn)
    if hooks is not None:
        hooks.after_commit(bool(entries) and first_seq > 0)


class CommitHooks(Protocol):
    """Told whether a commit stores played actions (not a game's opening deal)."""

    def before_commit(self, has_entries: bool) -> None: ...

    def after_commit(self, has_entries: bool) -> None: ...
