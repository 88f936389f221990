"""The review of Shut the Box is the solver's: exact values, checked against a brute force written
here from the rules, and the `optimal` bot's own games rated best throughout."""

from __future__ import annotations

from functools import cache
from itertools import combinations

import pytest

from nekobako.review import THRESHOLDS, label, review_record
from nekobako.sim.runner import BotSpec, GameTask, play_game

TWO = [(a + b, 1 / 36) for a in range(1, 7) for b in range(1, 7)]
ONE = [(a, 1 / 6) for a in range(1, 7)]

# A solo game (9 tiles, up to 3 tiles per roll, one die once every open tile is 6 or less): the
# review's objective is the chance to shut the box this turn.
SOLO = [
    "0: roll", "dice 3 4", "0: shut 1 2 4",  # three small tiles for 7: known to be worse than 7
    "0: roll", "dice 6 6", "0: shut 3 9",
    "0: roll", "dice 4 4", "0: shut 8",
    "0: roll", "dice 5 6", "0: shut 5 6",
    "0: roll", "dice 3 4", "0: shut 7",  # the last tile: the box is shut
]  # fmt: skip


@cache
def shut_chance(tiles: tuple[int, ...]) -> float:
    """P(shutting the box from `tiles`, about to roll, playing perfectly): the rules, by brute force."""
    if not tiles:
        return 1.0
    rolls = [TWO, ONE] if max(tiles) <= 6 else [TWO]
    return max(roll_chance(tiles, odds) for odds in rolls)


def roll_chance(tiles: tuple[int, ...], odds: list[tuple[int, float]]) -> float:
    total = 0.0
    for dice, p in odds:
        after = [close(tiles, combo) for combo in closes(tiles, dice)]
        total += p * max((shut_chance(a) for a in after), default=0.0)
    return total


def closes(tiles: tuple[int, ...], dice: int) -> list[tuple[int, ...]]:
    return [c for k in (1, 2, 3) for c in combinations(tiles, k) if sum(c) == dice]


def close(tiles: tuple[int, ...], combo: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(t for t in tiles if t not in combo)


def test_a_known_solo_game_is_rated_exactly() -> None:
    review = review_record({"game": "shutbox", "players": 1, "seed": 1, "actions": SOLO}, 0)
    tiles = tuple(range(1, 10))
    shuts = [d for d in review.decisions if d.chosen.startswith("shut")]
    played = [a.split(": ")[1] for a in SOLO if a.startswith("0: shut")]
    dice = [sum(map(int, a.split()[1:])) for a in SOLO if a.startswith("dice")]
    rated = iter(shuts)
    for text, total in zip(played, dice, strict=True):
        options = {" ".join(map(str, c)): shut_chance(close(tiles, c)) for c in closes(tiles, total)}
        best = max(options.values())
        chosen = [int(w) for w in text.split()[1:]]
        if len(options) > 1:  # a forced close is no decision
            decision = next(rated)
            assert decision.chosen == text
            assert decision.objective == "shut"
            assert decision.raw_value == pytest.approx(best, abs=1e-12)
            assert decision.raw_chosen == pytest.approx(shut_chance(close(tiles, tuple(chosen))), abs=1e-12)
            assert decision.label == label(best - decision.raw_chosen)
        tiles = close(tiles, tuple(chosen))
    assert next(rated, None) is None
    first = shuts[0]
    assert first.chosen == "shut 1 2 4" and first.best != "shut 1 2 4" and first.label != "best"
    assert first.loss == pytest.approx(first.raw_value - first.raw_chosen, abs=1e-12)


def test_thresholds_label_the_loss() -> None:
    assert label(0.0) == "best"
    assert label(0.01) == "good"
    assert [label(least) for _, least in THRESHOLDS] == [name for name, _ in THRESHOLDS]
    assert label(0.5, margin=0.6) == "good"  # within a search's noise: no mistake
    assert label(0.5, chosen_is_best=True) == "best"


OPTION_SETS = [
    (1, {}),
    (1, {"tiles": 12, "max_close": "any", "one_die": "never"}),
    (2, {"scoring": "count"}),
    (3, {"tiles": 10, "scoring": "digits", "max_close": 2, "one_die": "sum6"}),
    (3, {"simultaneous": True}),
]


@pytest.mark.parametrize(("players", "options"), OPTION_SETS)
def test_the_optimal_bots_games_are_rated_best_throughout(players: int, options: dict) -> None:
    task = GameTask("shutbox", players, tuple(BotSpec.parse("optimal") for _ in range(players)), options, 7, 0)
    record = play_game(task).record
    for seat in range(players):
        review = review_record(record, seat)
        assert review.method == "solver" and review.decisions
        assert {d.label for d in review.decisions} == {"best"}, seat
        assert review.accuracy == 100.0


def test_a_random_bots_games_get_mistakes() -> None:
    labels = []
    for index in range(3):
        task = GameTask("shutbox", 2, (BotSpec.parse("random"), BotSpec.parse("random")), {}, 11, index)
        record = play_game(task).record
        for seat in range(2):
            review = review_record(record, seat)
            labels += [d.label for d in review.decisions]
            assert review.accuracy is not None and review.accuracy < 100
    assert "mistake" in labels or "blunder" in labels
