"""The `optimal` level for Shut the Box: exact dynamic programming over one turn.

A turn is a small Markov decision process over the open tiles (a bitmask, at most 4,096 states):
before each roll the player picks two dice or one, after it the tiles to close. Given a value
`U(mask)` for every way the turn can end, `_turn_values` computes the best expected value from
every board, bottom up (closing tiles only makes the mask smaller), on top of the game's own
tables (`nekobako.games.shutbox.tables`).

What to optimise depends on what the seat knows:

* Solo play: the game is won only by shutting the box, so the bot plays the exact solver's
  policy for the `shut` objective (`nekobako.games.shutbox.solver`, the policy of
  `nekobako solve shutbox`): the greatest probability of shutting the box this turn.
* Several players, nobody else has finished a turn this round: the solver's `score` policy, the
  least expected penalty for the round under the table's scoring.
* Some other seat still in the game has already scored this round: beat the best of those
  penalties, with a DP of our own on the game's tables (`turn_values`). `U = 1` below it (and
  for shutting the box, which wins outright), `1/2` level with it, `0` above it, minus a tiny
  share of the penalty so that a hopeless turn still loses as little as it can: the probability
  of ending below the target first, then the least penalty.

Ties between equally good actions go to the first in the legal list, so the bot needs no rng.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from ..engine import Action
from ..games.shutbox.solver import Solution, solve
from ..games.shutbox.tables import (
    ONE_DIE_TOTALS,
    TOTAL_BITS,
    TWO_DICE_TOTALS,
    penalty_table,
    tables,
    tiles_mask,
)
from ..games.shutbox.view import ShutView, read_view
from .base import only_choice

TIE_BREAK = 1e-6
"""Weight of the penalty when chasing a target: only separates turns equally likely to beat it."""


class OptimalBot:
    name = "optimal"

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        if (only := only_choice(legal)) is not None:
            return only
        seen = read_view(view)
        options = seen.options
        board = seen.boards[seen.me]
        texts = [str(a) for a in legal]
        target = target_penalty(seen)
        if target is None:
            objective = "shut" if seen.players == 1 else "score"
            solution = solve(options["tiles"], objective, options["scoring"], options["max_close"], options["one_die"])
            if texts[0].startswith("roll"):
                chosen: Action | None = solution.best_roll(board)
            else:
                chosen = solution.best_shut(board, sum(int(w) for w in texts[0].split()[1:]))
            return legal[texts.index(str(chosen))]
        mask = tiles_mask(board)
        tiles, max_close, one_die = options["tiles"], options["max_close"], options["one_die"]
        values, ends = turn_values(tiles, max_close, one_die, options["scoring"], target)
        if texts[0].startswith("roll"):
            config = tables(tiles, max_close, one_die)
            odds = [ONE_DIE_ODDS if text == "roll 1" else TWO_DICE_ODDS for text in texts]
            scores = [_roll_value(config.shut_masks, values, mask, o, ends[mask]) for o in odds]
        else:
            scores = [values[mask & ~tiles_mask([int(w) for w in text.split()[1:]])] for text in texts]
        best = max(range(len(legal)), key=lambda i: (scores[i], -i))
        return legal[best]

    def __repr__(self) -> str:
        return "OptimalBot('shutbox')"


OBJECTIVES = ("shut", "score", "target")
"""What `action_values` optimises: the solver's two objectives, or beating a penalty already scored."""


def objective_of(seen: ShutView) -> str:
    """The objective the bot plays for at this view (see the module docstring)."""
    if target_penalty(seen) is not None:
        return "target"
    return "shut" if seen.players == 1 else "score"


def action_values(view: Mapping[str, Any], legal: Sequence[Action]) -> tuple[str, list[float]]:
    """`(objective, values)`: the exact value of each legal action under the objective the bot
    plays for at this view, as `choose` weighs them (higher is better): the probability of
    shutting the box this turn (`shut`), minus the turn's expected penalty (`score`), or the
    probability of beating the best penalty already scored this round (`target`). The review
    (`nekobako.review`) rates a Shut the Box decision with these."""
    seen = read_view(view)
    options = seen.options
    board = seen.boards[seen.me]
    texts = [str(a) for a in legal]
    objective = objective_of(seen)
    rolling = texts[0].startswith("roll")
    mask = tiles_mask(board)
    if objective != "target":
        solution = solve(options["tiles"], objective, options["scoring"], options["max_close"], options["one_die"])
        sign = 1.0 if solution.maximize else -1.0
        if rolling:
            return objective, [sign * solution.roll_value(mask, 1 if t == "roll 1" else 2) for t in texts]
        return objective, [sign * solution.values[mask & ~_closed(t)] for t in texts]
    tiles, max_close, one_die = options["tiles"], options["max_close"], options["one_die"]
    values, ends = turn_values(tiles, max_close, one_die, options["scoring"], target_penalty(seen))
    if rolling:
        config = tables(tiles, max_close, one_die)
        odds = [ONE_DIE_ODDS if text == "roll 1" else TWO_DICE_ODDS for text in texts]
        return objective, [_roll_value(config.shut_masks, values, mask, o, ends[mask]) for o in odds]
    return objective, [values[mask & ~_closed(t)] for t in texts]


