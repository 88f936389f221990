"""Load on a real server, loopback only, bounded in count and time (issue 18). N tables of
3-player Cat in the Box, each with one scripted person (thinks 0.5–1.5 s) and two greedy bots;
optionally K more tables where bots play alone (two ISMCTS bots, and the greedy bot that took the
host's seat when the host left). Reports p50/p90/p99 of a person's action → the `state` message
that answers it, and the server's event-loop lag (`/api/health`).

    .venv/bin/python benchmarks/load.py --tables 50 --seconds 30 [--ismcts 12] [--database-url URL]

Every run starts its own server process on a free loopback port with a fresh database (a temp
SQLite file, or the given PostgreSQL database, which should be empty) and stops it afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import pathlib
import random
import statistics
import sys
import tempfile
import time
from typing import Any

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tests" / "server"))

from server_harness import ServerProcess

MAX_TABLES = 1000  # a bound, whatever the command line says
MAX_SECONDS = 600


async def post(http: httpx.AsyncClient, url: str, **kwargs: Any) -> httpx.Response:
    """A POST of the setup, tried again when a kept-alive connection was closed under it."""
    for attempt in range(3):
        try:
            answer = await http.post(url, **kwargs)
        except httpx.TransportError:
            if attempt == 2:
                raise
            await asyncio.sleep(0.5)
            continue
        answer.raise_for_status()
        return answer
    raise AssertionError("unreachable")


async def new_table(base: str, name: str, level: str, http: httpx.AsyncClient) -> tuple[int, dict[str, str]]:
    """A started 3-player Cat in the Box table whose host is a new guest and the rest `level` bots."""
    answer = await post(http, f"{base}/api/auth/guest", json={"name": name})
    headers = {"Cookie": f"nekobako_session={answer.cookies['nekobako_session']}"}
    table = (await post(http, f"{base}/api/tables", json={"game": "catbox", "seats": 3}, headers=headers)).json()
    await post(http, f"{base}/api/tables/{table['id']}/bots", json={"level": level, "fill": True}, headers=headers)
    await post(http, f"{base}/api/tables/{table['id']}/start", headers=headers)
    return table["id"], headers


async def seat_person(base: str, index: int, http: httpx.AsyncClient) -> tuple[int, str]:
    table_id, headers = await new_table(base, f"person {index}", "greedy", http)
    return table_id, headers["Cookie"].split("=", 1)[1]


async def bot_table(base: str, index: int, http: httpx.AsyncClient) -> None:
    """A table where ISMCTS bots play: the host starts it and leaves (a greedy bot takes over)."""
    table_id, headers = await new_table(base, f"host {index}", "ismcts", http)
    await post(http, f"{base}/api/tables/{table_id}/leave", headers=headers)


async def play(ws_base: str, table_id: int, cookie: str, until: float, rng: random.Random, out: list[float]) -> None:
    """The scripted person: think, act, time the answer; a new table is not started when a game ends."""
    headers = {"Cookie": f"nekobako_session={cookie}"}
    async with connect(f"{ws_base}/ws/tables/{table_id}", additional_headers=headers, max_size=2**22) as ws:
        state: dict = {}
        sent: tuple[int, float] | None = None
        while time.monotonic() < until:
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), timeout=max(0.05, until - time.monotonic())))
            except TimeoutError:
                return
            if message["type"] == "refused":
                sent = None
            if message["type"] != "state":
                continue
            state = message
            if sent is not None and state["seq"] > sent[0]:
                out.append(time.monotonic() - sent[1])
                sent = None
            view = state.get("view") or {}
            if view.get("over"):
                return
            if sent is None and view.get("legal"):
                await asyncio.sleep(rng.uniform(0.5, 1.5))
                if time.monotonic() >= until:
                    return
                sent = (state["seq"], time.monotonic())
                await ws.send(json.dumps({"type": "action", "seq": state["seq"], "action": rng.choice(view["legal"])}))


def quantiles(values: list[float]) -> str:
    if not values:
        return "no samples"
    values = sorted(values)
    q = statistics.quantiles(values, n=100, method="inclusive") if len(values) > 1 else values * 99
    return f"p50 {q[49] * 1000:.1f} ms  p90 {q[89] * 1000:.1f} ms  p99 {q[98] * 1000:.1f} ms  ({len(values)} actions)"


async def run(base: str, ws_base: str, tables: int, ismcts: int, seconds: float) -> tuple[list[float], dict]:
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        seated = await asyncio.gather(*(seat_person(base, i, http) for i in range(tables)))
        await asyncio.gather(*(bot_table(base, i, http) for i in range(ismcts)))
        await http.get(f"{base}/api/health")  # (the lag window then covers the timed part mostly)
        latencies: list[float] = []
        until = time.monotonic() + seconds
        rng = random.Random(18)
        await asyncio.gather(*(play(ws_base, t, c, until, random.Random(rng.random()), latencies) for t, c in seated))
        health = (await http.get(f"{base}/api/health")).json()
    return latencies, health


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--ismcts", type=int, default=0, help="tables of three ISMCTS bots besides")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--database-url", default=None, help="an empty PostgreSQL database (default: temp SQLite)")
    parser.add_argument("--bot-processes", type=int, default=1)
    args = parser.parse_args()
    tables, seconds = min(args.tables, MAX_TABLES), min(args.seconds, MAX_SECONDS)
    work = pathlib.Path(tempfile.mkdtemp())
    url = args.database_url or f"sqlite:///{work / 'load.db'}"
    limits = [f"--limit={name}=100000" for name in ("open_tables", "guests_per_hour", "server_strong_bot_tables")]
    server = ServerProcess(url, work / "server.log", (*limits, "--bot-processes", str(args.bot_processes)))
    server.start()
    try:
        latencies, health = asyncio.run(run(server.base, server.ws_base, tables, args.ismcts, seconds))
    finally:
        server.stop()
    database = "postgres" if url.startswith("postgres") else "sqlite"
    lag = health["loop_lag_ms"]
    print(f"{database} {tables} tables + {args.ismcts} ismcts tables, {seconds:.0f} s")
    print(f"  action → broadcast: {quantiles(latencies)}")
    print(f"  event-loop lag (last minute): p50 {lag['p50']} ms  p90 {lag['p90']} ms  p99 {lag['p99']} ms")


if __name__ == "__main__":
    main()
