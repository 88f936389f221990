"""Shut the Box table options, as data: the Board Game Arena options plus two research options.

Defaults are the arena's. The end-of-game thresholds per scoring mode and length live here too,
so that every rule reading them (elimination, round limit, docs) sees one table.
"""

from __future__ import annotations

from ...engine import OptionSpec

TILE_COUNTS = (9, 10, 12)
SCORINGS = ("total", "count", "digits")
MAX_CLOSE = (3, 2, "any")
ONE_DIE_RULES = ("max6", "sum6", "never")

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "tiles",
        9,
        TILE_COUNTS,
        help_en="Tiles numbered 1…N on every board.",
        help_ja="各ボードのタイルの数（1〜N）。",
    ),
    OptionSpec(
        "scoring",
        "total",
        SCORINGS,
        help_en="Penalty per round: sum of the open tiles, their number, or the open tiles read as one number.",
        help_ja="ラウンドごとの減点：残った数字の合計、残り枚数、または残った数字を左から並べた数。",
        labels={
            "total": ("Total", "合計点"),
            "count": ("Tiles left", "残り枚数"),
            "digits": ("As read", "見た通りの点数"),
        },
    ),
    OptionSpec(
        "length",
        "short",
        ("short", "long"),
        help_en="Short: eliminated at 45 (total) or 9 (count), 4 rounds (digits). Long: 90, 18, 8 rounds.",
        help_ja="ショート：合計45点・残り枚数9点で脱落、見た通りは4ラウンド。ロング：90点・18点・8ラウンド。",
        labels={"short": ("Short", "ショート"), "long": ("Long", "ロング")},
    ),
    OptionSpec(
        "simultaneous",
        False,
        (False, True),
        help_en="All players take their turn of the round at the same time.",
        help_ja="各ラウンド、全プレイヤーが同時に手番を行う。",
    ),
    OptionSpec(
        "quick",
        False,
        (False, True),
        help_en="The game ends as soon as one player is eliminated.",
        help_ja="誰か1人が脱落したらゲーム終了。",
    ),
    OptionSpec(
        "max_close",
        3,
        MAX_CLOSE,
        help_en="Research option: how many tiles one roll may close (3 on the arena).",
        help_ja="研究用：1回の出目で倒せるタイルの最大数（BGAでは3）。",
        labels={3: ("Up to 3", "3枚まで"), 2: ("Up to 2", "2枚まで"), "any": ("Any number", "制限なし")},
        advanced=True,
    ),
    OptionSpec(
        "one_die",
        "max6",
        ONE_DIE_RULES,
        help_en="Research option: when one die may be rolled — every open tile ≤ 6 (arena), open tiles sum ≤ 6, never.",
        help_ja="研究用：ダイス1個を選べる条件 — 残りが全て6以下（BGA）、残りの合計が6以下、選べない。",
        labels={
            "max6": ("Every open tile ≤ 6", "残りが全て6以下"),
            "sum6": ("Open tiles sum ≤ 6", "残りの合計が6以下"),
            "never": ("Never", "なし"),
        },
        advanced=True,
    ),
)

ELIMINATION_AT: dict[tuple[str, str], int] = {
    ("total", "short"): 45,
    ("total", "long"): 90,
    ("count", "short"): 9,
    ("count", "long"): 18,
}
"""(scoring, length) → total penalty at which a player is eliminated (end of a round)."""

ROUND_LIMIT: dict[tuple[str, str], int] = {("digits", "short"): 4, ("digits", "long"): 8}
"""(scoring, length) → number of rounds the game lasts (digits scoring has no elimination)."""
