"""Rules-fidelity audit: scenarios for rules the other test files leave open or pin down only
loosely, and regressions for the bugs the audit found. Every expected value is worked out by hand
from `rules/catopomp.md` (and the Japanese seed text), in the comments beside each record."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import scenario
from nekobako.engine import CHANCE, BadRecord, InvalidOptions, MalformedAction, replay
from nekobako.games.catopomp import GAME, CatopompState
from nekobako.games.catopomp.cards import card_text
from scenario import CATOPOMP_ROUND_1 as ROUND_1
from scenario import CATOPOMP_ROUND_2 as ROUND_2
from scenario import legal, refused


def run(players: int, actions: list[str], **options: Any) -> CatopompState:
    state = scenario.run("catopomp", players, actions, **options)
    assert isinstance(state, CatopompState)
    return state


def table(state: CatopompState) -> dict[str, Any]:
    return state.view(None)["table"]


# -- §3 strength ------------------------------------------------------------------------------------


def test_seed_examples_of_strength_in_play() -> None:
    """Seed: 1-2 beats 5, 2-3 beats 1-2, 1-1 beats 4-5 (and so 2-3): size, then set over run,
    then the highest number."""
    state = run(
        2,
        [
            "start 0",
            "deal 2 3 5 6 7 9 10 11 | 1 1 1 2 4 5 8 12",
            "dice 6 6 6",
            "0: play 5",
            "0: bury 11",
        ],
        hand_size=8,
    )
    # seat 1 answers a single with a 2-card run; equal or lower singles are refused
    assert "play 1 2" in legal(state, 1) and "play 12" in legal(state, 1)
    assert "not stronger" in refused(state, 1, "play 5")
    refused(state, 1, "play 4")
    state.act(1, "play 1 2")
    state.act(1, "bury 8")  # seat 1: hand 1 1 4 5 12, hell 8
    # seat 0 (hand 2 3 6 7 9 10, hell 11): a higher 2-card run wins, a single never beats a pair
    assert {"play 2 3", "play 6 7", "play 9 10"} <= set(legal(state, 0))
    refused(state, 0, "play 10")
    state.act(0, "play 2 3")
    state.act(0, "bury 10")  # seat 0: hand 6 7 9, hell 10 11
    # a pair of 1s beats the run 2-3 (set over run at equal size), and so does the higher run 4-5
    assert {"play 1 1", "play 4 5"} <= set(legal(state, 1))
    state.act(1, "play 1 1")
    state.act(1, "bury 12")
    # seat 0 holds 6 7 9 (hand) and 10 11 (hell), the dice show 6 6 6, the table is the set 1-1:
    # only a higher pair (6 + die 6) or any 3-card play (hell 10 11 + dice 6+6 = 12) is stronger
    assert set(legal(state, 0)) == {"pass", "play 6 +d6", "hell 10 11 +d6+6"}
    assert "not stronger" in refused(state, 0, "play 6 7")  # a run never beats a set of its size
    state.act(0, "hell 10 11 +d6+6")
    assert table(state)["kind"] == "run" and table(state)["values"] == [10, 11, 12] and table(state)["from"] == "hell"


def test_any_kind_answers_any_other_when_stronger() -> None:
    """Run of 3 → lower set of 3 (set over run) → 4-card run (size first)."""
    state = run(
        3,
        [
            "start 0",
            "deal 7 8 9 10 11 | 2 2 2 3 12 | 1 2 3 4 6",
            "dice 1 1 1 1",
            "0: play 8 9 10",
            "0: bury 11",
        ],
        hand_size=5,
    )
    assert "play 2 2 2" in legal(state, 1)
    state.act(1, "play 2 2 2")
    state.act(1, "bury 12")
    assert "play 1 2 3 4" in legal(state, 2)
    assert "play 2 3 4" not in legal(state, 2) and "play 1 2 3" not in legal(state, 2)
    state.act(2, "play 1 2 3 4")
    assert legal(state, 2) == ["bury 6"]  # one hand card left: it must be buried
    state.act(2, "bury 6")
    assert table(state)["kind"] == "run" and table(state)["size"] == 4


def test_start_player_is_drawn_and_play_goes_clockwise() -> None:
    state = run(3, ["start 2", "deal 7 8 9 10 11 | 2 2 2 3 12 | 1 2 3 4 6", "dice 1 1 1 1"], hand_size=5)
    assert state.to_move == (2,)
    state.act(2, "play 6")
    state.act(2, "bury 1")
    assert state.to_move == (0,)  # after seat 2 comes seat 0
    state.act(0, "pass")
    state.act(2, "keep")
    assert state.to_move == (1,)


# -- §3 / §5 the card limit counts the dice card ------------------------------------------------------


def test_two_players_three_cards_including_the_dice_card() -> None:
    state = run(2, ["start 0", "deal 1 2 3 4 5 | 6 7 8 9 10", "dice 4 5 6"], hand_size=5)
    texts = legal(state, 0)
    assert {"play 1 2 3", "play 2 3 +d4", "play 4 5 +d6"} <= set(texts)
    assert not [t for t in texts if len(t.split()) - 1 > 3]  # no play of 4 cards, dice card included
    assert "at most 3" in refused(state, 0, "play 1 2 3 +d4")
    assert "at most 3" in refused(state, 0, "play 2 3 4 +d5")
    # three players: the same 4-card run with a dice card is fine
    state = run(3, ["start 0", "deal 1 2 3 4 5 | 6 7 8 9 10 | 6 7 8 9 10", "dice 4 5 6 6"], hand_size=5)
    assert "play 1 2 3 +d4" in legal(state, 0)
    assert "at most 4" in refused(state, 0, "play 1 2 3 4 +d5")
    state.act(0, "play 1 2 3 +d4")
    assert table(state)["values"] == [1, 2, 3, 4] and table(state)["size"] == 4


# -- §4 hell plays, bury, pass without an owner's transfer ---------------------------------------------


def test_hell_pair_without_dice_then_pass_with_no_owner_hell_cards() -> None:
    state = run(
        2,
        [
            "start 0",
            "deal 1 2 5 6 9 10 | 3 3 4 4 7 8",
            "dice 1 2 3",
            "0: play 1",
            "0: bury 5",
            "1: pass",
            "0: keep",
            "0: play 2",
            "0: bury 6",
            "1: pass",
            "0: keep",
        ],
        hand_size=6,
    )
    # seat 0: hand 9 10 (not empty), hell 5 6; dice 1 2 3 (values 1, 2, 3, 1+2, 1+3, 2+3)
    texts = set(legal(state, 0))
    assert {"hell 5 6", "hell 5 6 +d1+3", "hell 5 +d2+3", "hell 6 +d2+3", "play 9 10"} <= texts
    assert "hell 5" not in texts and "hell 6" not in texts
    refused(state, 0, "hell 6")
    state.act(0, "hell 5 6")
    view = state.view(None)
    assert view["phase"] == "play" and view["current"] == 1  # nothing buried after a hell play
    assert view["hell"][0] == [] and view["hand_counts"] == [2, 6]
    # seat 0 (the owner) has no hell card: a pass asks nothing of it, the table clears at once
    state.act(1, "pass")
    view = state.view(None)
    assert view["phase"] == "play" and view["table"] is None and view["current"] == 0
    assert view["hell"] == [[], []]


def test_bury_only_from_the_hand() -> None:
    state = run(2, ["start 0", "deal 1 2 5 6 9 10 | 3 3 4 4 7 8", "dice 1 2 3", "0: play 1", "0: bury 5"], hand_size=6)
    state.act(1, "pass")
    state.act(0, "keep")
    state.act(0, "play 2")
    # seat 0: hand 6 9 10, hell 5: bury one of the hand cards, never a hell card, never nothing
    assert legal(state, 0) == ["bury 6", "bury 9", "bury 10"]
    refused(state, 0, "bury 5")
    refused(state, 0, "play 6")
    refused(state, 1, "pass")


def test_transfer_optional_with_two_hell_cards() -> None:
    state = run(
        2,
        ["start 0", "deal 1 2 5 6 9 10 | 3 3 4 4 7 8", "dice 1 2 3", "0: play 1", "0: bury 5", "1: pass", "0: keep"],
        hand_size=6,
    )
    state.act(0, "play 2")
    state.act(0, "bury 6")
    state.act(1, "pass")
    assert legal(state, 0) == ["keep", "give 5", "give 6"]
    state.act(0, "give 6")
    assert state.view(None)["hell"] == [[5], [6]]


# -- §2 round and game end ------------------------------------------------------------------------------


def test_three_players_game_end_everyone_else_wins() -> None:
    state = run(
        3,
        [
            "start 0",
            "deal 1 2 3 4 5 | 6 7 8 9 10 | 1 1 2 2 12",
            "dice 1 1 1 1",
            "0: play 1 2 3 4",
            "0: bury 5",
            "1: pass",
            "0: keep",
            "2: pass",
            "0: keep",
            "0: hell 5",  # seat 0 is out; the single 5 stays on the table
            "1: play 6 7 8 9",
            "1: bury 10",
            "2: pass",  # seat 0 is out: seat 2 is the only other player still in
            "1: keep",
        ],
        hand_size=5,
        gems=1,
    )
    view = state.view(None)
    assert view["table"] is None and view["current"] == 1 and view["out"] == [True, False, False]
    state.act(1, "hell 10")
    assert state.is_over()
    assert state.scores() == [1, 1, 0]
    assert state.winners() == [0, 1]
    assert state.returns() == [0.5, 0.5, 0.0]
    assert state.round_scores() == [[0, 0, -1]]


def test_boost_two_dice_once_per_round_and_dice_return_next_round() -> None:
    state = run(
        2,
        [
            "start 0",
            "deal 1 2 3 4 5 | 6 7 8 9 10",
            "dice 2 3 6",
            "0: play 5 +d2+3",  # the two dice are one card worth 5: a pair of 5s
            "0: bury 4",
        ],
        hand_size=5,
        gems=3,
    )
    view = state.view(None)
    assert view["table"]["kind"] == "set" and view["table"]["values"] == [5, 5]
    assert view["dice"]["centre"] == [6] and view["dice"]["used"] == [[2, 3], []]
    state.act(1, "pass")
    state.act(0, "keep")
    assert not [t for t in legal(state, 0) if "+" in t]  # the used-dice card holds dice
    for seat, text in ((0, "play 1 2 3"), (1, "pass"), (0, "keep"), (0, "hell 4")):
        state.act(seat, text)
    # seat 0 is out, seat 1 holds cards: seat 1 loses a gem (3 → 2) and starts round 2
    view = state.view(None)
    assert view["gems"] == [3, 2] and view["round"] == 2 and view["start_player"] == 1
    assert view["hell"] == [[], []] and view["removed"] == [] and view["table"] is None
    refused(state, -1, "start 0")  # the start player is drawn in round 1 only
    state.act(-1, "deal 1 2 3 4 5 | 6 7 8 9 10")
    # two gems: no spare die, so all three dice (the used ones too) are rolled into the centre
    assert state.view(None)["spare_holders"] == []
    refused(state, -1, "dice 1 2")
    state.act(-1, "dice 1 2 3")
    view = state.view(None)
    assert view["dice"] == {"centre": [1, 2, 3], "used": [[], []], "spare": [None, None]}
    assert view["boost_used"] == [False, False] and view["current"] == 1


# -- §6 spare dice ------------------------------------------------------------------------------------------


def test_spare_die_alone_and_its_limits() -> None:
    state = run(2, [*ROUND_1, "deal 1 2 5 6 12 | 3 4 8 9 10", "dice 1 6", "1: spare 3"], hand_size=5)
    texts = set(legal(state, 1))
    # spare 3 alone: 3+3 pair, 3-4 run; with the central 6: 9 (8-9 run, 9-9 pair)
    assert {"play 3 +s3", "play 4 +s3", "play 8 +s3+d6", "play 9 +s3+d6"} <= texts
    assert "play 3 4 +s3+d1" not in texts  # 3, 3+1=4, 4: not a combination
    refused(state, 1, "play 3 +s4")  # the spare die shows 3
    refused(state, 1, "play 3 +s3+d1+6", MalformedAction)  # spare and one central die at most
    state.act(1, "play 3 +s3")
    view = state.view(None)
    assert view["dice"] == {"centre": [1, 6], "used": [[], [3]], "spare": [None, None]}
    assert view["table"]["values"] == [3, 3]


def test_spare_die_is_never_carried_to_the_next_round() -> None:
    state = run(2, [*ROUND_1, *ROUND_2, "deal 1 2 3 4 5 | 6 7 8 9 10"], hand_size=5)
    assert state.view(None)["gems"] == [1, 1] and state.view(None)["spare_holders"] == [0, 1]
    refused(state, -1, "dice 1 2")  # 3 dice - 2 spare dice = 1 central die
    state.act(-1, "dice 4")
    # the unused spare 6 of round 2 is gone: each holder has one die, not yet set
    assert state.full_view()["spare_choices"] == [0, 0]
    assert state.view(1)["dice"] == {"centre": [4], "used": [[], []], "spare": [None, None]}
    assert legal(state, 1) == [f"spare {f}" for f in range(1, 7)]


def test_spare_choices_in_either_order_mean_the_same() -> None:
    """§9 writes simultaneous spare choices in seat order; choices made in the other order rebuild
    the same position, and the engine's own record puts them in seat order."""
    start = [*ROUND_1, *ROUND_2, "deal 1 2 3 4 5 | 6 7 8 9 10", "dice 4"]
    in_seat_order = run(2, [*start, "0: spare 5", "1: spare 2"], hand_size=5)
    reversed_order = run(2, [*start, "1: spare 2", "0: spare 5"], hand_size=5)
    for state in (in_seat_order, reversed_order):
        view = state.view(None)
        assert view["dice"] == {"centre": [4], "used": [[], []], "spare": [5, 2]}
        assert view["phase"] == "play" and view["current"] == 0
    assert reversed_order.record().actions == in_seat_order.record().actions
    assert reversed_order.record().actions[-2:] == ["0: spare 5", "1: spare 2"]


