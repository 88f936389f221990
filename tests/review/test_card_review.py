"""The review of the card games: a search from the seat's view, labels only beyond its noise."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nekobako.engine import BadRecord, replay
from nekobako.review import ReviewError, review_record

HERE = Path(__file__).parent
PARADOX = json.loads((HERE / "catbox_paradox.json").read_text())
"""A three-player game of Cat in the Box. At its 51st step seat 0, last to play in a trick it wins,
holds 3 and 4 with only red 3 and blue 3 open to it: `play 3 red` wins the trick and leaves it
to lead with no legal play, a certain paradox; `play 3 blue` does not."""
PARADOX_PLY = 50


def test_leading_into_a_certain_paradox_is_a_blunder() -> None:
    state = replay(PARADOX)
    assert [(e.seat, e.at) for e in state.events if e.kind == "paradox"][1] == (0, PARADOX_PLY + 1)
    review = review_record(PARADOX, 0, iterations=400, seed=3)
    decision = next(d for d in review.decisions if d.ply == PARADOX_PLY)
    assert (decision.chosen, decision.best) == ("play 3 red", "play 3 blue")
    assert decision.label == "blunder"
    assert decision.loss > decision.margin > 0
    assert review.accuracy is not None and review.accuracy < 100


def test_a_review_is_deterministic_given_its_seed() -> None:
    first = review_record(PARADOX, 1, iterations=100, seed=5)
    again = review_record(PARADOX, 1, iterations=100, seed=5)
    assert first.to_json() == again.to_json()
    assert first.method == "search" and first.iterations == 100
    assert {d.objective for d in first.decisions} == {"search"}


def test_catopomp_is_reviewed_by_the_search() -> None:
    from nekobako.sim.runner import BotSpec, GameTask, play_game

    record = play_game(GameTask("catopomp", 2, (BotSpec.parse("random"), BotSpec.parse("greedy")), {}, 1, 0)).record
    record["actions"] = record["actions"][:12]  # the first decisions are enough (the pure search is slow)
    review = review_record(record, 0, iterations=40)
    assert review.decisions and all(0.0 <= d.value <= 1.0 for d in review.decisions)
    assert all(d.visits is not None and d.visits > 0 for d in review.decisions)


@pytest.mark.parametrize("seat", [-1, 3, True, "0"])
def test_a_bad_seat_is_refused(seat: object) -> None:
    with pytest.raises(ReviewError) as info:
        review_record(PARADOX, seat)  # type: ignore[arg-type]
    assert info.value.code == "review.bad_seat"
    assert "0" in info.value.text("ja") and "2" in info.value.text("ja")


def test_a_bad_budget_and_a_bad_record_are_refused() -> None:
    with pytest.raises(ReviewError):
        review_record(PARADOX, 0, iterations=0)
    broken = dict(PARADOX, actions=[*PARADOX["actions"][:10], "0: play 9 purple"])
    with pytest.raises(BadRecord):
        review_record(broken, 0)


def test_a_hint_is_the_reviews_best_move() -> None:
    from nekobako.bots.optimal import OptimalBot
    from nekobako.engine import get_game
    from nekobako.review import hint

    game = get_game("catbox")
    state = game.new_game(3, PARADOX["options"])
    for seat, action in replay(PARADOX).history[:PARADOX_PLY]:
        state.apply(seat, action)
    assert hint("catbox", state.view(0), state.legal_actions(0), iterations=400).action == "play 3 blue"
    shut = replay({"game": "shutbox", "players": 2, "seed": 4, "actions": ["start 0", "0: roll", "dice 3 4"]})
    legal = shut.legal_actions(0)
    best = OptimalBot().choose(shut.view(0), legal, None)  # type: ignore[arg-type]
    assert hint("shutbox", shut.view(0), legal).action == str(best)
