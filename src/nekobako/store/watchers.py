"""Anonymous watchers of a table, counted across server processes: one row per socket, with a
lease (`until`, Unix time) that its process renews while it lives. Admitting one counts the
table's live rows and inserts under the table's lock (`database.hold`), so two processes cannot
both admit the last place; a socket that closes deletes its row at once, and a killed process's
rows stop counting when their lease runs out.
"""

from __future__ import annotations

from collections.abc import Collection

from sqlalchemy import Engine, delete, func, insert, select, update

from .database import hold
from .schema import watchers


def admit(engine: Engine, table_id: int, holder: str, most: int, now: float, ttl: float) -> int | None:
    """A new watcher's row (its id), unless `table_id` already has `most` live ones (None)."""
    with engine.begin() as conn:
        hold(conn, f"watchers/{table_id}")
        conn.execute(delete(watchers).where(watchers.c.table_id == table_id, watchers.c.until < now))
        count = conn.execute(select(func.count()).where(watchers.c.table_id == table_id)).scalar_one()
        if count >= most:
            return None
        result = conn.execute(insert(watchers).values(table_id=table_id, holder=holder, until=now + ttl))
        key = result.inserted_primary_key
        assert key is not None
        return int(key[0])


def leave(engine: Engine, watcher_ids: Collection[int]) -> None:
    if watcher_ids:
        with engine.begin() as conn:
            conn.execute(delete(watchers).where(watchers.c.id.in_(list(watcher_ids))))


def renew(engine: Engine, watcher_ids: Collection[int], now: float, ttl: float) -> set[int]:
    """The named watchers (a process's own, still connected) live `ttl` seconds more; returns
    those still there (a row whose lease ran out may have been deleted to admit someone else)."""
    if not watcher_ids:
        return set()
    with engine.begin() as conn:
        rows = conn.execute(
            update(watchers)
            .where(watchers.c.id.in_(list(watcher_ids)))
            .values(until=now + ttl)
            .returning(watchers.c.id)
        )
        return {r.id for r in rows}


def purge(engine: Engine, now: float) -> int:
    """Rows whose lease ran out (their process died): gone (with the hourly purge)."""
    with engine.begin() as conn:
        return conn.execute(delete(watchers).where(watchers.c.until < now)).rowcount
