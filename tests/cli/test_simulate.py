"""`nekobako simulate`: the same seed gives the same results whatever the worker count, the figures
add up, seats rotate, and every written record replays to the game that was counted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nekobako.bots import learned
from nekobako.engine import Record, replay
from nekobako.sim.runner import BotSpec, GameResult, GameTask, derive_seed, parse_bots, run_games
from nekobako.sim.stats import summarize, wilson

from .conftest import run_cli


def simulate_json(*args: str) -> dict:
    proc = run_cli("simulate", *args, "--json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_same_seed_same_results_with_one_or_two_workers():
    args = ("shutbox", "--players", "3", "--bots", "greedy,random,random", "--games", "30", "--seed", "9")
    one = simulate_json(*args, "--workers", "1")
    two = simulate_json(*args, "--workers", "2")
    assert one == two
    other_seed = simulate_json(*args[:-1], "10", "--workers", "2")
    assert other_seed["bots"] != one["bots"]  # the seed really matters


def test_runner_results_identical_in_process_and_in_workers():
    specs = parse_bots("greedy,random", 2)
    tasks = [GameTask("shutbox", 2, specs, {}, 5, i) for i in range(12)]
    serial = run_games(tasks, workers=1)
    parallel = run_games(tasks, workers=2)
    assert [r.record for r in serial] == [r.record for r in parallel]
    assert [r.index for r in parallel] == list(range(12))


def test_numbers_add_up_and_seats_rotate():
    games = 40
    report = simulate_json(
        "shutbox", "--players", "4", "--bots", "greedy,random,random,random", "--games", str(games), "--workers", "2"
    )
    assert report["games"] == games
    assert sum(row["wins"] for row in report["bots"]) == pytest.approx(games)
    assert sum(row["wins"] for row in report["seats"]) == pytest.approx(games)
    by_bot = {row["bot"]: row for row in report["by_bot"]}
    assert by_bot["random"]["seats"] == 3 and by_bot["greedy"]["seats"] == 1
    assert sum(row["wins"] for row in by_bot.values()) == pytest.approx(games)
    randoms = sum(row["wins"] for row in report["bots"] if row["bot"] == "random")
    assert by_bot["random"]["win_rate"] == pytest.approx(randoms / (3 * games))
    for row in by_bot.values():
        assert 0 <= row["ci95"][0] <= row["win_rate"] <= row["ci95"][1] <= 1
    for row in report["bots"]:
        low, high = row["ci95"]
        assert 0 <= low <= row["win_rate"] <= high <= 1
        assert 0 <= row["shut_rate"] <= 1
        assert row["mean_score"] >= 0
    specs = parse_bots("a,b,c,d", 4)
    seatings = [GameTask("shutbox", 4, specs, {}, 0, i).seating() for i in range(4)]
    for seat in range(4):  # over 4 games every entry sits once in every seat
        assert sorted(s[seat] for s in seatings) == [0, 1, 2, 3]
    for seating in seatings:
        assert sorted(seating) == [0, 1, 2, 3]


def test_records_replay_to_the_counted_games(tmp_path):
    out = tmp_path / "records"
    proc = run_cli(
        "simulate",
        "shutbox",
        "--players",
        "2",
        "--bots",
        "greedy,random",
        "--games",
        "6",
        "--seed",
        "3",
        "--workers",
        "2",
        "--records",
        str(out),
        "--options",
        "tiles=10 scoring=count",
    )
    assert proc.returncode == 0, proc.stderr
    assert "win rate" in proc.stdout and "95% interval" in proc.stdout
    files = sorted(out.glob("*.json"))
    assert len(files) == 6
    specs = parse_bots("greedy,random", 2)
    results = run_games([GameTask("shutbox", 2, specs, {"tiles": 10, "scoring": "count"}, 3, i) for i in range(6)])
    for path, result in zip(files, results, strict=True):
        data = json.loads(path.read_text())
        assert data["options"]["tiles"] == 10 and data["options"]["scoring"] == "count"
        state = replay(Record.from_json(data))
        assert state.is_over()
        assert state.scores() == result.scores
        assert data["seed"] == derive_seed(3, result.index)


def test_summary_counts_shared_wins_as_shares():
    specs = (BotSpec("a"), BotSpec("b"))
    results = [  # entry 0 sits in seat 0, then 1, then 0; entry 1 elsewhere
        GameResult(0, 0, seating=[0, 1], scores=[5, 5], returns=[0.5, 0.5], winners=[0, 1], actions=9),  # shared
        GameResult(1, 1, seating=[1, 0], scores=[3, 9], returns=[1.0, 0.0], winners=[0], actions=9),  # entry 1
        GameResult(2, 2, seating=[0, 1], scores=[8, 2], returns=[0.0, 1.0], winners=[1], actions=9),  # entry 1
    ]
    summary = summarize(results, specs)
    assert [row["wins"] for row in summary["bots"]] == [0.5, 2.5]
    assert [row["win_rate"] for row in summary["bots"]] == pytest.approx([0.5 / 3, 2.5 / 3])
    assert [row["wins"] for row in summary["seats"]] == [1.5, 1.5]
    real = run_games([GameTask("shutbox", 2, parse_bots("random", 2), {}, 1, i) for i in range(20)])
    assert sum(row["wins"] for row in summarize(real, specs)["bots"]) == pytest.approx(20)  # one win per game


def test_wilson_interval():
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(3, 10)[1] - wilson(3, 10)[0] > wilson(300, 1000)[1] - wilson(300, 1000)[0]


def test_bot_spec_text():
    spec = BotSpec.parse("ismcts:iterations=200:exploration=0.5")
    assert spec.level == "ismcts" and dict(spec.params) == {"iterations": 200, "exploration": 0.5}
    assert spec.label == "ismcts:iterations=200:exploration=0.5"
    assert len(parse_bots("greedy", 3)) == 3


@pytest.mark.parametrize(
    "args",
    [
        ("chess", "--players", "2"),
        ("shutbox", "--players", "2", "--bots", "greedy,random,random"),
        ("shutbox", "--players", "2", "--bots", "nonsense"),
        ("shutbox", "--players", "2", "--games", "0"),
        ("shutbox", "--players", "2", "--options", "tiles=11"),
        ("shutbox", "--players", "2", "--bots", "ismcts:speed=9"),
    ],
)
def test_bad_arguments(args):
    proc = run_cli("simulate", *args)
    assert proc.returncode != 0
    assert "error" in proc.stderr.lower()


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "does not match Cat in the Box with 3 players"), ("ja", "合いません")],
)
def test_weights_for_another_table_are_refused_before_a_record_is_written(lang, words, tmp_path):
    four = Path(learned.__file__).parent / learned.WEIGHTS_DIR / learned.weights_name("catbox", 4)
    records = tmp_path / "records"
    bots = f"random,learned:weights={four},random"
    proc = run_cli("simulate", "catbox", "-p", "3", "-b", bots, "-n", "4", "--records", str(records), "--lang", lang)
    assert proc.returncode == 2, proc.stderr
    assert words in proc.stderr and "Traceback" not in proc.stderr
    assert not records.exists(), "refused before the records folder was made"


def test_player_actions_alone_replay_the_game():
    """Chance follows Random(record seed) as `replay` does, so dropping every chance entry from a
    record (keeping only what the bots chose) rebuilds the very same game, up to the last move."""
    specs = parse_bots("greedy,random,random", 3)
    for result in run_games([GameTask("shutbox", 3, specs, {}, 8, i) for i in range(5)]):
        actions = result.record["actions"]
        moves = [a for a in actions if is_move(a)]
        last = max(i for i, a in enumerate(actions) if is_move(a))
        full = replay(Record.from_json({**result.record, "actions": actions[: last + 1]}))
        bare = replay(Record.from_json({**result.record, "actions": moves}))
        assert len(moves) < last + 1
        assert bare.history == full.history and bare.scores() == full.scores()


def is_move(entry: str) -> bool:
    return entry.split(":")[0].strip().isdigit() and ":" in entry
