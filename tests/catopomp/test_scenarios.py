"""One scenario per rule: records in the canonical notation with forced deals and dice, replayed
through `nekobako.engine.replay`; refused actions must raise and leave the state unchanged."""

from __future__ import annotations

import random
from typing import Any

import pytest

import scenario
from nekobako.engine import BadRecord, IllegalAction, MalformedAction
from nekobako.games.catopomp import GAME, CatopompState
from scenario import CATOPOMP_ROUND_1 as ROUND_1
from scenario import CATOPOMP_ROUND_2 as ROUND_2
from scenario import legal, refused


def run(players: int, actions: list[str], **options: Any) -> CatopompState:
    state = scenario.run("catopomp", players, actions, **options)
    assert isinstance(state, CatopompState)
    return state


def table_text(state: CatopompState) -> str | None:
    view = state.view(None)
    return view["table"]["text"] if view["table"] else None


def test_four_card_run_beats_three_card_set() -> None:
    state = run(
        3,
        ["start 0", "deal 5 5 5 9 12 | 1 2 3 4 11 | 6 7 8 10 12", "dice 1 1 1 1", "0: play 5 5 5", "0: bury 12"],
        hand_size=5,
    )
    assert "play 1 2 3 4" in legal(state, 1)
    assert "play 1 2 3" not in legal(state, 1)  # a 3-card run is weaker than a 3-card set
    refused(state, 1, "play 1 2 3")
    state.act(1, "play 1 2 3 4")
    view = state.view(None)
    assert view["table"]["kind"] == "run" and view["table"]["size"] == 4 and view["table"]["owner"] == 1
    assert view["phase"] == "bury" and view["current"] == 1


def test_set_beats_run_of_equal_size_and_higher_number_wins() -> None:
    state = run(2, ["start 0", "deal 1 2 7 8 12 | 3 3 4 5 11", "dice 6 6 6", "0: play 1 2", "0: bury 12"], hand_size=5)
    assert {"play 3 3", "play 4 5", "play 3 4", "play 3 4 5"} <= set(legal(state, 1))
    state.act(1, "play 3 3")
    state.act(1, "bury 11")
    assert state.view(None)["table"]["kind"] == "set"
    refused(state, 0, "play 7 8")  # a run never beats a set of the same size
    assert "play 7 8" not in legal(state, 0)
    # seat 0 holds 7 8 in hand and 12 in hell; the dice show 6 6 6: a 3-card run or a higher pair
    assert set(legal(state, 0)) == {"pass", "play 7 8 +d6", "hell 12 +d6+6"}


def test_strictly_stronger_equal_is_refused_and_pass_does_not_lock_out() -> None:
    state = run(
        3,
        ["start 0", "deal 7 9 10 11 12 | 7 1 2 3 4 | 8 8 5 6 6", "dice 1 1 1 1", "0: play 7", "0: bury 12"],
        hand_size=5,
    )
    message = refused(state, 1, "play 7")
    assert "not stronger" in message
    state.act(1, "pass")
    state.act(0, "keep")  # seat 0 has one hell card: giving it is optional
    state.act(2, "play 8")
    state.act(2, "bury 5")
    state.act(0, "pass")
    state.act(2, "keep")
    assert state.to_move == (1,)  # seat 1 passed earlier in this trick and may play again
    assert "play 1" not in legal(state, 1) and "play 1 2" in legal(state, 1)
    state.act(1, "play 1 2")
    assert state.view(None)["table"]["owner"] == 1


def test_heaven_play_buries_one_card_and_emptying_the_hand_buries_nothing() -> None:
    state = run(2, ["start 0", "deal 1 2 3 4 5 | 6 7 8 9 10", "dice 1 1 1", "0: play 1 2 3"], hand_size=5)
    assert legal(state, 0) == ["bury 4", "bury 5"]
    refused(state, 1, "pass")  # seat 0 must bury first
    refused(state, 0, "bury 9")
    state.act(0, "bury 4")
    view = state.view(0)
    assert view["hand"] == [5] and view["hell"][0] == [4]
    state.act(1, "pass")
    state.act(0, "keep")
    state.act(0, "play 5")  # the play empties the hand: no bury
    view = state.view(0)
    assert view["phase"] == "play" and view["current"] == 1 and view["hand"] == [] and view["hell"][0] == [4]