def _closed(text: str) -> int:
    """The mask of the tiles a `shut …` action closes."""
    return tiles_mask([int(w) for w in text.split()[1:]])


def target_penalty(view: ShutView) -> int | None:
    """The best penalty another seat still in the game has already scored this round, if any."""
    known = [p for s, p in enumerate(view.penalty) if s != view.seat and p is not None and not view.eliminated[s]]
    return min(known) if known else None


def _dice_odds(one_die: bool) -> tuple[tuple[int, float], ...]:
    return tuple((t, w / 6) for t, w in ONE_DIE_TOTALS) if one_die else tuple((t, w / 36) for t, w in TWO_DICE_TOTALS)


TWO_DICE_ODDS = _dice_odds(False)
ONE_DIE_ODDS = _dice_odds(True)


def _roll_value(
    shut_masks: Sequence[tuple[int, ...]],
    values: Sequence[float],
    mask: int,
    odds: tuple[tuple[int, float], ...],
    stop: float,
) -> float:
    """Expected value of rolling with board `mask`, then closing the best tiles (or ending at `stop`)."""
    expected = 0.0
    base = mask << TOTAL_BITS
    for total, p in odds:
        fits = shut_masks[base | total]
        expected += p * (max(values[mask ^ c] for c in fits) if fits else stop)
    return expected


@lru_cache(maxsize=64)
def turn_values(
    tiles: int, max_close: int | str, one_die: str, scoring: str, target: int | None
) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """`(values, ends)`: `values[mask]` is the best expected `U` for a player about to roll with open
    tiles `mask`; `ends[mask]` is `U` itself, what the turn is worth if it ends there. With no
    target, `U` is minus the penalty (the solver's `score` objective, kept for comparison)."""
    config = tables(tiles, max_close, one_die)
    penalties = penalty_table(tiles, scoring)
    if target is None:
        ends = [-float(p) for p in penalties]
    else:
        worst = max(penalties) or 1
        ends = [_beat(p, target) - TIE_BREAK * p / worst for p in penalties]
        ends[0] = 1.0  # shutting the box wins the game at once
    values = [0.0] * (config.full + 1)
    values[0] = ends[0]
    shut_masks = config.shut_masks
    for mask in range(1, config.full + 1):
        best = -float("inf")
        for roll in config.rolls[mask]:
            odds = ONE_DIE_ODDS if roll.n == 1 else TWO_DICE_ODDS
            best = max(best, _roll_value(shut_masks, values, mask, odds, ends[mask]))
        values[mask] = best
    return tuple(values), tuple(ends)


def _beat(penalty: int, target: int) -> float:
    return 1.0 if penalty < target else 0.5 if penalty == target else 0.0


def turn_end_distribution(solution: Solution) -> dict[int, float]:
    """Board mask → probability that a turn played by `solution`'s policy from a full board ends
    there (mask 0: the box is shut). Exact, by pushing probability down the masks."""
    config = tables(solution.tiles, solution.max_close, solution.one_die)
    reach = [0.0] * (config.full + 1)
    reach[config.full] = 1.0
    ends: dict[int, float] = {}
    for mask in range(config.full, 0, -1):
        q = reach[mask]
        if not q:
            continue
        odds = ONE_DIE_ODDS if solution.best_dice[mask] == 1 else TWO_DICE_ODDS
        for total, p in odds:
            close = solution.best_close[mask << TOTAL_BITS | total]
            if close:
                reach[mask ^ close] += q * p
            else:
                ends[mask] = ends.get(mask, 0.0) + q * p
    ends[0] = reach[0]
    return ends


def solo_game_shut_probability(
    tiles: int = 9, scoring: str = "total", elimination: int = 45, max_close: int | str = 3, one_die: str = "max6"
) -> float:
    """Probability that the optimal bot shuts the box in a solo game before its penalty total
    reaches `elimination` (the game a simulation of `optimal` in solo play measures)."""
    ends = turn_end_distribution(solve(tiles, "shut", scoring, max_close, one_die))
    penalties = penalty_table(tiles, scoring)
    win = [0.0] * elimination
    for total in range(elimination - 1, -1, -1):
        value = ends.get(0, 0.0)
        for mask, p in ends.items():
            if mask and total + penalties[mask] < elimination:
                value += p * win[total + penalties[mask]]
        win[total] = value
    return win[0]
