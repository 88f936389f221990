"""Notation (rules §9), options (§1 `side`) and event words."""

from __future__ import annotations

import random

import pytest

from nekobako.engine import InvalidOptions, MalformedAction, get_game, random_playout
from nekobako.games.catbox import GAME
from nekobako.games.catbox.actions import DISCARDS, PLAYS, PREDICTS, Deal, Start
from worded import assert_worded


def test_registry_finds_the_game():
    assert get_game("catbox") is GAME
    assert GAME.name == "catbox" and (GAME.min_players, GAME.max_players) == (2, 5)


def test_every_player_action_round_trips_and_is_interned():
    for number in range(1, 10):
        for colour in range(4):
            play = PLAYS[number][colour]
            assert GAME.parse_action(str(play)) is play
        assert GAME.parse_action(f"discard {number}") is DISCARDS[number]
        assert GAME.parse_action(f"predict {number}") is PREDICTS[number]
    assert str(GAME.parse_action("  PLAY 7   Red ")) == "play 7 red"
    assert GAME.parse_action("start 3") == Start(3)


def test_deal_notation_is_canonical_sorted():
    deal = GAME.parse_action("deal 2 1 1 | 3 1 2 | reveal 5 4 4 | hidden 5 3")
    assert isinstance(deal, Deal)
    assert str(deal) == "deal 1 1 2 | 1 2 3 | reveal 4 4 5 | hidden 3 5"
    assert GAME.parse_action(str(deal)) == deal
    assert str(GAME.parse_action("deal 3 2 1|6 5 4")) == "deal 1 2 3 | 4 5 6"


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("", "engine.notation.empty"),
        ("   ", "engine.notation.empty"),
        ("play", "catbox.notation.play"),
        ("play 7", "catbox.notation.play"),
        ("play 7 purple", "catbox.notation.colour"),
        ("play 10 red", "catbox.notation.card"),
        ("play 0 red", "catbox.notation.card"),
        ("play seven red", "catbox.notation.card"),
        ("play 7 red now", "catbox.notation.play"),
        ("discard", "catbox.notation.verb_number"),
        ("discard 1 2", "catbox.notation.verb_number"),
        ("predict 0", "catbox.notation.prediction"),
        ("predict -1", "catbox.notation.prediction"),
        ("start 9", "catbox.notation.seat"),
        ("jump 3", "catbox.notation.unknown"),
        ("deal 1 2 | reveal 1 2 3 | 4 5", "catbox.notation.deal_order"),
        ("deal 1 2 | reveal 1 2 3", "catbox.refusal.deal_centre"),
        ("deal 1 x 2", "catbox.notation.card"),
        ("x" * 300, "engine.notation.too_long"),
        (
            "play ² red",
            "catbox.notation.card",
        ),  # `str.isdigit` takes "²"; `int` raised a bare ValueError on it
        ("discard ²", "catbox.notation.card"),
        ("start ²", "catbox.notation.seat"),
        ("play ٣ red", "catbox.notation.card"),  # read as 3 before: not canonical notation
    ],
)
def test_malformed_text_is_refused_with_a_reason(text: str, key: str):
    with pytest.raises(MalformedAction) as err:
        GAME.parse_action(text)
    assert_worded(err.value, key)  # the reason, in both languages, not just any text


def test_non_text_and_foreign_actions_are_refused():
    with pytest.raises(MalformedAction):
        GAME.parse_action(7)  # type: ignore[arg-type]
    state = GAME.new_game(3)
    with pytest.raises(MalformedAction):
        state.apply(0, "play 1 red")  # a string is not an action value


@pytest.mark.parametrize(("players", "side"), [(2, "white"), (3, "white"), (4, "white"), (5, "purple")])
def test_side_default_depends_on_player_count(players: int, side: str):
    assert GAME.options(None, players)["side"] == side


def test_purple_at_two_players_is_refused_saying_why():
    with pytest.raises(InvalidOptions) as err:
        GAME.new_game(2, {"side": "purple"})
    assert "2 players" in str(err.value) and "white" in str(err.value) and "2人" in err.value.text("ja")
    assert_worded(err.value, "catbox.options.purple_at_2")


def test_white_at_five_players_is_refused_saying_why():
    with pytest.raises(InvalidOptions) as err:
        GAME.new_game(5, {"side": "white"})
    assert "5 players" in str(err.value) and "purple" in str(err.value) and "5人" in err.value.text("ja")
    assert_worded(err.value, "catbox.options.white_at_5")


@pytest.mark.parametrize("players", [3, 4])
def test_both_sides_allowed_at_three_and_four(players: int):
    for side in ("white", "purple", "PURPLE"):
        assert GAME.new_game(players, {"side": side}).view(None)["layout"]["side"] == side.lower()


def test_bad_option_values_and_player_counts_are_refused():
    with pytest.raises(InvalidOptions, match="white, purple"):
        GAME.new_game(3, {"side": "green"})
    with pytest.raises(InvalidOptions, match="no option 'board'"):
        GAME.new_game(3, {"board": "white"})
    for players in (1, 6):
        with pytest.raises(InvalidOptions, match="2–5 players"):
            GAME.new_game(players)
    assert [o["name"] for o in GAME.describe_options()] == ["side", "hints"]


def test_every_event_has_words_in_english_and_japanese():
    kinds = set()
    for players in (2, 3, 4, 5):
        state = GAME.new_game(players)
        random_playout(state, random.Random(players))
        for event in state.events:
            kinds.add(event.kind)
            en, ja = GAME.describe(event, "en"), GAME.describe(event, "ja", names=[f"P{i}" for i in range(players)])
            assert "{" not in en and "{" not in ja and en != ja
    assert kinds >= {"round_started", "discards_done", "trick_won", "round_scored", "game_over", "x_lost"}
    assert kinds <= set(GAME.messages)
