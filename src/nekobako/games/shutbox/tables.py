"""Precomputed tables for one board configuration, shared by the rules and the solver.

Boards are bitmasks (bit t-1 set ⇔ tile t open). For a given tile count, `max_close` and
`one_die` rule, `Tables` holds, flat-indexed by `mask << 4 | total`, the tuple of `Shut`
actions legal for that roll, plus per-mask penalties and roll choices. Tables are built once per
configuration (a few tens of milliseconds for 12 tiles) and cached.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

from .actions import ROLL, ROLL_ONE, Dice, Roll, Shut

TOTAL_BITS = 4
"""`mask << TOTAL_BITS | total` indexes the shut tables (totals are 1…12 < 16)."""

TWO_DICE: tuple[Dice, ...] = tuple(Dice(a, b) for a in range(1, 7) for b in range(1, 7))
"""All 36 ordered rolls (interned to 21 values): sampling is one index, no weights."""
ONE_DIE: tuple[Dice, ...] = tuple(Dice(a) for a in range(1, 7))

TWO_DICE_TOTALS: tuple[tuple[int, int], ...] = tuple((t, 6 - abs(t - 7)) for t in range(2, 13))
"""(total, ways out of 36) for two dice."""
ONE_DIE_TOTALS: tuple[tuple[int, int], ...] = tuple((t, 1) for t in range(1, 7))
"""(total, ways out of 6) for one die."""


def _outcomes(rolls: tuple[Dice, ...]) -> tuple[tuple[Dice, float], ...]:
    counts: dict[Dice, int] = {}
    for d in rolls:
        counts[d] = counts.get(d, 0) + 1
    return tuple((d, c / len(rolls)) for d, c in counts.items())


TWO_DICE_OUTCOMES = _outcomes(TWO_DICE)
ONE_DIE_OUTCOMES = _outcomes(ONE_DIE)


def max_tiles(max_close: int | str) -> int:
    return 12 if max_close == "any" else int(max_close)


def digits_penalty(mask: int) -> int:
    """Open tiles read left to right as one number (5, 6, 9 → 569; 3, 10 → 310); 0 when shut."""
    text = "".join(str(t + 1) for t in range(12) if mask >> t & 1)
    return int(text) if text else 0


@cache
def penalty_table(tiles: int, scoring: str) -> tuple[int, ...]:
    """Round penalty per board mask for a scoring mode."""
    if scoring == "total":
        return tuple(sum(t + 1 for t in range(tiles) if m >> t & 1) for m in range(1 << tiles))
    if scoring == "count":
        return tuple(m.bit_count() for m in range(1 << tiles))
    if scoring == "digits":
        return tuple(digits_penalty(m) for m in range(1 << tiles))
    raise ValueError(f"unknown scoring {scoring!r}")


def one_die_allowed(mask: int, rule: str) -> bool:
    """May a player with open tiles `mask` choose to roll one die (rule: max6 / sum6 / never)?"""
    if rule == "max6":
        return mask >> 6 == 0
    if rule == "sum6":
        return sum(t + 1 for t in range(12) if mask >> t & 1) <= 6
    return False


class Tables:
    """Lookup tables for one (tiles, max_close, one_die) configuration."""

    __slots__ = ("full", "one_die", "rolls", "shut_masks", "shuts", "tiles")

    def __init__(self, tiles: int, max_close: int | str, one_die: str):
        self.tiles = tiles
        self.full = (1 << tiles) - 1
        self.one_die = one_die
        limit = max_tiles(max_close)
        by_total: list[list[int]] = [[] for _ in range(13)]
        numbers = range(1, tiles + 1)
        for size in range(1, min(limit, tiles) + 1):
            for combo in combinations(numbers, size):
                total = sum(combo)
                if total <= 12:
                    by_total[total].append(Shut(*combo).mask)
        shuts: list[tuple[Shut, ...]] = [()] * ((self.full + 1) << TOTAL_BITS)
        shut_masks: list[tuple[int, ...]] = [()] * ((self.full + 1) << TOTAL_BITS)
        for mask in range(1, self.full + 1):
            base = mask << TOTAL_BITS
            for total in range(1, 13):
                fits = tuple(c for c in by_total[total] if c & mask == c)
                if fits:
                    shut_masks[base | total] = fits
                    shuts[base | total] = tuple(Shut.of_mask(c) for c in fits)
        self.shuts: list[tuple[Shut, ...]] = shuts
        """`shuts[mask << 4 | total]`: legal `Shut` actions, fewest tiles first, then ascending."""
        self.shut_masks: list[tuple[int, ...]] = shut_masks
        self.rolls: list[tuple[Roll, ...]] = [
            (ROLL, ROLL_ONE) if mask and one_die_allowed(mask, one_die) else (ROLL,) for mask in range(self.full + 1)
        ]
        """`rolls[mask]`: the roll actions open to a player with board `mask`."""


@cache
def tables(tiles: int, max_close: int | str, one_die: str) -> Tables:
    return Tables(tiles, max_close, one_die)


def mask_tiles(mask: int) -> list[int]:
    """Open tile numbers of a board mask, ascending."""
    return [t + 1 for t in range(12) if mask >> t & 1]


def tiles_mask(tiles: list[int] | tuple[int, ...]) -> int:
    mask = 0
    for t in tiles:
        mask |= 1 << (t - 1)
    return mask
