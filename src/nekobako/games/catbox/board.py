"""The research board as bitmasks, and the static tables one table size needs.

Two views of the same cells: for legality a cell is `(colour, number)`, kept as one bitmask of
numbers per colour (`occupied[colour] >> number & 1`); for the bonus a cell is its physical
`(row, column)`, kept as a bitmask over `row * columns + column`, so connected groups are found by
shifting masks (rules §7: adjacency by physical cell, never by number).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product
from math import factorial, prod

from .actions import DISCARDS, PLAYS, PREDICTS, Deal, Discard, Play, Predict
from .layouts import BLOCKER_ROWS, COLOURS, LAYOUTS, Setup, setup_for

NIBBLE = 4
"""Hands are counts per number packed 4 bits each: `hand >> 4 * n & 15` copies of card n."""


def pack(cards: tuple[int, ...] | list[int]) -> int:
    """Cards → packed counts."""
    packed = 0
    for n in cards:
        packed += 1 << (NIBBLE * n)
    return packed


def unpack(packed: int) -> list[int]:
    """Packed counts → sorted cards."""
    cards = []
    n = 0
    while packed:
        cards.extend([n] * (packed & 15))
        packed >>= NIBBLE
        n += 1
    return cards


_ONES, _TWOS, _FOURS, _EIGHTS = (sum(1 << (NIBBLE * n + bit) for n in range(16)) for bit in range(NIBBLE))


def card_count(packed: int) -> int:
    """How many cards packed counts hold (`len(unpack(packed))`, without the list: a view asks
    for every seat's): each bit of every count, weighted, counted at C speed."""
    return (
        (packed & _ONES).bit_count()
        + ((packed & _TWOS).bit_count() << 1)
        + ((packed & _FOURS).bit_count() << 2)
        + ((packed & _EIGHTS).bit_count() << 3)
    )


def _plays_by_mask(colour: int) -> tuple[tuple[Play, ...], ...]:
    return tuple(tuple(PLAYS[n][colour] for n in range(1, 10) if mask >> n & 1) for mask in range(1 << 10))


PLAYS_BY_MASK: tuple[tuple[tuple[Play, ...], ...], ...] = tuple(_plays_by_mask(c) for c in range(len(COLOURS)))
"""`PLAYS_BY_MASK[colour][numbers mask]`: the plays of those numbers in that colour, ascending."""
DISCARDS_BY_MASK: tuple[tuple[Discard, ...], ...] = tuple(
    tuple(DISCARDS[n] for n in range(1, 10) if mask >> n & 1) for mask in range(1 << 10)
)


@dataclass(frozen=True, eq=False)
class Table:
    """Everything static about one table size and side, computed once (see `table_for`)."""

    setup: Setup
    side: str
    layout: tuple[tuple[int, ...], ...]  # numbers per row, per column
    columns: int
    cell_bit: tuple[tuple[int, ...], ...]  # [colour][number] → physical bit (0 if no such cell)
    cell_at: tuple[tuple[int, int], ...]  # physical bit index → (colour, number)
    observed_cells: int  # physical mask of observed tokens
    observed_numbers: int  # number mask blocked on every row by observed tokens
    deck: int  # packed counts of the cards in use
    deck_cards: tuple[int, ...]
    predicts: tuple[Predict, ...]
    not_first_column: int
    not_last_column: int
    deals: tuple[tuple[Deal, float], ...]  # a research setup's every deal and its chance; else ()

    def largest_group(self, cells: int) -> int:
        """Size of the largest orthogonally connected group in a physical mask."""
        best = 0
        width = self.columns
        left, right = self.not_first_column, self.not_last_column
        while cells:
            group = cells & -cells
            while True:
                grown = (
                    group | (group << 1 & left) | (group >> 1 & right) | (group << width) | (group >> width)
                ) & cells
                if grown == group:
                    break
                group = grown
            best = max(best, group.bit_count())
            cells &= ~group
        return best

    def blockers(self, reveal: tuple[int, ...]) -> list[tuple[int, int]]:
        """2 players: (colour, number) cells blocked for the revealed centre cards (§8)."""
        cells: list[tuple[int, int]] = []
        for n in sorted(set(reveal)):
            cells.extend((BLOCKER_ROWS[k], n) for k in range(reveal.count(n)))
        return cells


@cache
def table_for(players: int, side: str) -> Table:
    setup = setup_for(players, side)
    columns = setup.columns
    layout = LAYOUTS[(side, columns)]
    cell_bit = [[0] * 10 for _ in COLOURS]
    cell_at = [(0, 0)] * (len(COLOURS) * columns)
    for row, numbers in enumerate(layout):
        for col, n in enumerate(numbers):
            cell_bit[row][n] = 1 << (row * columns + col)
            cell_at[row * columns + col] = (row, n)
    observed_cells = 0
    observed_numbers = 0
    if setup.observed is not None:
        observed_numbers = 1 << setup.observed
        for row in range(len(COLOURS)):
            observed_cells |= cell_bit[row][setup.observed]
    deck_cards = tuple(n for n in range(1, setup.numbers + 1) for _ in range(setup.copies))
    full = (1 << (len(COLOURS) * columns)) - 1
    first = sum(1 << (row * columns) for row in range(len(COLOURS)))
    last = first << (columns - 1)
    return Table(
        setup=setup,
        side=side,
        layout=layout,
        columns=columns,
        cell_bit=tuple(tuple(r) for r in cell_bit),
        cell_at=tuple(cell_at),
        observed_cells=observed_cells,
        observed_numbers=observed_numbers,
        deck=pack(deck_cards),
        deck_cards=deck_cards,
        predicts=tuple(PREDICTS[v] for v in setup.predictions),
        not_first_column=full & ~first,
        not_last_column=full & ~last,
        deals=_every_deal(setup) if setup.research else (),
    )


def _every_deal(setup: Setup) -> tuple[tuple[Deal, float], ...]:
    """Every deal of a small deck with its probability, so a solver's tree has one chance node per
    deal instead of one per card dealt: a deal is the hands, reveal and hidden cards as multisets,
    and its chance is the share of the deck's distinct orders that deal it."""
    sizes = [setup.dealt] * setup.players + [setup.reveal, setup.centre - setup.reveal]
    numbers = range(1, setup.numbers + 1)

    def multinomial(counts: tuple[int, ...]) -> int:
        return factorial(sum(counts)) // prod(factorial(c) for c in counts)

    def splits(left: tuple[int, ...], parts: list[int]) -> list[list[tuple[int, ...]]]:
        if not parts:
            return [[]]
        found: list[list[tuple[int, ...]]] = []
        for counts in product(*(range(c + 1) for c in left)):
            if sum(counts) == parts[0]:
                rest = tuple(c - t for c, t in zip(left, counts, strict=True))
                found.extend([counts, *more] for more in splits(rest, parts[1:]))
        return found

    def cards(counts: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(n for n, c in zip(numbers, counts, strict=True) for _ in range(c))

    orders = multinomial((setup.copies,) * setup.numbers)
    deals = []
    for parts in splits((setup.copies,) * setup.numbers, sizes):
        chance = Fraction(prod(multinomial(p) for p in parts), orders)
        hands = tuple(cards(p) for p in parts[: setup.players])
        deals.append((Deal(hands, cards(parts[-2]), cards(parts[-1])), float(chance)))
    return tuple(sorted(deals, key=lambda d: str(d[0])))