def test_table_clears_when_everyone_else_passed_and_owner_leads() -> None:
    state = run(
        3,
        [
            "start 0",
            "deal 5 9 10 11 12 | 1 2 3 4 6 | 1 2 3 4 6",
            "dice 1 1 1 1",
            "0: play 12",
            "0: bury 11",
            "1: pass",
            "0: keep",
            "2: pass",
            "0: keep",
        ],
        hand_size=5,
    )
    view = state.view(None)
    assert view["table"] is None and view["current"] == 0 and view["passed"] == []
    assert any(e.kind == "trick_cleared" and e.seat == 0 for e in state.events)
    assert "pass" not in legal(state, 0)  # the leader must play
    refused(state, 0, "pass")


def test_round_ends_when_one_player_holds_cards() -> None:
    state = run(2, ROUND_1, hand_size=5)
    view = state.view(None)
    assert view["gems"] == [2, 1]
    assert state.round_scores() == [[0, -1]]
    assert view["round"] == 2 and view["start_player"] == 1 and view["phase"] == "deal"
    assert not state.is_over()
    lost = [e for e in state.events if e.kind == "gem_lost"]
    assert len(lost) == 1 and lost[0].seat == 1
    assert GAME.describe(lost[0]) == "Seat 1 still holds cards and loses a soul gem (1 left)"
    assert "ソウルジェム" in GAME.describe(lost[0], "ja")


def test_game_ends_at_zero_gems() -> None:
    state = run(2, ROUND_1, hand_size=5, gems=1)
    assert state.is_over()
    assert state.winners() == [0]
    assert state.scores() == [1, 0]
    assert state.to_move == ()
    assert not state.legal_actions(0) and not state.legal_actions(1)
    assert state.returns() == [1.0, 0.0]
    with pytest.raises(BadRecord):
        run(2, [*ROUND_1, "deal 1 2 3 4 5 | 6 7 8 9 10"], hand_size=5, gems=1)


def test_scores_and_round_scores_are_whole_numbers_in_the_engine_views_and_replays() -> None:
    # Soul gems are counted, never measured: `2`, not `2.0`, wherever a person or a program reads them.
    import json

    from nekobako.engine import summary

    for gems in (2, 1):  # a round lost, and a game over
        state = run(2, ROUND_1, hand_size=5, gems=gems)
        for scores, rounds in (
            (state.scores(), state.round_scores()),
            (state.view(0)["scores"], state.view(None)["round_scores"]),
            (summary(state)["scores"], summary(state)["round_scores"]),
        ):
            assert scores == [gems, gems - 1] and rounds == [[0, -1]]
            assert all(type(v) is int for v in [*scores, *rounds[0]])
        text = json.dumps(summary(state))
        assert f'"scores": [{gems}, {gems - 1}]' in text and '"round_scores": [[0, -1]]' in text


def test_hell_single_refused_while_hand_not_empty_allowed_after() -> None:
    state = run(
        2,
        ["start 0", "deal 1 2 3 4 5 | 6 7 8 9 10", "dice 1 1 1", "0: play 1 2 3", "0: bury 4", "1: pass", "0: keep"],
        hand_size=5,
    )
    message = refused(state, 0, "hell 4")
    assert "2 or more" in message
    assert "hell 4" not in legal(state, 0)
    state.act(0, "play 5")
    state.act(1, "pass")
    state.act(0, "keep")
    assert "hell 4" in legal(state, 0)
    state.act(0, "hell 4")


