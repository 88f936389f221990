"""Round scoring and the final ranking (rules §7, §8): pure functions of public facts."""

from __future__ import annotations

from collections.abc import Sequence

from .board import Table


def bonus_earned(table: Table, tricks: int, prediction: int) -> bool:
    """Did a (non-paradox) player meet their prediction? At 2 players: 4 or fewer tricks."""
    limit = table.setup.bonus_at_most
    return tricks <= limit if limit is not None else tricks == prediction


def score_round(
    table: Table, tricks: Sequence[int], predictions: Sequence[int], owned: Sequence[int], paradox: int
) -> list[tuple[int, int]]:
    """(points, bonus) per seat. The paradox player scores −1 per trick and never a bonus."""
    out = []
    for seat, won in enumerate(tricks):
        if seat == paradox:
            out.append((-won, 0))
            continue
        bonus = table.largest_group(owned[seat]) if bonus_earned(table, won, predictions[seat]) else 0
        out.append((won + bonus, bonus))
    return out


def final_winners(totals: Sequence[int], last_round: Sequence[int]) -> list[int]:
    """Highest total; ties broken by the final round's score; still tied: shared victory."""
    best = max(totals)
    tied = [s for s, t in enumerate(totals) if t == best]
    best_last = max(last_round[s] for s in tied)
    return [s for s in tied if last_round[s] == best_last]
