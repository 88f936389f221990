"""Load on a real server, loopback only, bounded in count and time (issue 18). N tables of
3-player Cat in the Box, each with one scripted person (thinks 0.5–1.5 s) and two greedy bots;
optionally K more tables where bots play alone (two ISMCTS bots, and the greedy bot that took the
host's seat when the host left). Reports p50/p90/p99 of a person's action → the `state` message
that answers it, the server's event-loop lag (`/api/health`) and (issue 14) the CPU time per
stored action of the server processes, of PostgreSQL and of this load generator (measured, not
guessed: it shares the cores), and from it the cores 10,000 such tables would need; each
process's group-commit times and garbage-collector pauses (`/api/health`).

    .venv/bin/python benchmarks/load.py --tables 50 --seconds 30 [--ismcts 12] [--database-url URL]
    .venv/bin/python benchmarks/load.py --tables 100,200,300,500 --processes 2 \
        --database-url postgresql://postgres@127.0.0.1/postgres

Every run starts its own server processes on free loopback ports with a fresh database (a temp
SQLite file, or a new database made on the given PostgreSQL server and dropped afterwards) and
stops them afterwards. With `--processes N` (PostgreSQL only) person i plays through process
i mod N. Several `--tables` counts run one after another, each `--repeat` times; the capacity is
the largest count whose worst p99 stays under 100 ms. The timed part starts once every person's
socket is open (opening hundreds at once is a burst of its own, not steady play) and every table
has begun: all at once by default (the tables then end their rounds together, bursts a server of
tables started at different times does not see), or each at a random moment of the `--stagger`
seconds before. A game is about 30 s of play, so runs longer than that (or staggered) want
`--new-games`: a person whose game ended starts another table (making tables becomes part of
the load), in one request (`POST /api/tables` with `bots` and `start`), or with `--steps` in the
three requests servers before it needed (make, add the bots, start). People read whole
`state` messages (as a program using the API might), or with `--deltas` the `delta` messages
the browser reads. `--timeline` prints the half-seconds with slow answers; `--profile` samples
process 0 with py-spy (`pip install py-spy`; not a dependency) and prints where its time went.
The load generator's own garbage collector is off while it measures: its pauses would count in
every answer on their way.

Machines of the same size differ (runs of this script on 2-core machines gave 0.76 to 0.93 ms
of server CPU per stored action at 500 tables), so every report says how fast this machine is
(`views_speed.py`'s greedy decisions per CPU second on one core, before any load) and how busy
its cores were during the run, including time the hypervisor gave to other guests ("stolen"),
and how late its own event loop woke (an answer that arrives while it is busy is timed late).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import dataclasses
import gc
import os
import pathlib
import random
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import orjson
import uvloop
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from websockets.asyncio.client import connect

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tests" / "server"))

from server_harness import ServerProcess

from nekobako.server import collector
from nekobako.server.deltas import apply as deltas_apply
from views_speed import SAMPLES, greedy_rate

MAX_TABLES = 1000  # a bound: larger counts are refused (`table_counts`)
MAX_SECONDS = 600
MAX_PROCESSES = 8
MAX_STAGGER = 60
MAX_REPEAT = 10
TARGET_P99 = 0.100
TICKS = os.sysconf("SC_CLK_TCK")
PROFILE_RATE = 100  # samples per second per thread
LAG_PERIOD = 0.01  # how often the load generator looks at its own loop's lag
POST_TIMEOUT = 60.0  # seconds for a table's making request, as the setup's httpx client
REFERENCE_GAMES = 10  # per sample of the machine's speed (views_speed.py's greedy decisions)


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


async def new_table(
    base: str, name: str, level: str, http: httpx.AsyncClient, steps: bool = False
) -> tuple[int, dict[str, str]]:
    """A started 3-player Cat in the Box table whose host is a new guest and the rest `level` bots."""
    answer = await post(http, f"{base}/api/auth/guest", json={"name": name})
    headers = {"Cookie": f"nekobako_session={answer.cookies['nekobako_session']}"}
    return await start_table(base, headers, level, steps), headers


async def start_table(base: str, headers: dict[str, str], level: str, steps: bool = False) -> int:
    """One request that makes the table, seats the bots and starts it; with `steps` three (make,
    add the bots, start), as before that request existed (to measure servers without it)."""
    if not steps:
        body = {"game": "catbox", "seats": 3, "bots": level, "start": True}
        return int((await post_json(base, "/api/tables", headers, body))["id"])
    table = await post_json(base, "/api/tables", headers, {"game": "catbox", "seats": 3})
    await post_json(base, f"/api/tables/{table['id']}/bots", headers, {"level": level, "fill": True})
    await post_json(base, f"/api/tables/{table['id']}/start", headers)
    return int(table["id"])


async def post_json(base: str, path: str, headers: dict[str, str], body: Any = None) -> Any:
    """A JSON POST on a connection of its own, and its JSON answer: what a browser's `fetch` sends,
    at a quarter of httpx's CPU. The load generator shares the servers' cores, and in the burst
    of new tables httpx was a third of its time (docs/server.md)."""
    address = httpx.URL(base)
    payload = b"" if body is None else orjson.dumps(body)
    lines = [f"POST {path} HTTP/1.1", f"Host: {address.netloc.decode()}", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    lines += ["Content-Type: application/json", f"Content-Length: {len(payload)}", "", ""]
    async with asyncio.timeout(POST_TIMEOUT):
        reader, writer = await asyncio.open_connection(address.host, address.port)
        try:
            writer.write("\r\n".join(lines).encode() + payload)
            answer = await reader.read()  # to the end: the server closes the connection after it
        finally:
            writer.close()
    head, _, content = answer.partition(b"\r\n\r\n")
    status = head.split(b" ", 2)[1] if head else b"?"
    if not status.startswith(b"2"):
        raise RuntimeError(f"POST {path}: HTTP {status.decode()}: {content[:200]!r}")
    return orjson.loads(content)


async def seat_person(server: ServerProcess, index: int, http: httpx.AsyncClient, steps: bool) -> Person:
    table_id, headers = await new_table(server.base, f"person {index}", "greedy", http, steps)
    return Person(server, table_id, headers["Cookie"].split("=", 1)[1], steps)


async def bot_table(base: str, index: int, http: httpx.AsyncClient, steps: bool) -> None:
    """A table where ISMCTS bots play: the host starts it and leaves (a greedy bot takes over)."""
    table_id, headers = await new_table(base, f"host {index}", "ismcts", http, steps)
    await post(http, f"{base}/api/tables/{table_id}/leave", headers=headers)


@dataclasses.dataclass
class Window:
    """The timed part: it starts once every person is connected (opening hundreds of sockets at
    once is a burst of its own, not the steady play measured here) and, with `stagger`, once each
    has begun at a random moment of the `stagger` seconds before it, so that tables run out of
    step as tables started at different times do."""

    people: int
    stagger: float
    connected: int = 0
    start: asyncio.Event = dataclasses.field(default_factory=asyncio.Event)
    timed_from: float = 0.0
    until: float = 0.0


@dataclasses.dataclass
class Person:
    server: ServerProcess
    table: int
    cookie: str
    steps: bool  # a new table in three requests (`start_table`)


async def play(
    person: Person, window: Window, rng: random.Random, out: list[tuple[float, float]], deltas: bool, new_games: bool
) -> None:
    """The scripted person: connect, wait for the others, then think, act, time the answer; with
    `new_games`, when a game ends, start another one (as people at a rematch do: the tables in
    play stay N, and making tables is part of the load). With `deltas`, it reads `delta` messages
    as the browser does (`?deltas=1`)."""
    headers = {"Cookie": f"nekobako_session={person.cookie}"}
    table, first = person.table, True
    loop = asyncio.get_running_loop()
    while True:
        address = f"{person.server.ws_base}/ws/tables/{table}" + ("?deltas=1" if deltas else "")
        async with connect(address, additional_headers=headers, max_size=2**22, open_timeout=120) as ws:
            if first:
                window.connected += 1
                await window.start.wait()
                await asyncio.sleep(rng.uniform(0, window.stagger))
                first = False
            try:  # one timer for the whole game, not one per message
                async with asyncio.timeout_at(loop.time() + window.until - time.monotonic()):
                    await _act_and_time(ws, rng, out, window.timed_from)
            except TimeoutError:
                return
        if not new_games or time.monotonic() >= window.until:
            return
        table = await start_table(person.server.base, headers, "greedy", person.steps)


async def _act_and_time(ws: Any, rng: random.Random, out: list[tuple[float, float]], timed_from: float) -> None:
    """Answered: the first state after the action in which this seat's choices changed (as the
    browser decides: while several seats choose at once, the others' moves arrive first)."""
    state: dict = {}
    sent: tuple[int, float, list[str]] | None = None
    while True:
        message = orjson.loads(await ws.recv())
        kind = message["type"]
        if kind == "refused":
            sent = None
        if kind == "delta":
            message = deltas_apply(state, message["patch"])
        elif kind != "state":
            continue
        state = message
        view = state.get("view") or {}
        if sent is not None and state["seq"] > sent[0] and view.get("legal") != sent[2]:
            if sent[1] >= timed_from:
                out.append((sent[1], time.monotonic() - sent[1]))
            sent = None
        if view.get("over"):
            return
        if sent is None and view.get("legal"):
            await asyncio.sleep(rng.uniform(0.5, 1.5))
            sent = (state["seq"], time.monotonic(), view["legal"])
            action = {"type": "action", "seq": state["seq"], "action": rng.choice(view["legal"])}
            await ws.send(orjson.dumps(action).decode())


