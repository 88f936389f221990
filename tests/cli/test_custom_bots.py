"""Research simulation: your own bot objects in the Python API and `--bots package.module:Class`;
Catopomp's report counts who lost, with a Wilson interval on those whole counts."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from nekobako.engine import InvalidOptions, Record, replay
from nekobako.sim import simulate
from nekobako.sim.runner import BotSpec
from sim_custom_bots import FirstLegal

from .conftest import run_cli


def test_python_api_plays_bot_objects_against_named_bots():
    report, results = simulate("shutbox", 2, [FirstLegal(), "random"], 6, seed=3)
    assert [row["bot"] for row in report["bots"]] == ["first-legal", "random"]
    assert sum(row["wins"] for row in report["bots"]) == pytest.approx(6)
    for result in results:  # the object's moves are in the records: each replays to what was counted
        first = result.seating.index(0)
        state = replay(Record.from_json(result.record))
        assert state.winners() == result.winners
        for seat, action in state.history:
            if seat == first and str(action).startswith("shut"):
                break
        assert result.record["seats"][first] == "first-legal"


def test_python_api_with_workers_pickles_the_object_and_gets_the_same_results():
    one, _ = simulate("shutbox", 2, [FirstLegal(1), "greedy"], 8, seed=5, workers=1)
    two, _ = simulate("shutbox", 2, [FirstLegal(1), "greedy"], 8, seed=5, workers=2)
    assert one == two


def test_bots_option_imports_a_class_with_parameters():
    assert BotSpec.parse("sim_custom_bots:FirstLegal").make("shutbox").offset == 0
    assert BotSpec.parse("a.b:Cls:offset=2").label == "a.b:Cls:offset=2"
    with pytest.raises(InvalidOptions, match="package"):
        BotSpec.parse("a b:Cls")
    tests = os.path.dirname(os.path.dirname(__file__))
    env = {**os.environ, "PYTHONPATH": tests, "COLUMNS": "200"}
    command = [sys.executable, "-c", "from nekobako.cli import main; main()", "simulate", "shutbox", "-p", "2"]
    command += ["-n", "4", "-w", "1", "--json", "--bots"]
    done = subprocess.run(
        [*command, "sim_custom_bots:FirstLegal:offset=1,random"], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert [row["bot"] for row in json.loads(done.stdout)["bots"]] == ["sim_custom_bots:FirstLegal:offset=1", "random"]
    for bots, why in (("no_such_module:Bot,random", "no module"), ("json:JSONDecoder,random", "no choose")):
        bad = subprocess.run([*command, bots], capture_output=True, text=True, env=env, timeout=120)
        assert bad.returncode == 2 and why in bad.stderr and "Traceback" not in bad.stderr, bad.stderr


def test_catopomp_reports_the_loser_rate_with_its_interval():
    report, results = simulate("catopomp", 3, ["greedy", "random", "random"], 12, seed=2)
    rows = report["bots"]
    assert sum(row["losses"] for row in rows) == 12  # exactly one loser per game
    for row in rows:
        low, high = row["loss_ci95"]
        assert low <= row["loss_rate"] <= high and row["loss_rate"] == row["losses"] / 12
        lost = sum(1 for r in results for seat, entry in enumerate(r.seating) if entry == row["entry"]
                   and seat not in r.winners)  # fmt: skip
        assert lost == row["losses"]
    shutbox, _ = simulate("shutbox", 3, "random", 4)
    assert "losses" not in shutbox["bots"][0]  # one winner, two losers: no single loser to count
    shown = run_cli("simulate", "catopomp", "-p", "3", "--bots", "greedy,random,random", "-n", "6", "-w", "1")
    assert shown.returncode == 0 and "lost" in shown.stdout
