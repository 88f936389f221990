"""Elo ratings per game, stored with the change each finished table caused. The rating formula
lives in the server (`server/elo.py`); this module only reads and writes numbers."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import Connection, Engine, insert, select, update

from .database import reading
from .schema import rating_changes, ratings, users

START_RATING = 1500.0


def settle_ratings(
    conn: Connection,
    table_id: int,
    game: str,
    seat_users: Mapping[int, int],
    compute: Callable[[dict[int, float]], dict[int, float]],
) -> None:
    """Inside a transaction: read the ratings of the seats' users, let `compute` (seat → rating
    before ↦ seat → rating after, for the seats whose rating changes) decide, store the change
    once per table."""
    if not seat_users:
        return
    if conn.execute(select(rating_changes.c.seat).where(rating_changes.c.table_id == table_id)).first():
        return
    rows = conn.execute(
        select(ratings.c.user_id, ratings.c.rating, ratings.c.games).where(
            ratings.c.game == game, ratings.c.user_id.in_(list(seat_users.values()))
        )
    ).all()
    known = {r.user_id: (r.rating, r.games) for r in rows}
    before = {seat: known.get(user, (START_RATING, 0))[0] for seat, user in seat_users.items()}
    after = compute(before)  # may leave seats out: their ratings do not change
    for seat, user_id in seat_users.items():
        if seat not in after:
            continue
        conn.execute(
            insert(rating_changes).values(
                table_id=table_id, seat=seat, user_id=user_id, before=before[seat], after=after[seat]
            )
        )
        if user_id in known:
            conn.execute(
                update(ratings)
                .where(ratings.c.user_id == user_id, ratings.c.game == game)
                .values(rating=after[seat], games=known[user_id][1] + 1)
            )
        else:
            conn.execute(insert(ratings).values(user_id=user_id, game=game, rating=after[seat], games=1))


def table_rating_changes(engine: Engine, table_id: int) -> list[dict[str, Any]]:
    with reading(engine) as conn:
        rows = conn.execute(
            select(rating_changes, users.c.name, users.c.guest)
            .join(users, users.c.id == rating_changes.c.user_id)
            .where(rating_changes.c.table_id == table_id)
            .order_by(rating_changes.c.seat)
        ).all()
    return [
        {
            "seat": r.seat,
            "user": {"id": r.user_id, "name": r.name, "guest": bool(r.guest)},
            "before": round(r.before, 1),
            "after": round(r.after, 1),
        }
        for r in rows
    ]


def leaderboard(engine: Engine, game: str | None) -> list[dict[str, Any]]:
    query = (
        select(ratings, users.c.name, users.c.guest)
        .join(users, users.c.id == ratings.c.user_id)
        .order_by(ratings.c.rating.desc(), users.c.name)
    )
    if game is not None:
        query = query.where(ratings.c.game == game)
    with reading(engine) as conn:
        rows = conn.execute(query).all()
    return [
        {
            "user": {"id": r.user_id, "name": r.name, "guest": bool(r.guest)},
            "game": r.game,
            "rating": round(r.rating, 1),
            "games": r.games,
        }
        for r in rows
    ]