def quantiles(values: list[float]) -> str:
    if not values:
        return "no samples"
    values = sorted(values)
    q = statistics.quantiles(values, n=100, method="inclusive") if len(values) > 1 else values * 99
    return f"p50 {q[49] * 1000:.1f} ms  p90 {q[89] * 1000:.1f} ms  p99 {q[98] * 1000:.1f} ms  ({len(values)} actions)"


@dataclasses.dataclass
class Measured:
    answers: list[tuple[float, float]]  # (sent, s after the timed part began; → the state answering it, s)
    own_collector: dict  # this load generator's collector (its pauses would count as latency)
    own_lag: list[tuple[float, float]]  # this load generator's loop: (s after the timed part began, late by s)
    health: list[dict]  # each process's /api/health after the run
    cpu: dict[str, float]  # CPU seconds of the timed part: server, postgres, client
    machine: dict[str, float]  # shares of the machine's cores during it: busy, stolen
    stored: int  # actions stored during the timed part
    connections: int | None  # PostgreSQL connections opened during the timed part

    @property
    def latencies(self) -> list[float]:
        return [seconds for _, seconds in self.answers]


async def run(
    servers: list[ServerProcess],
    tables: int,
    ismcts: int,
    seconds: float,
    profile: pathlib.Path | None = None,
    deltas: bool = False,
    stagger: float = 0.0,
    new_games: bool = False,
    steps: bool = False,
) -> Measured:
    limits = httpx.Limits(max_connections=20)
    url = servers[0].database_url
    # no bound on the wait for one of the 20 connections: setting up 1,000 tables queues for them
    async with httpx.AsyncClient(timeout=httpx.Timeout(60, pool=None), limits=limits) as http:
        bases = [s.base for s in servers]
        seated = await asyncio.gather(*(seat_person(servers[i % len(servers)], i, http, steps) for i in range(tables)))
        await asyncio.gather(*(bot_table(bases[i % len(bases)], i, http, steps) for i in range(ismcts)))
        for base in bases:
            await http.get(f"{base}/api/health")  # (the lag window then covers the timed part mostly)
        answers: list[tuple[float, float]] = []
        rng = random.Random(18)
        database = make_url(url).database if url.startswith("postgres") else None
        window = Window(len(seated), stagger)
        people = [
            asyncio.create_task(play(person, window, random.Random(rng.random()), answers, deltas, new_games))
            for person in seated
        ]
        while window.connected < window.people and not any(p.done() for p in people):
            await asyncio.sleep(0.1)
        await asyncio.sleep(1)  # the first state messages read, the bots' first moves made
        window.timed_from = time.monotonic() + stagger + 1  # (a second for the last first moves' answers)
        window.until = window.timed_from + seconds
        # this process's collector off for the timed part, and watched: a pause here would count
        # as the server's in every answer on its way (with the servers' thresholds, 2 young
        # collections a run of 37-65 ms each; they freed about a hundred objects)
        collector.tune()
        gc.disable()
        watch = collector.CollectorWatch()
        watch.start()
        window.start.set()
        lag = asyncio.create_task(loop_lag(window))
        await asyncio.sleep(window.timed_from - time.monotonic())
        stored_before, sessions_before = await asyncio.to_thread(counts, url)
        with CpuMeter(servers, database) as meter:
            spy = start_profiler(servers[0], seconds, profile) if profile is not None else None
            await asyncio.gather(*people)
        watch.stop()
        own_lag = await lag
        gc.enable()
        stored_after, sessions_after = await asyncio.to_thread(counts, url)
        if spy is not None:
            spy.wait(timeout=60)
        health = [(await http.get(f"{base}/api/health")).json() for base in bases]
    opened = sessions_after - sessions_before if sessions_after is not None and sessions_before is not None else None
    answers = [(sent - window.timed_from, seconds) for sent, seconds in answers]
    return Measured(
        answers, watch.report(), own_lag, health, meter.used, meter.machine, stored_after - stored_before, opened
    )


