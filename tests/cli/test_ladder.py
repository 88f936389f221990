"""`nekobako ladder`: a balanced schedule (every entry as often, in every seat, after every other
entry as often, at 2 to 5 players), OpenSkill ratings
that move the right way, the table and JSON, and bad input refused with exit 2 in both languages."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from nekobako.bots import learned
from nekobako.engine import NekobakoError
from nekobako.sim.ladder import cycle, lineups, orders, rate, schedule, shipped_ratings
from nekobako.sim.runner import GameResult, parse_bots

SRC = str(Path(__file__).resolve().parents[2] / "src")
FOUR_PLAYER_WEIGHTS = Path(learned.__file__).parent / learned.WEIGHTS_DIR / learned.weights_name("catbox", 4)


def ladder(*args: str) -> subprocess.CompletedProcess[str]:
    """The command as a person runs it, from this checkout's sources."""
    env = {"COLUMNS": "120", "PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8", "PYTHONPATH": SRC}
    command = [sys.executable, "-c", "from nekobako.cli import main; main()", "ladder", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, env=env)


@pytest.mark.parametrize(("bots", "players"), [(3, 2), (4, 3), (5, 4), (4, 2), (3, 3), (4, 4), (5, 5), (6, 4)])
def test_the_schedule_is_balanced_in_entries_seats_and_neighbours(bots: int, players: int) -> None:
    specs = parse_bots([f"random:tag={i}" for i in range(bots)], bots)
    tasks = schedule("catbox", players, specs, 2 * cycle(bots, players), {}, 0)
    per_seat: Counter[tuple[str, int]] = Counter()
    after: Counter[tuple[str, str]] = Counter()
    games: Counter[str] = Counter()
    for task in tasks:
        seated = [task.bots[entry].label for entry in task.seating()]
        assert len(set(seated)) == players
        per_seat.update((label, seat) for seat, label in enumerate(seated))
        after.update((seated[seat], seated[(seat + 1) % players]) for seat in range(players))
        games.update(seated)
    assert len(per_seat) == bots * players and len(set(per_seat.values())) == 1  # every entry in every seat
    assert len(set(games.values())) == 1
    if players > 2:  # every entry plays right after every other as often (at 2 the other seat is both)
        assert len(after) == bots * (bots - 1) and len(set(after.values())) == 1


def test_each_lineup_is_played_in_every_order_around_the_table() -> None:
    assert orders(3, 2) == [(0, 1), (0, 2), (1, 2)]  # two players: the lineups, as before
    four = orders(4, 4)
    assert len(four) == 6 == len(set(four)) and all(order[0] == 0 for order in four)
    assert cycle(4, 4) == 24 and cycle(5, 3) == 60 and cycle(3, 2) == 6


def test_too_few_bots_for_the_players_is_refused() -> None:
    with pytest.raises(NekobakoError) as refused:
        lineups(2, 3)
    assert refused.value.message.key == "cli.ladder.too_few"


def test_a_winner_rises_and_the_losers_fall() -> None:
    specs = parse_bots(["random", "greedy", "optimal"], 3)
    tasks = schedule("shutbox", 3, specs, 6, {}, 0)
    results = [
        GameResult(
            index=t.index, seed=0, seating=t.seating(), scores=[0.0] * 3, returns=[0.0] * 3, winners=[], actions=1
        )
        for t in tasks
    ]
    for task, result in zip(tasks, results, strict=True):
        winner = next(seat for seat, entry in enumerate(result.seating) if task.bots[entry].label == "optimal")
        result.winners = [winner]
        result.returns[winner] = 1.0
    rows = {row["bot"]: row for row in rate(tasks, results, ["random", "greedy", "optimal"])}
    assert rows["optimal"]["mu"] > 25 > rows["greedy"]["mu"]  # OpenSkill starts everyone at 25
    assert rows["optimal"]["wins"] == 6 and rows["random"]["wins"] == 0
    assert all(row["sigma"] < 25 / 3 and row["games"] == 6 for row in rows.values())  # certainty grows
    low, high = rows["optimal"]["interval"]
    assert low < rows["optimal"]["mu"] < high


def test_the_command_rates_every_bot() -> None:
    done = ladder("shutbox", "--players", "2", "--bots", "random,greedy,optimal", "--games", "12", "-w", "1", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert sorted(row["bot"] for row in report["bots"]) == ["greedy", "optimal", "random"]
    assert {row["games"] for row in report["bots"]} == {8}
    assert report["command"].startswith("nekobako ladder shutbox --players 2")
    table = ladder("shutbox", "--players", "2", "--bots", "random,greedy", "--games", "2", "-w", "1", "--lang", "ja")
    assert table.returncode == 0 and "ラダー" in table.stdout


def test_the_command_rates_a_four_player_ladder() -> None:
    bots = "random,greedy,optimal,ismcts:iterations=10"
    done = ladder("shutbox", "--players", "4", "--bots", bots, "--games", "24", "-w", "1", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["players"] == 4 and {row["games"] for row in report["bots"]} == {24}
    assert sum(row["wins"] for row in report["bots"]) == pytest.approx(24)  # shared wins split the game
    assert len({row["bot"] for row in report["bots"]}) == 4


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--bots", "random,nosuch", "--games", "4"], "nosuch"),
        (["--bots", "random", "--games", "4"], "at least as many bots"),
        (["--bots", "random,greedy", "--games", "0"], "at least 1"),
        (["--bots", "random,random", "--games", "4"], "each bot once"),
        (["--bots", f"random,learned:weights={FOUR_PLAYER_WEIGHTS}", "--games", "4"], "does not match"),
    ],
)
def test_bad_input_is_a_clear_message_and_exit_2(args: list[str], words: str) -> None:
    done = ladder("catbox", "--players", "2", *args)
    assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr
    ja = ladder("catbox", "--players", "2", *args, "--lang", "ja")
    assert ja.returncode == 2 and "エラー" in ja.stderr


def test_the_shipped_ratings_name_known_levels() -> None:
    from nekobako.bots import bot_names

    for game, entry in shipped_ratings().items():
        assert entry["command"].startswith(f"nekobako ladder {game}")
        for level, rating in entry["levels"].items():
            assert level.split(":")[0] in bot_names(game) and rating["sigma"] > 0


def test_the_lobby_lists_each_levels_ladder_rating() -> None:
    """`/api/games` (what the browser's bot menu reads) carries the shipped ratings per level."""
    from nekobako.server.lobby import installed_games

    shipped = shipped_ratings()
    for entry in installed_games():
        assert set(entry["ratings"]) <= set(entry["bots"])
        assert bool(entry["ratings"]) == (entry["name"] in shipped)
        if entry["name"] in shipped:  # every level the menu offers is on the ladder (issue 30)
            assert set(entry["ratings"]) == set(entry["bots"]), entry["name"]
