"""A new table is stored as the caller's row has it, on SQLite and on PostgreSQL, where it is one
statement with its lease (`games._insert_postgres`: no SQLAlchemy statement of its own, one
round trip)."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from sqlalchemy import event

from nekobako.store import accounts, games, leases, open_database
from nekobako.store.database import now


def _row(host: int) -> games.TableRow:
    made = now()
    return games.TableRow(
        id=0,
        game="catbox",
        players=4,
        options={"deck": "small", "nested": {"a": [1, 2]}},
        clock={"kind": "fischer", "base": 60.0},
        status="running",
        host_id=host,
        seed=2**40 + 7,  # beyond 32 bits: the column is a BIGINT
        seq=3,
        revision=0,
        deadlines={"0": 1700000000.5},
        created_at=made,
        started_at=made + timedelta(seconds=1),
        finished_at=None,
        seats=[
            games.SeatRow(0, "human", host),
            games.SeatRow(1, "bot", None, "greedy", "left"),
            games.SeatRow(2, "bot", None, "ismcts"),
            games.SeatRow(3),
        ],
        notices=[
            games.NoticeRow("replaced", 1, 2, {"name": "Mika", "to": "greedy"}, made),
            games.NoticeRow("started", None, 0, {"names": ["a", "b"]}, made + timedelta(seconds=2)),
            games.NoticeRow("timeout", 3, 3, {}, made),
        ],
    )


def test_a_new_table_is_stored_as_its_row_has_it(database_url: str) -> None:
    engine = open_database(database_url)
    try:
        host = accounts.create_user(engine, "ann", None)["id"]
        row = _row(host)
        checked: list[int] = []
        entries = ["deal 1 2 3", "0: play 7 red", "1: play 3 blue"]
        table_id = games.insert_table(engine, row, entries=entries, check=lambda conn: checked.append(1))
        assert checked == [1]
        stored = games.load_table(engine, table_id)
        assert stored == games.TableRow(**{**row.__dict__, "id": table_id})
        assert games.load_actions(engine, table_id) == entries
        second = games.insert_table(engine, games.new_table_row("shutbox", 2, {}, {"kind": "none"}, host, 5))
        assert second > table_id
        assert games.load_table(engine, second).seats == [games.SeatRow(0, "human", host), games.SeatRow(1)]
        assert games.load_actions(engine, second) == []
    finally:
        engine.dispose()


@pytest.mark.postgres
def test_a_new_table_is_one_statement_on_postgres(postgres_url: str) -> None:
    """SQLAlchemy sends only what `check` sends: the table, its seats, entries, notices and lease
    go in one statement through psycopg; a refusal by `check` stores nothing."""
    engine = open_database(postgres_url)
    try:
        host = accounts.create_user(engine, "ann", None)["id"]
        statements: list[str] = []
        event.listen(engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
        lease = leases.StartedLease("maker", time.time() + 60)
        table_id = games.insert_table(engine, _row(host), entries=["deal 1 2 3"], lease=lease)
        assert statements == [] and lease.taken
        assert leases.claim(engine, [table_id], "another", time.time(), 3) == {}  # the maker's, running
        assert games.load_actions(engine, table_id) == ["deal 1 2 3"]

        def refuse(conn: object) -> None:
            raise LookupError("over the quota")

        with pytest.raises(LookupError):
            games.insert_table(engine, _row(host), check=refuse)
        assert games.table_ids(engine, ["running"]) == [table_id]
    finally:
        engine.dispose()
