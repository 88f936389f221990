"""What one read costs the server's process in CPU: the session lookup every request and socket
makes (`accounts.session_user`), with its statement built for each call (as the store did), made
once and reused (as it does now: SQLAlchemy then skips building it and its cache key), and sent
through psycopg alone. µs of CPU per call, median of 5 passes taken by turns
(docs/server.md, "Statements made once").

    .venv/bin/python benchmarks/statements.py [--calls 2000] [--database-url URL]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from sqlalchemy import Engine, select

from nekobako.store import open_database
from nekobako.store.accounts import _SESSION_USER
from nekobako.store.database import reading
from nekobako.store.schema import sessions, users

RAW = (
    f"SELECT {users.name}.*, {sessions.name}.expires_at FROM {users.name} JOIN {sessions.name}"
    f" ON {sessions.name}.user_id = {users.name}.id WHERE {sessions.name}.token_hash = %s"
)


def ways(engine: Engine) -> dict[str, Callable[[str], object]]:
    def built(token_hash: str) -> object:
        query = (
            select(users, sessions.c.expires_at)
            .join(sessions, sessions.c.user_id == users.c.id)
            .where(sessions.c.token_hash == token_hash)
        )
        with reading(engine) as conn:
            return conn.execute(query).first()

    def made_once(token_hash: str) -> object:
        with reading(engine) as conn:
            return conn.execute(_SESSION_USER, {"token_hash": token_hash}).first()

    def psycopg(token_hash: str) -> object:
        with reading(engine) as conn:
            driver = conn.connection.driver_connection
            assert driver is not None
            with driver.cursor() as cursor:
                cursor.execute(RAW, (token_hash,))
                return cursor.fetchone()

    return {"built per call": built, "made once": made_once, "psycopg alone": psycopg}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--database-url", default="postgresql://postgres@127.0.0.1/postgres")
    args = parser.parse_args()
    engine = open_database(args.database_url)
    try:
        runs: dict[str, list[float]] = {}
        for _ in range(5):
            for name, way in ways(engine).items():
                for _ in range(50):  # warm: the pool, SQLAlchemy's cache, psycopg's prepared statement
                    way("no such session")
                started = time.process_time()
                for _ in range(args.calls):
                    way("no such session")
                runs.setdefault(name, []).append((time.process_time() - started) / args.calls * 1e6)
    finally:
        engine.dispose()
    built = statistics.median(runs["built per call"])
    for name, times in runs.items():
        median = statistics.median(times)
        print(f"{name}: {median:.0f} µs of CPU per read ({median / built:.2f}× built per call)")


if __name__ == "__main__":
    main()
