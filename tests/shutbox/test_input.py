"""Options and notation: bad input is refused with a reason and changes nothing."""

from __future__ import annotations

import copy
import pickle

import pytest

from nekobako.engine import CHANCE, IllegalAction, InvalidOptions, MalformedAction, get_game
from nekobako.games.shutbox import GAME, ROLL, Dice, Shut, Start, parse_action
from nekobako.i18n import text as words
from worded import assert_worded


# -- options ---------------------------------------------------------------------------------------
def test_defaults_are_the_arena_defaults():
    opts = GAME.options(None, 2)
    assert opts.to_json() == {
        "tiles": 9,
        "scoring": "total",
        "length": "short",
        "simultaneous": False,
        "quick": False,
        "max_close": 3,
        "one_die": "max6",
        "hints": False,
    }
    assert get_game("shutbox") is GAME


def test_options_are_coerced_from_text():
    opts = GAME.options({"tiles": "12", "simultaneous": "on", "max_close": "any", "quick": "yes"}, 3)
    assert (opts.tiles, opts.simultaneous, opts.max_close, opts.quick) == (12, True, "any", True)
    assert GAME.options({"max_close": "2"}, 1).max_close == 2


@pytest.mark.parametrize(
    ("raw", "players", "message"),
    [
        ({"tiles": 11}, 2, "Option 'tiles' cannot be 11; choose one of: 9, 10, 12."),
        ({"scoring": "sum"}, 2, "choose one of: total, count, digits"),
        ({"length": "medium"}, 2, "choose one of: short, long"),
        ({"max_close": 4}, 2, "choose one of: 3, 2, any"),
        ({"one_die": "always"}, 2, "choose one of: max6, sum6, never"),
        ({"colour": "red"}, 2, "There is no option 'colour'"),
        ({}, 13, "Shut the Box is for 1–12 players, not 13"),
        ({}, 0, "not 0"),
    ],
)
def test_bad_options_are_refused_in_a_players_words(raw, players, message):
    with pytest.raises(InvalidOptions) as info:
        GAME.new_game(players, raw)
    assert message in str(info.value)
    assert_worded(info.value, info.value.code)


def test_option_table_has_help_in_both_languages():
    described = GAME.describe_options()
    assert {d["name"] for d in described} == {
        "tiles",
        "scoring",
        "length",
        "simultaneous",
        "quick",
        "max_close",
        "one_die",
        "hints",
    }
    for d in described:
        assert words(d["help"], "en") != words(d["help"], "ja")


# -- notation ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["roll", "roll 1", "dice 3 4", "dice 5", "shut 2 7", "shut 1 2 9", "start 0"])
def test_notation_round_trips(text):
    action = parse_action(text)
    assert str(action) == text
    assert parse_action(str(action)) is action  # interned: one object per action


def test_equivalent_spellings_print_canonically():
    assert str(parse_action("dice 4 3")) == "dice 3 4"
    assert str(parse_action("SHUT 7 2")) == "shut 2 7"
    assert parse_action("roll 2") is ROLL
    assert Shut(2, 7) is parse_action("shut 2 7") and Dice(4, 3) is Dice(3, 4)


def test_actions_are_immutable_and_survive_copies():
    action = Shut(2, 7)
    with pytest.raises(AttributeError):
        action.mask = 1  # type: ignore[misc]
    assert copy.deepcopy(action) is action
    assert pickle.loads(pickle.dumps(action)) is action
    assert pickle.loads(pickle.dumps(Start(3))) is Start(3)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "empty"),
        ("jump", "no action .jump."),
        ("roll 3", "roll 1"),
        ("dice 7", "from 1 to 6"),
        ("dice 1 2 3", "dice 3 4"),
        ("dice x", "digits"),
        ("dice ²", "digits"),
        ("shut +7", "digits"),
        ("shut 1_0", "digits"),
        ("shut ٣", "digits"),
        ("shut", "at least one tile"),
        ("shut 2 2", "named twice"),
        ("shut 13", "1 to 12"),
        ("shut 0", "1 to 12"),
        ("start", "seat"),
        ("start -1", "in digits"),
    ],
)
def test_malformed_text_says_why(text, why):
    with pytest.raises(MalformedAction, match=f"(?i){why}"):
        parse_action(text)
    with pytest.raises(MalformedAction):
        parse_action(None)  # type: ignore[arg-type]


# -- illegal actions change nothing ----------------------------------------------------------------
def position():
    state = GAME.new_game(2)
    for seat, text in [(CHANCE, "start 0"), (0, "roll"), (CHANCE, "dice 3 4"), (0, "shut 7"), (0, "roll")]:
        state.act(seat, text)
    return state  # seat 0 has rolled; chance is to move


@pytest.mark.parametrize(
    ("seat", "text", "why"),
    [
        (0, "roll", "waiting for a dice roll"),
        (1, "roll", "waiting for a dice roll"),
        (CHANCE, "dice 5", "two dice"),
        (CHANCE, "start 1", "two dice"),
        (5, "roll", "no seat 5"),
    ],
)
def test_illegal_while_chance_is_to_move(seat, text, why):
    state = position()
    before = state.full_view()
    with pytest.raises(IllegalAction, match=f"(?i){why}"):
        state.act(seat, text)
    assert state.full_view() == before


@pytest.mark.parametrize(
    ("seat", "text", "why"),
    [
        (0, "shut 7", "tile 7 is already shut"),
        (0, "shut 10", "tile 10 is not on this board"),
        (0, "shut 2 4", "2 \\+ 4 = 6, not the dice total 9"),
        (0, "roll", "close tiles adding up to 9"),
        (1, "roll", "it is not your turn"),
        (CHANCE, "dice 3 3", "no dice or deal is pending"),
        (0, "dice 3 3", "chance outcome"),
        (0, "shut 1 2 6", None),  # legal: the control case
    ],
)
def test_illegal_after_the_dice(seat, text, why):
    state = position()
    state.act(CHANCE, "dice 4 5")
    before = state.full_view()
    if why is None:
        state.act(seat, text)
        assert state.full_view() != before
        return
    with pytest.raises(IllegalAction, match=f"(?i){why}") as info:
        state.act(seat, text)
    assert state.full_view() == before
    assert_worded(info.value, info.value.code)


def test_non_actions_are_refused():
    state = position()
    state.act(CHANCE, "dice 4 5")
    with pytest.raises(MalformedAction, match="not a Shut the Box action"):
        state.apply(0, "shut 9")
    with pytest.raises(MalformedAction):
        state.apply(CHANCE, object())
