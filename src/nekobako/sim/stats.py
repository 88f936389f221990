"""From game results to the figures `nekobako simulate` prints.

Wins are shares: a game won by k seats gives each 1/k, so the wins of all entries add up to the
number of games. The 95% interval is Wilson's score interval on that share (fractional successes
from shared wins are used as they are), which stays inside [0, 1] and behaves at 0 and 100%.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .runner import BotSpec, GameResult

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion `successes / n`."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def summarize(results: Sequence[GameResult], bots: Sequence[BotSpec]) -> dict[str, Any]:
    """Per bot entry (whatever seat it sat in) and per seat (whatever bot sat there)."""
    n = len(results)
    players = len(bots)
    entry_wins = [0.0] * players
    entry_score = [0.0] * players
    entry_shut = [0] * players
    seat_wins = [0.0] * players
    has_shut = bool(results) and all(r.shut is not None for r in results)
    for result in results:
        for seat, entry in enumerate(result.seating):
            entry_wins[entry] += result.returns[seat]
            entry_score[entry] += result.scores[seat]
            seat_wins[seat] += result.returns[seat]
            if has_shut and result.shut and result.shut[seat]:
                entry_shut[entry] += 1
    rows = []
    for entry, spec in enumerate(bots):
        low, high = wilson(entry_wins[entry], n)
        row: dict[str, Any] = {
            "entry": entry,
            "bot": spec.label,
            "games": n,
            "wins": round(entry_wins[entry], 6),
            "win_rate": entry_wins[entry] / n if n else 0.0,
            "ci95": [low, high],
            "mean_score": entry_score[entry] / n if n else 0.0,
        }
        if has_shut:
            row["shut_rate"] = entry_shut[entry] / n if n else 0.0
        rows.append(row)
    seats = []
    for seat in range(players):
        low, high = wilson(seat_wins[seat], n)
        seats.append(
            {
                "seat": seat,
                "wins": round(seat_wins[seat], 6),
                "win_rate": seat_wins[seat] / n if n else 0.0,
                "ci95": [low, high],
            }
        )
    return {
        "bots": rows,
        "seats": seats,
        "mean_actions": sum(r.actions for r in results) / n if n else 0.0,
        "fair_share": 1 / players if players else 0.0,
    }
