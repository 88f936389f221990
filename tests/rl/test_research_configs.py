"""Small research configurations (issue 30): Shut the Box with 2–8 tiles and a one-round game,
refused at a table, accepted where research asks (`research=True`, OpenSpiel), played by the pure
engine, and small enough that OpenSpiel's tabular CFR walks them whole."""

from __future__ import annotations

import pytest

from nekobako.engine import InvalidOptions, get_game
from nekobako.engine.kernel import kernel_for


@pytest.mark.parametrize("options", [{"tiles": 2}, {"tiles": "8"}, {"length": "one"}])
def test_research_values_are_refused_unless_asked_for(options: dict) -> None:
    game = get_game("shutbox")
    with pytest.raises(InvalidOptions) as refused:
        game.options(options, 2)
    assert refused.value.message.key == "engine.options.research_only"
    assert "研究用" in refused.value.message.text("ja")
    accepted = game.options(options, 2, research=True)
    assert kernel_for("shutbox", 2, accepted) is None  # research configurations run on the pure engine
    with pytest.raises(InvalidOptions) as bad:
        game.options({"tiles": 11}, 2, research=True)
    assert bad.value.message.key == "engine.options.bad_value"


def test_the_lobby_is_offered_the_table_values_only() -> None:
    described = {o["name"]: o for o in get_game("shutbox").describe_options()}
    assert described["tiles"]["choices"] == [9, 10, 12]
    assert described["length"]["choices"] == ["short", "long"]


def test_a_one_round_game_ends_after_its_round() -> None:
    import random

    game = get_game("shutbox")
    state = game.new_initial_state(
        2, game.options({"tiles": 3, "length": "one", "scoring": "digits"}, 2, research=True)
    )
    rng = random.Random(1)
    while not state.is_over():
        seat = state.to_move[0]
        outcomes = state.chance_outcomes() if seat < 0 else None
        if outcomes:
            state.apply(seat, rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert len(state.view(None)["round_scores"]) == 1


@pytest.mark.slow
def test_cfr_lowers_the_exploitability_of_the_smallest_two_player_box() -> None:
    """About a minute: the tree has 25,000 nodes, each a Python engine state."""
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import cfr, exploitability

    from nekobako.rl import openspiel

    openspiel.register()
    game = pyspiel.load_game("nekobako_shutbox", {"players": 2, "tiles": 2, "length": "one", "scoring": "digits"})
    solver = cfr.CFRSolver(game)
    solver.evaluate_and_update_policy()
    first = exploitability.nash_conv(game, solver.average_policy())
    solver.evaluate_and_update_policy()
    second = exploitability.nash_conv(game, solver.average_policy())
    assert 0 <= second < first
