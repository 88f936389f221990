"""Rules-fidelity audit of Shut the Box (`shared/rules/shut_the_box.md`): scenarios the first test
suite left open or only loosely pinned. Every record forces its dice and is replayed through
`nekobako.engine.replay`; every expected value is worked out by hand in the comments."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from nekobako.engine import CHANCE, BadRecord, IllegalAction, MalformedAction, replay

# Turns on a fresh 9-tile board (player steps and dice; `turn` adds the seat).
SHUT_9 = ["roll", "dice 6 6", "shut 3 9", "roll", "dice 6 6", "shut 4 8", "roll", "dice 6 6", "shut 5 7"]
SHUT_9 += ["roll", "dice 3 6", "shut 1 2 6"]
"""Shuts the box in four rolls."""
BUST = ["roll", "dice 1 1", "shut 2", "roll", "dice 1 1"]
"""Open 1 3 4 5 6 7 8 9: total 43, count 8."""
SMALL = ["roll", "dice 6 6", "shut 3 9", "roll", "dice 6 6", "shut 4 8", "roll", "dice 6 6", "shut 5 7"]
SMALL += ["roll", "dice 6 6"]
"""Open 1 2 6: total 9, count 3."""
_HIGH = ["roll", "dice 6 6", "shut 3 9", "roll", "dice 6 6", "shut 4 8", "roll", "dice 6 6", "shut 5 7"]
LEAVE_1 = [*_HIGH, "roll", "dice 4 4", "shut 2 6", "roll", "dice 3 4"]
"""Open 1: total 1, count 1 (7 cannot be made from tile 1)."""
LEAVE_2 = [*_HIGH, "roll", "dice 3 4", "shut 1 6", "roll", "dice 6 6"]
"""Open 2: total 2, count 1."""
LEAVE_12 = [*_HIGH, "roll", "dice 3 3", "shut 6", "roll", "dice 6 6"]
"""Open 1 2: total 3, count 2."""
LEAVE_4 = ["roll", "dice 6 6", "shut 3 9", "roll", "dice 6 6", "shut 5 7", "roll", "dice 4 4", "shut 8"]
LEAVE_4 += ["roll", "dice 3 3", "shut 6", "roll", "dice 1 2", "shut 1 2", "roll", "dice 6 6"]
"""Open 4: total 4, count 1."""


def turn(seat: int, steps: list[str]) -> list[str]:
    return [s if s.startswith("dice") else f"{seat}: {s}" for s in steps]


def play(actions: list[str], players: int = 2, **options):
    return replay({"game": "shutbox", "players": players, "options": options, "seed": 0, "actions": actions})


def rounds(*turns_per_round: tuple[list[str] | None, ...]) -> list[str]:
    """Rounds in seat order from seat 0: each argument is one round's turns, seat by seat (None: out)."""
    return [a for steps in turns_per_round for seat, t in enumerate(steps) if t is not None for a in turn(seat, t)]


# -- §2 a turn: the one-die rule on larger boards ------------------------------------------------------
HIGH_12 = ["roll", "dice 6 6", "shut 12", "roll", "dice 5 6", "shut 11", "roll", "dice 5 5", "shut 10"]
HIGH_12 += ["roll", "dice 4 5", "shut 9", "roll", "dice 4 4", "shut 8"]


@pytest.mark.parametrize("tiles", [10, 12])
def test_one_die_on_larger_boards_needs_every_tile_above_six_closed(tiles: int):
    # 12 tiles: after closing 12, 11, 10, 9, 8 tile 7 is still open → two dice only; closing 7
    # (dice 3 4) leaves 1…6 → one die allowed. 10 tiles: skip the 12 and 11 steps.
    steps = HIGH_12 if tiles == 12 else HIGH_12[6:]
    state = play(["start 0", *turn(0, steps)], tiles=tiles)
    assert state.view(None)["boards"][0] == [1, 2, 3, 4, 5, 6, 7]
    assert [str(a) for a in state.legal_actions(0)] == ["roll"]
    state = play(["start 0", *turn(0, [*steps, "roll", "dice 3 4", "shut 7"])], tiles=tiles)
    assert [str(a) for a in state.legal_actions(0)] == ["roll", "roll 1"]
    # sum6 on the same board (open 1…6 adds up to 21): still two dice only
    state = play(["start 0", *turn(0, [*steps, "roll", "dice 3 4", "shut 7"])], tiles=tiles, one_die="sum6")
    assert [str(a) for a in state.legal_actions(0)] == ["roll"]