# -- §7 extra cards -----------------------------------------------------------------------------------------


def test_mitch_alone_as_zero_in_runs_and_as_the_dice_number() -> None:
    state = run(
        3,
        ["start 0", "deal 1 5 9 10 M | 1 2 3 6 M | 7 8 11 12 M", "dice 2 2 5 6"],
        hand_size=5,
        extra_cards="mitch",
    )
    texts = set(legal(state, 0))
    assert {"play M", "play 1 M", "play 1 M +d2", "play 5 M=5 +d5", "play M=4 +d2+2", "play M=2 +d2"} <= texts
    assert "play 5 M +d5" not in texts  # Mitch as 0: 0-5-5 is no combination
    assert "neither a run nor a set" in refused(state, 0, "play 5 M")
    refused(state, 0, "play 5 M=5", MalformedAction)  # M=v only in a boosted play
    refused(state, 0, "play 1 M=2 +d2")  # 1-2-2: Mitch as the dice number makes no run
    state.act(0, "play M")  # the weakest single: 0
    state.act(0, "bury 10")
    assert {"play 1", "play 1 M +d2"} <= set(legal(state, 1))
    assert "not stronger" in refused(state, 1, "play M")
    state.act(1, "play 1 M +d2")
    view = state.view(None)
    assert view["table"]["values"] == [0, 1, 2] and view["table"]["cards"] == [1, "M"] and view["table"]["dice"] == 2
    assert view["table"]["kind"] == "run" and view["phase"] == "bury"
    assert view["dice"]["centre"] == [2, 5, 6] and view["dice"]["used"][1] == [2]


