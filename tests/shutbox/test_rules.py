"""One scenario per rule: records in the canonical notation with forced dice, replayed through
`nekobako.engine.replay`, then checked against the rules file (`rules/shut_the_box.md`)."""

from __future__ import annotations

import contextlib

import pytest

from nekobako.engine import BadRecord, replay
from nekobako.games.shutbox import GAME

# Turns on a fresh 9-tile board, as player actions (seat added by `turn`) and dice.
SHUT_9 = ["roll", "dice 6 6", "shut 3 9", "roll", "dice 6 6", "shut 4 8", "roll", "dice 6 6", "shut 5 7"]
SHUT_9 += ["roll", "dice 3 6", "shut 1 2 6"]
"""Shuts the box in four rolls."""
BUST = ["roll", "dice 1 1", "shut 2", "roll", "dice 1 1"]
"""Closes 2 only: open 1 3 4 5 6 7 8 9 — total 43, count 8, digits 13456789."""
SMALL = ["roll", "dice 6 6", "shut 3 9", "roll", "dice 6 6", "shut 4 8", "roll", "dice 6 6", "shut 5 7"]
SMALL += ["roll", "dice 6 6"]
"""Leaves 1 2 6: total 9, count 3, digits 126."""


def turn(seat: int, steps: list[str]) -> list[str]:
    return [s if s.startswith("dice") else f"{seat}: {s}" for s in steps]


def play(actions: list[str], players: int = 2, seed: int | None = None, **options):
    return replay({"game": "shutbox", "players": players, "options": options, "seed": seed, "actions": actions})


def kinds(state) -> list[str]:
    return [e.kind for e in state.events]


# -- a turn -----------------------------------------------------------------------------------------
def test_turn_ends_by_itself_and_scores_the_open_tiles():
    state = play(["start 1", *turn(1, SMALL)])
    view = state.view(None)
    assert view["boards"][1] == [1, 2, 6]
    assert view["penalty"] == [None, 9]
    assert view["to_move"] == [0] and view["current"] == 0
    turn_over = [e for e in state.events if e.kind == "turn_over"]
    assert turn_over[0].seat == 1 and turn_over[0].data == {"total": 12, "open": (1, 2, 6), "penalty": 9}
    assert GAME.describe(turn_over[0]) == "Seat 1 cannot use 12: turn over with a penalty of 9."
    assert "減点9" in GAME.describe(turn_over[0], "ja")


def test_a_roll_is_followed_by_chance_and_then_the_legal_closes():
    state = play(["start 0", "0: roll"])
    assert state.to_move == (-1,) and state.is_chance()
    assert {str(a) for a in state.legal_actions(-1)} == {f"dice {a} {b}" for a in range(1, 7) for b in range(a, 7)}
    assert abs(sum(p for _, p in state.chance_outcomes()) - 1) < 1e-12
    state.act(-1, "dice 4 3")
    assert [str(a) for a in state.legal_actions(0)] == ["shut 7", "shut 1 6", "shut 2 5", "shut 3 4", "shut 1 2 4"]
    assert state.history[-1][1].faces == (3, 4)


def test_round_ends_after_every_player_and_reopens_the_tiles():
    state = play(["start 1", *turn(1, SMALL), *turn(0, BUST)])
    assert state.round_scores() == [[43, 9]]
    assert state.scores() == [43, 9]
    view = state.view(None)
    assert view["round"] == 2 and view["order"] == [1, 0] and view["to_move"] == [1]
    assert view["boards"] == [list(range(1, 10))] * 2
    assert view["penalty"] == [None, None]


# -- start player -----------------------------------------------------------------------------------
def test_start_player_is_chance_and_fixes_the_order_every_round():
    state = play(["start 2", *turn(2, BUST), *turn(0, BUST), *turn(1, SMALL)], players=3)
    assert state.view(None)["order"] == [2, 0, 1]
    assert state.to_move == (2,)
    assert kinds(state)[0] == "start"
    with pytest.raises(BadRecord, match="start"):
        play(["start 3"], players=3)
    # with no `start` entry the seed draws the start player: exactly that seat may roll first
    for seed in range(5):
        drawn = play([], seed=seed, players=4)
        assert drawn.is_chance()
        starters = []
        for seat in range(4):
            with contextlib.suppress(BadRecord):
                starters.append(play([f"{seat}: roll"], seed=seed, players=4).history[0][1].seat)
        assert len(starters) == 1


# -- one die ----------------------------------------------------------------------------------------
HIGH_CLOSED = ["roll", "dice 3 4", "shut 7", "roll", "dice 4 4", "shut 8", "roll", "dice 4 5", "shut 9"]


