"""Catopomp views (`docs/views.md`): the round summary and the order of the log."""

from __future__ import annotations

import json
import random

import pytest

import scenario
from nekobako.engine import random_step
from nekobako.games.catopomp import GAME
from nekobako.games.catopomp.cards import cards_of
from nekobako.games.catopomp.view import CatopompView
from scenario import CATOPOMP_ROUND_1 as ROUND_1


def test_the_round_summary_holds_the_final_board_and_who_lost_a_gem() -> None:
    state = scenario.run("catopomp", 2, ROUND_1, hand_size=5)
    assert state.view(None)["last_round"] is not None
    for seat in (0, 1, None):
        last = state.view(seat)["last_round"]
        assert last["round"] == 1 and last["loser"] == 1
        assert last["table"]["text"] == "hell 4" and last["table"]["owner"] == 0 and last["table"]["from"] == "hell"
        assert last["hell"] == [[], []] and last["dice"]["centre"] == [1, 1, 1]
        assert last["removed"] == [1, 2, 3, 5]  # the earlier plays; "hell 4" is still on the table
        # seat 1 passed throughout with 6 7 8 9 10: five cards in hand, none in hell; they stay hidden
        assert last["seats"] == [
            {"cards_left": 0, "hand": 0, "lost_gem": False, "gems": 2},
            {"cards_left": 5, "hand": 5, "lost_gem": True, "gems": 1},
        ]
        assert "10" not in json.dumps(last)


def test_the_summary_stays_through_the_next_round_and_is_replaced_when_it_ends() -> None:
    state = scenario.run("catopomp", 2, [*ROUND_1, "deal 1 2 3 4 5 | 6 7 8 9 10"], hand_size=5)
    assert state.view(0)["last_round"]["round"] == 1 and state.view(0)["round"] == 2
    assert scenario.run("catopomp", 2, ROUND_1[:-1], hand_size=5).view(0)["last_round"] is None


def test_the_play_that_ends_a_round_is_logged_before_its_consequences() -> None:
    state = scenario.run("catopomp", 2, ROUND_1, hand_size=5)
    last_play = len(state.history) - 1
    assert str(state.history[last_play][1]) == "hell 4"
    after = [e.kind for e in state.events if e.at > last_play]
    assert after == ["player_out", "gem_lost", "round_over", "round_start"]
    assert all(e.at == last_play + 1 for e in state.events if e.at > last_play)
    assert next(e.at for e in state.events if e.kind == "round_start") == 1  # right after "start 0"
    assert GAME.describe(state.events[-1]).startswith("Round 2")


@pytest.mark.parametrize(("players", "options"), [(2, {}), (3, {"extra_cards": "both"}), (4, {"casual": True})])
def test_the_typed_view_holds_what_the_state_holds(players: int, options: dict) -> None:
    """`GAME.read_view` (what determinize and the greedy bot read) against the state's own fields."""
    rng = random.Random(players)
    for _ in range(2):
        state = GAME.new_game(players, options)
        while not state.is_over():
            for seat in [None, *range(players)]:
                seen = GAME.read_view(state.view(seat))
                assert isinstance(seen, CatopompView)
                assert (seen.phase, seen.round, seen.start_player) == (state.phase, state.round, state.start_player)
                assert seen.table == state.table
                assert seen.table_owner == (state.table_owner if state.table is not None else None)
                assert [list(h) for h in seen.hell] == [cards_of(h) for h in state.hells]
                assert list(seen.removed) == cards_of(state.removed) and list(seen.gems) == state.gems
                assert list(seen.hand_counts) == state.hand_n and list(seen.used) == state.used
                assert seen.passed == tuple(s for s in range(players) if state.passed >> s & 1)
                assert seen.hand == (() if seat is None else tuple(cards_of(state.hands[seat])))
            random_step(state, rng)
