"""What starting a table costs the server and the database: one server process, N tables of
3-player Cat in the Box each made, filled with greedy bots and started in one request
(`POST /api/tables`), its socket opened and its first state read, `--concurrency` at a time, by
a few guests. Prints the server's and PostgreSQL's CPU time per table (the burst `load.py
--new-games` sees when many games end together: docs/server.md, "Tables ending and starting").

    .venv/bin/python benchmarks/table_start.py [--tables 600] [--database-url URL]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pathlib
import sys
import tempfile
import time

import httpx
import orjson
import uvloop
from websockets.asyncio.client import connect

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests" / "server"))

from server_harness import ServerProcess

from load import _ticks, fresh_database, post, start_table

HZ = os.sysconf("SC_CLK_TCK")
LIMITS = tuple(f"--limit={name}=100000" for name in ("open_tables", "guests_per_hour", "server_strong_bot_tables"))


def postgres_ticks() -> dict[int, int]:
    """CPU ticks of each PostgreSQL process on this machine (the server's backends included), by pid."""
    ticks = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = pathlib.Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        if "(postgres)" in stat:
            fields = stat.rsplit(")", 1)[1].split()
            ticks[int(pid)] = int(fields[11]) + int(fields[12])
    return ticks


def postgres_used(before: dict[int, int]) -> int:
    """Ticks PostgreSQL used since `before`: by the processes still there (one that ended
    meanwhile, another client's backend, takes its ticks with it) and those started since."""
    return sum(ticks - before.get(pid, 0) for pid, ticks in postgres_ticks().items())


async def one_table(server: ServerProcess, headers: dict[str, str], http: httpx.AsyncClient) -> None:
    table = await start_table(server.base, headers, "greedy", http)
    async with connect(f"{server.ws_base}/ws/tables/{table}?deltas=1", additional_headers=headers) as ws:
        orjson.loads(await ws.recv())


async def measure(server: ServerProcess, tables: int, concurrency: int) -> str:
    assert server.proc is not None
    async with httpx.AsyncClient(timeout=60) as http:
        guests = []
        for index in range(concurrency):
            answer = await post(http, f"{server.base}/api/auth/guest", json={"name": f"guest {index}"})
            guests.append({"Cookie": f"nekobako_session={answer.cookies['nekobako_session']}"})
        for headers in guests:  # first use (imports, bots warmed) before the clock starts
            await one_table(server, headers, http)
        gate = asyncio.Semaphore(concurrency)

        async def gated(index: int) -> None:
            async with gate:
                await one_table(server, guests[index % concurrency], http)

        served, postgres_before, started = _ticks(server.proc.pid) or 0, postgres_ticks(), time.perf_counter()
        await asyncio.gather(*(gated(i) for i in range(tables)))
        elapsed = time.perf_counter() - started
        served = (_ticks(server.proc.pid) or 0) - served
        database = postgres_used(postgres_before)
    per = 1000 / HZ / tables
    return (
        f"{tables} tables in {elapsed:.1f} s: server {served * per:.2f} ms of CPU per table,"
        f" PostgreSQL {database * per:.2f} ms (every PostgreSQL process on the machine)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=600)
    parser.add_argument("--concurrency", type=int, default=10)
    parser.add_argument("--database-url", default="postgresql://postgres@127.0.0.1/postgres")
    args = parser.parse_args()
    work = pathlib.Path(tempfile.mkdtemp(prefix="nekobako-table-start-"))
    with fresh_database(args.database_url, work) as url:
        server = ServerProcess(url, work / "server.log", LIMITS)
        server.start(timeout=60)
        try:
            print(uvloop.run(measure(server, args.tables, args.concurrency)))
        finally:
            server.stop()


if __name__ == "__main__":
    main()
