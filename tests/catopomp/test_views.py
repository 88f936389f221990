"""Catopomp views (`docs/views.md`): the round summary and the order of the log."""

from __future__ import annotations

import json

import scenario
from nekobako.games.catopomp import GAME
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
