"""The optimal Shut the Box bot against an independent brute force written here from the rules."""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations

from nekobako.bots import make_bot
from nekobako.bots.optimal import solo_game_shut_probability, target_penalty, turn_end_distribution, turn_values
from nekobako.engine import CHANCE, get_game
from nekobako.games.shutbox import GAME
from nekobako.games.shutbox.solver import solve

TWO = [(a + b, 1 / 36) for a in range(1, 7) for b in range(1, 7)]
ONE = [(a, 1 / 6) for a in range(1, 7)]


@cache
def brute(target: int | None):
    """Value of a board about to roll (9 tiles, up to 3 closed per roll, one die when all ≤ 6):
    minus the expected penalty without a target, else P(end below target) (+½ level)."""

    def end(tiles: tuple[int, ...]) -> float:
        if not tiles:
            return 1.0 if target is not None else 0.0
        penalty = sum(tiles)
        if target is None:
            return -penalty
        return 1.0 if penalty < target else 0.5 if penalty == target else 0.0

    @cache
    def value(tiles: tuple[int, ...]) -> float:
        if not tiles:
            return end(tiles)
        rolls = [TWO, ONE] if max(tiles) <= 6 else [TWO]
        return max(roll_value(tiles, odds) for odds in rolls)

    def roll_value(tiles: tuple[int, ...], odds) -> float:
        total = 0.0
        for dice, p in odds:
            options = [
                value(tuple(t for t in tiles if t not in combo))
                for k in (1, 2, 3)
                for combo in combinations(tiles, k)
                if sum(combo) == dice
            ]
            total += p * (max(options) if options else end(tiles))
        return total

    return value, roll_value


def check_choice(view, legal, action, target) -> None:
    value, roll_value = brute(target)
    tiles = tuple(view["boards"][view["seat"]])
    texts = [str(a) for a in legal]
    if texts[0].startswith("roll"):
        scores = {t: roll_value(tiles, ONE if t == "roll 1" else TWO) for t in texts}
    else:
        scores = {t: value(tuple(x for x in tiles if x not in map(int, t.split()[1:]))) for t in texts}
    tolerance = 1e-4  # the bot's tie-break term is ~1e-6
    assert scores[str(action)] >= max(scores.values()) - tolerance, (tiles, scores, str(action))


def test_solo_plays_the_solvers_shut_policy(position) -> None:
    bot = make_bot("optimal", game="shutbox")
    solution = solve(9, "shut")
    rng = random.Random(11)
    for _ in range(150):
        state, seat = position("shutbox", 1, rng)
        view, legal = state.view(seat), state.legal_actions(seat)
        assert target_penalty(GAME.read_view(view)) is None
        action = bot.choose(view, legal, random.Random(0))
        board = view["boards"][seat]
        expected = solution.best_action(board, view["dice"][seat] if str(legal[0]).startswith("shut") else None)
        assert str(action) == str(expected)
        check_choice(view, legal, action, 0)  # target 0: only a shut box counts, i.e. P(shut)


def test_multiplayer_chases_the_best_known_penalty(position) -> None:
    bot = make_bot("optimal", game="shutbox")
    rng = random.Random(5)
    differs = 0
    checked = 0
    while checked < 150:
        state, seat = position("shutbox", 2, rng)
        view, legal = state.view(seat), state.legal_actions(seat)
        target = target_penalty(GAME.read_view(view))
        if target is None or len(legal) < 2:
            continue
        checked += 1
        action = bot.choose(view, legal, random.Random(0))
        check_choice(view, legal, action, target)
        solo_view = dict(view, penalty=[None] * len(view["penalty"]))
        differs += bot.choose(solo_view, legal, random.Random(0)) != action
    assert differs > 0, "chasing a target never changed a decision: the test positions prove nothing"


def test_turn_end_distribution_agrees_with_the_solver_and_play() -> None:
    solution = solve(9, "shut")
    ends = turn_end_distribution(solution)
    assert abs(sum(ends.values()) - 1) < 1e-9
    assert abs(ends[0] - solution.value) < 1e-12
    # one solo turn played by the bot through the engine, many times: the shut rate matches
    bot = make_bot("optimal", game="shutbox")
    rng = random.Random(2)
    shut = 0
    turns = 3000
    for _ in range(turns):
        state = get_game("shutbox").new_game(1)
        while state.to_move and len(state.round_scores()) == 0:
            seat = state.to_move[0]
            if seat == CHANCE:
                state.apply(CHANCE, state.sample_chance(rng))
            else:
                view, legal = state.view(seat), state.legal_actions(seat)
                state.apply(seat, bot.choose(view, legal, rng))
        shut += state.is_over() and state.winners() == [0]
    sd = (solution.value * (1 - solution.value) / turns) ** 0.5
    assert abs(shut / turns - solution.value) < 4 * sd, (shut / turns, solution.value)


def test_solo_game_shut_probability_is_consistent() -> None:
    single = solve(9, "shut").value
    game = solo_game_shut_probability(9, "total", 45)
    assert single < game < 1  # several turns before elimination
    assert abs(solo_game_shut_probability(9, "total", 1) - single) < 1e-12  # out after any penalty


def test_own_dp_without_target_equals_the_solvers_score_values() -> None:
    """`turn_values` (used when chasing a target) shares its recursion with the no-target case,
    which must reproduce the solver's least-expected-penalty values exactly."""
    for tiles, scoring in ((9, "total"), (10, "count"), (9, "digits")):
        values, _ = turn_values(tiles, 3, "max6", scoring, None)
        solution = solve(tiles, "score", scoring, 3, "max6")
        assert all(abs(-v - s) <= 1e-9 * max(1.0, abs(s)) for v, s in zip(values, solution.values, strict=True))
