"""The exact solo-turn solver: published figures, an independent brute force, its own policy
played through the game, and the `nekobako solve` command."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from functools import cache
from itertools import combinations, product

import pytest

from nekobako.engine import CHANCE, InvalidOptions
from nekobako.games.shutbox import GAME, ROLL, ROLL_ONE, Shut
from nekobako.games.shutbox.solver import solve

CLI = [sys.executable, "-c", "from nekobako.cli import main; main()"]


# -- published figures ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("max_close", "one_die", "percent"),
    [("any", "never", 7.1432), ("any", "sum6", 9.7614), (2, "sum6", 7.4194)],
)
def test_durango_bill_probability_of_shutting_nine_tiles(max_close, one_die, percent):
    """Bill Butler, "Shut the Box Analysis", durangobill.com/ShutTheBoxExtra/STBstats.txt, row 45."""
    assert round(solve(9, "shut", "total", max_close, one_die).value * 100, 4) == percent


@pytest.mark.parametrize(
    ("board", "expected"),
    [([1, 3, 4, 5, 6, 8, 9], 40935.389), ([1, 2, 4, 5, 6, 8, 9], 2689.550), ([1, 2, 3, 5, 6, 8, 9], 1842.870)],
)
def test_hopfer_expected_digits_scores(board, expected):
    """Benjamin Hopfer, "Shut the box in Flachau" (2014): expected digits score after 7-2, 7-3, 7-4."""
    sol = solve(9, "score", "digits", "any", "never")
    assert round(sol.values[sol.board(board)], 3) == expected


# -- an independent brute force over sub-boards ------------------------------------------------------
def brute_force(tiles, objective, scoring, max_close, one_die):
    limit = 99 if max_close == "any" else max_close

    def penalty(board):
        if scoring == "total":
            return sum(board)
        if scoring == "count":
            return len(board)
        return int("".join(map(str, board))) if board else 0

    def may_roll_one(board):
        return {"max6": all(t <= 6 for t in board), "sum6": sum(board) <= 6, "never": False}[one_die]

    @cache
    def value(board: tuple[int, ...]) -> float:
        if not board:
            return 1.0 if objective == "shut" else 0.0
        after = {}
        for total in range(1, 13):
            reach = [
                value(tuple(t for t in board if t not in close))
                for r in range(1, min(limit, len(board)) + 1)
                for close in combinations(board, r)
                if sum(close) == total
            ]
            fail = 0.0 if objective == "shut" else float(penalty(board))
            after[total] = (max(reach) if objective == "shut" else min(reach)) if reach else fail
        two = sum(after[a + b] for a, b in product(range(1, 7), repeat=2)) / 36
        if not may_roll_one(board):
            return two
        one = sum(after[d] for d in range(1, 7)) / 6
        return max(one, two) if objective == "shut" else min(one, two)

    return value(tuple(range(1, tiles + 1)))


@pytest.mark.parametrize(
    ("objective", "scoring", "max_close", "one_die"),
    [
        ("shut", "total", 3, "max6"),
        ("shut", "total", 2, "never"),
        ("shut", "total", "any", "sum6"),
        ("score", "total", 3, "max6"),
        ("score", "count", "any", "never"),
        ("score", "digits", 2, "sum6"),
        ("score", "digits", 3, "max6"),
    ],
)
def test_solver_agrees_with_a_brute_force(objective, scoring, max_close, one_die):
    value = solve(9, objective, scoring, max_close, one_die).value
    assert math.isclose(value, brute_force(9, objective, scoring, max_close, one_die), rel_tol=1e-9)


# -- the policy, played through the game -------------------------------------------------------------
def play_turns(sol, options, turns, seed):
    """Solo turns through the public game API with the solver's policy; returns the end boards."""
    rng = random.Random(seed)
    ends = []
    for _ in range(turns):
        state = GAME.new_game(1, options)
        state.act(CHANCE, "start 0")
        board = sol.full
        while True:
            legal = state.legal_actions(0)
            action = sol.best_roll(board)
            assert action in legal
            state.apply(0, action)
            dice = state.sample_chance(rng)
            state.apply(CHANCE, dice)
            close = sol.best_shut(board, dice.total)
            if close is None:
                assert state.round_scores() or state.is_over()  # the game ended the turn too
                break
            assert close in state.legal_actions(0)
            state.apply(0, close)
            board ^= close.mask
            if not board:
                assert state.is_over() and state.winners() == [0]
                break
        ends.append(board)
    return ends