def test_hell_card_plus_dice_boost_counts_as_a_pair() -> None:
    state = run(
        2,
        ["start 0", "deal 1 5 7 8 9 | 2 3 4 6 10", "dice 5 6 1", "0: play 1", "0: bury 5", "1: pass", "0: keep"],
        hand_size=5,
    )
    refused(state, 0, "hell 5")
    assert {"hell 5 +d5", "hell 5 +d6", "hell 5 +d1+5"} <= set(legal(state, 0))
    state.act(0, "hell 5 +d6")
    view = state.view(None)
    assert view["table"]["kind"] == "run" and view["table"]["values"] == [5, 6] and view["table"]["dice"] == 6
    assert view["dice"]["centre"] == [1, 5] and view["dice"]["used"][0] == [6]
    assert view["phase"] == "play" and view["current"] == 1  # nothing is buried after a hell play
    assert view["hell"][0] == []


def test_dice_boost_once_per_round_and_never_alone() -> None:
    state = run(3, ["start 0", "deal 1 5 7 8 9 | 2 3 4 6 10 | 1 2 3 4 5", "dice 2 2 6 6", "0: play 5 +d6"], hand_size=5)
    state.act(0, "bury 1")
    state.act(1, "pass")
    state.act(0, "keep")
    state.act(2, "pass")
    state.act(0, "keep")
    assert state.view(None)["boost_used"] == [True, False, False]
    message = refused(state, 0, "play 7 8 +d6")
    assert "already used" in message
    assert not any("+" in text for text in legal(state, 0))
    assert "alone" in refused(state, 0, "play +d6")


THREE_HELL_CARDS = [
    "start 0",
    "deal 1 2 3 4 5 6 7 8 | 9 9 9 10 10 10 11 11",
    "dice 1 1 1",
    "0: play 1",
    "0: bury 8",
    "1: pass",
    "0: keep",
    "0: play 2",
    "0: bury 7",
    "1: pass",
    "0: keep",
    "0: play 3",
    "0: bury 6",
    "1: pass",
]
"""Two players, eight cards each: seat 0 buries 8, 7 and 6 in its hell, and seat 1 passes again."""


def test_mandatory_transfer_at_three_hell_cards() -> None:
    state = run(
        2,
        THREE_HELL_CARDS,
        hand_size=8,
    )
    assert state.view(None)["phase"] == "transfer" and state.to_move == (0,)
    assert legal(state, 0) == ["give 6", "give 7", "give 8"]
    refused(state, 0, "keep")
    refused(state, 0, "discard 6")  # only in casual mode
    state.act(0, "give 6")
    view = state.view(None)
    assert view["hell"] == [[7, 8], [6]]
    assert view["table"] is None and view["current"] == 0  # seat 1 passed: the table clears
    assert any(e.kind == "hell_given" and e.data == {"card": 6, "to": 1} for e in state.events)


def test_transfer_is_optional_below_three_hell_cards() -> None:
    state = run(
        2,
        ["start 0", "deal 1 2 3 4 5 | 6 7 8 9 10", "dice 1 1 1", "0: play 1 2 3", "0: bury 4", "1: pass"],
        hand_size=5,
    )
    assert legal(state, 0) == ["keep", "give 4"]
    state.act(0, "give 4")
    assert state.view(None)["hell"] == [[], [4]]


def test_casual_discard() -> None:
    state = run(
        2,
        ["start 0", "deal 1 2 3 4 5 | 6 7 8 9 10", "dice 1 1 1", "0: play 1", "0: bury 5", "1: pass"],
        hand_size=5,
        casual=True,
    )
    assert legal(state, 0) == ["keep", "discard 5"]
    refused(state, 0, "give 5")
    state.act(0, "discard 5")
    view = state.view(None)
    assert view["hell"] == [[], []] and 5 in view["removed"]
    # casual never forces: with three hell cards keeping is still allowed
    state = run(
        2,
        THREE_HELL_CARDS,
        hand_size=8,
        casual=True,
    )
    assert legal(state, 0) == ["keep", "discard 6", "discard 7", "discard 8"]


