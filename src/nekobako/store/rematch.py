"""Rematch offers: one per finished table. Each answer is one transaction that locks the offer
row, so two people accepting at once (even in two server processes) create one new table; the
host's quotas are counted in that transaction too (`store.quotas`).

An offer lapses `lifetime` seconds after it was made unless everyone accepted or someone declined
first: it then reads `expired`, a decline changes nothing, and the next offer (or acceptance) by
anyone who played replaces it with a new offer of theirs. So a late click never starts a table
its players left hours ago, and a silent player does not block a rematch for good."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Engine, insert, select, update

from .database import aware, hold, iso, now, reading
from .games import SeatRow, seat_values
from .schema import rematch_offers, seats, tables


def offer(engine: Engine, table_id: int, lifetime: float) -> dict[str, Any] | None:
    with reading(engine) as conn:
        row = conn.execute(select(rematch_offers).where(rematch_offers.c.table_id == table_id)).first()
    return None if row is None else _json(row, lifetime)


def _lapsed(row: Any, lifetime: float, at: datetime) -> bool:
    """Still waiting for answers, and made more than `lifetime` seconds before `at`."""
    pending = row.declined_by is None and row.new_table_id is None
    return pending and aware(row.created_at) + timedelta(seconds=lifetime) <= at


def answer(
    engine: Engine,
    table_id: int,
    user_id: int,
    *,
    accept: bool,
    players: Sequence[int],
    new_table: dict[str, Any],
    new_seats: Sequence[SeatRow],
    lifetime: float,
    check: Callable[[Connection, int], None] | None = None,
) -> dict[str, Any]:
    """`user_id` accepts (the first answer makes the offer) or declines; accepting a lapsed offer
    (`lifetime` seconds old) makes a new one, declining it changes nothing. When everyone in `players`
    has accepted, the new table (`new_table`: the game_tables values; host = who offered) is
    created with `new_seats` in the same transaction, once `check(conn, host)` passes: it counts
    the host's quotas under their locks and refuses by raising, which stores nothing of this
    answer. Returns the offer after the answer."""
    with engine.begin() as conn:
        hold(conn, f"rematch/{table_id}")  # SQLite: answers one at a time (PostgreSQL locks the row)
        query = select(rematch_offers).where(rematch_offers.c.table_id == table_id).with_for_update()
        row = conn.execute(query).first()
        at = now()
        if row is not None and _lapsed(row, lifetime, at):
            if not accept:
                return _json(row, lifetime)
            conn.execute(
                update(rematch_offers)
                .where(rematch_offers.c.table_id == table_id)
                .values(offered_by=user_id, accepted=[user_id], created_at=at)
            )
            row = conn.execute(query).first()
            assert row is not None
        if row is None:
            if not accept:
                return {
                    "table": table_id,
                    "offered_by": None,
                    "accepted": [],
                    "declined_by": user_id,
                    "new_table": None,
                    "at": None,
                    "expires_at": None,
                    "expired": False,
                }
            conn.execute(
                insert(rematch_offers).values(table_id=table_id, offered_by=user_id, accepted=[user_id], created_at=at)
            )
            row = conn.execute(query).first()
            assert row is not None
        elif row.declined_by is None and row.new_table_id is None:
            values: dict[str, Any] = {}
            if not accept:
                values["declined_by"] = user_id
            elif user_id not in row.accepted:
                values["accepted"] = [*row.accepted, user_id]
            if values:
                conn.execute(update(rematch_offers).where(rematch_offers.c.table_id == table_id).values(**values))
                row = conn.execute(query).first()
                assert row is not None
        if row.declined_by is None and row.new_table_id is None and set(players) <= set(row.accepted):
            if check is not None:
                check(conn, row.offered_by)
            new_id = _create(conn, {**new_table, "host_id": row.offered_by}, new_seats)
            conn.execute(
                update(rematch_offers).where(rematch_offers.c.table_id == table_id).values(new_table_id=new_id)
            )
            row = conn.execute(query).first()
            assert row is not None
        return _json(row, lifetime)


def _create(conn: Connection, values: dict[str, Any], new_seats: Sequence[SeatRow]) -> int:
    result = conn.execute(insert(tables).values(status="open", seq=0, deadlines={}, created_at=now(), **values))
    key = result.inserted_primary_key
    assert key is not None
    conn.execute(insert(seats), [seat_values(key[0], r) for r in new_seats])
    return int(key[0])


def _json(row: Any, lifetime: float) -> dict[str, Any]:
    made = aware(row.created_at)
    return {
        "table": row.table_id,
        "offered_by": row.offered_by,
        "accepted": list(row.accepted),
        "declined_by": row.declined_by,
        "new_table": row.new_table_id,
        "at": iso(made),
        "expires_at": iso(made + timedelta(seconds=lifetime)),
        "expired": _lapsed(row, lifetime, now()),
    }
