"""The notation of rules §9: one canonical text per action, parse ∘ print = identity."""

from __future__ import annotations

import pytest

from nekobako.engine import InvalidOptions, MalformedAction
from nekobako.games.catopomp import GAME
from worded import assert_worded

CANONICAL = [
    "start 1",
    "deal 1 1 4 | 2 3 M | 5 C C",
    "dice 3 5 6 1",
    "dice",
    "spare 4",
    "play 3 4 5",
    "play 3 4 +d5",
    "play 3 4 +d2+3",
    "play 3 5 +s4",
    "play 3 4 +s4+d1",
    "play 4 4 M=4 +d4",
    "play 4 4 M=4 +d1+3",
    "play 1 2 M",
    "play 1 3 C swap 2",
    "play C swap 7",
    "play C swap M",
    "play 1 2 C swap C",
    "play 4 C +d4 swap M=4",
    "play 4 M=4 C +d4 swap M",
    "play M C",
    "hell 4 4",
    "hell 4 +d5",
    "hell M=6 +d6",
    "bury 7",
    "bury M",
    "pass",
    "give 6",
    "give C",
    "discard 6",
    "keep",
    # well-formed but never legal: still one text
    "play 3 4 5 +d5",
    "play 1 2 3 4 5",
    "play +d6",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_text_round_trips(text: str) -> None:
    action = GAME.parse_action(text)
    assert str(action) == text
    assert GAME.parse_action(str(action)) is action or GAME.parse_action(str(action)) == action


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("play 5 3 4", "play 3 4 5"),
        ("play C 3 1 swap 2", "play 1 3 C swap 2"),
        ("play c swap m", "play C swap M"),
        ("play 4 M C +d4 swap M=4", "play 4 M=4 C +d4 swap M"),  # the hand's Mitch takes the number first
        ("play M=4 4 4 +d4", "play 4 4 M=4 +d4"),
        ("play 3 4 +d3+2", "play 3 4 +d2+3"),
        ("play 3 4 +s4d1", "play 3 4 +s4+d1"),
        ("PLAY 1 2 m", "play 1 2 M"),
        ("deal 4 1 1 | M 3 2 | C 5 C", "deal 1 1 4 | 2 3 M | 5 C C"),
    ],
)
def test_other_spellings_parse_to_the_canonical_action(text: str, canonical: str) -> None:
    assert str(GAME.parse_action(text)) == canonical


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("", "engine.notation.empty"),
        ("   ", "engine.notation.empty"),
        ("play", "catopomp.notation.no_cards"),
        ("play 0", "catopomp.notation.card_0"),
        ("play 21", "catopomp.notation.card"),
        ("play x", "catopomp.notation.card"),
        ("play 3 +d7", "catopomp.notation.boost"),
        ("play 3 +d1+2+3", "catopomp.notation.boost"),
        ("play 3 +s1+d2+3", "catopomp.notation.boost_dice"),
        ("play 3 +d1 +d2", "catopomp.notation.boost"),
        ("play 3 +", "catopomp.notation.boost"),
        ("play M=4", "catopomp.notation.mitch_value"),
        ("play 4 M=5 +d4", "catopomp.notation.mitch_value"),
        ("play 1 C swap", "catopomp.notation.swap"),
        ("play 1 C swap M=", "catopomp.notation.card"),
        ("play 1 C swap X", "catopomp.notation.card"),
        ("play 4 C +d4 swap M=5", "catopomp.notation.mitch_value"),
        ("play 1 C swap 2 swap 3", "catopomp.notation.swap"),
        ("bury", "catopomp.notation.one_card"),
        ("bury 0", "catopomp.notation.card_0"),
        ("bury 3 4", "catopomp.notation.one_card"),
        ("give", "catopomp.notation.one_card"),
        ("spare 7", "catopomp.notation.face"),
        ("spare", "catopomp.notation.spare"),
        ("start x", "catopomp.notation.start"),
        ("dice 0", "catopomp.notation.face"),
        ("pass 3", "catopomp.notation.unknown"),
        ("keep 1", "catopomp.notation.unknown"),
        ("hello", "catopomp.notation.unknown"),
        ("deal 1 2 | 3 X", "catopomp.notation.card"),
    ],
)
def test_malformed_text_is_refused_with_a_reason(text: str, key: str) -> None:
    with pytest.raises(MalformedAction) as info:
        GAME.parse_action(text)
    assert_worded(info.value, key)  # the reason, in both languages, not just any text


def test_non_text_is_refused() -> None:
    with pytest.raises(MalformedAction):
        GAME.parse_action(7)  # type: ignore[arg-type]


def test_actions_are_interned_values() -> None:
    assert GAME.parse_action("play 3 4 +d5") == GAME.parse_action("play 4 3 +d5")
    assert GAME.parse_action("pass") is GAME.parse_action(" pass ")
    action = GAME.parse_action("play 4 4 M=4 +d4")
    with pytest.raises(AttributeError):
        action.cards = ()  # type: ignore[misc]
    assert hash(action) == hash(GAME.parse_action("play 4 4 M=4 +d4"))