def test_one_die_is_a_choice_and_two_dice_stay_allowed():
    # open 1 2 6 after _HIGH: both rolls are legal; two dice 3 3 then closes 6 or 1 2 … and more
    state = play(["start 0", *turn(0, [*_HIGH, "roll", "dice 3 3"])])
    assert [str(a) for a in state.legal_actions(0)] == ["shut 6"]  # 1+2 ≠ 6; 1+2+6 ≠ 6
    state = play(["start 0", *turn(0, [*_HIGH, "roll 1", "dice 3"])])
    assert [str(a) for a in state.legal_actions(0)] == ["shut 1 2"]


@pytest.mark.parametrize(
    ("max_close", "legal"),
    [
        (2, ["shut 10", "shut 1 9", "shut 2 8", "shut 3 7", "shut 4 6"]),
        (
            3,
            [
                "shut 10",
                "shut 1 9",
                "shut 2 8",
                "shut 3 7",
                "shut 4 6",
                "shut 1 2 7",
                "shut 1 3 6",
                "shut 1 4 5",
                "shut 2 3 5",
            ],
        ),
    ],
)
def test_max_close_two_and_three_list_exactly_the_fitting_sets(max_close: int, legal: list[str]):
    # 10 tiles, dice 5 5 = 10. Sets of ≤ 2 tiles: 10, 1+9, 2+8, 3+7, 4+6. Of 3: 1+2+7, 1+3+6,
    # 1+4+5, 2+3+5. Four tiles (1+2+3+4) only with `any`.
    state = play(["start 0", "0: roll", "dice 5 5"], tiles=10, max_close=max_close)
    assert [str(a) for a in state.legal_actions(0)] == legal
    state = play(["start 0", "0: roll", "dice 5 5"], tiles=10, max_close="any")
    assert "shut 1 2 3 4" in [str(a) for a in state.legal_actions(0)]


# -- §1 scoring: digits with two-digit tiles -------------------------------------------------------------
LEAVE_10_12 = ["roll", "dice 5 6", "shut 11", "roll", "dice 3 6", "shut 9", "roll", "dice 4 4", "shut 8"]
LEAVE_10_12 += ["roll", "dice 3 4", "shut 7", "roll", "dice 3 3", "shut 6", "roll", "dice 2 3", "shut 5"]
LEAVE_10_12 += ["roll", "dice 2 2", "shut 4", "roll", "dice 1 2", "shut 3", "roll", "dice 1 2", "shut 1 2"]
LEAVE_10_12 += ["roll", "dice 1 1"]
"""12 tiles: closes everything but 10 and 12, then rolls 2."""


@pytest.mark.parametrize(("scoring", "penalty"), [("digits", 1012), ("total", 22), ("count", 2)])
def test_twelve_tile_board_with_ten_and_twelve_open(scoring: str, penalty: int):
    state = play(["start 0", *turn(0, LEAVE_10_12)], tiles=12, scoring=scoring)
    assert state.view(None)["boards"][0] == [10, 12]
    assert state.view(None)["penalty"][0] == penalty


# -- §4 elimination: the exact thresholds ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("scoring", "length", "seat0_turns", "out"),
    [
        ("total", "short", [BUST, LEAVE_1], False),  # 43 + 1 = 44 < 45
        ("total", "short", [BUST, LEAVE_2], True),  # 43 + 2 = 45: reaches 45
        ("count", "short", [BUST, LEAVE_2], True),  # 8 + 1 = 9
        ("count", "short", [BUST], False),  # 8 < 9
        ("total", "long", [BUST, BUST, LEAVE_2], False),  # 43 + 43 + 2 = 88 < 90
        ("total", "long", [BUST, BUST, LEAVE_4], True),  # 86 + 4 = 90
        ("count", "long", [BUST, BUST, LEAVE_2], False),  # 8 + 8 + 1 = 17 < 18
        ("count", "long", [BUST, BUST, LEAVE_12], True),  # 16 + 2 = 18
    ],
)
def test_elimination_exactly_at_the_threshold(scoring: str, length: str, seat0_turns: list, out: bool):
    state = play(["start 0", *rounds(*[(t, LEAVE_1) for t in seat0_turns])], scoring=scoring, length=length)
    assert state.view(None)["eliminated"] == [out, False]
    assert state.is_over() is out
    if out:
        assert state.winners() == [1]
        assert state.events[-1].data["reason"] == "eliminated"
    else:
        assert state.view(None)["round"] == len(seat0_turns) + 1 and state.to_move == (0,)