def start_profiler(server: ServerProcess, seconds: float, out: pathlib.Path) -> subprocess.Popen[bytes]:
    """py-spy (`pip install py-spy`) sampling the first server process during the timed part:
    the thread holding the interpreter lock (Python's own work; a thread waiting for the database
    or a lock is not sampled, nor are C calls that let the lock go, such as a socket's send)."""
    assert server.proc is not None
    spy = pathlib.Path(sys.executable).with_name("py-spy")
    command = [str(spy), "record", "--pid", str(server.proc.pid), "--format", "raw", "--threads", "--gil"]
    command += ["--rate", str(PROFILE_RATE), "--duration", str(profile_seconds(seconds)), "--output", str(out)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def profile_seconds(seconds: float) -> int:
    return max(1, int(seconds) - 2)


# the frames of threads, the event loop and the server's start, on every stack
GENERIC_FILES = tuple(
    f"({name})"
    for name in (
        *("threading.py", "thread.py", "runners.py", "base_events.py", "events.py", "<frozen runpy>"),
        *("__main__.py", "_compat.py", "server.py", "run.py"),
    )
)


def profile_summary(path: pathlib.Path, seconds: float, top: int = 20) -> str:
    """Where process 0's time went: the share of time each kind of thread (the event loop,
    database threads, quick bots' threads) held the interpreter lock, then the functions most
    often running themselves (self) and on the stack (inclusive; the threads' and the event
    loop's own frames left out)."""
    threads: collections.Counter[str] = collections.Counter()
    own: collections.Counter[str] = collections.Counter()
    inclusive: collections.Counter[str] = collections.Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        total += n
        frames = stack.split(";")
        threads[frames[0].split(": ", 1)[-1].rstrip("_0123456789") if frames[0].startswith("thread") else "?"] += n
        names = [name for f in frames[1:] if not (name := _frame_name(f)).endswith(GENERIC_FILES)]
        if names:
            own[names[-1]] += n
        for name in set(names):
            inclusive[name] += n
    if not total:
        return "  profile of process 0: no samples"
    possible = PROFILE_RATE * profile_seconds(seconds)
    lines = [f"  profile of process 0 ({total} samples: the interpreter lock held {total / possible:.0%} of the time):"]
    lines.append("    " + ", ".join(f"{name} {n / possible:.0%}" for name, n in threads.most_common()))
    lines.append("    self (share of samples):")
    lines += [f"      {n / total * 100:5.1f}%  {name}" for name, n in own.most_common(top)]
    lines.append("    inclusive:")
    lines += [f"      {n / total * 100:5.1f}%  {name}" for name, n in inclusive.most_common(top)]
    return "\n".join(lines)


def _frame_name(frame: str) -> str:
    """`Cursor.execute (psycopg/cursor.py:97)` → `Cursor.execute (cursor.py)`."""
    name, _, where = frame.partition(" (")
    return f"{name} ({where.split(':')[0].rsplit('/', 1)[-1]})"


def machine_ticks() -> tuple[int, int, int]:
    """Ticks of every core since boot (/proc/stat): all, idle (with waiting for the disk), stolen
    by the hypervisor (another guest ran on our core)."""
    fields = [int(f) for f in pathlib.Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    return sum(fields), fields[3] + fields[4], fields[7]


def _ticks(pid: int) -> int | None:
    """User + system CPU ticks of a process and of its children that ended (bot searches)."""
    with contextlib.suppress(OSError):
        fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return sum(int(f) for f in fields[11:15])
    return None


class CpuMeter:
    """CPU seconds used during the timed part by the server processes, by PostgreSQL's processes
    serving the benchmark's database (their titles name it; others' work on the same PostgreSQL
    server does not count), and by this load generator (it shares the machine: its cost is not
    the server's). PostgreSQL starts and ends a process per connection, so its processes are
    looked for every `PERIOD` and each one's last reading is kept: a connection closed during the
    run still counts (up to its last reading). WAL writer, checkpointer and the like are shared
    with every database of the server and left out, so the PostgreSQL figure is a lower bound."""

    PERIOD = 0.25

    def __init__(self, servers: list[ServerProcess], database: str | None):
        self.servers = [s.proc.pid for s in servers if s.proc is not None]
        self.database = database
        self.start: dict[int, int] = {}  # PostgreSQL pid → ticks when first seen
        self.last: dict[int, int] = {}
        self.others: set[int] = set()  # pids that are not the database's (looked at once)
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)

    def __enter__(self) -> CpuMeter:
        self.machine_start = machine_ticks()
        self.server_start = sum(_ticks(pid) or 0 for pid in self.servers)
        self.client_start = time.process_time()
        self._look(first=True)
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.done.set()
        self.thread.join()
        self._look()
        self.used = {
            "server": (sum(_ticks(pid) or 0 for pid in self.servers) - self.server_start) / TICKS,
            "postgres": sum(self.last[pid] - self.start[pid] for pid in self.last) / TICKS,
            "client": time.process_time() - self.client_start,
        }
        total, idle, steal = (after - before for after, before in zip(machine_ticks(), self.machine_start, strict=True))
        self.machine = {"busy": 1 - idle / total if total else 0.0, "steal": steal / total if total else 0.0}

    def _watch(self) -> None:
        while not self.done.wait(self.PERIOD):
            self._look()

    def _look(self, first: bool = False) -> None:
        if self.database is None:
            return
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit() or (pid := int(entry.name)) in self.others:
                continue
            if pid not in self.last:
                try:
                    title = pathlib.Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
                except OSError:
                    continue
                if not (title.startswith("postgres:") and f" {self.database} " in title):
                    self.others.add(pid)
                    continue
            ticks = _ticks(pid)
            if ticks is not None:
                self.start.setdefault(pid, ticks if first else 0)
                self.last[pid] = ticks


@contextlib.contextmanager
def fresh_database(url: str | None, work: pathlib.Path) -> Iterator[str]:
    """A temp SQLite file, or a new database on the PostgreSQL server of `url` (dropped after)."""
    if url is None:
        yield f"sqlite:///{work / f'load-{secrets.token_hex(3)}.db'}"
        return
    parsed = make_url(url.replace("postgresql://", "postgresql+psycopg://", 1))
    name = f"nekobako_load_{secrets.token_hex(4)}"
    admin = create_engine(parsed.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield parsed.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def counts(url: str) -> tuple[int, int | None]:
    """Actions stored so far, and (PostgreSQL) the connections ever opened to the database."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            stored = int(conn.execute(text("SELECT count(*) FROM actions")).scalar_one())
            if engine.dialect.name != "postgresql":
                return stored, None
            query = text("SELECT sessions FROM pg_stat_database WHERE datname = current_database()")
            return stored, int(conn.execute(query).scalar_one())
    finally:
        engine.dispose()


async def loop_lag(window: Window) -> list[tuple[float, float]]:
    """How late this load generator's own event loop wakes during the timed part: an answer that
    arrives while it is busy (reading other sockets, making tables) is timed late by as much, so
    a report whose answers are slow while this is high measured the load generator."""
    loop = asyncio.get_running_loop()
    samples = []
    while (now := time.monotonic()) < window.until:
        start = loop.time()
        await asyncio.sleep(LAG_PERIOD)
        samples.append((now - window.timed_from, max(0.0, loop.time() - start - LAG_PERIOD)))
    return samples


def timeline(answers: list[tuple[float, float]], own_lag: list[tuple[float, float]], step: float = 0.5) -> list[str]:
    """The half-seconds in which some answer took longer than the target: a stall (a collection,
    a burst) shows as a few such steps in a row, a machine too busy as many spread out; with how
    late this load generator's own loop was at most in each."""
    steps: dict[int, list[float]] = collections.defaultdict(list)
    for sent, seconds in answers:
        steps[int(sent // step)].append(seconds)
    late: dict[int, float] = collections.defaultdict(float)
    for at, seconds in own_lag:
        late[int(at // step)] = max(late[int(at // step)], seconds)
    lines = [f"  answers sent in each {step} s step with one over {TARGET_P99 * 1000:.0f} ms:"]
    for index in sorted(steps):
        values = sorted(steps[index])
        slow = sum(v > TARGET_P99 for v in values)
        if slow:
            lines.append(
                f"    {index * step:5.1f} s: {len(values)} answers, median {values[len(values) // 2] * 1000:.0f} ms,"
                f" {slow} over, longest {values[-1] * 1000:.0f} ms; load generator late by up to"
                f" {late[index] * 1000:.0f} ms"
            )
    return lines if len(lines) > 1 else [lines[0] + " none"]


def collector_line(report: dict) -> str:
    pause = report["pause_ms"]
    return (
        f"garbage collector: collections (gen 0/1/2) {'/'.join(map(str, report['collections']))}"
        f" ({report.get('collected', '?')} objects freed), pauses p50 {pause['p50']} ms  p99 {pause['p99']} ms"
        f"  longest (gen 0/1/2) {'/'.join(map(str, pause['max_by_generation']))} ms"
    )


def one_run(args: argparse.Namespace, tables: int, work: pathlib.Path) -> tuple[float | None, str]:
    """One load run at `tables` tables; its p99 (None without samples) and the report."""
    seconds = args.seconds
    limits = [f"--limit={name}=100000" for name in ("open_tables", "guests_per_hour", "server_strong_bot_tables")]
    with fresh_database(args.database_url, work) as url:
        servers = [
            ServerProcess(url, work / f"server-{i}.log", (*limits, "--bot-processes", str(args.bot_processes)))
            for i in range(args.processes)
        ]
        try:
            for server in servers:
                server.start(timeout=60)
            profile = work / f"profile-{tables}.txt" if args.profile else None
            # uvloop, as the servers run (uvicorn's default): this load generator shares their cores
            options = (args.deltas, args.stagger, args.new_games, args.steps)
            measured = uvloop.run(run(servers, tables, args.ismcts, seconds, profile, *options))
        finally:
            for server in servers:
                server.stop()
    database = "postgres" if url.startswith("postgres") else "sqlite"
    latencies, stored, cpu = measured.latencies, measured.stored, measured.cpu
    reading = "delta" if args.deltas else "whole state"
    lines = [
        f"{database} {tables} tables + {args.ismcts} ismcts tables, {args.processes} process(es), {seconds:.0f} s,"
        f" {reading} messages"
    ]
    lines.append(f"  action → broadcast: {quantiles(latencies)}")
    lines.append(f"  load generator's {collector_line(measured.own_collector)}")
    own_lag = sorted(seconds for _, seconds in measured.own_lag)
    if own_lag:
        q = statistics.quantiles(own_lag, n=100, method="inclusive") if len(own_lag) > 1 else own_lag * 99
        lines.append(
            f"  load generator's event-loop lag: p50 {q[49] * 1000:.1f} ms  p99 {q[98] * 1000:.1f} ms"
            f"  max {own_lag[-1] * 1000:.1f} ms"
        )
    for index, answer in enumerate(measured.health):
        lag = answer["loop_lag_ms"]
        lines.append(
            f"  process {index} event-loop lag: p50 {lag['p50']} ms  p90 {lag['p90']} ms  p99 {lag['p99']} ms"
            f"  max {lag['max']} ms  (drives {answer.get('drives', '?')} tables)"
        )
        commits = answer["commits"]
        if "ms" in commits:
            lines.append(
                f"  process {index} commits: {commits['changes']} changes in {commits['transactions']} transactions,"
                f" p50 {commits['ms']['p50']} ms  p90 {commits['ms']['p90']} ms  p99 {commits['ms']['p99']} ms"
                f"  max {commits['ms']['max']} ms"
            )
        if report := answer.get("collector"):
            lines.append(f"  process {index} {collector_line(report)}")
    if stored:
        per_action = {k: v / stored * 1000 for k, v in cpu.items()}
        rate = stored / seconds
        serving = per_action["server"] + (per_action["postgres"] if database == "postgres" else 0.0)
        cores = 10_000 * rate / tables * serving / 1000
        lines.append(
            f"  stored actions: {stored} ({rate:.0f}/s, {rate / tables:.2f}/s per table); CPU per stored action:"
            f" server {per_action['server']:.2f} ms, postgres {per_action['postgres']:.2f} ms,"
            f" load generator {per_action['client']:.2f} ms"
        )
        lines.append(f"  → 10,000 such tables need about {cores:.1f} cores (server + database, at 100% busy)")
    machine = measured.machine
    lines.append(
        f"  the machine's cores: {machine['busy']:.0%} busy, {machine['steal']:.1%} stolen by the hypervisor"
        " (everything on the machine, this load generator included)"
    )
    if measured.connections is not None:
        lines.append(f"  PostgreSQL connections opened during the run: {measured.connections}")
    if args.timeline:
        lines += timeline(measured.answers, measured.own_lag)
    if args.profile and (work / f"profile-{tables}.txt").exists():
        lines.append(profile_summary(work / f"profile-{tables}.txt", seconds))
    p99 = statistics.quantiles(sorted(latencies), n=100, method="inclusive")[98] if len(latencies) > 1 else None
    return p99, "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=table_counts, default="50", help="a count, or several: 100,200,300")
    parser.add_argument("--ismcts", type=int, default=0, help="tables of three ISMCTS bots besides")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--database-url", default=None, help="a PostgreSQL server (default: temp SQLite)")
    parser.add_argument("--processes", type=int, default=1, help="server processes (more than 1: PostgreSQL)")
    parser.add_argument("--bot-processes", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="sample process 0 with py-spy (pip install py-spy)")
    parser.add_argument("--deltas", action="store_true", help="people read delta messages, as the browser does")
    parser.add_argument(
        "--stagger", type=float, default=0.0, help="seconds over which the tables' first moves are spread (0: in step)"
    )
    parser.add_argument("--new-games", action="store_true", help="a finished game is followed by a new table")
    parser.add_argument(
        "--steps",
        action="store_true",
        help="make, fill and start each table in three requests (for servers without the one request)",
    )
    parser.add_argument("--timeline", action="store_true", help="print the half-seconds with slow answers")
    parser.add_argument("--repeat", type=int, default=1, help="runs per table count (the capacity takes the worst)")
    args = parser.parse_args()
    counts = args.tables
    args.processes = max(1, min(args.processes, MAX_PROCESSES))
    if not 0 < args.seconds <= MAX_SECONDS:
        parser.error(f"--seconds goes from more than 0 to {MAX_SECONDS}")
    if args.processes > 1 and not (args.database_url or "").startswith("postgres"):
        parser.error("--processes above 1 needs --database-url postgresql://…")
    work = pathlib.Path(tempfile.mkdtemp(prefix="nekobako-load-"))
    args.stagger = max(0.0, min(args.stagger, MAX_STAGGER))
    args.repeat = max(1, min(args.repeat, MAX_REPEAT))
    # one figure of this machine's speed, so runs on different machines can be compared
    reference = statistics.median(greedy_rate(REFERENCE_GAMES) for _ in range(SAMPLES))
    print(f"this machine, one core, before the load: {reference:,.0f} greedy Cat in the Box decisions per CPU second")
    capacity = 0
    for tables in counts:
        worst: float | None = 0.0
        for _ in range(args.repeat):
            p99, report = one_run(args, tables, work)
            print(report, flush=True)
            worst = None if p99 is None or worst is None else max(worst, p99)
        if args.repeat > 1:
            print(f"worst p99 of {args.repeat} runs at {tables} tables: {_ms(worst)}", flush=True)
        if worst is not None and worst < TARGET_P99:
            capacity = max(capacity, tables)
    if len(counts) > 1 or args.repeat > 1:
        print(f"capacity at p99 < {TARGET_P99 * 1000:.0f} ms with {args.processes} process(es): {capacity} tables")
    if args.profile:
        print(f"raw profiles (py-spy's format) and the servers' logs are kept in {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)


def table_counts(text: str) -> list[int]:
    """`--tables`: counts from 1 to MAX_TABLES, separated by commas."""
    try:
        counts = [int(n) for n in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a count or counts separated by commas: {text!r}") from None
    if not all(1 <= n <= MAX_TABLES for n in counts):
        raise argparse.ArgumentTypeError(f"counts go from 1 to {MAX_TABLES}: {text!r}")
    return counts


def _ms(seconds: float | None) -> str:
    return "no samples" if seconds is None else f"{seconds * 1000:.1f} ms"


if __name__ == "__main__":
    main()
