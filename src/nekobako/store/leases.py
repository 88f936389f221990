"""Leases: which server process drives a running table's bots and clock.

A process holds a table's lease until `until` (Unix time) and renews it every second or so; when
its holder dies, the lease runs out and another process claims the table. A claim is one
statement (insert, or take over a lease that has run out), so two processes never both win it.

Every claim by a new holder raises the lease's `epoch`. A driver's commit names the holder and
epoch it acts under (`games.Change.fence`) and is refused unless the lease still has both
(`games.LeaseLost`), checked in the committing transaction under a share lock on the lease row:
a claim waits for the old holder's commits in flight, and every commit of the old holder after
it is refused. So a holder that was paused past its lease (SIGSTOP, a swapped-out machine)
cannot move a bot or play a clock once it wakes up: no two processes drive one table at once.

Leases are locked in the order of their table ids by every statement that takes several
(claim, renew, release, the commit's fence check), so those never wait for each other in a circle.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import Connection, Engine, case, select, update
from sqlalchemy.dialects import postgresql, sqlite

from .database import reading
from .schema import leases, tables


def claim(engine: Engine, table_ids: Iterable[int], holder: str, now: float, ttl: float) -> dict[int, int]:
    """Claim each table whose lease is free or has run out (or is ours); returns those we hold,
    with their epochs (raised by one when the lease changes hands)."""
    won = {}
    dialect = postgresql if engine.dialect.name == "postgresql" else sqlite
    with engine.begin() as conn:
        for table_id in sorted(set(table_ids)):
            statement = dialect.insert(leases).values(table_id=table_id, holder=holder, until=now + ttl, epoch=1)
            statement = statement.on_conflict_do_update(
                index_elements=[leases.c.table_id],
                set_={
                    "holder": holder,
                    "until": now + ttl,
                    "epoch": case((leases.c.holder == holder, leases.c.epoch), else_=leases.c.epoch + 1),
                },
                where=(leases.c.until < now) | (leases.c.holder == holder),
            ).returning(leases.c.table_id, leases.c.epoch)
            row = conn.execute(statement).first()
            if row is not None:
                won[row.table_id] = row.epoch
    return won


def _mine(holder: str, table_ids: Iterable[int] | None = None) -> Any:
    """`holder`'s leases (those named), locked in table order: the rows a renewal or a release
    changes, taken in the order every other statement takes leases."""
    query = select(leases.c.table_id).where(leases.c.holder == holder, leases.c.until > 0)
    if table_ids is not None:
        query = query.where(leases.c.table_id.in_(list(table_ids)))
    return query.order_by(leases.c.table_id).with_for_update()


def renew(engine: Engine, holder: str, now: float, ttl: float) -> dict[int, int]:
    """Extend every lease `holder` still has; returns their tables and epochs. A lease that ran
    out while its holder was slow to renew it (a busy process) stays its holder's unless another
    process claimed it meanwhile: the tables do not stop while nobody else drives them. A
    released lease (`until` 0) is not renewed."""
    with engine.begin() as conn:
        rows = conn.execute(
            update(leases)
            .where(leases.c.table_id.in_(_mine(holder).scalar_subquery()), leases.c.holder == holder)
            .values(until=now + ttl)
            .returning(leases.c.table_id, leases.c.epoch)
        )
        return {r.table_id: r.epoch for r in rows}


def orphans(engine: Engine, now: float, limit: int) -> list[int]:
    """Running tables nobody drives: no lease, or one that has run out (its holder is gone)."""
    held = select(leases.c.table_id).where(leases.c.until >= now)
    query = (
        select(tables.c.id)
        .where(tables.c.status == "running", tables.c.id.not_in(held))
        .order_by(tables.c.id)
        .limit(limit)
    )
    with reading(engine) as conn:
        return [r.id for r in conn.execute(query)]


def release(engine: Engine, holder: str, table_ids: Iterable[int] | None = None) -> None:
    """Give up leases: the ones named, or all of `holder`'s (at shutdown). The row stays, run out,
    so the next holder's epoch is still a new one."""
    with engine.begin() as conn:
        conn.execute(
            update(leases)
            .where(leases.c.table_id.in_(_mine(holder, table_ids).scalar_subquery()), leases.c.holder == holder)
            .values(until=0.0)
        )


class StartedLease:
    """The lease of a table a process starts, taken in the transaction that starts it
    (`hold_started`; `games.insert_table` takes it in its own statement on PostgreSQL).
    `taken`: the lease is new and `holder`'s (epoch 1), so that process adopts the table as it is
    in memory (no claim, nothing read back); otherwise its claim finds out whose the lease is."""

    def __init__(self, holder: str, until: float) -> None:
        self.holder = holder
        self.until = until
        self.taken = False

    def __call__(self, conn: Connection, table_id: int) -> None:
        self.taken = hold_started(conn, table_id, holder=self.holder, until=self.until)


def hold_started(conn: Connection, table_id: int, *, holder: str, until: float) -> bool:
    """The lease of a table its process starts, taken in the transaction that starts it (unless
    one is held already): no other process's round can find it running with no lease and claim
    it first, which would leave its bots in one process and its players in another. True when
    this made the lease (epoch 1, `holder`'s); False when a lease row was there already."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    statement = dialect.insert(leases).values(table_id=table_id, holder=holder, until=until, epoch=1)
    statement = statement.on_conflict_do_nothing(index_elements=[leases.c.table_id]).returning(leases.c.table_id)
    return conn.execute(statement).first() is not None
