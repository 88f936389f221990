"""Leases: which server process drives a running table's bots and clock.

A process holds a table's lease until `until` (Unix time) and renews it every second or so; when
its holder dies, the lease runs out and another process claims the table. A claim is one
statement (insert, or take over a lease that has run out), so two processes never both win it.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import Engine, delete, select, update
from sqlalchemy.dialects import postgresql, sqlite

from .schema import leases, tables


def claim(engine: Engine, table_ids: Iterable[int], holder: str, now: float, ttl: float) -> list[int]:
    """Claim each table whose lease is free or has run out (or is ours); returns those we hold."""
    won = []
    dialect = postgresql if engine.dialect.name == "postgresql" else sqlite
    with engine.begin() as conn:
        for table_id in table_ids:
            statement = dialect.insert(leases).values(table_id=table_id, holder=holder, until=now + ttl)
            statement = statement.on_conflict_do_update(
                index_elements=[leases.c.table_id],
                set_={"holder": holder, "until": now + ttl},
                where=(leases.c.until < now) | (leases.c.holder == holder),
            ).returning(leases.c.table_id)
            if conn.execute(statement).first() is not None:
                won.append(table_id)
    return won


def renew(engine: Engine, holder: str, now: float, ttl: float) -> set[int]:
    """Extend every lease `holder` still has; returns their tables. A lease that ran out while
    its holder was slow to renew it (a busy process) stays its holder's unless another process
    claimed it meanwhile: the tables do not stop while nobody else drives them."""
    with engine.begin() as conn:
        rows = conn.execute(
            update(leases).where(leases.c.holder == holder).values(until=now + ttl).returning(leases.c.table_id)
        )
        return {r.table_id for r in rows}


def orphans(engine: Engine, now: float, limit: int) -> list[int]:
    """Running tables nobody drives: no lease, or one that has run out (its holder is gone)."""
    held = select(leases.c.table_id).where(leases.c.until >= now)
    query = (
        select(tables.c.id)
        .where(tables.c.status == "running", tables.c.id.not_in(held))
        .order_by(tables.c.id)
        .limit(limit)
    )
    with engine.connect() as conn:
        return [r.id for r in conn.execute(query)]


def release(engine: Engine, holder: str, table_ids: Iterable[int] | None = None) -> None:
    """Give up leases: the ones named, or all of `holder`'s (at shutdown)."""
    query = delete(leases).where(leases.c.holder == holder)
    if table_ids is not None:
        query = query.where(leases.c.table_id.in_(list(table_ids)))
    with engine.begin() as conn:
        conn.execute(query)