def test_catleton_as_zero_and_a_lone_swap_is_a_heaven_single() -> None:
    state = run(
        2,
        ["start 0", "deal 1 2 7 8 12 C | 3 4 5 6 9 C", "dice 6 6 6", "0: play 1 2 C", "0: bury 12"],
        hand_size=6,
        extra_cards="catleton",
    )
    assert table(state)["values"] == [0, 1, 2] and table(state)["kind"] == "run"
    state.act(1, "play 3 4 5")
    state.act(1, "bury 9")
    state.act(0, "pass")
    state.act(1, "keep")
    # seat 1: hand 6 C, hell 9; leads. The Cat-leton may stand in for the hell 9 as a single
    texts = set(legal(state, 1))
    assert {"play C swap 9", "play C", "play 6"} <= texts
    assert "hell 9" not in texts  # the hand is not empty
    refused(state, 1, "hell 9 C swap 9")
    state.act(1, "play C swap 9")
    view = state.view(1)
    assert view["table"]["cards"] == [9] and view["table"]["kind"] == "single" and view["table"]["rank"] == 9
    # removed: seat 0's run 1 2 C (replaced by 3 4 5, then cleared) and the swapped Cat-leton
    assert view["hell"][1] == [] and view["removed"].count("C") == 2 and view["phase"] == "bury"
    state.act(1, "bury 6")  # a heaven play: the last hand card is buried
    assert state.view(1)["hand"] == [] and state.view(1)["hell"][1] == [6]


