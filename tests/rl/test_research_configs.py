"""Small research configurations (issue 30): Shut the Box with 2–8 tiles and a one-round game, and
the small Cat in the Box (`side=small`), refused at a table, accepted where research asks
(`research=True`, OpenSpiel), played by the pure engine, and small enough that OpenSpiel's tabular
CFR walks them whole."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from nekobako.engine import InvalidOptions, get_game
from nekobako.engine.kernel import kernel_for, pure_reason
from nekobako.i18n import text
from worded import assert_worded

SMALL_CATBOX = {"players": 2, "side": "small"}


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


def test_the_small_cat_in_the_box_is_refused_unless_asked_for() -> None:
    game = get_game("catbox")
    for raw in ("small", " SMALL"):
        with pytest.raises(InvalidOptions) as refused:
            game.options({"side": raw}, 2)
        assert_worded(refused.value, "engine.options.research_only")
        assert "research configuration" in refused.value.message.text("en")
        assert "研究用" in refused.value.message.text("ja")
    accepted = game.options({"side": "small"}, 2, research=True)
    assert kernel_for("catbox", 2, accepted) is None  # the compiled kernel is the full games'
    if pure_reason() is None:  # with the kernels on (not NEKOBAKO_PURE), the full game has one
        assert kernel_for("catbox", 2, game.options({"side": "white"}, 2)) is not None
    for players in (3, 4, 5):  # the small deck is a 2-player game
        with pytest.raises(InvalidOptions) as refused:
            game.options({"side": "small"}, players, research=True)
        assert_worded(refused.value, "catbox.options.small_at_2")


def test_the_lobby_is_offered_the_table_values_only() -> None:
    described = {o["name"]: o for o in get_game("shutbox").describe_options()}
    assert described["tiles"]["choices"] == [9, 10, 12]
    assert described["length"]["choices"] == ["short", "long"]
    side = next(o for o in get_game("catbox").describe_options() if o["name"] == "side")
    assert side["choices"] == ["white", "purple"]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_rules_for_players_never_name_a_research_value(lang: str) -> None:
    rules = Path(__file__).resolve().parents[2] / "src" / "nekobako" / "rules" / lang
    assert "`small`" not in (rules / "catbox.md").read_text(encoding="utf-8")
    assert "`one`" not in (rules / "shutbox.md").read_text(encoding="utf-8")


def test_the_small_decks_deals_are_listed_with_the_chance_of_each() -> None:
    """Listed deals (one chance node each) have the probabilities of dealing the shuffled deck."""
    from nekobako.games.catbox.board import table_for

    table = table_for(2, "small")
    assert table.deck_cards == (1, 1, 2, 2, 3, 3) and table.columns == 3
    orders = Counter(
        tuple(tuple(sorted(order[i : i + 3])) for i in (0, 3)) for order in itertools.permutations(table.deck_cards)
    )
    expected = {hands: Fraction(count, 720) for hands, count in orders.items()}
    assert {deal.hands: Fraction(p).limit_denominator(1000) for deal, p in table.deals} == expected
    assert len(table.deals) == 7 and sum(p for _, p in table.deals) == pytest.approx(1)
    state = get_game("catbox").new_initial_state(2, get_game("catbox").options({"side": "small"}, 2, research=True))
    state.apply(-1, state.chance_outcomes()[0][0])  # the start player
    assert state.chance_outcomes() == list(table.deals)


def test_a_small_cat_in_the_box_is_one_round_of_two_tricks_on_the_pure_engine() -> None:
    game = get_game("catbox")
    rng = random.Random(3)
    for _ in range(20):
        state = game.new_initial_state(2, game.options({"side": "small"}, 2, research=True))
        while not state.is_over():
            seat = state.to_move[0]
            state.apply(seat, state.sample_chance(rng) if seat < 0 else rng.choice(state.legal_actions(seat)))
        view = state.view(None)
        assert view["rounds"] == 1 and len(view["round_scores"]) == 1
        assert sum(view["tricks"]) == 2 and view["hand_counts"] == [0, 0]  # no card left over
    goal = view["goal"]
    assert text(f"catbox.prompt.{goal['kind']}", "en", **goal["data"]).startswith("One round")
    assert "1トリック以下" in text(f"catbox.prompt.{goal['kind']}", "ja", **goal["data"])


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
    from nekobako.rl import openspiel

    openspiel.register()
    game = pyspiel.load_game("nekobako_shutbox", {"players": 2, "tiles": 2, "length": "one", "scoring": "digits"})
    first, second = _nash_conv_after_one_and_two_cfr_iterations(game)
    assert 0 <= second < first


def _nash_conv_after_one_and_two_cfr_iterations(game: Any) -> tuple[float, float]:
    from open_spiel.python.algorithms import cfr, exploitability

    solver = cfr.CFRSolver(game)
    nash_convs = []
    for _ in range(2):
        solver.evaluate_and_update_policy()
        nash_convs.append(exploitability.nash_conv(game, solver.average_policy()))
    return nash_convs[0], nash_convs[1]


@pytest.mark.parametrize("level", ["greedy", "ismcts"])
def test_the_bots_play_the_small_cat_in_the_box(level: str) -> None:
    """Their views name the research side: the bots read its setup, and search samples its worlds."""
    from nekobako.bots import make_bot

    game = get_game("catbox")
    bot = make_bot(level, "catbox", **({"iterations": 30} if level == "ismcts" else {}))
    rng = random.Random(5)
    for _ in range(3):
        state = game.new_initial_state(2, game.options({"side": "small"}, 2, research=True))
        while not state.is_over():
            seat = state.to_move[0]
            if seat < 0:
                state.apply(seat, state.sample_chance(rng))
            else:
                state.apply(seat, bot.choose(state.view(seat), state.legal_actions(seat), rng))
        assert sum(state.view(None)["tricks"]) == 2


def _catbox_game() -> Any:
    pyspiel = pytest.importorskip("pyspiel")
    from nekobako.rl import openspiel

    openspiel.register()
    return pyspiel.load_game("nekobako_catbox", SMALL_CATBOX)


def test_a_small_cat_in_the_box_is_played_whole_through_openspiel() -> None:
    game = _catbox_game()
    rng = random.Random(7)
    for _ in range(10):
        state = game.new_initial_state()
        chance = 0
        while not state.is_terminal():
            if state.is_chance_node():
                chance += 1
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                seat = state.current_player()
                assert state.information_state_string(seat) != state.information_state_string(1 - seat)
                state.apply_action(rng.choice(state.legal_actions()))
        assert chance == 2  # the start player, then one listed deal
        assert sorted(state.returns()) in ([0.0, 1.0], [0.5, 0.5])
        assert state.p.engine.view(None)["rounds"] == 1


def test_the_small_cat_in_the_box_tree_is_small_enough_to_walk_whole() -> None:
    """Documented in docs/research.md: 23,945 nodes, 7,886 decisions in 6,880 information states."""
    game = _catbox_game()
    nodes = decisions = 0
    infosets = set()
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        nodes += 1
        if state.is_terminal():
            continue
        if state.is_chance_node():
            stack.extend(state.child(a) for a, _ in state.chance_outcomes())
            continue
        decisions += 1
        infosets.add(state.information_state_string())
        stack.extend(state.child(a) for a in state.legal_actions())
    assert (nodes, decisions, len(infosets)) == (23_945, 7_886, 6_880)


@pytest.mark.slow
def test_cfr_lowers_the_exploitability_of_the_small_cat_in_the_box() -> None:
    """About a minute: two CFR iterations and two NashConvs over 24,000 Python engine states."""
    first, second = _nash_conv_after_one_and_two_cfr_iterations(_catbox_game())
    assert 0 <= second < first
