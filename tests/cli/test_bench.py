"""`nekobako bench --quick --json`: the shape of the report, quick figures measuring what the full
run measures, missing parts, the verdicts (no speed is asserted in tests)."""

from __future__ import annotations

import json
import numbers
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import nekobako
from nekobako.sim import bench

CLI = [sys.executable, "-c", "from nekobako.cli import main; main()"]


def run_bench(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """The command as a real process, on the package these tests import (a worktree's sources)."""
    return subprocess.run(
        [*CLI, "bench", *args],
        capture_output=True,
        text=True,
        timeout=600,
        env={
            "COLUMNS": "120",
            "PATH": "/usr/bin:/bin",
            "PYTHONIOENCODING": "utf-8",
            "PYTHONPATH": str(Path(nekobako.__file__).resolve().parents[1]),
            **(env or {}),
        },
    )


@pytest.fixture(scope="module")
def quick() -> dict[str, Any]:
    """One `--quick --json` run in a new process (cold: nothing measured before in it)."""
    proc = run_bench("--quick", "--json")
    assert proc.returncode == 0, proc.stderr
    data: dict[str, Any] = json.loads(proc.stdout)
    return data


def test_quick_json_has_the_issue_shape(quick):
    data = quick
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
    assert {g: set(counts) for g, counts in data["rl_vector"].items()} == {g: set(c) for g, c in data["rl"].items()}
    assert data["targets"]["rl_vector"] == {"shutbox": 1_000_000, "catbox": 300_000, "catopomp": 100_000}
    assert data["targets"]["kernel"]["startup_seconds"] == 1.0
    assert data["machine"]["reference"] > 0
    figures = [("machine.greedy", data["machine"]["greedy_decisions_per_second"])]
    figures += [("throughput." + g + "." + p, v) for g, counts in data["throughput"].items() for p, v in counts.items()]
    figures += [("ismcts." + g, v) for g, v in data["ismcts"].items()]
    figures += [("solver." + t, v) for t, v in data["solver"].items()]
    figures += [("rl." + g + "." + p, v) for g, counts in data["rl"].items() for p, v in counts.items()]
    figures += [("rl_vector." + g + "." + p, v) for g, counts in data["rl_vector"].items() for p, v in counts.items()]
    # every part but the kernels exists (the test extra installs the rl one; every game has a
    # batched env), so every figure is a real measurement: a crashing benchmark (reported as
    # missing, see below) fails here
    assert not [path for path in data["missing"] if not path.startswith("kernel.")]
    for path, value in figures:
        assert isinstance(value, numbers.Real) and value > 0, (path, value)
    for path, judged in data["verdict"].items():
        assert judged in ("pass", "slow_machine", "fail"), path
        assert data["pass"][path] == (judged == "pass")


def test_the_kernel_section(quick):
    """Each kernel table has a figure or a reason; ratios are of figures of the same run."""
    kernel = quick["kernel"]
    assert {g: set(counts) for g, counts in kernel.items()} == {"catbox": {"4"}, "catopomp": {"4"}, "shutbox": {"2"}}
    assert "ratio_c" in kernel["catbox"]["4"] and "ratio_c" not in kernel["shutbox"]["2"]
    for game, counts in kernel.items():
        for players, row in counts.items():
            base = f"kernel.{game}.{players}"
            assert row["compile_seconds"] is None  # --quick does not compile from scratch
            assert quick["missing"][f"{base}.compile"]
            if row["actions_per_second"] is None:
                assert quick["missing"][f"{base}.kernel"]  # e.g. no kernel module yet: a reason
                assert row["ratio_pure"] is None
                continue
            assert row["ratio_pure"] == pytest.approx(row["actions_per_second"] / row["pure_actions_per_second"])
            assert row["startup_seconds"] > 0 or quick["missing"][f"{base}.startup"]
    assert kernel["shutbox"]["2"]["pure_actions_per_second"] == quick["throughput"]["shutbox"]["2"]
    if kernel["catbox"]["4"]["c_actions_per_second"] is None:
        assert quick["missing"]["kernel.catbox.4.c"]


def test_quick_figures_agree_with_the_full_run(quick):
    """`--quick` measured start-up (Shut the Box's tables built on first use, in wall time on a
    busy machine): 3.7k against 338k actions/s. Its short samples must measure the full run's thing."""
    step = next(s for s in bench.plan(bench.FULL) if s.path == "throughput.shutbox.2")
    full = statistics.median(step.measure(r) for r in range(step.repeats))
    ratio = quick["throughput"]["shutbox"]["2"] / full
    assert 1 / 3 < ratio < 3, (quick["throughput"]["shutbox"]["2"], full)


def test_verdicts_are_judged_against_the_machines_speed():
    half = bench.REFERENCE_SPEED / 2
    assert bench.verdict(600, 500, False, half) == "pass"
    assert bench.verdict(300, 500, False, half) == "slow_machine"  # 300 ≥ 500 × ½
    assert bench.verdict(200, 500, False, half) == "fail"
    assert bench.verdict(300, 500, False, bench.REFERENCE_SPEED * 2) == "fail"  # a faster machine: as is
    assert bench.verdict(300, 500, False, None) == "fail"
    assert bench.verdict(1.5, 1.0, True, half) == "slow_machine"  # 1.5 s ≤ 1 s × 2
    assert bench.verdict(2.5, 1.0, True, half) == "fail"


def test_a_missing_part_is_reported_not_fatal(monkeypatch):
    def broken(*args, **kwargs):
        raise ImportError("no such game yet")

    monkeypatch.setattr(bench, "ismcts_rate", broken)
    monkeypatch.setattr(bench, "SOLVER_TILES", (9,))
    monkeypatch.setattr(bench, "THROUGHPUT_CASES", {"shutbox": (2,)})
    monkeypatch.setattr(bench, "RL_CASES", {"shutbox": 1})
    monkeypatch.setattr(bench, "KERNEL_CASES", {"nosuchgame": 2})
    from nekobako.rl import vector

    monkeypatch.setattr(vector, "vector_reason", lambda game: f"{game} has no compiled kernel yet")
    seen = []
    result = bench.run(bench.QUICK, lambda step, n: seen.append((step.key, n)))
    assert result["ismcts"] == {"catbox": None, "catopomp": None}
    assert "no such game yet" in result["missing"]["ismcts.catbox"]
    assert result["throughput"]["shutbox"]["2"] > 0
    assert result["kernel"]["nosuchgame"]["2"]["actions_per_second"] is None
    assert result["missing"]["kernel.nosuchgame.2.kernel"]
    assert result["missing"]["kernel.nosuchgame.2.startup"] == result["missing"]["kernel.nosuchgame.2.kernel"]
    assert result["rl_vector"]["shutbox"]["1"] is None  # a game without a batched env: a reason
    assert "no batched environment for shutbox" in result["missing"]["rl_vector.shutbox.1"]
    assert result["missing_words"]["rl_vector.shutbox.1"][0] == "no_vector"
    assert sum(n for _, n in seen) == bench.total_repeats(bench.QUICK)


def test_table_output_names_the_machine():
    proc = run_bench("--quick")
    assert proc.returncode == 0, proc.stderr
    assert bench.cpu_name().split()[0] in proc.stdout
    assert "greedy Cat in the Box decisions per CPU second" in proc.stdout
    assert "Shut the Box, 2 players: random playout" in proc.stdout and "≥ 500,000" in proc.stdout
    assert "Shut the Box, 2 players: kernel against the engine" in proc.stdout and "≥ ×20" in proc.stdout
    assert "Shut the Box, 2 players: batched envs, random policy" in proc.stdout
    assert "≥ 1,000,000" in proc.stdout
    assert "pass" not in proc.stdout and "fail" not in proc.stdout  # no verdict on quick samples


def test_benchmarks_script_runs_the_same_code_and_kernels_off_are_missing():
    """`NEKOBAKO_PURE=1`: every kernel figure is missing with that reason, nothing fails."""
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "run.py"
    env = {**os.environ, "NEKOBAKO_PURE": "1", "PYTHONPATH": str(Path(nekobako.__file__).resolve().parents[1])}
    proc = subprocess.run(
        [sys.executable, str(script), "--quick", "--json"], capture_output=True, text=True, timeout=600, env=env
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert set(data) >= {"python", "cpu", "throughput", "ismcts", "solver", "kernel", "machine"}
    for game, players in bench.KERNEL_CASES.items():
        assert data["missing"][f"kernel.{game}.{players}.kernel"] == "kernels are off: NEKOBAKO_PURE is set"
        assert data["missing"][f"kernel.{game}.{players}.startup"] == "kernels are off: NEKOBAKO_PURE is set"
    for game, players in bench.RL_CASES.items():
        assert data["missing"][f"rl_vector.{game}.{players}"] == "kernels are off: NEKOBAKO_PURE is set"
        assert data["rl_vector"][game][str(players)] is None
