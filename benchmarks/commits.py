"""The commit path alone (issue 14): CPU time per stored change — one action, as a person's move
is stored, and the signal to other processes after it (`server.signals`, sent by the outbox's
thread) — of this process (the committing thread and the outbox's) and of PostgreSQL's two
backends (the commit's, the signals'), one change per transaction and 8 together (group commit).

    .venv/bin/python benchmarks/commits.py [--database-url postgresql://postgres@127.0.0.1/postgres]

Runs on a new database made on that server and dropped afterwards; each size is measured after
a first round that warms the connection and its prepared statements.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pathlib
import secrets
import time

from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url

from nekobako.server.signals import SENDER_NAME, Signals
from nekobako.store import accounts, games, open_database
from nekobako.store.games import Change

CHANGES = 480
TABLES = 8


def ticks(pid: int) -> int:
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def signal_backends(engine: Engine) -> list[int]:
    """The backend of the signals' connection (none before the first signal opened it)."""
    with engine.connect() as conn:
        query = text("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = :name")
        pids = list(conn.execute(query, {"name": SENDER_NAME}).scalars())
        conn.rollback()
    return pids


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default="postgresql://postgres@127.0.0.1/postgres")
    args = parser.parse_args()
    server = make_url(args.database_url.replace("postgresql://", "postgresql+psycopg://", 1))
    admin = create_engine(server.set(database="postgres"), isolation_level="AUTOCOMMIT")
    name = f"nekobako_commits_{secrets.token_hex(4)}"
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    engine = open_database(server.set(database=name).render_as_string(hide_password=False))
    signals = Signals(engine, "benchmark")
    try:
        host = accounts.create_user(engine, "host", None)
        ids = [
            games.create_table(
                engine, game="catbox", players=3, options={}, clock={"kind": "none"}, host_id=host["id"], seed=1
            )
            for _ in range(TABLES)
        ]
        revision = {i: 0 for i in ids}
        seq = {i: 0 for i in ids}
        with engine.connect() as conn:
            backend = int(conn.execute(text("SELECT pg_backend_pid()")).scalar_one())
            conn.rollback()
        for size, measured in ((1, False), (8, False), (1, True), (8, True)):
            backends = [backend, *signal_backends(engine)]
            server_cpu, postgres = time.process_time(), sum(map(ticks, backends))
            for _ in range(CHANGES // size):
                batch = [
                    Change(
                        i,
                        revision[i],
                        values={"seq": seq[i] + 1, "deadlines": {}, "clock": {"kind": "none"}},
                        first_seq=seq[i],
                        entries=["0: play 3 red"],
                    )
                    for i in ids[:size]
                ]
                for i, result in zip(ids[:size], games.commit_changes(engine, batch), strict=True):
                    assert isinstance(result, int), result
                    revision[i], seq[i] = result, seq[i] + 1
                signals.tables_changed({i: revision[i] for i in ids[:size]})
            assert signals.outbox is not None and signals.outbox.drained(30)
            if measured:
                per_server = (time.process_time() - server_cpu) / CHANGES * 1000
                per_postgres = (sum(map(ticks, backends)) - postgres) / os.sysconf("SC_CLK_TCK") / CHANGES * 1000
                print(
                    f"{size} change(s) per transaction: server {per_server:.3f} ms, PostgreSQL {per_postgres:.3f} ms"
                    " CPU per change"
                )
    finally:
        asyncio.run(signals.stop())
        engine.dispose()
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


if __name__ == "__main__":
    main()
