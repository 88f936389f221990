"""From game results to the figures `nekobako simulate` prints.

Wins are shares: a game won by k seats gives each 1/k, so the wins of all entries add up to the
number of games. The 95% interval is Wilson's score interval on that share (fractional successes
from shared wins are used as they are), which stays inside [0, 1] and behaves at 0 and 100%.

Where every game has exactly one loser and everyone else wins (Catopomp), win shares are mostly
fractions and a Wilson interval on them means little; what is counted whole is who lost: each
entry also gets `losses`, `loss_rate` and its Wilson interval `loss_ci95`.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

from .runner import GameResult

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion `successes / n`."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - half)  # exact at the ends, not 2.8e-17
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return (low, high)


def summarize(results: Sequence[GameResult], bots: Sequence[Any]) -> dict[str, Any]:
    """Per bot entry (whatever seat it sat in) and per seat (whatever bot sat there)."""
    n = len(results)
    players = len(bots)
    entry_wins = [0.0] * players
    entry_score = [0.0] * players
    entry_shut = [0] * players
    seat_wins = [0.0] * players
    has_shut = bool(results) and all(r.shut is not None for r in results)
    one_loser = players > 1 and bool(results) and all(len(r.winners) == players - 1 for r in results)
    entry_losses = [0] * players
    for result in results:
        if one_loser:
            loser = next(seat for seat in range(players) if seat not in result.winners)
            entry_losses[result.seating[loser]] += 1
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
        if one_loser:
            row["losses"] = entry_losses[entry]
            row["loss_rate"] = entry_losses[entry] / n
            row["loss_ci95"] = list(wilson(entry_losses[entry], n))
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
        "by_bot": by_bot(results, bots),
        "seats": seats,
        "mean_actions": sum(r.actions for r in results) / n if n else 0.0,
        "fair_share": 1 / players if players else 0.0,
    }


def by_bot(results: Sequence[GameResult], bots: Sequence[Any]) -> list[dict[str, Any]]:
    """Entries of the same bot taken together (e.g. the three `greedy` against one `ismcts`).

    `win_rate` is per seat played (a fair share is 1/players). Its interval comes from the games,
    which are independent (the seats within a game are not): the normal interval of the bot's
    wins per game, divided by its number of seats."""
    n = len(results)
    groups: dict[str, list[int]] = {}
    for entry, spec in enumerate(bots):
        groups.setdefault(spec.label, []).append(entry)
    rows = []
    for label, entries in groups.items():
        per_game = []
        score = 0.0
        for result in results:
            won = 0.0
            for seat, entry in enumerate(result.seating):
                if entry in entries:
                    won += result.returns[seat]
                    score += result.scores[seat]
            per_game.append(won)
        seats = len(entries)
        mean = sum(per_game) / n if n else 0.0
        sd = statistics.stdev(per_game) if n > 1 else 0.0
        half = Z95 * sd / math.sqrt(n) if n else 0.0
        rows.append(
            {
                "bot": label,
                "seats": seats,
                "wins": round(sum(per_game), 6),
                "win_rate": mean / seats,
                "ci95": [max(0.0, (mean - half) / seats), min(1.0, (mean + half) / seats)],
                "mean_score": score / (n * seats) if n else 0.0,
            }
        )
    return rows