# -- §4 quick mode, later rounds, the last player left ---------------------------------------------------
THREE = ["start 0", *rounds((BUST, SMALL, LEAVE_1), (BUST, SMALL, LEAVE_1))]
"""After two rounds: totals 86 (out), 18, 2."""


def test_quick_mode_winner_is_the_lowest_of_those_still_in():
    state = play(THREE, players=3, quick=True)
    assert state.is_over() and state.scores() == [86, 18, 2]
    assert state.winners() == [2]
    assert state.events[-1].data == {"winners": (2,), "reason": "quick"}


def test_quick_mode_with_two_players_the_other_wins():
    state = play(["start 0", *rounds((BUST, SMALL), (BUST, SMALL))], quick=True)
    assert state.is_over() and state.winners() == [1] and state.scores() == [86, 18]


def test_eliminated_start_player_sits_out_later_rounds_and_scores_zero():
    # without quick the game goes on; the start player (seat 0) is out, so round 3 begins with seat 1
    state = play([*THREE, *turn(1, SMALL), *turn(2, SMALL)], players=3)
    assert not state.is_over()
    assert state.round_scores() == [[43, 9, 1], [43, 9, 1], [0, 9, 9]]
    assert state.scores() == [86, 27, 11]
    view = state.view(None)
    assert view["order"] == [1, 2] and view["to_move"] == [1] and view["current"] == 1
    assert state.legal_actions(0) == ()


def test_last_player_left_wins_even_after_an_earlier_elimination():
    # seat 0 out after round 2 (86); seat 1 busts in rounds 3 and 4: 9+9+43 = 61 after round 3 → out
    # at the end of round 3; seat 2 (1+1+9 = 11) is the last player left and wins.
    state = play([*THREE, *turn(1, BUST), *turn(2, SMALL)], players=3)
    assert state.view(None)["eliminated"] == [True, True, False]
    assert state.is_over() and state.winners() == [2] and state.scores() == [86, 61, 11]


def test_when_the_last_players_go_out_together_an_earlier_elimination_does_not_win():
    # seat 0: 43 + 2 = 45 → out after round 2. Seats 1 and 2: 1 + 9 = 10 and 9 + 9 = 18, then both
    # bust in round 3: 53 and 61, both out in the same round, nobody left → the lower of those two
    # wins (seat 1), although seat 0's 45 is lower still: it went out earlier.
    state = play(["start 0", *rounds((BUST, LEAVE_1, SMALL), (LEAVE_2, SMALL, SMALL), (None, BUST, BUST))], players=3)
    assert state.scores() == [45, 53, 61] and state.view(None)["eliminated"] == [True, True, True]
    assert state.is_over() and state.winners() == [1]


def test_quick_mode_has_no_effect_with_digits_scoring():
    state = play(["start 0", *rounds(*[(BUST, SMALL)] * 3)], scoring="digits", quick=True)
    assert not state.is_over() and state.view(None)["round"] == 4
    state = play(["start 0", *rounds(*[(BUST, SMALL)] * 4)], scoring="digits", quick=True)
    assert state.is_over() and state.winners() == [1] and state.events[-1].data["reason"] == "rounds"


# -- §2.3 shutting the box beats every total --------------------------------------------------------------
def test_shutting_the_box_wins_whatever_the_totals():
    # round 1: seat 0 43, seat 1 9; round 2: seat 0 shuts the box on its turn → wins at once, though
    # its total (43) is higher; seat 1 never plays round 2 and scores 0 in it.
    state = play(["start 0", *rounds((BUST, SMALL)), *turn(0, SHUT_9)])
    assert state.is_over() and state.winners() == [0]
    assert state.round_scores() == [[43, 9], [0, 0]] and state.scores() == [43, 9]
    assert state.events[-1].data["reason"] == "shut"


def test_last_seat_of_the_round_shutting_the_box_wins():
    state = play(["start 1", *turn(1, SMALL), *turn(0, SHUT_9)])
    assert state.is_over() and state.winners() == [0] and state.round_scores() == [[0, 9]]


def test_simultaneous_shut_beats_totals_and_nobody_is_eliminated_that_round():
    # simultaneous: round 1 seat 0 43, seat 1 43; round 2 seat 1 busts again (86 ≥ 45), then seat 0
    # shuts: the game ends on the shut, seat 0 alone wins, nobody is eliminated.
    actions = ["start 0", *rounds((BUST, BUST)), *turn(1, BUST), *turn(0, SHUT_9)]
    state = play(actions, simultaneous=True)
    assert state.is_over() and state.winners() == [0]
    assert state.scores() == [43, 86] and state.view(None)["eliminated"] == [False, False]
    assert state.events[-1].data["reason"] == "shut"