ROUND_2_SPARE = [*ROUND_1, "deal 1 2 5 6 12 | 3 4 8 9 10"]


def test_spare_die_used_with_a_central_die() -> None:
    state = run(2, [*ROUND_2_SPARE, "dice 1 6"], hand_size=5)
    assert state.to_move == (1,) and state.view(1)["phase"] == "spare"
    assert legal(state, 1) == [f"spare {f}" for f in range(1, 7)]
    state.act(1, "spare 4")
    assert state.to_move == (1,) and state.view(None)["dice"]["spare"] == [None, 4]
    assert "play 3 4 +s4+d1" in legal(state, 1)
    refused(state, 0, "play 5 6 +s4")  # only its owner may use a spare die
    state.act(1, "play 3 4 +s4+d1")
    view = state.view(None)
    assert view["table"]["values"] == [3, 4, 5]
    assert view["dice"] == {"centre": [6], "used": [[], [1, 4]], "spare": [None, None]}


def test_spare_die_moves_to_the_centre_when_owner_boosts_without_it() -> None:
    state = run(2, [*ROUND_2_SPARE, "dice 2 5", "1: spare 4", "1: play 3 4 +d5"], hand_size=5)
    view = state.view(None)
    assert view["dice"] == {"centre": [2, 4], "used": [[], [5]], "spare": [None, None]}
    assert any(e.kind == "spare_moved" and e.data == {"face": 4} for e in state.events)
    state.act(1, "bury 10")
    assert "play 5 6 +d4" in legal(state, 0)  # anyone may use it now
    state.act(0, "play 5 6 +d4")
    assert state.view(None)["dice"]["centre"] == [2]


def test_central_dice_fewer_by_the_spare_dice() -> None:
    state = run(2, ROUND_2_SPARE, hand_size=5)
    assert state.view(None)["spare_holders"] == [1]
    with pytest.raises(IllegalAction):
        state.apply(-1, GAME.parse_action("dice 1 2 3"))  # 3 dice - 1 spare = 2 central


def test_pending_spare_choices_are_hidden() -> None:
    # round 2 lost by seat 0 as well: in round 3 both seats hold a spare die
    state = run(2, [*ROUND_1, *ROUND_2, "deal 1 2 3 4 5 | 6 7 8 9 10", "dice 3"], hand_size=5)
    assert state.view(None)["gems"] == [1, 1] and state.to_move == (0, 1)
    state.act(0, "spare 5")
    assert state.to_move == (1,)
    for viewer in (1, None):
        view = state.view(viewer)
        assert view["dice"]["spare"] == [None, None]
        assert view["history"][-1] == [0, "spare ?"]
        assert "spare 5" not in str({k: v for k, v in view.items() if k != "legal"})
    assert state.view(0)["dice"]["spare"] == [5, None]
    state.act(1, "spare 2")
    view = state.view(1)
    assert view["dice"]["spare"] == [5, 2] and view["history"][-2:] == [[0, "spare 5"], [1, "spare 2"]]
    assert view["current"] == 0  # seat 0 lost round 2 and starts round 3


def test_lead_after_the_owner_went_out() -> None:
    state = run(
        4,
        [
            "start 1",
            "deal 6 7 8 9 10 | 1 2 3 4 5 | 11 11 12 12 1 | 1 2 3 12 5",
            "dice 1 1 1 1 1",
            "1: play 1 2 3 4",
            "1: bury 5",  # the only hand card left must be buried: the hand is now empty
            *["2: pass", "1: keep", "3: pass", "1: keep", "0: pass", "1: keep"],
            "1: hell 5",
            "2: pass",
            "3: pass",
            "0: pass",
        ],
        hand_size=5,
    )
    view = state.view(None)
    assert view["out"] == [False, True, False, False]
    assert view["table"] is None and view["current"] == 2  # seat 1 is out: the next seat still in leads
    state = run(
        4,
        [
            *[e for e in state.record().actions],
            "2: play 11",
            "2: bury 1",
            "3: pass",
            "2: keep",
            "0: play 6 7 8 9",
            "0: bury 10",
            "2: pass",
            "0: keep",
            "3: pass",
            "0: keep",
            "0: hell 10",
            "2: pass",
            "3: pass",
        ],
        hand_size=5,
    )
    view = state.view(None)
    assert view["out"] == [True, True, False, False]
    assert view["table"] is None and view["current"] == 2  # after seat 0: seat 1 is out, seat 2 leads