def test_one_die_only_when_every_open_tile_is_six_or_lower():
    state = play(["start 0", *turn(0, HIGH_CLOSED[:6])])
    assert [str(a) for a in state.legal_actions(0)] == ["roll"]
    assert state.view(0)["one_die"] == [False, False]
    with pytest.raises(BadRecord, match="every open tile is 6 or lower"):
        play(["start 0", *turn(0, HIGH_CLOSED[:6]), "0: roll 1"])
    state = play(["start 0", *turn(0, HIGH_CLOSED)])
    assert [str(a) for a in state.legal_actions(0)] == ["roll", "roll 1"]
    assert state.view(0)["one_die"] == [True, False]
    state.act(0, "roll 1")
    assert [str(a) for a, _ in state.chance_outcomes()] == [f"dice {d}" for d in range(1, 7)]
    state.act(-1, "dice 5")
    assert "shut 5" in [str(a) for a in state.legal_actions(0)]


def test_one_die_sum6_waits_until_the_open_tiles_sum_to_six():
    closed = [*HIGH_CLOSED, "roll", "dice 4 5", "shut 4 5"]  # open 1 2 3 6: sum 12
    state = play(["start 0", *turn(0, closed)], one_die="sum6")
    assert [str(a) for a in state.legal_actions(0)] == ["roll"]
    state = play(["start 0", *turn(0, [*closed, "roll", "dice 3 3", "shut 6"])], one_die="sum6")
    assert [str(a) for a in state.legal_actions(0)] == ["roll", "roll 1"]


def test_one_die_never():
    state = play(["start 0", *turn(0, HIGH_CLOSED)], one_die="never")
    assert [str(a) for a in state.legal_actions(0)] == ["roll"]


# -- how many tiles one roll closes -----------------------------------------------------------------
def test_max_close_limits_the_tiles_per_roll():
    four = ["start 0", "0: roll", "dice 5 5", "0: shut 1 2 3 4"]
    with pytest.raises(BadRecord, match="At most 3 tiles"):
        play(four)
    assert play(four, max_close="any").view(None)["boards"][0] == [5, 6, 7, 8, 9]
    with pytest.raises(BadRecord, match="At most 2 tiles"):
        play(["start 0", "0: roll", "dice 3 4", "0: shut 1 2 4"], max_close=2)
    state = play(["start 0", "0: roll", "dice 3 4"], max_close=2)
    assert [str(a) for a in state.legal_actions(0)] == ["shut 7", "shut 1 6", "shut 2 5", "shut 3 4"]


# -- tiles and scoring ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("scoring", "tiles", "penalty"),
    [
        ("total", 9, 43),
        ("count", 9, 8),
        ("digits", 9, 13456789),
        ("total", 10, 53),
        ("count", 12, 11),
        ("digits", 10, 13456789_10),
        ("digits", 12, int("13456789101112")),
    ],
)
def test_penalty_per_scoring_mode_and_board_size(scoring, tiles, penalty):
    state = play(["start 0", *turn(0, BUST)], players=2, scoring=scoring, tiles=tiles)
    assert state.view(None)["penalty"][0] == penalty
    assert state.view(None)["tiles"] == tiles


def test_digits_reads_ten_as_two_digits():
    steps = ["roll", "dice 6 6", "shut 1 2 9", "roll", "dice 6 6", "shut 4 8", "roll", "dice 6 6", "shut 5 7"]
    steps += ["roll", "dice 3 3", "shut 6", "roll", "dice 1 1"]  # open 3 10: nothing adds up to 2
    state = play(["start 0", *turn(0, steps)], tiles=10, scoring="digits")
    assert state.view(None)["boards"][0] == [3, 10]
    assert state.view(None)["penalty"][0] == 310


# -- elimination ------------------------------------------------------------------------------------
def rounds(n: int, seat0: list[str], seat1: list[str]) -> list[str]:
    return [a for _ in range(n) for a in (*turn(0, seat0), *turn(1, seat1))]


@pytest.mark.parametrize(
    ("scoring", "length", "rounds_to_out"),
    [("total", "short", 2), ("total", "long", 3), ("count", "short", 2), ("count", "long", 3)],
)
def test_elimination_threshold_per_scoring_and_length(scoring, length, rounds_to_out):
    before = play(["start 0", *rounds(rounds_to_out - 1, BUST, SMALL)], scoring=scoring, length=length)
    assert not before.is_over() and before.view(None)["eliminated"] == [False, False]
    state = play(["start 0", *rounds(rounds_to_out, BUST, SMALL)], scoring=scoring, length=length)
    assert state.view(None)["eliminated"] == [True, False]
    assert state.is_over() and state.winners() == [1]
    assert kinds(state)[-2:] == ["eliminated", "game_over"]
    assert state.scores()[0] == sum(r[0] for r in state.round_scores())