def test_simultaneous_both_eliminated_lowest_total_wins():
    state = play(["start 0", *rounds((BUST, BUST), (BUST, SMALL))], simultaneous=True)
    assert state.view(None)["eliminated"] == [True, True]  # 86 and 52
    assert state.is_over() and state.winners() == [1]


def test_simultaneous_quick_mode_ends_the_game_too():
    state = play(
        ["start 0", *rounds((BUST, SMALL, SMALL), (BUST, SMALL, LEAVE_1))], players=3, simultaneous=True, quick=True
    )
    assert state.is_over() and state.winners() == [2] and state.scores() == [86, 18, 10]


# -- §4 solo ---------------------------------------------------------------------------------------------------
def test_solo_count_scoring_eliminated_at_nine():
    state = play(["start 0", *turn(0, BUST)], players=1, scoring="count")
    assert not state.is_over() and state.scores() == [8]
    state = play(["start 0", *turn(0, BUST), *turn(0, LEAVE_2)], players=1, scoring="count")
    assert state.is_over() and state.winners() == [] and state.scores() == [9]


def test_solo_quick_mode_is_a_loss_at_elimination_like_without_it():
    state = play(["start 0", *turn(0, BUST), *turn(0, LEAVE_2)], players=1, quick=True)
    assert state.is_over() and state.winners() == [] and state.scores() == [45]


def test_solo_digits_long_lasts_eight_rounds_unless_the_box_is_shut():
    state = play(
        ["start 0", *[a for _ in range(7) for a in turn(0, SMALL)]], players=1, scoring="digits", length="long"
    )
    assert not state.is_over()
    state = play(
        ["start 0", *[a for _ in range(8) for a in turn(0, SMALL)]], players=1, scoring="digits", length="long"
    )
    assert state.is_over() and state.winners() == [0] and state.scores() == [126 * 8]
    state = play(["start 0", *turn(0, SMALL), *turn(0, SHUT_9)], players=1, scoring="digits")
    assert state.is_over() and state.winners() == [0] and len(state.round_scores()) == 2


# -- bad input changes nothing -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("prefix", "seat", "text"),
    [
        (["start 0"], CHANCE, "start 1"),  # the start player is drawn once
        (["start 0"], CHANCE, "dice 3 4"),  # nobody rolled
        (["start 0", "0: roll"], CHANCE, "dice 5"),  # two dice were rolled
        (["start 0", *turn(0, _HIGH), "0: roll 1"], CHANCE, "dice 3 4"),  # one die was rolled
        (["start 0", "0: roll", "dice 3 4"], 0, "roll"),  # must close first
        (["start 0", "0: roll", "dice 3 4"], 0, "shut 1 5"),  # 6 ≠ 7
        (["start 0", "0: roll", "dice 3 4"], 1, "shut 7"),  # not seat 1's turn
        (["start 0", "0: roll", "dice 3 4", "0: shut 7", "0: roll", "dice 3 4"], 0, "shut 7"),  # already shut
        (["start 0"], 0, "roll 1"),  # 7 8 9 open
        (["start 0"], 2, "roll"),  # no such seat
    ],
)
def test_illegal_actions_are_refused_and_change_nothing(prefix: list[str], seat: int, text: str):
    state = play(prefix)
    before, history = state.full_view(), list(state.history)
    with pytest.raises(IllegalAction):
        state.act(seat, text)
    assert state.full_view() == before and state.history == history
    with pytest.raises(BadRecord) as err:
        play([*prefix, text if seat == CHANCE else f"{seat}: {text}"])
    assert err.value.index == len(prefix)


@pytest.mark.parametrize("text", ["shut 0", "shut 4 4", "dice 7 1", "roll 3", "close 7", "shut seven", ""])
def test_malformed_actions_are_refused_and_change_nothing(text: str):
    state = play(["start 0", "0: roll", "dice 3 4"])
    before = state.full_view()
    with pytest.raises(MalformedAction):
        state.act(0, text)
    assert state.full_view() == before
    with pytest.raises(BadRecord) as err:
        play(["start 0", "0: roll", "dice 3 4", f"0: {text}"])
    assert err.value.index == 3