def test_mitch_counted_as_the_dice_number() -> None:
    state = run(
        3, ["start 0", "deal 4 4 9 10 M | 1 2 3 5 6 | 1 2 3 5 6", "dice 4 1 3 6"], hand_size=5, extra_cards="mitch"
    )
    texts = legal(state, 0)
    assert {"play 4 4 M=4 +d4", "play 4 4 M=4 +d1+3", "play M", "play 4 M=4 +d4", "play M=6 +d6"} <= set(texts)
    assert "neither a run nor a set" in refused(state, 0, "play 4 4 M +d4")  # Mitch as 0 with three 4s
    with pytest.raises(MalformedAction):
        GAME.parse_action("play 4 4 M=5 +d4")  # only the dice card's number
    state.act(0, "play 4 4 M=4 +d4")
    view = state.view(None)
    assert view["table"]["kind"] == "set" and view["table"]["values"] == [4, 4, 4, 4]
    assert view["table"]["cards"] == [4, 4, "M"]


def test_mitch_counts_as_zero_in_a_run() -> None:
    state = run(
        3, ["start 0", "deal 1 2 9 10 M | 3 4 5 6 7 | 3 4 5 6 8", "dice 4 1 3 6"], hand_size=5, extra_cards="mitch"
    )
    state.act(0, "play 1 2 M")
    assert state.view(None)["table"]["values"] == [0, 1, 2]


def test_catleton_swap() -> None:
    state = run(
        2,
        [
            "start 0",
            "deal 1 2 3 11 12 C | 4 6 7 8 9 10",
            "dice 6 6 6",
            "0: play 11",
            "0: bury 2",
            "1: pass",
            "0: keep",
        ],
        hand_size=6,
        extra_cards="catleton",
    )
    texts = legal(state, 0)
    assert {"play 1 3 C swap 2", "play C swap 2", "play 1 C", "play C"} <= set(texts)
    assert "from the hand" in refused(state, 0, "hell 2 C swap 1")
    refused(state, 0, "play 3 C swap 4")  # no hell card 4
    state.act(0, "play 1 3 C swap 2")
    view = state.view(0)
    assert view["table"]["cards"] == [1, 2, 3] and view["table"]["kind"] == "run"
    assert view["hell"][0] == [] and "C" in view["removed"] and view["hand"] == [12]
    assert view["phase"] == "bury"
    assert any(e.kind == "catleton_swap" for e in state.events)


