"""How server processes could tell each other of a change: PostgreSQL `NOTIFY` sent by the
transaction that commits the change (`postgres`, as the server did until 2 December 2026), or
by a transaction of its own after the commit that does not wait for the disk (`postgres-after`,
as the server does now: `server/signals.py`), against Redis `PUBLISH` after the commit. All
measured the way the server would use them (issue 14):

* latency: one message per committed change at a steady rate, commit start → a listener in
  another process has it (so the commit itself is included for both);
* throughput: changes committed and signalled back to back by 4 threads, per second.

    .venv/bin/python benchmarks/pubsub.py [--rate 500] [--seconds 5]
        [--database-url postgresql://postgres@127.0.0.1/postgres] [--redis-url redis://127.0.0.1:6379/0]

Redis needs the `redis` package (`pip install redis`; not a dependency of nekobako, which
chose PostgreSQL: docs/deploy.md says why).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import threading
import time
from typing import Any

import psycopg

CHANNEL = "nekobako_bench"
TABLE = "pubsub_bench"


def listen_postgres(url: str, ready: Any, out: Any, count: int) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"LISTEN {CHANNEL}")
        ready.set()
        got = []
        for notify in conn.notifies(stop_after=count, timeout=60):
            got.append(time.time() - json.loads(notify.payload)["t"])
        out.put(got)


def listen_redis(url: str, ready: Any, out: Any, count: int) -> None:
    import redis

    pubsub = redis.Redis.from_url(url).pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(CHANNEL)
    ready.set()
    got: list[float] = []
    deadline = time.time() + 60
    while len(got) < count and time.time() < deadline:
        message = pubsub.get_message(timeout=1)
        if message is not None:
            got.append(time.time() - json.loads(message["data"])["t"])
    out.put(got)


def commit_postgres(conn: psycopg.Connection, row: int, stamp: float, kind: str) -> None:
    """One change as the server commits it: the row updated, and for the PostgreSQL kinds the
    signal sent in the same transaction or right after it (every process's notifying commits
    take one lock for the whole database: after, the lock is not held through a disk flush)."""
    payload = json.dumps({"t": stamp, "r": row})
    with conn.transaction():
        conn.execute(f"UPDATE {TABLE} SET revision = revision + 1 WHERE id = %s", (row,))
        if kind == "postgres":
            conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
    if kind == "postgres-after":
        with conn.transaction():
            conn.execute("SELECT set_config('synchronous_commit', 'off', true), pg_notify(%s, %s)", (CHANNEL, payload))


def setup(url: str, rows: int) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"DROP TABLE IF EXISTS {TABLE}")
        conn.execute(f"CREATE TABLE {TABLE} (id int PRIMARY KEY, revision int NOT NULL)")
        conn.execute(f"INSERT INTO {TABLE} SELECT g, 0 FROM generate_series(0, {rows - 1}) g")


def latency(kind: str, url: str, redis_url: str, rate: float, seconds: float) -> list[float]:
    count = int(rate * seconds)
    ctx = multiprocessing.get_context("spawn")
    ready, out = ctx.Event(), ctx.Queue()
    target, where = (listen_redis, redis_url) if kind == "redis" else (listen_postgres, url)
    listener = ctx.Process(target=target, args=(where, ready, out, count))
    listener.start()
    ready.wait(30)
    publisher = None
    if kind == "redis":
        import redis

        publisher = redis.Redis.from_url(redis_url)
    with psycopg.connect(url) as conn:
        start = time.monotonic()
        for i in range(count):
            wait = start + i / rate - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            stamp = time.time()
            commit_postgres(conn, i % 500, stamp, kind)
            if publisher is not None:
                publisher.publish(CHANNEL, json.dumps({"t": stamp, "r": i % 500}))
    got = out.get(timeout=90)
    listener.join(10)
    return got


def throughput(kind: str, url: str, redis_url: str, seconds: float, threads: int = 4) -> float:
    done = [0] * threads
    until = time.monotonic() + seconds

    def work(index: int) -> None:
        publisher = None
        if kind == "redis":
            import redis

            publisher = redis.Redis.from_url(redis_url)
        with psycopg.connect(url) as conn:
            while time.monotonic() < until:
                row = index * 100 + done[index] % 100
                commit_postgres(conn, row, time.time(), kind)
                if publisher is not None:
                    publisher.publish(CHANNEL, json.dumps({"t": time.time(), "r": row}))
                done[index] += 1

    workers = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return sum(done) / seconds


def ms(values: list[float], q: int) -> str:
    return f"{statistics.quantiles(values, n=100, method='inclusive')[q - 1] * 1000:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=500, help="changes per second for the latency run")
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--database-url", default="postgresql://postgres@127.0.0.1/postgres")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args()
    setup(args.database_url, 500)
    for kind in ("none", "postgres", "postgres-after", "redis"):
        if kind != "none":
            got = latency(kind, args.database_url, args.redis_url, args.rate, args.seconds)
            line = f"latency p50 {ms(got, 50)} ms  p99 {ms(got, 99)} ms  ({len(got)} received)"
        else:
            line = "(commits alone, no signal)"
        rate = throughput(kind if kind != "none" else "plain", args.database_url, args.redis_url, args.seconds)
        print(f"{kind:14} {line}; throughput {rate:.0f} changes/s (4 threads)")


if __name__ == "__main__":
    main()
