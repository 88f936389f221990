"""What starting a table costs the server and the database: one server process, N tables of
3-player Cat in the Box each made, filled with greedy bots and started in one request
(`POST /api/tables`), its socket opened and its first state read, `--concurrency` at a time, by
a few guests. Prints the CPU time per table of the server and of the PostgreSQL processes
serving its database (`load.CpuMeter`): the burst `load.py --new-games` sees when many games end
together (docs/server.md, "Starting a table without a claim").

    .venv/bin/python benchmarks/table_start.py [--tables 600] [--database-url URL]
"""

from __future__ import annotations

import argparse
import asyncio
import pathlib
import sys
import tempfile
import time

import httpx
import orjson
import uvloop
from sqlalchemy.engine import make_url
from websockets.asyncio.client import connect

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests" / "server"))

from server_harness import ServerProcess

from load import CpuMeter, fresh_database, post, start_table

LIMITS = tuple(f"--limit={name}=100000" for name in ("open_tables", "guests_per_hour", "server_strong_bot_tables"))


async def one_table(server: ServerProcess, headers: dict[str, str]) -> None:
    table = await start_table(server.base, headers, "greedy")
    async with connect(f"{server.ws_base}/ws/tables/{table}?deltas=1", additional_headers=headers) as ws:
        orjson.loads(await ws.recv())


async def measure(server: ServerProcess, url: str, tables: int, concurrency: int) -> str:
    async with httpx.AsyncClient(timeout=60) as http:
        guests = []
        for index in range(concurrency):
            answer = await post(http, f"{server.base}/api/auth/guest", json={"name": f"guest {index}"})
            guests.append({"Cookie": f"nekobako_session={answer.cookies['nekobako_session']}"})
        for headers in guests:  # first use (imports, bots warmed) before the clock starts
            await one_table(server, headers)
        gate = asyncio.Semaphore(concurrency)

        async def gated(index: int) -> None:
            async with gate:
                await one_table(server, guests[index % concurrency])

        database = make_url(url).database if url.startswith("postgres") else None
        started = time.perf_counter()
        with CpuMeter([server], database) as meter:
            await asyncio.gather(*(gated(i) for i in range(tables)))
        elapsed = time.perf_counter() - started
    return (
        f"{tables} tables in {elapsed:.1f} s: server {meter.used['server'] * 1000 / tables:.2f} ms of CPU per table,"
        f" PostgreSQL {meter.used['postgres'] * 1000 / tables:.2f} ms (its processes serving this database)"
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
            print(uvloop.run(measure(server, url, args.tables, args.concurrency)))
        finally:
            server.stop()


if __name__ == "__main__":
    main()