def test_catleton_swapped_for_a_hell_mitch_as_zero_or_as_the_dice_number() -> None:
    # Seat 0 buries Mdm Mitch, then leads with Cat-leton in hand and Mitch in hell (rules §7: any
    # hell card, Mitch included; she counts as she would anywhere: 0, or the dice card's number).
    state = run(
        2,
        ["start 0", "deal 1 2 4 11 M C | 5 6 7 8 9 10", "dice 4 6 6", "0: play 11", "0: bury M", "1: pass", "0: keep"],
        hand_size=6,
        extra_cards="both",
    )
    assert state.view(0)["hand"] == [1, 2, 4, "C"] and state.view(0)["hell"][0] == ["M"]
    texts = set(legal(state, 0))
    assert {"play C swap M", "play 1 2 C swap M", "play C +d4 swap M=4", "play 4 C +d4 swap M=4"} <= texts
    assert "play 1 2 C swap M=4" not in texts  # Mitch as the dice number only with a dice card
    assert "play 4 C swap M" not in texts  # 0-4 is neither a run nor a set
    with pytest.raises(MalformedAction):
        GAME.parse_action("play 4 C +d4 swap M=5")  # only the dice card's number
    zero = state.clone()
    zero.act(0, "play 1 2 C swap M")
    table = zero.view(None)["table"]
    assert (table["cards"], table["values"], table["kind"]) == ([1, 2, "M"], [0, 1, 2], "run")
    state.act(0, "play 4 C +d4 swap M=4")
    view = state.view(0)
    assert view["table"]["cards"] == [4, "M"] and view["table"]["values"] == [4, 4, 4]
    assert view["table"]["kind"] == "set" and view["table"]["dice"] == 4
    assert view["hell"][0] == [] and view["removed"] == [11, "C"] and view["hand"] == [1, 2]  # 11: cleared
    swap = [e for e in state.events if e.kind == "catleton_swap"]
    assert [(e.seat, e.data["card"]) for e in swap] == [(0, "M")]
    assert "hell card M" in GAME.describe(swap[0])


def test_catleton_swapped_for_a_hell_catleton() -> None:
    # Four players, two of each extra card: seat 0 buries one Cat-leton and swaps the other for it.
    others = ["4 4 5 5 6", "6 7 7 8 8", "9 9 10 10 12"]
    passes = ["1: pass", "0: keep", "2: pass", "0: keep", "3: pass", "0: keep"]
    state = run(
        4,
        ["start 0", f"deal 1 2 11 C C | {' | '.join(others)}", "dice 1 2 3 4 5", "0: play 11", "0: bury C", *passes],
        hand_size=5,
        extra_cards="both",
    )
    assert state.view(0)["hand"] == [1, 2, "C"] and state.view(0)["hell"][0] == ["C"]
    assert {"play C swap C", "play 1 2 C swap C", "play 1 2 C"} <= set(legal(state, 0))
    state.act(0, "play 1 2 C swap C")
    view = state.view(None)
    assert view["table"]["cards"] == [1, 2, "C"] and view["table"]["values"] == [0, 1, 2]
    assert view["hell"][0] == [] and view["removed"] == [11, "C"]  # the hand's Cat-leton left the game
    assert view["hand_counts"][0] == 0 and view["out"][0]  # nothing to bury: seat 0 is out


def test_two_players_play_at_most_three_cards() -> None:
    state = run(2, ["start 0", "deal 1 2 3 4 5 | 6 7 8 9 10", "dice 1 1 1"], hand_size=5)
    assert "play 1 2 3 4" not in legal(state, 0)
    message = refused(state, 0, "play 1 2 3 4")
    assert "at most 3" in message


def test_deal_and_dice_are_validated() -> None:
    state = GAME.new_game(2, {"hand_size": 5})
    state.act(-1, "start 1")
    for bad in (
        "deal 1 2 3 4 | 6 7 8 9 10",
        "deal 1 1 1 1 1 | 6 7 8 9 10",
        "deal 1 2 3 4 5",
        "deal 1 2 3 4 M | 1 2 3 4 5",
    ):
        refused(state, -1, bad)
    state.act(-1, "deal 1 2 3 4 5 | 6 7 8 9 10")
    refused(state, -1, "dice 1 2")
    refused(state, -1, "dice 1 2 7", MalformedAction)
    refused(state, 0, "pass")
    state.act(-1, "dice 3 5 1")
    assert state.view(None)["dice"]["centre"] == [1, 3, 5]
    assert state.to_move == (1,)