def test_extra_cards_count_toward_the_hand_size_limit() -> None:
    with pytest.raises(InvalidOptions):
        GAME.options({"hand_size": 13}, 4)  # 52 > 48
    assert GAME.options({"hand_size": 13, "extra_cards": "both"}, 4).hand_size == 13  # 48 + 4 = 52
    assert GAME.options({"hand_size": 16}, 3).hand_size == 16  # 48 exactly
    for gems in (1, 5):
        assert GAME.options({"gems": gems}, 2).gems == gems
    for dice in (2, 8):
        assert GAME.options({"dice": dice}, 4).dice == dice


# -- bad input (regressions) -----------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["play ²", "bury ²", "give ¹", "spare ²", "play 3 C swap ²", "play ٣", "dice ²"])
def test_non_ascii_digits_are_malformed(text: str) -> None:
    """Bug: `str.isdigit` accepts `²`, on which `int` raised a bare ValueError (not the engine's
    error, so `replay` did not turn it into `BadRecord`); `٣` was read as 3."""
    with pytest.raises(MalformedAction):
        GAME.parse_action(text)
    state = run(2, ["start 0", "deal 1 2 3 4 5 | 6 7 8 9 10", "dice 1 2 3"], hand_size=5)
    refused(state, 0, text, MalformedAction)
    with pytest.raises(BadRecord):
        run(2, ["start 0", "deal 1 2 3 4 5 | 6 7 8 9 10", "dice 1 2 3", f"0: {text}"], hand_size=5)