# -- an independent reading of the rules, checked against the engine in random games ------------------------------
def reference_closes(open_tiles: list[int], total: int, max_close: int | str) -> set[str]:
    """§2.2: 1, 2 or 3 (research: 2 / any) open tiles adding up to the dice total."""
    limit = len(open_tiles) if max_close == "any" else int(max_close)
    return {
        "shut " + " ".join(map(str, combo))
        for k in range(1, limit + 1)
        for combo in combinations(open_tiles, k)
        if sum(combo) == total
    }


def reference_penalty(open_tiles: list[int], scoring: str) -> int:
    """§1 scoring: sum, count, or the open tiles read left to right as one number."""
    if not open_tiles:
        return 0
    if scoring == "total":
        return sum(open_tiles)
    if scoring == "count":
        return len(open_tiles)
    return int("".join(map(str, open_tiles)))


def _lowest(totals: list[int], seats: list[int]) -> list[int]:
    return [s for s in seats if totals[s] == min(totals[x] for x in seats)]


def reference_outcome(players: int, opts: dict, rows: list[list[int]], shutters: list[list[int]]):
    """§4, read independently: (eliminated flags, winners, game over) after the given rounds."""
    limit = {"short": 45, "long": 90} if opts["scoring"] == "total" else {"short": 9, "long": 18}
    threshold = None if opts["scoring"] == "digits" else limit[opts["length"]]
    rounds = (4 if opts["length"] == "short" else 8) if opts["scoring"] == "digits" else None
    totals, out = [0] * players, [False] * players
    for i, (row, shut) in enumerate(zip(rows, shutters, strict=True)):
        totals = [t + p for t, p in zip(totals, row, strict=True)]
        if shut:
            return out, sorted(shut), True
        before = list(out)
        newly = [s for s in range(players) if not out[s] and threshold is not None and totals[s] >= threshold]
        for s in newly:
            out[s] = True
        still = [s for s in range(players) if not out[s]]
        if players == 1 and newly:
            return out, [], True
        if players > 1 and newly and (opts["quick"] or len(still) <= 1):
            return out, _lowest(totals, still or [s for s in range(players) if out[s] and not before[s]]), True
        if rounds is not None and i + 1 >= rounds:
            return out, _lowest(totals, still), True
    return out, [], False


@pytest.mark.parametrize("seed", range(12))
def test_engine_agrees_with_an_independent_reading_of_the_rules(seed: int):
    rng = random.Random(seed)
    players = rng.choice([1, 2, 3, 5])
    opts = {
        "tiles": rng.choice([9, 10, 12]),
        "scoring": rng.choice(["total", "count", "digits"]),
        "length": rng.choice(["short", "long"]),
        "simultaneous": rng.random() < 0.4,
        "quick": rng.random() < 0.4,
        "max_close": rng.choice([3, 2, "any"]),
        "one_die": rng.choice(["max6", "sum6", "never"]),
    }
    for _ in range(3):
        state = play([f"start {rng.randrange(players)}"], players, **opts)
        while not state.is_over():
            seat = state.to_move[0]
            if seat == CHANCE:
                state.apply(CHANCE, state.sample_chance(rng))
                continue
            seat = rng.choice(state.to_move)
            view = state.view(seat)
            board, dice = view["boards"][seat], view["dice"][seat]
            legal = {str(a) for a in state.legal_actions(seat)}
            if legal <= {"roll", "roll 1"}:  # §2.1: one die only when the rule allows it
                one_die = {"max6": max(board) <= 6, "sum6": sum(board) <= 6, "never": False}[opts["one_die"]]
                assert legal == ({"roll", "roll 1"} if one_die else {"roll"})
            else:
                assert legal == reference_closes(board, sum(dice), opts["max_close"])
            events = len(state.events)
            state.act(seat, rng.choice(sorted(legal)))
            for e in state.events[events:]:
                if e.kind == "turn_over":  # the turn ended by itself: no close fits the dice
                    assert not reference_closes(e.data["open"], e.data["total"], opts["max_close"])
                    assert e.data["penalty"] == reference_penalty(e.data["open"], opts["scoring"])
        shutters: list[list[int]] = [[]]  # per round, the seats that shut the box
        penalties = [[0] * players]  # per round, from the turns played (0 for a seat that did not play)
        for e in state.events:
            if e.kind == "box_shut":
                shutters[-1].append(e.seat)
            elif e.kind == "turn_over":
                penalties[-1][e.seat] = e.data["penalty"]
            elif e.kind == "round_scored":
                shutters.append([])
                penalties.append([0] * players)
        assert state.round_scores() == penalties[:-1]
        out, winners, over = reference_outcome(players, opts, state.round_scores(), shutters[:-1])
        assert over and state.view(None)["eliminated"] == out and state.winners() == winners
