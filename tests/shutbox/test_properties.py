"""Properties of random legal play under every combination of options."""

from __future__ import annotations

import json
import random

from hypothesis import given
from hypothesis import strategies as st

from nekobako.engine import CHANCE
from nekobako.games.shutbox import GAME

OPTIONS = st.fixed_dictionaries(
    {
        "tiles": st.sampled_from([9, 10, 12]),
        "scoring": st.sampled_from(["total", "count", "digits"]),
        "length": st.sampled_from(["short", "long"]),
        "simultaneous": st.booleans(),
        "quick": st.booleans(),
        "max_close": st.sampled_from([3, 2, "any"]),
        "one_die": st.sampled_from(["max6", "sum6", "never"]),
    }
)
PLAYERS = st.integers(min_value=1, max_value=12)
SEEDS = st.integers(min_value=0, max_value=2**32)


def play_randomly(players: int, options: dict, seed: int, stop_after: int | None = None):
    """Random legal play; in simultaneous mode a random seat of those to move acts."""
    rng = random.Random(seed)
    state = GAME.new_game(players, options)
    steps = 0
    while state.to_move and (stop_after is None or steps < stop_after):
        to_move = state.to_move
        seat = to_move[rng.randrange(len(to_move))]
        if seat == CHANCE:
            state.apply(CHANCE, state.sample_chance(rng))
        else:
            legal = state.legal_actions(seat)
            assert legal, f"seat {seat} is to move with no legal action"
            state.apply(seat, rng.choice(legal))
        steps += 1
        assert steps < 100_000
    return state


@given(PLAYERS, OPTIONS, SEEDS)
def test_random_play_ends_with_consistent_results(players, options, seed):
    state = play_randomly(players, options, seed)
    assert state.is_over() and state.to_move == ()
    rounds = state.round_scores()
    assert rounds and all(len(r) == players for r in rounds)
    assert state.scores() == [sum(r[s] for r in rounds) for s in range(players)]
    winners = state.winners()
    assert all(0 <= s < players for s in winners)
    assert abs(sum(state.returns()) - (1 if winners else 0)) < 1e-9
    view = state.view(None)
    if any(view["shut"]):
        assert winners == [s for s in range(players) if view["shut"][s]]
    elif winners:
        totals = [state.scores()[s] for s in winners]
        assert len(set(totals)) == 1
    else:
        assert players == 1 and view["eliminated"] == [True]
    assert state.events[-1].kind == "game_over"
    json.dumps(state.full_view())


@given(PLAYERS, OPTIONS, SEEDS, st.integers(min_value=0, max_value=300))
def test_every_view_is_consistent_and_determinizes_exactly(players, options, seed, stop_after):
    state = play_randomly(players, options, seed, stop_after)
    for seat in [None, *range(players)]:
        view = state.view(seat)
        json.dumps(view)
        legal = [str(a) for a in state.legal_actions(seat)] if seat is not None and seat in state.to_move else []
        assert view["legal"] == legal
        assert len(view["boards"]) == players and all(len(b) <= options["tiles"] for b in view["boards"])
        assert GAME.determinize(view, random.Random(0)).full_view() == state.full_view()