def test_longest_deal_replays() -> None:
    """Bug: four hands of 16 two-digit cards take 202 characters, over the engine's 200-character
    action limit, so a valid game (`deck=10-20x8`, `hand_size=16`) could not be replayed."""
    hands = [
        [10] * 4 + [11] * 4 + [12] * 4 + [13] * 4,
        [14] * 4 + [15] * 4 + [16] * 4 + [17] * 4,
        [18] * 4 + [19] * 4 + [20] * 4 + [10] * 4,
        [11] * 4 + [12] * 4 + [13] * 4 + [14] * 4,
    ]
    deal = "deal " + " | ".join(" ".join(map(str, hand)) for hand in hands)
    assert len(deal) > 200
    state = run(4, ["start 3", deal, "dice 1 2 3 4 5", "3: play 11 11 11 11"], deck="10-20x8", hand_size=16)
    assert state.view(3)["hand"] == [12] * 4 + [13] * 4 + [14] * 4 and state.view(None)["phase"] == "bury"
    again = replay(state.record(seed=0).to_json())
    assert again.full_view() == state.full_view()
    for text in ("deal " + "1 " * 300, " " * 300, "play " + "1 " * 100):  # still bounded
        with pytest.raises(MalformedAction):
            GAME.parse_action(text)


# -- the turn flow against an independent model --------------------------------------------------------