def test_burying_the_last_hand_card_is_mandatory_and_frees_hell_singles() -> None:
    state = run(
        3, ["start 0", "deal 1 2 3 4 5 | 6 7 8 9 10 | 6 7 8 9 10", "dice 1 1 1 1", "0: play 1 2 3 4"], hand_size=5
    )
    assert legal(state, 0) == ["bury 5"]
    state.act(0, "bury 5")
    assert state.view(0)["hand"] == [] and state.view(0)["hell"][0] == [5]
    for seat in (1, 2):
        state.act(seat, "pass")
        state.act(0, "keep")
    assert "hell 5" in legal(state, 0)


def test_round_can_end_during_a_transfer() -> None:
    # seat 0 gives away its last hell card after seat 1 passes: seat 0 is out, seat 1 loses a gem
    state = run(2, [*ROUND_1[:-2], "0: give 4"], hand_size=5)
    assert state.view(None)["gems"] == [2, 1] and state.view(None)["round"] == 2
    assert [e.kind for e in state.events][-4:] == ["player_out", "gem_lost", "round_over", "round_start"]


def test_spare_dice_go_in_turn_order_while_dice_remain() -> None:
    """Decision: with fewer dice than entitled players, spare dice go in turn order from the
    round's start player; the centre may be empty (written `dice`)."""
    state = GAME.new_game(3, {"dice": 2, "hand_size": 5})
    state.act(-1, "start 0")
    state.gems = [1, 1, 1]  # as after three lost rounds
    state.round = 4
    state.start_player = 2
    state.act(-1, "deal 1 2 3 4 5 | 6 7 8 9 10 | 1 2 3 4 5")
    assert state.spare_holders == (0, 2)  # seat 2 starts, then seat 0; seat 1 gets none
    refused(state, -1, "dice 1")
    state.act(-1, "dice")
    assert state.to_move == (0, 2)
    state.act(2, "spare 6")
    state.act(0, "spare 1")
    view = state.view(None)
    assert view["dice"] == {"centre": [], "used": [[], [], []], "spare": [1, None, 6]}
    assert view["current"] == 2


def test_no_spare_dice_in_round_one() -> None:
    state = run(2, ["start 0", "deal 1 2 3 4 5 | 6 7 8 9 10", "dice 1 2 3"], hand_size=5, gems=1)
    assert state.view(None)["spare_holders"] == [] and state.to_move == (0,)


def test_redacted_history_and_reveal() -> None:
    state = run(2, ROUND_1, hand_size=5)
    assert state.view(0)["history"][1] == [-1, "deal 1 2 3 4 5 | ?"]
    assert state.view(1)["history"][1] == [-1, "deal ? | 6 7 8 9 10"]
    assert state.view(None)["history"][1] == [-1, "deal ? | ?"]
    assert state.full_view()["history"][1] == [-1, "deal 1 2 3 4 5 | 6 7 8 9 10"]
    state = run(2, [*ROUND_1, "deal 1 2 3 4 5 | 6 7 8 9 10"], hand_size=5)
    assert state.full_view()["hands"] == [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]]
    assert "hands" not in state.view(0) and "undealt" not in state.view(None)


def test_chance_outcomes() -> None:
    state = GAME.new_game(4, {})
    starts = state.chance_outcomes()
    assert [(str(a), p) for a, p in starts] == [(f"start {s}", 0.25) for s in range(4)]
    state.act(-1, "start 3")
    assert state.chance_outcomes() is None  # deals are sampled, not listed
    state.act(-1, "deal 1 1 1 1 2 2 2 2 3 3 | 3 3 4 4 4 4 5 5 5 5 | 6 6 6 6 7 7 7 7 8 8 | 8 8 9 9 9 9 10 10 10 10")
    rolls = state.chance_outcomes()
    assert len(rolls) == 252 and abs(sum(p for _, p in rolls) - 1) < 1e-12  # multisets of 5 dice
    odds = dict((str(a), p) for a, p in rolls)
    assert odds["dice 1 1 1 1 1"] == 1 / 6**5 and odds["dice 1 2 3 4 5"] == 120 / 6**5
    assert str(state.sample_chance(random.Random(1))) in odds
    assert state.view(3)["current"] is None and state.to_move == (-1,)
