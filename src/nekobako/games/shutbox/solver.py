"""Exact solver for one solo turn of Shut the Box: optimal policy and its value.

A turn is a Markov decision process over boards (bitmask of open tiles). At a board the player
chooses how many dice to roll (when the one-die rule allows a choice), chance gives a total, and
the player closes a legal set of tiles or, if none fits, the turn ends with the board's penalty.
Closing tiles always makes the mask numerically smaller, so one pass over masks in increasing
order is a complete dynamic programme: 2^N boards × 12 totals, about 0.1 s in Python for N = 12.

Objectives:
* ``shut``  — maximize the probability of shutting the box (value in [0, 1]);
* ``score`` — minimize the expected penalty of the turn under a scoring mode (total, count,
  digits); a shut box scores 0.

`solve(...)` returns a `Solution`: `value` (from the full board), per-board values and the
optimal action for any (open tiles, dice), which is what the optimal bot plays. Ties are broken
towards the first legal action in notation order (fewest tiles, then ascending), so the policy
is deterministic.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from ...engine import InvalidOptions, is_number
from ...i18n import Message
from .actions import ROLL, ROLL_ONE, Roll, Shut
from .options import MAX_CLOSE, ONE_DIE_RULES, SCORINGS, TILE_COUNTS
from .tables import ONE_DIE_TOTALS, TOTAL_BITS, TWO_DICE_TOTALS, penalty_table, tables, tiles_mask

OBJECTIVES = ("shut", "score")
_EPS = 1e-12


@dataclass(frozen=True)
class Solution:
    """The optimal policy of a solo turn and its values.

    `values[mask]` is the value of a board before rolling; `best_dice[mask]` the number of dice
    the policy rolls there; `best_close[mask << 4 | total]` the mask of tiles it closes after
    rolling `total` (0 when no tiles fit: the turn ends).
    """

    tiles: int
    objective: str
    scoring: str
    max_close: int | str
    one_die: str
    values: tuple[float, ...]
    best_dice: tuple[int, ...]
    best_close: tuple[int, ...]

    @property
    def full(self) -> int:
        return (1 << self.tiles) - 1

    @property
    def value(self) -> float:
        """Value of a fresh board: the probability to shut it, or the expected penalty."""
        return self.values[self.full]

    @property
    def maximize(self) -> bool:
        return self.objective == "shut"

    def board(self, open_tiles: int | Iterable[int]) -> int:
        """A board mask from a mask or from open tile numbers (as in a view's `boards`)."""
        mask = open_tiles if isinstance(open_tiles, int) else tiles_mask(list(open_tiles))
        if not 0 <= mask <= self.full:
            raise ValueError(f"open tiles {open_tiles!r} are not a board of {self.tiles} tiles")
        return mask

    def best_roll(self, open_tiles: int | Iterable[int]) -> Roll:
        return ROLL_ONE if self.best_dice[self.board(open_tiles)] == 1 else ROLL

    def best_shut(self, open_tiles: int | Iterable[int], total: int) -> Shut | None:
        """The tiles to close after rolling `total`; None when nothing fits (the turn is over)."""
        close = self.best_close[self.board(open_tiles) << TOTAL_BITS | total] if 1 <= total <= 12 else 0
        return Shut.of_mask(close) if close else None

    def best_action(self, open_tiles: int | Iterable[int], dice: Sequence[int] | None = None) -> Roll | Shut | None:
        """What the optimal player does: roll (no `dice` yet) or the tiles to shut for `dice`."""
        if not dice:
            return self.best_roll(open_tiles)
        return self.best_shut(open_tiles, sum(dice))

    def choices(self, open_tiles: int | Iterable[int], total: int) -> list[tuple[Shut, float]]:
        """Every legal close for `total` with the value of the board it leaves, best first."""
        mask = self.board(open_tiles)
        t = tables(self.tiles, self.max_close, self.one_die)
        found = [(Shut.of_mask(c), self.values[mask ^ c]) for c in t.shut_masks[mask << TOTAL_BITS | total]]
        found.sort(key=lambda cv: -cv[1] if self.maximize else cv[1])
        return found

    def roll_value(self, open_tiles: int | Iterable[int], dice: int) -> float:
        """Value of rolling `dice` dice at this board and playing optimally afterwards."""
        mask = self.board(open_tiles)
        return _roll_value(self, mask, dice)


def _roll_value(sol: Solution, mask: int, dice: int) -> float:
    fail = 0.0 if sol.maximize else float(penalty_table(sol.tiles, sol.scoring)[mask])
    dist, ways = (TWO_DICE_TOTALS, 36) if dice == 2 else (ONE_DIE_TOTALS, 6)
    acc = 0.0
    for total, w in dist:
        close = sol.best_close[mask << TOTAL_BITS | total]
        acc += w * (sol.values[mask ^ close] if close else fail)
    return acc / ways


def check(tiles: int, objective: str, scoring: str, max_close: int | str, one_die: str) -> None:
    """Refuse settings the solver does not know, with a message a person understands."""
    for name, value, allowed in (
        ("tiles", tiles, TILE_COUNTS),
        ("objective", objective, OBJECTIVES),
        ("scoring", scoring, SCORINGS),
        ("max_close", max_close, MAX_CLOSE),
        ("one_die", one_die, ONE_DIE_RULES),
    ):
        if value not in allowed:
            allowed_text = ", ".join(map(str, allowed))
            raise InvalidOptions(
                Message("engine.options.bad_value", name=name, value=repr(value), allowed=allowed_text)
            )


def parse_max_close(text: str | int) -> int | str:
    """`"3"` → 3, `"any"` → "any" (command line and JSON spellings)."""
    if isinstance(text, str) and is_number(text.strip()):
        return int(text)
    return text


@cache
def solve(
    tiles: int = 9,
    objective: str = "shut",
    scoring: str = "total",
    max_close: int | str = 3,
    one_die: str = "max6",
) -> Solution:
    """Solve a solo turn exactly (cached: one computation per setting)."""
    check(tiles, objective, scoring, max_close, one_die)
    t = tables(tiles, max_close, one_die)
    maximize = objective == "shut"
    penalties = penalty_table(tiles, scoring)
    full = t.full
    values = [0.0] * (full + 1)
    values[0] = 1.0 if maximize else 0.0
    best_dice = [2] * (full + 1)
    best_close = [0] * ((full + 1) << TOTAL_BITS)
    shut_masks = t.shut_masks
    for mask in range(1, full + 1):
        base = mask << TOTAL_BITS
        fail = 0.0 if maximize else float(penalties[mask])
        after = [fail] * 13  # value after rolling each total
        for total in range(1, 13):
            options = shut_masks[base | total]
            if not options:
                continue
            best_c = options[0]
            best_v = values[mask ^ best_c]
            for c in options[1:]:
                v = values[mask ^ c]
                if (v > best_v + _EPS) if maximize else (v < best_v - _EPS):
                    best_c, best_v = c, v
            after[total] = best_v
            best_close[base | total] = best_c
        value = sum(w * after[total] for total, w in TWO_DICE_TOTALS) / 36
        if len(t.rolls[mask]) == 2:
            one = sum(after[total] for total, _ in ONE_DIE_TOTALS) / 6
            if (one > value + _EPS) if maximize else (one < value - _EPS):
                value = one
                best_dice[mask] = 1
        values[mask] = value
    return Solution(tiles, objective, scoring, max_close, one_die, tuple(values), tuple(best_dice), tuple(best_close))


def solve_for(options: Any, objective: str = "score") -> Solution:
    """The solution matching a table's options (a `nekobako.engine.Options` of this game)."""
    return solve(options.tiles, objective, options.scoring, options.max_close, options.one_die)