class FlowModel:
    """Rules §2, §4–§6 written again from the rules file, independently of `state.py`: who moves,
    what a transfer offers, burying, clearing and leading, boosts, spare dice, round and game end.
    Fed each action of a random game, it predicts the next position and is compared with the engine."""

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        self.players = players
        self.options = GAME.options(options, players)
        self.gems = [self.options.gems] * players
        self.round = 1
        self.start = 0
        self.phase = "start"
        self.current = -1
        self.owner: int | None = None  # owner of the table combination; None: empty table
        self.passed: set[int] = set()
        self.passer = -1
        self.hand: list[Counter[int]] = []
        self.hell: list[Counter[int]] = []
        self.used = [False] * players
        self.spare = [0] * players
        self.centre: Counter[int] = Counter()
        self.holders: list[int] = []
        self.pending: set[int] = set()

    def holds(self, seat: int) -> bool:
        return sum(self.hand[seat].values()) + sum(self.hell[seat].values()) > 0

    def next_in(self, seat: int) -> int:
        for i in range(1, self.players + 1):
            if self.holds((seat + i) % self.players):
                return (seat + i) % self.players
        return seat

    def round_ends(self) -> bool:
        holders = [s for s in range(self.players) if self.holds(s)]
        if len(holders) > 1:
            return False
        loser = holders[0]
        self.gems[loser] -= 1
        if self.gems[loser] == 0:
            self.phase = "over"
        else:
            self.round += 1
            self.start = loser
            self.phase = "deal"
        return True

    def to_move(self) -> tuple[int, ...]:
        if self.phase in ("start", "deal", "dice"):
            return (-1,)
        if self.phase == "spare":
            return tuple(sorted(self.pending))
        if self.phase == "transfer":
            return (self.owner,)  # type: ignore[return-value]
        return () if self.phase == "over" else (self.current,)

    def transfer_options(self) -> set[str]:
        cards = {c for c, n in self.hell[self.owner].items() if n}  # type: ignore[index]
        words = {card_text(c) for c in cards}
        if self.options.casual:  # never forced, nothing given
            return {"keep"} | {f"discard {w}" for w in words}
        gives = {f"give {w}" for w in words}
        return gives if sum(self.hell[self.owner].values()) >= 3 else gives | {"keep"}  # type: ignore[index]

    def after_pass(self, passer: int) -> None:
        others = [s for s in range(self.players) if s != self.owner and self.holds(s)]
        if all(s in self.passed for s in others):  # clear; the owner leads, or the next still in
            assert self.owner is not None
            self.current = self.owner if self.holds(self.owner) else self.next_in(self.owner)
            self.owner = None
            self.passed = set()
        else:
            self.current = self.next_in(passer)

    def apply(self, seat: int, action: Any) -> None:
        word = str(action).split()[0]
        if word == "start":
            self.start = action.arg
            self.phase = "deal"
        elif word == "deal":
            self.hand = [Counter(h) for h in action.hands]
            self.hell = [Counter() for _ in range(self.players)]
            self.used = [False] * self.players
            self.spare = [0] * self.players
            self.centre = Counter()  # every die is rolled again (none carried over)
            self.owner = None
            self.passed = set()
            self.holders = []
            for i in range(self.players if self.round >= 2 else 0):
                s = (self.start + i) % self.players
                if self.gems[s] == 1 and len(self.holders) < self.options.dice:
                    self.holders.append(s)
            self.phase = "dice"
        elif word == "dice":
            assert len(action.faces) == self.options.dice - len(self.holders)
            self.centre = Counter(action.faces)
            self.pending = set(self.holders)
            self.phase = "spare" if self.holders else "play"
            self.current = self.start
        elif word == "spare":
            self.spare[seat] = action.arg
            self.pending.discard(seat)
            if not self.pending:
                self.phase = "play"
        elif word in ("play", "hell"):
            self.play(seat, action)
        elif word == "bury":
            self.hand[seat][action.arg] -= 1
            self.hell[seat][action.arg] += 1
            if not self.round_ends():
                self.phase = "play"
                self.current = self.next_in(seat)
        elif word == "pass":
            self.passed.add(seat)
            if sum(self.hell[self.owner].values()):  # type: ignore[index]
                self.phase = "transfer"
                self.passer = seat
            else:
                self.after_pass(seat)
        else:  # give, discard, keep
            if word != "keep":
                self.hell[seat][action.arg] -= 1
                if word == "give":
                    self.hell[self.passer][action.arg] += 1
            self.phase = "play"
            if word == "keep" or self.holds(seat) or not self.round_ends():
                self.after_pass(self.passer)

    def play(self, seat: int, action: Any) -> None:
        source = self.hell[seat] if action.hell else self.hand[seat]
        for card in action.cards:
            source[card] -= 1
            assert source[card] >= 0
        if action.swap:
            self.hell[seat][action.swap] -= 1
            assert self.hell[seat][action.swap] >= 0
        assert action.size <= (3 if self.players == 2 else 4)
        if action.hell:
            assert action.size >= 2 or not sum(self.hand[seat].values())
        if action.dice or action.spare:
            assert not self.used[seat]
            self.used[seat] = True
            for face in action.dice:
                self.centre[face] -= 1
                assert self.centre[face] >= 0
            if action.spare:
                assert self.spare[seat] == action.spare
            elif self.spare[seat]:
                self.centre[self.spare[seat]] += 1  # boosted without it: it moves to the centre
            self.spare[seat] = 0
        self.owner = seat
        self.passed = set()
        if not action.hell and sum(self.hand[seat].values()):
            self.phase = "bury"
            self.current = seat
        elif not self.round_ends():
            self.current = self.next_in(seat)

    def check(self, state: CatopompState) -> None:
        assert state.to_move == self.to_move()
        assert state.gems == self.gems and (state.round == self.round or self.phase == "over")
        if self.phase in ("start", "deal", "over"):
            return
        for s in range(self.players):
            assert state.hands[s] == [self.hand[s][c] for c in range(len(state.hands[s]))]
            assert state.hells[s] == [self.hell[s][c] for c in range(len(state.hells[s]))]
        assert (state.table is None) == (self.owner is None)
        assert list(state.spare_holders) == sorted(self.holders)
        assert [state.centre[f] for f in range(1, 7)] == [self.centre[f] for f in range(1, 7)]
        if self.phase == "transfer":
            assert {str(a) for a in state.legal_actions(self.owner)} == self.transfer_options()  # type: ignore[arg-type]
        if self.phase == "play":
            texts = [str(a) for a in state.legal_actions(self.current)]
            assert ("pass" in texts) == (self.owner is not None)  # the leader must play


@pytest.mark.parametrize("seed", range(150))
def test_turn_flow_matches_an_independent_model(seed: int) -> None:
    rng = random.Random(seed)
    players = rng.choice([2, 3, 4])
    options = {
        "extra_cards": rng.choice(["none", "mitch", "catleton", "both"]),
        "casual": rng.random() < 0.3,
        "gems": rng.choice([1, 2, 3]),
        "dice": rng.choice([2, 3, 4, 5, 8]),
        "hand_size": rng.choice([5, 8, 10]),
    }
    state = GAME.new_game(players, options)
    model = FlowModel(players, options)
    while not state.is_over():
        seat = state.to_move[0]
        if seat == CHANCE:
            action = state.sample_chance(rng)
        else:
            choices = state.legal_actions(seat)
            action = choices[rng.randrange(len(choices))]
        state.apply(seat, action)
        model.apply(seat, action)
        model.check(state)
    assert model.phase == "over"
