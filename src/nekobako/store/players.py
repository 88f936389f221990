"""What a player page reads: the account behind a name, ratings with their history, recent
finished games with every seat's place, and win rates per game.

Places come from `seat_results`, one row per seat of a finished table. The server writes them
when a game ends; tables finished before that existed are filled in from their records the first
time a page asks (`unsettled_tables`, then `store_results`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, Integer, and_, cast, func, insert, select

from .accounts import account_key
from .database import aware, iso, reading
from .schema import rating_changes, ratings, seat_results, seats, tables, users

RECENT_GAMES = 20


@dataclass(frozen=True)
class SeatResult:
    seat: int
    user_id: int | None
    place: int
    won: bool
    score: float


def find_player(engine: Engine, name: str) -> dict[str, Any] | None:
    """The registered account called `name` (look-alikes included, as at login), else the newest
    guest who used exactly that name; None when nobody did."""
    name = " ".join(unicodedata.normalize("NFKC", name).split())
    with reading(engine) as conn:
        row = conn.execute(select(users).where(users.c.account_key == account_key(name))).first()
        if row is None:
            row = conn.execute(
                select(users).where(users.c.name == name, users.c.guest.is_(True)).order_by(users.c.id.desc())
            ).first()
    return None if row is None else {"id": row.id, "name": row.name, "guest": bool(row.guest)}


def unsettled_tables(engine: Engine, user_id: int) -> list[int]:
    """Finished tables `user_id` sat at whose places are not stored yet."""
    query = (
        select(tables.c.id)
        .join(seats, seats.c.table_id == tables.c.id)
        .outerjoin(seat_results, seat_results.c.table_id == tables.c.id)
        .where(seats.c.user_id == user_id, tables.c.status == "finished", seat_results.c.table_id.is_(None))
        .distinct()
    )
    with reading(engine) as conn:
        return sorted(r.id for r in conn.execute(query))


def store_results(engine: Engine, table_id: int, rows: Sequence[SeatResult]) -> None:
    """Store the places of a finished table once (a second writer changes nothing)."""
    with engine.begin() as conn:
        if conn.execute(select(seat_results.c.seat).where(seat_results.c.table_id == table_id)).first():
            return
        conn.execute(
            insert(seat_results),
            [
                {
                    "table_id": table_id,
                    "seat": r.seat,
                    "user_id": r.user_id,
                    "place": r.place,
                    "won": r.won,
                    "score": r.score,
                }
                for r in rows
            ],
        )


def rating_history(engine: Engine, user_id: int) -> list[dict[str, Any]]:
    """Per game: the rating now, games rated, and the rating after each rated game, oldest first."""
    with reading(engine) as conn:
        now_rows = conn.execute(select(ratings).where(ratings.c.user_id == user_id).order_by(ratings.c.game)).all()
        steps = conn.execute(
            select(
                rating_changes.c.table_id,
                rating_changes.c.before,
                rating_changes.c.after,
                tables.c.game,
                tables.c.finished_at,
            )
            .join(tables, tables.c.id == rating_changes.c.table_id)
            .where(rating_changes.c.user_id == user_id)
            .order_by(tables.c.finished_at, tables.c.id)
        ).all()
    out = []
    for row in now_rows:
        mine = [s for s in steps if s.game == row.game]
        history = [{"table": s.table_id, "at": iso(aware(s.finished_at)), "rating": round(s.after, 1)} for s in mine]
        start = round(mine[0].before, 1) if mine else None
        out.append(
            {"game": row.game, "rating": round(row.rating, 1), "games": row.games, "start": start, "history": history}
        )
    return out


def win_rates(engine: Engine, user_id: int) -> list[dict[str, Any]]:
    """Per game: finished games played, won, and the share won."""
    won = func.sum(cast(seat_results.c.won, Integer))
    query = (
        select(tables.c.game, func.count().label("played"), won.label("won"))
        .select_from(seat_results.join(tables, tables.c.id == seat_results.c.table_id))
        .where(seat_results.c.user_id == user_id)
        .group_by(tables.c.game)
        .order_by(tables.c.game)
    )
    with reading(engine) as conn:
        rows = conn.execute(query).all()
    return [
        {"game": r.game, "played": r.played, "won": int(r.won or 0), "rate": round((r.won or 0) / r.played, 3)}
        for r in rows
    ]


def recent_games(engine: Engine, user_id: int, limit: int = RECENT_GAMES) -> list[dict[str, Any]]:
    """The newest finished tables `user_id` sat at, each with every seat's name, place and score."""
    with reading(engine) as conn:
        ids = [
            r.id
            for r in conn.execute(
                select(tables.c.id)
                .join(seats, seats.c.table_id == tables.c.id)
                .where(seats.c.user_id == user_id, tables.c.status == "finished")
                .order_by(tables.c.id.desc())
                .limit(limit)
            )
        ]
        if not ids:
            return []
        table_rows = {r.id: r for r in conn.execute(select(tables).where(tables.c.id.in_(ids)))}
        seat_rows = conn.execute(
            select(seats, users.c.name, users.c.guest, seat_results.c.place, seat_results.c.won, seat_results.c.score)
            .outerjoin(users, users.c.id == seats.c.user_id)
            .outerjoin(
                seat_results, and_(seat_results.c.table_id == seats.c.table_id, seat_results.c.seat == seats.c.seat)
            )
            .where(seats.c.table_id.in_(ids))
            .order_by(seats.c.table_id, seats.c.seat)
        ).all()
    by_table: dict[int, list[dict[str, Any]]] = {i: [] for i in ids}
    for s in seat_rows:
        by_table[s.table_id].append(
            {
                "seat": s.seat,
                "user": None if s.user_id is None else {"id": s.user_id, "name": s.name, "guest": bool(s.guest)},
                "bot": s.bot,
                "replaced": s.replaced,
                "place": s.place,
                "won": None if s.won is None else bool(s.won),
                "score": s.score,
            }
        )
    out = []
    for table_id in ids:
        row = table_rows[table_id]
        seat_list = by_table[table_id]
        mine = next(s for s in seat_list if s["user"] is not None and s["user"]["id"] == user_id)
        out.append(
            {
                "table": table_id,
                "game": row.game,
                "players": row.players,
                "finished_at": iso(aware(row.finished_at)),
                "seat": mine["seat"],
                "place": mine["place"],
                "won": mine["won"],
                "seats": seat_list,
            }
        )
    return out
