"""Components per player count and the research-board layouts, as data (rules §1).

This is the one place the printed boards live. The purple tables are our stand-in for the printed
purple side (the rules file's **Decision**: numbers offset between rows); replacing them here changes
only the bonus, never which plays are legal, because legality is by (colour, number) and adjacency
by physical (row, column).
"""

from __future__ import annotations

from dataclasses import dataclass

COLOURS: tuple[str, ...] = ("red", "blue", "yellow", "green")
"""Board rows, top to bottom. Index 0 (red) is trump."""

COLOURS_JA: tuple[str, ...] = ("赤", "青", "黄", "緑")

RED = 0


@dataclass(frozen=True)
class Setup:
    """What a table of this many players uses (rules §1 table and §8)."""

    players: int
    numbers: int  # cards 1..numbers are in use
    copies: int  # copies of each number in the deck
    rounds: int  # rounds in a game (the player count, §2)
    dealt: int  # cards dealt to each player
    tricks: int  # tricks per round (hand after discard minus the one card left over)
    columns: int  # board width
    sides: tuple[str, ...]  # allowed board sides; the first is the default
    observed: int | None  # number whose four cells get observed tokens, if any
    predictions: tuple[int, ...]  # allowed prediction values; () = no predictions (2 players)
    centre: int  # cards to the centre (2 players)
    reveal: int  # centre cards revealed (2 players)
    bonus_at_most: int | None  # 2 players: bonus when tricks <= this instead of a prediction
    research: bool = False  # a solver's configuration: its few deals are listed chance outcomes


SETUPS: dict[int, Setup] = {
    2: Setup(2, 5, 5, 2, 10, 8, 6, ("white",), 6, (), 5, 3, 4),
    3: Setup(3, 6, 5, 3, 10, 8, 6, ("white", "purple"), None, (1, 3, 4), 0, 0, None),
    4: Setup(4, 8, 5, 4, 10, 8, 9, ("white", "purple"), 9, (1, 2, 3), 0, 0, None),
    5: Setup(5, 9, 5, 5, 9, 7, 9, ("purple",), None, (1, 2, 3), 0, 0, None),
}

SMALL = "small"
"""The research-only `side` value (docs/research.md, *Small research configurations*): a game a
solver walks whole, never offered at a table."""

SMALL_SETUP = Setup(2, 3, 2, 1, 3, 2, 3, (SMALL,), None, (), 0, 0, 1, research=True)
"""2 players, one round, cards 1–3 twice each, 3 dealt to each (the whole deck), one discarded,
both others played (two tricks, no card left over), a 4×3 board, the bonus with at most 1 trick."""


def setup_for(players: int, side: str) -> Setup:
    """The setup of a table: its player count's, or the small research one."""
    return SMALL_SETUP if side == SMALL else SETUPS[players]


BLOCKER_ROWS: tuple[int, ...] = (3, 2, 1)
"""2 players: a number revealed k times is blocked on the first k of green, yellow, blue (§8)."""


def _row(start: int, width: int) -> tuple[int, ...]:
    return tuple((start - 1 + i) % width + 1 for i in range(width))


LAYOUTS: dict[tuple[str, int], tuple[tuple[int, ...], ...]] = {
    ("white", 6): (_row(1, 6), _row(1, 6), _row(1, 6), _row(1, 6)),
    ("white", 9): (_row(1, 9), _row(1, 9), _row(1, 9), _row(1, 9)),
    (SMALL, 3): (_row(1, 3), _row(1, 3), _row(1, 3), _row(1, 3)),  # research: white rows, 3 wide
    # red 1 2 3 4 5 6 / blue 3 4 5 6 1 2 / yellow 5 6 1 2 3 4 / green 2 3 4 5 6 1
    ("purple", 6): (_row(1, 6), _row(3, 6), _row(5, 6), _row(2, 6)),
    # red 1..9 / blue 3..9 1 2 / yellow 5..9 1..4 / green 7 8 9 1..6
    ("purple", 9): (_row(1, 9), _row(3, 9), _row(5, 9), _row(7, 9)),
}
"""(side, columns) → numbers printed in each column, per row (red, blue, yellow, green)."""
