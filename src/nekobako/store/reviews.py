"""Reviews of finished games, stored with the game (schema `reviews`; docs/review.md).

A review is computed once per (table, seat) and served from here afterwards. Asking for one is one
transaction under the reviews' lock (`database.hold`), which counts the reviews running for the
person asking and for the whole server, so however many server processes share the database, the
limits hold. A running review renews `updated_at` with every decision rated; one not renewed for
`STALE` seconds (its process died) counts for nobody and is taken over by the next request.
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import Engine, and_, delete, func, insert, select, update

from .database import hold, reading
from .schema import reviews

LOCK = "quota/reviews"
STALE = 120.0
"""Seconds without progress after which a running review is taken to be dead."""


class ReviewsTooMany(Exception):
    """One more running review would pass a limit: the person's (`mine` running already) or, with
    `mine` None, the server's."""

    def __init__(self, mine: int | None, limit: int):
        super().__init__(f"{'server' if mine is None else mine} reviews running (limit {limit})")
        self.mine = mine
        self.limit = limit


def read(engine: Engine, table_id: int, seat: int) -> dict[str, Any] | None:
    """The stored row as JSON (`status`, `done`, `total`, `review`), or None; a stale running
    review reads `stale`."""
    with reading(engine) as conn:
        row = conn.execute(select(reviews).where(reviews.c.table_id == table_id, reviews.c.seat == seat)).first()
    return None if row is None else _json(row, time.time())


def _json(row: Any, at: float) -> dict[str, Any]:
    status = row.status
    if status == "running" and row.updated_at < at - STALE:
        status = "stale"
    return {"status": status, "done": row.done, "total": row.total, "review": row.result}


def begin(
    engine: Engine, table_id: int, seat: int, user_id: int, *, per_user: int, per_server: int
) -> dict[str, Any] | None:
    """Mark the review running for `user_id`, unless it is stored or running already (then its row
    as `read` gives it, and nothing changes). Raises `ReviewsTooMany` past a limit. None: begun."""
    at = time.time()
    with engine.begin() as conn:
        hold(conn, LOCK)
        key = and_(reviews.c.table_id == table_id, reviews.c.seat == seat)
        row = conn.execute(select(reviews).where(key)).first()
        if row is not None and _json(row, at)["status"] in ("running", "done"):
            return _json(row, at)
        live = and_(reviews.c.status == "running", reviews.c.updated_at >= at - STALE)
        mine = int(conn.execute(select(func.count()).where(live, reviews.c.requested_by == user_id)).scalar_one())
        if mine >= per_user:
            raise ReviewsTooMany(mine, per_user)
        if int(conn.execute(select(func.count()).where(live)).scalar_one()) >= per_server:
            raise ReviewsTooMany(None, per_server)
        conn.execute(delete(reviews).where(key))  # a stale or failed attempt
        conn.execute(
            insert(reviews).values(
                table_id=table_id, seat=seat, status="running", requested_by=user_id, done=0, total=0, updated_at=at
            )
        )
    return None


def progress(engine: Engine, table_id: int, seat: int, done: int, total: int) -> None:
    with engine.begin() as conn:
        conn.execute(
            update(reviews)
            .where(reviews.c.table_id == table_id, reviews.c.seat == seat, reviews.c.status == "running")
            .values(done=done, total=total, updated_at=time.time())
        )


def finish(engine: Engine, table_id: int, seat: int, result: dict[str, Any] | None) -> None:
    """Store the finished review (`result`), or mark the attempt failed (None)."""
    with engine.begin() as conn:
        conn.execute(
            update(reviews)
            .where(reviews.c.table_id == table_id, reviews.c.seat == seat)
            .values(status="done" if result is not None else "failed", result=result, updated_at=time.time())
        )