def test_eliminated_players_take_no_more_turns():
    # 3 players, short total: seat 0 busts twice (86) and is out; the others go on
    state = play(["start 0", *[a for _ in range(2) for a in (*turn(0, BUST), *turn(1, SMALL), *turn(2, SMALL))]], 3)
    view = state.view(None)
    assert view["eliminated"] == [True, False, False] and not state.is_over()
    assert view["order"] == [1, 2] and view["to_move"] == [1]
    with pytest.raises(BadRecord, match="You are eliminated"):
        replay({**state.record().to_json(), "actions": [*state.record().actions, "0: roll"]})


def test_everybody_out_in_the_same_round_lowest_total_wins():
    state = play(["start 0", *rounds(2, BUST, BUST)])
    assert state.view(None)["eliminated"] == [True, True]
    assert state.winners() == [0, 1]  # equal totals share the win
    state = play(["start 0", *turn(0, BUST), *turn(1, BUST), *turn(0, BUST), *turn(1, SMALL)])
    # after round 2: 86 and 52, both at or past 45, both out in the same round: the lower total wins
    assert state.view(None)["eliminated"] == [True, True]
    assert state.is_over() and state.winners() == [1]


def test_quick_mode_ends_the_game_at_the_first_elimination():
    three = ["start 0", *[a for _ in range(2) for a in (*turn(0, BUST), *turn(1, SMALL), *turn(2, SMALL))]]
    state = play(three, players=3, quick=True)
    assert state.is_over() and state.view(None)["eliminated"] == [True, False, False]
    assert state.winners() == [1, 2]  # both at 18: shared
    assert not play(three, players=3).is_over()


# -- digits: rounds instead of elimination -----------------------------------------------------------
@pytest.mark.parametrize(("length", "n"), [("short", 4), ("long", 8)])
def test_digits_game_lasts_a_fixed_number_of_rounds(length, n):
    state = play(["start 0", *rounds(n - 1, BUST, SMALL)], scoring="digits", length=length)
    assert not state.is_over() and state.view(None)["round"] == n
    state = play(["start 0", *rounds(n, BUST, SMALL)], scoring="digits", length=length)
    assert state.is_over() and state.winners() == [1]
    assert len(state.round_scores()) == n and state.scores() == [13456789 * n, 126 * n]
    assert not any(state.view(None)["eliminated"])


def test_digits_tie_shares_the_win():
    state = play(["start 1", *[a for _ in range(4) for a in (*turn(1, SMALL), *turn(0, SMALL))]], scoring="digits")
    assert state.winners() == [0, 1]
    assert GAME.describe(state.events[-1]) == "Game over — winners: Seat 0 and Seat 1."


# -- shutting the box ------------------------------------------------------------------------------
def test_shutting_the_box_wins_at_once():
    state = play(["start 2", *turn(2, BUST), *turn(0, SHUT_9)], players=3)
    assert state.is_over() and state.winners() == [0]
    assert state.view(None)["shut"] == [True, False, False]
    assert kinds(state)[-3:] == ["box_shut", "round_scored", "game_over"]
    assert state.round_scores() == [[0, 0, 43]]  # seat 1 never played the round
    assert state.legal_actions(1) == () and state.to_move == ()
    with pytest.raises(BadRecord, match="The game is over"):
        play(["start 2", *turn(2, BUST), *turn(0, SHUT_9), "1: roll"], players=3)


def test_simultaneous_round_every_seat_plays_and_the_first_shut_ends_the_game_there():
    # interleave the two turns roll by roll: each roll is followed at once by its dice
    actions = ["start 0"]
    for i in range(0, len(SHUT_9), 3):
        actions += turn(0, SHUT_9[i : i + 3]) + turn(1, SHUT_9[i : i + 3])
    state = play(actions[:4], simultaneous=True)
    assert state.to_move == (0, 1)
    assert state.view(None)["current"] is None and state.view(None)["active"] == [0, 1]
    assert [str(a) for a in state.legal_actions(1)] == ["roll"]
    # seat 0 shuts its box first (its last close comes before seat 1's): it wins at once, and seat 1,
    # one close away from shutting too, never plays it (§2.3, as in turn order)
    shut_at = len(actions) - 4
    assert actions[shut_at] == "0: shut 1 2 6"
    state = play(actions[: shut_at + 1], simultaneous=True)
    assert state.is_over() and state.winners() == [0] and state.to_move == ()
    assert state.view(None)["shut"] == [True, False] and state.view(None)["boards"][1] == [1, 2, 6]
    assert kinds(state)[-3:] == ["box_shut", "round_scored", "game_over"]
    assert state.events[-1].data["reason"] == "shut"
    assert state.round_scores() == [[0, 0]]  # seat 1's turn was unfinished: no penalty
    assert state.legal_actions(1) == ()
    with pytest.raises(BadRecord, match="The game is over"):
        play(actions, simultaneous=True)  # seat 1's own shut, after the end, is refused


