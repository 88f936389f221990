"""Reads on PostgreSQL run a statement at a time (`store.database.reading`): no `BEGIN` before
them and no `ROLLBACK` after, two round trips fewer per read; the connection goes back to the
pool as it was, so the next writer's statements are one transaction again."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import func, insert, select

from nekobako.store import open_database
from nekobako.store.database import now, reading
from nekobako.store.schema import users

pytestmark = pytest.mark.postgres


def test_a_read_is_a_statement_at_a_time_and_the_next_write_one_transaction(postgres_url: str) -> None:
    engine = open_database(postgres_url, pool_size=1)  # one connection: the writer gets the reader's
    try:
        with reading(engine) as conn:
            first = conn.execute(select(func.now())).scalar_one()
            time.sleep(0.02)
            second = conn.execute(select(func.now())).scalar_one()
        assert second > first  # now() is a transaction's start: each statement was its own
        with engine.begin() as conn:
            first = conn.execute(select(func.now())).scalar_one()
            time.sleep(0.02)
            assert conn.execute(select(func.now())).scalar_one() == first
        with pytest.raises(RuntimeError), engine.begin() as conn:
            conn.execute(insert(users).values(name="kept?", password_hash=None, guest=True, created_at=now()))
            raise RuntimeError
        with reading(engine) as conn:
            assert conn.execute(select(users.c.id).where(users.c.name == "kept?")).first() is None
    finally:
        engine.dispose()
