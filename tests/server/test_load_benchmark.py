"""`benchmarks/load.py`, the capacity benchmark of issue 14, as a real process against real server
processes: what it reports is there and adds up (no speed is asserted in tests)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "load.py"


def _load(*args: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=timeout)


@pytest.mark.postgres
def test_two_processes_on_postgresql_report_latency_cpu_and_capacity(postgres_url) -> None:
    server = make_url(postgres_url).set(drivername="postgresql").render_as_string(hide_password=False)
    proc = _load(
        *("--tables", "3", "--seconds", "3", "--repeat", "2", "--processes", "2", "--deltas", "--timeline"),
        *("--database-url", server),
    )
    out = proc.stdout
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert re.search(r"this machine, one core, before the load: [\d,]+ greedy Cat in the Box decisions", out)
    assert out.count("postgres 3 tables + 0 ismcts tables, 2 process(es), 3 s, delta messages") == 2
    answered = [int(n) for n in re.findall(r"action → broadcast: p50 [\d.]+ ms .* \((\d+) actions\)", out)]
    assert len(answered) == 2 and all(n > 0 for n in answered), out
    stored = re.findall(r"stored actions: (\d+) .* server ([\d.]+) ms, postgres ([\d.]+) ms", out)
    assert len(stored) == 2, out
    for count, server_ms, postgres_ms in stored:
        # every person's action and the bots' answers are stored: more than the answers timed.
        # CPU is read in ticks of 10 ms: the servers use many in 3 s, PostgreSQL may use none
        assert int(count) >= min(answered) and float(server_ms) > 0 and float(postgres_ms) >= 0, out
    assert len(re.findall(r"load generator's event-loop lag: p50 [\d.]+ ms  p99 [\d.]+ ms  max [\d.]+ ms", out)) == 2
    busy = [int(n) for n in re.findall(r"the machine's cores: (\d+)% busy, [\d.]+% stolen", out)]
    assert len(busy) == 2 and all(0 < n <= 100 for n in busy), out
    assert len(re.findall(r"process [01] commits: \d+ changes in \d+ transactions", out)) == 4, out
    assert out.count("answers sent in each 0.5 s step with one over 100 ms:") == 2
    assert re.search(r"capacity at p99 < 100 ms with 2 process\(es\): (0|3) tables", out), out


def test_tables_made_in_three_requests_as_before_are_played_too() -> None:
    """`--steps`: the tables are made, filled and started by the three requests of before (to
    measure a server without the one request), and played as the others."""
    proc = _load("--tables", "2", "--seconds", "2", "--steps")
    assert proc.returncode == 0, proc.stderr[-3000:]
    answered = re.search(r"action → broadcast: p50 [\d.]+ ms .* \((\d+) actions\)", proc.stdout)
    assert answered is not None and int(answered.group(1)) > 0, proc.stdout


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("--tables", "2,x"), "not a count or counts separated by commas: '2,x'"),
        (("--tables", "0"), "counts go from 1 to 1000"),
        (("--seconds", "-1"), "--seconds goes from more than 0 to 600"),
        (("--processes", "2"), "--processes above 1 needs --database-url postgresql://"),
    ],
)
def test_bad_arguments_are_refused_before_anything_starts(args: tuple[str, ...], error: str) -> None:
    proc = _load(*args, timeout=60)
    assert proc.returncode == 2
    assert error in proc.stderr and "Traceback" not in proc.stderr
    assert proc.stdout == ""  # nothing measured, no server started


@pytest.mark.postgres
def test_the_table_start_benchmark_reports_cpu_per_table(postgres_url) -> None:
    """`benchmarks/table_start.py` (docs/server.md) runs to its end and its one line adds up."""
    server = make_url(postgres_url).set(drivername="postgresql").render_as_string(hide_password=False)
    script = SCRIPT.with_name("table_start.py")
    command = [sys.executable, str(script), "--tables", "6", "--concurrency", "2", "--database-url", server]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr[-3000:]
    line = re.fullmatch(
        r"6 tables in [\d.]+ s: server ([\d.]+) ms of CPU per table, PostgreSQL ([\d.]+) ms .*\n", proc.stdout
    )
    assert line is not None and float(line.group(1)) > 0 and float(line.group(2)) >= 0, proc.stdout


@pytest.mark.postgres
def test_the_statements_benchmark_reports_each_way(postgres_url) -> None:
    """`benchmarks/statements.py` (docs/server.md) runs to its end with a line per way of reading."""
    server = make_url(postgres_url).set(drivername="postgresql").render_as_string(hide_password=False)
    command = [sys.executable, str(SCRIPT.with_name("statements.py")), "--calls", "20", "--database-url", server]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr[-3000:]
    ways = re.findall(r"^(.+): \d+ µs of CPU per read \(([\d.]+)× built per call\)$", proc.stdout, re.M)
    assert [name for name, _ in ways] == ["built per call", "made once", "psycopg alone"], proc.stdout
    assert ways[0][1] == "1.00", proc.stdout
