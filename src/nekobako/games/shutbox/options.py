"""Shut the Box table options, as data: the Board Game Arena options plus two research options.

Defaults are the arena's. The end-of-game thresholds per scoring mode and length live here too,
so that every rule reading them (elimination, round limit, docs) sees one table. What the lobby
says about each option (name, help, value labels) is in messages.po, `shutbox.option.*`.
"""

from __future__ import annotations

from ...engine import HINTS, OptionSpec

TILE_COUNTS = (9, 10, 12)
RESEARCH_TILES = (2, 3, 4, 5, 6, 7, 8)
"""Small boxes for solvers (OpenSpiel's CFR and exploitability walk them whole): research only,
never offered at a table (docs/research.md, *Small research configurations*)."""
SCORINGS = ("total", "count", "digits")
MAX_CLOSE = (3, 2, "any")
ONE_DIE_RULES = ("max6", "sum6", "never")

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec("tiles", 9, TILE_COUNTS, research=RESEARCH_TILES),
    OptionSpec("scoring", "total", SCORINGS),
    OptionSpec("length", "short", ("short", "long"), research=("one",)),
    OptionSpec("simultaneous", False, (False, True)),
    OptionSpec("quick", False, (False, True)),
    OptionSpec("max_close", 3, MAX_CLOSE, advanced=True),
    OptionSpec("one_die", "max6", ONE_DIE_RULES, advanced=True),
    HINTS,
)

ELIMINATION_AT: dict[tuple[str, str], int] = {
    ("total", "short"): 45,
    ("total", "long"): 90,
    ("count", "short"): 9,
    ("count", "long"): 18,
}
"""(scoring, length) → total penalty at which a player is eliminated (end of a round)."""

ROUND_LIMIT: dict[tuple[str, str], int] = {
    ("digits", "short"): 4,
    ("digits", "long"): 8,
    **{(scoring, "one"): 1 for scoring in SCORINGS},  # research: one round, a tree a solver walks whole
}
"""(scoring, length) → number of rounds the game lasts (digits scoring has no elimination)."""