def test_simultaneous_shut_keeps_the_penalties_of_finished_turns():
    # seat 1 busts (43) while seat 0 is mid-turn; then seat 0 shuts: round scored 0 and 43, game over
    actions = ["start 0", *turn(0, SHUT_9[:3]), *turn(1, BUST), *turn(0, SHUT_9[3:])]
    state = play(actions, simultaneous=True)
    assert state.is_over() and state.winners() == [0] and state.round_scores() == [[0, 43]]
    # a seat still rolling when the box is shut is refused afterwards, like any action after the end
    unfinished = ["start 0", *turn(1, SHUT_9[:3]), *turn(0, SHUT_9)]
    state = play(unfinished, simultaneous=True)
    assert state.is_over() and state.winners() == [0] and state.view(None)["boards"][1] == [1, 2, 4, 5, 6, 7, 8]
    assert state.round_scores() == [[0, 0]]


def test_simultaneous_round_scores_when_the_last_seat_finishes():
    actions = ["start 0", *turn(1, BUST[:3]), *turn(0, SMALL), *turn(1, BUST[3:])]
    state = play(actions, simultaneous=True)
    assert state.round_scores() == [[9, 43]]
    assert state.to_move == (0, 1) and state.view(None)["round"] == 2


# -- solo --------------------------------------------------------------------------------------------
def test_solo_shut_is_a_win():
    state = play(["start 0", *turn(0, BUST), *turn(0, SHUT_9)], players=1)
    assert state.is_over() and state.winners() == [0] and state.scores() == [43]


def test_solo_elimination_is_a_loss():
    state = play(["start 0", *turn(0, BUST)], players=1)
    assert not state.is_over()  # one player left is no end in solo play
    state = play(["start 0", *turn(0, BUST), *turn(0, BUST)], players=1)
    assert state.is_over() and state.winners() == [] and state.returns() == [0.0]
    assert GAME.describe(state.events[-1], "ja") == "ゲーム終了 — 勝者：なし。"


def test_solo_digits_ends_after_its_rounds():
    state = play(["start 0", *[a for _ in range(4) for a in turn(0, BUST)]], players=1, scoring="digits")
    assert state.is_over() and state.winners() == [0] and len(state.round_scores()) == 4


# -- the round summary in views (docs/views.md) ----------------------------------------------------
def test_the_round_summary_explains_a_win_by_shutting_the_box():
    state = play(["start 2", *turn(2, BUST), *turn(0, SHUT_9)], players=3)
    last = state.view(None)["last_round"]
    assert last["round"] == 1 and last["finish"] == "shut"
    assert last["boards"] == [[], list(range(1, 10)), [1, 3, 4, 5, 6, 7, 8, 9]]
    assert last["dice"] == [[3, 6], [], [1, 1]]
    assert [s["shut"] for s in last["seats"]] == [True, False, False]
    assert [s["penalty"] for s in last["seats"]] == [0, None, 43]  # seat 1 never had its turn
    assert [s["total"] for s in last["seats"]] == [0, 0, 43]


def test_the_round_summary_shows_eliminations_and_lasts_until_the_next_round_ends():
    # total scoring, short game: eliminated at 45; two busts of 43 each put seat 0 out in round 2
    first = ["start 0", *turn(0, BUST), *turn(1, SMALL)]
    state = play(first)
    view = state.view(None)
    assert view["round"] == 2 and view["boards"] == [list(range(1, 10))] * 2  # the boards reopened
    assert view["elimination_at"] == 45 and view["round_limit"] is None
    last = view["last_round"]
    assert last["boards"] == [[1, 3, 4, 5, 6, 7, 8, 9], [1, 2, 6]] and last["finish"] is None
    assert [(s["points"], s["total"], s["eliminated"]) for s in last["seats"]] == [(43, 43, False), (9, 9, False)]
    state = play([*first, *turn(0, BUST)])
    assert state.view(None)["last_round"]["round"] == 1  # until round 2 ends
    state = play([*first, *turn(0, BUST), *turn(1, SMALL)])
    last = state.view(None)["last_round"]
    assert last["round"] == 2 and last["finish"] == "eliminated"
    assert [(s["total"], s["eliminated"]) for s in last["seats"]] == [(86, True), (18, False)]
    assert state.winners() == [1]