def test_play_combination_of_notation() -> None:
    run = GAME.parse_action("play 1 3 C swap 2")
    assert (run.combo, run.size, run.rank, run.values) == ("run", 3, 3, (1, 2, 3))
    mitch = GAME.parse_action("play 4 4 M=4 +d1+3")
    assert (mitch.combo, mitch.size, mitch.rank, mitch.dice_value) == ("set", 4, 4, 4)
    assert GAME.parse_action("play 1 2 M").values == (0, 1, 2)
    assert str(GAME.parse_action("play 3 4 5 +d5").problem) == "3-4-5-5 is neither a run nor a set."


def test_strength_order() -> None:
    """Size first, then set over run, then the number (rules §3)."""
    order = ["play M", "play 12", "play 1 2", "play 11 12", "play 1 1", "play 12 12", "play 1 2 3", "play 10 11 12"]
    order += ["play 1 1 1", "play 1 2 3 4", "play 9 10 11 12", "play 1 1 1 1", "play 12 12 12 12"]
    strengths = [GAME.parse_action(t).strength for t in order]
    assert strengths == sorted(strengths) and len(set(strengths)) == len(strengths)


# -- options -------------------------------------------------------------------------------------------


def test_house_defaults() -> None:
    for players in (2, 3, 4):
        options = GAME.options({}, players)
        assert options.deck == tuple((n, 4) for n in range(1, 13))
        assert options.hand_size == 10
        assert options.dice == players + 1
        assert options.gems == 2
        assert options.casual is False
        assert options.extra_cards == "none"


def test_options_are_parsed_from_text_and_json() -> None:
    assert GAME.options({"deck": "1-10x4,11:2"}, 3).deck == (*((n, 4) for n in range(1, 11)), (11, 2))
    assert GAME.options({"deck": [[2, 6], [1, 4]], "hand_size": 5}, 2).deck == ((1, 4), (2, 6))
    options = GAME.options({"hand_size": "12", "dice": "8", "gems": 5, "casual": "on", "extra_cards": "both"}, 4)
    assert (options.hand_size, options.dice, options.gems, options.casual, options.extra_cards) == (
        12,
        8,
        5,
        True,
        "both",
    )


@pytest.mark.parametrize(
    ("options", "players", "words"),
    [
        ({"hand_size": 4}, 2, "hand_size"),
        ({"hand_size": 17}, 2, "hand_size"),
        ({"dice": 1}, 2, "dice"),
        ({"dice": 9}, 2, "dice"),
        ({"gems": 0}, 2, "gems"),
        ({"gems": 6}, 2, "gems"),
        ({"casual": "maybe"}, 2, "casual"),
        ({"extra_cards": "joker"}, 2, "extra_cards"),
        ({"hell_power": True}, 2, "no option 'hell_power'"),
        ({"deck": "1-12"}, 2, "deck"),
        ({"deck": [[0, 4], [1, 4]]}, 2, "1 to 20"),
        ({"deck": [[1, 9], [2, 4]]}, 2, "copies"),
        ({"deck": [[1, 4], [1, 4]]}, 2, "twice"),
        ({"deck": [[1, 4]]}, 2, "two numbers"),
        ({"deck": 12}, 2, "deck"),
        ({"hand_size": 16}, 4, "need 64 cards"),
        ({"deck": "1-5x2", "hand_size": 6}, 2, "need 12 cards"),
    ],
)
def test_invalid_options_are_explained(options: dict, players: int, words: str) -> None:
    with pytest.raises(InvalidOptions) as info:
        GAME.options(options, players)
    assert words in str(info.value)
    assert_worded(info.value, info.value.code)


def test_player_counts() -> None:
    for players in (1, 5, "2"):
        with pytest.raises(InvalidOptions):
            GAME.new_game(players, {})  # type: ignore[arg-type]


def test_extra_cards_fill_the_deck_and_no_hell_power() -> None:
    names = [spec["name"] for spec in GAME.describe_options()]
    assert names == ["deck", "hand_size", "dice", "gems", "casual", "extra_cards", "hints"]
    assert "hell" not in " ".join(names)
    state = GAME.new_game(3, {"extra_cards": "both", "hand_size": 16})  # 48 + 3 extras ≥ 48
    assert sum(state.rules.deck) == 51
    assert state.rules.deck[21] == 2 and state.rules.deck[22] == 1  # Mitch, Cat-leton, Mitch


def test_parsing_text_from_outside_does_not_grow_the_intern_tables() -> None:
    """A client sending endless distinct well-formed plays must not fill the server's memory."""
    from nekobako.games.catopomp import actions as A

    before = len(A.PLAYS_BY_KEY)
    texts = [f"hell {a} {b} {c} +d{d}" for a in range(1, 13) for b in range(1, 13) for c in (11, 12) for d in (5, 6)]
    parsed = [GAME.parse_action(t) for t in texts]
    assert len(A.PLAYS_BY_KEY) == before
    assert all(A._interned(action) for action in A._CANONICAL.values())
    # a parsed but not interned play still equals (and hashes like) the interned one of the same text
    legal_twin = A.play(True, parsed[0].cards, parsed[0].mitch_as, parsed[0].dice, parsed[0].spare, parsed[0].swap)
    assert parsed[0] == legal_twin and hash(parsed[0]) == hash(legal_twin) and parsed[0] in (legal_twin,)
