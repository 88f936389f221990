"""Placements and Elo ratings. Pure functions, so the rating rules can be read and tested alone.

Games differ in which way scores count (Shut the Box: penalties, lower is better; the others:
points or gems, higher is better). The engine names the winners, so the direction is taken from
them: when every winner holds the lowest score (and not everyone is equal), lower is better.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

K_FACTOR = 32.0


def placements(scores: Sequence[float], winners: Sequence[int]) -> list[int]:
    """Place per seat: 1 for the winners, then by score; equal scores share a place."""
    seats = range(len(scores))
    if not winners:
        return [1 for _ in seats]
    lower_better = min(scores) != max(scores) and all(scores[w] == min(scores) for w in winners)

    def better(a: int, b: int) -> bool:
        return scores[a] < scores[b] if lower_better else scores[a] > scores[b]

    won = set(winners)
    places = []
    for seat in seats:
        if seat in won:
            places.append(1)
        else:
            places.append(1 + len(won) + sum(1 for other in seats if other not in won and better(other, seat)))
    return places


def last_for_replaced(places: Sequence[int], replaced: Collection[int]) -> list[int]:
    """`places` re-ranked: the `replaced` seats share the last place, the others keep their order
    and are ranked from 1 among themselves (`[1, 2]` with seat 0 replaced → `[2, 1]`)."""
    stayed = [seat for seat in range(len(places)) if seat not in replaced]
    return [
        len(stayed) + 1 if seat in replaced else 1 + sum(places[other] < places[seat] for other in stayed)
        for seat in range(len(places))
    ]


def elo_update(ratings: Mapping[int, float], places: Mapping[int, int]) -> dict[int, float]:
    """New ratings after one game: every pair scored by placement (win 1, tie ½, loss 0), with
    K shared among the opponents so a 4-player game moves a rating as much as a 2-player one."""
    players = list(ratings)
    if len(players) < 2:
        return dict(ratings)
    k = K_FACTOR / (len(players) - 1)
    new = {}
    for p in players:
        delta = 0.0
        for q in players:
            if q == p:
                continue
            expected = 1.0 / (1.0 + 10 ** ((ratings[q] - ratings[p]) / 400.0))
            actual = 1.0 if places[p] < places[q] else 0.5 if places[p] == places[q] else 0.0
            delta += k * (actual - expected)
        new[p] = ratings[p] + delta
    return new