def test_policy_wins_as_often_as_its_value_says():
    options = {"tiles": 9, "max_close": 3, "one_die": "max6"}
    sol = solve(9, "shut", "total", 3, "max6")
    n = 12_000
    rate = sum(1 for b in play_turns(sol, options, n, seed=11) if b == 0) / n
    sigma = math.sqrt(sol.value * (1 - sol.value) / n)
    assert abs(rate - sol.value) < 4 * sigma


@pytest.mark.parametrize("scoring", ["total", "count"])
def test_policy_scores_what_its_value_says(scoring):
    options = {"tiles": 10, "scoring": scoring}
    sol = solve(10, "score", scoring, 3, "max6")
    pen = {"total": lambda b: sum(t + 1 for t in range(10) if b >> t & 1), "count": lambda b: b.bit_count()}[scoring]
    scores = [pen(b) for b in play_turns(sol, options, 3_000, seed=5)]
    mean = sum(scores) / len(scores)
    sd = math.sqrt(sum((s - mean) ** 2 for s in scores) / (len(scores) - 1))
    assert abs(mean - sol.value) < 4 * sd / math.sqrt(len(scores))


def test_policy_api_for_bots():
    sol = solve(9, "shut", "total", 3, "max6")
    assert sol.best_action(range(1, 10)) is ROLL
    assert sol.best_action([1, 2, 3], (2, 5)) is None  # 7 cannot be made: the turn is over
    assert sol.best_action([1, 2, 3], (3, 3)) is Shut(1, 2, 3)
    assert sol.best_action([1, 2, 3], (1, 1)) is Shut(2)
    assert sol.best_action([1, 2, 3, 4]) in (ROLL, ROLL_ONE)
    assert sol.best_shut([5], 4) is None
    choices = sol.choices(range(1, 10), 7)
    assert [v for _, v in choices] == sorted((v for _, v in choices), reverse=True)
    assert choices[0][0] is sol.best_shut(range(1, 10), 7)
    assert math.isclose(sol.roll_value(sol.full, 2), sol.value)
    with pytest.raises(ValueError):
        sol.board(1 << 9)


def test_one_die_is_chosen_when_it_helps():
    sol = solve(9, "shut", "total", 3, "max6")
    assert sol.best_roll([6]) is ROLL_ONE  # P(6) is 6/36 with one die, 5/36 with two
    assert sol.roll_value([6], 1) > sol.roll_value([6], 2)


def test_bad_settings_are_refused():
    with pytest.raises(InvalidOptions, match="Option 'tiles' cannot be 11"):
        solve(11)
    with pytest.raises(InvalidOptions, match="objective"):
        solve(9, "win")


# -- the command -------------------------------------------------------------------------------------
def run(*args):
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=60, env={"COLUMNS": "120"})


def test_solve_command_json():
    args = ["--tiles", "9", "--objective", "shut", "--max-close", "any", "--one-die", "sum6", "--json"]
    done = run("solve", "shutbox", *args)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert round(out["value"] * 100, 4) == 9.7614
    assert len(out["first_moves"]) == 11 and out["first_moves"][5]["total"] == 7


def test_solve_command_table_and_errors():
    done = run("solve", "shutbox", "--tiles", "12", "--objective", "score", "--scoring", "count")
    assert done.returncode == 0, done.stderr
    assert "expected penalty" in done.stdout and "Best first moves" in done.stdout
    assert f"{solve(12, 'score', 'count').value:.6f}" in done.stdout
    bad = run("solve", "shutbox", "--tiles", "8")
    assert bad.returncode != 0 and "Option 'tiles' cannot be 8" in bad.stderr
    other = run("solve", "catbox")
    assert other.returncode != 0 and "exists for shutbox only" in other.stderr


@pytest.mark.parametrize("max_close", ["any", 2])
def test_offering_one_die_equals_forcing_it_under_sum6(max_close):
    """Butler forces the single die when the open tiles sum to ≤ 6; we offer it. Where it is
    offered, one die is never worse for the shut objective, so both rules have the same value."""
    sol = solve(9, "shut", "total", max_close, "sum6")
    small = [m for m in range(1, 1 << 9) if sum(t + 1 for t in range(9) if m >> t & 1) <= 6]
    assert small and all(sol.roll_value(m, 1) >= sol.roll_value(m, 2) - 1e-12 for m in small)


def test_solve_command_in_japanese():
    done = run("solve", "shutbox", "--objective", "shut", "--lang", "ja")
    assert done.returncode == 0, done.stderr
    assert "シャット・ザ・ボックスを達成する確率" in done.stdout
    assert "9.6866 %" in done.stdout and "最善手" in done.stdout
