"""`nekobako bench --quick --json`: the shape of the report (no speed is asserted in tests)."""

from __future__ import annotations

import json
import numbers
import subprocess
import sys
from pathlib import Path

from nekobako.sim import bench

from .conftest import run_cli


def test_quick_json_has_the_issue_shape():
    proc = run_cli("bench", "--quick", "--json", timeout=300)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert isinstance(data["python"], str) and data["python"]
    assert isinstance(data["cpu"], str) and data["cpu"]
    assert set(data["throughput"]) == {"shutbox", "catbox", "catopomp"}
    assert set(data["throughput"]["shutbox"]) == {"2", "12"}
    assert set(data["throughput"]["catbox"]) == {"2", "5"}
    assert set(data["throughput"]["catopomp"]) == {"2", "4"}
    assert set(data["ismcts"]) == {"catbox", "catopomp"}
    assert set(data["solver"]) == {"9", "10", "12"}
    assert {g: set(counts) for g, counts in data["rl"].items()} == {
        "shutbox": {"2"},
        "catbox": {"4"},
        "catopomp": {"4"},
    }
    assert data["targets"]["rl"] == {"catbox": 20_000, "catopomp": 10_000}
    figures = [("throughput." + g + "." + p, v) for g, counts in data["throughput"].items() for p, v in counts.items()]
    figures += [("ismcts." + g, v) for g, v in data["ismcts"].items()]
    figures += [("solver." + t, v) for t, v in data["solver"].items()]
    figures += [("rl." + g + "." + p, v) for g, counts in data["rl"].items() for p, v in counts.items()]
    # every part exists (the test extra installs the rl one), so every figure is a real
    # measurement: a crashing benchmark (reported as missing, see the next test) fails here
    assert data["missing"] == {}
    for path, value in figures:
        assert isinstance(value, numbers.Real) and value > 0, (path, value)


def test_a_missing_part_is_reported_not_fatal(monkeypatch):
    def broken(*args, **kwargs):
        raise ImportError("no such game yet")

    monkeypatch.setattr(bench, "ismcts_rate", broken)
    monkeypatch.setattr(bench, "SOLVER_TILES", (9,))
    monkeypatch.setattr(bench, "THROUGHPUT_CASES", {"shutbox": (2,)})
    monkeypatch.setattr(bench, "RL_CASES", {"shutbox": 1})
    seen = []
    result = bench.run(bench.QUICK, lambda step, n: seen.append((step.key, n)))
    assert result["ismcts"] == {"catbox": None, "catopomp": None}
    assert "no such game yet" in result["missing"]["ismcts.catbox"]
    assert result["throughput"]["shutbox"]["2"] > 0
    assert sum(n for _, n in seen) == bench.total_repeats(bench.QUICK)


def test_table_output_names_the_machine():
    proc = run_cli("bench", "--quick", timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert bench.cpu_name().split()[0] in proc.stdout
    assert "Shut the Box, 2 players: random playout" in proc.stdout and "≥ 500,000" in proc.stdout
    assert "pass" not in proc.stdout and "fail" not in proc.stdout  # no verdict on quick samples


def test_benchmarks_script_runs_the_same_code():
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "run.py"
    proc = subprocess.run(
        [sys.executable, str(script), "--quick", "--json"], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    assert set(json.loads(proc.stdout)) >= {"python", "cpu", "throughput", "ismcts", "solver"}
