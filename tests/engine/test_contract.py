"""The shared parts of the contract, exercised through a real game (Shut the Box)."""

from __future__ import annotations

import random

import pytest

from nekobako.engine import CHANCE, Event, MalformedAction, check_text, game_names, get_game, random_playout
from nekobako.engine.errors import UnknownGame
from worded import assert_worded


def test_registry_finds_games_by_name():
    assert "shutbox" in game_names()
    assert get_game("shutbox").name == "shutbox"
    with pytest.raises(UnknownGame, match="no game 'go'"):
        get_game("go")


def test_check_text_refuses_what_is_not_notation():
    assert check_text("  shut 2   7 ") == ["shut", "2", "7"]
    for bad, key in [("", "empty"), ("   ", "empty"), ("x" * 201, "too_long"), (7, "not_text")]:
        with pytest.raises(MalformedAction) as info:
            check_text(bad)
        assert_worded(info.value, f"engine.notation.{key}")


def test_events_read_in_both_languages_with_names():
    game = get_game("shutbox")
    event = Event("box_shut", 1, {}, 12)
    assert game.describe(event) == "Seat 1 shut the box!"
    assert game.describe(event, "ja") == "席1がシャット・ザ・ボックス！"
    assert game.describe(event, names=["Ann", "Bo"]) == "Bo shut the box!"
    assert game.describe(Event("unknown_kind")) == "unknown_kind"
    assert event.to_json() == {"kind": "box_shut", "seat": 1, "data": {}, "at": 12}


def test_random_playout_counts_actions_and_stops_at_the_end():
    state = get_game("shutbox").new_game(3)
    count = random_playout(state, random.Random(4))
    assert state.is_over() and count == len(state.history)
    partial = get_game("shutbox").new_game(3)
    assert random_playout(partial, random.Random(4), max_actions=5) == 5 and len(partial.history) == 5


def test_view_envelope_and_history_for_each_viewer():
    state = get_game("shutbox").new_game(2)
    state.act(CHANCE, "start 0")
    state.act(0, "roll")
    spectator, player = state.view(None), state.view(0)
    for view in (spectator, player):
        assert view["to_move"] == "chance" and view["history"] == [[-1, "start 0"], [0, "roll"]]
        assert view["rolling"] == 0 and view["current"] == 0
    assert spectator["seat"] is None and player["seat"] == 0 and player["legal"] == []
    assert state.full_view()["history"] == spectator["history"]


def test_events_are_immutable_hashable_values():
    event = Event("turn_over", 1, {"open": [1, 2], "detail": {"dice": [3, 4]}}, 3)
    twin = Event("turn_over", 1, {"open": (1, 2), "detail": {"dice": (3, 4)}}, 3)
    assert event == twin and hash(event) == hash(twin) and len({event, twin}) == 1
    with pytest.raises(TypeError):
        event.data["open"] = [5]  # type: ignore[index]
    with pytest.raises(TypeError):
        event.data["detail"]["dice"] = [5]
    assert event.to_json() == {
        "kind": "turn_over",
        "seat": 1,
        "data": {"open": [1, 2], "detail": {"dice": [3, 4]}},
        "at": 3,
    }
    assert hash(Event("game_over")) == hash(Event("game_over", None, {}, 0))
