"""The ladder: every bot level of a game on one rating scale (`nekobako ladder`, docs/strength.md).

`schedule` is balanced for any number of players: each lineup (every way to choose `players`
entries from the bots) is played in each of its `(players - 1)!` orders around the table (`orders`:
at 2 players one, at 3 two, at 4 six), each order `players` games in a row with the seats rotated
one step each game (`GameTask.seating`). With a multiple of `cycle(entries, players)` games
(`players! × lineups`) every entry plays as often as every other, in every seat, and sits right
after every other entry of its lineups as often as after any (in trick games the seat one plays
after matters as much as the seat number).
`rate` feeds the games in order to OpenSkill's Plackett–Luce model (the winners of a game rank
first, shared; the others tie behind them), which gives each entry a mean `mu` and an uncertainty
`sigma`; the interval shown is mu ± 2 sigma.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations, permutations
from math import factorial
from typing import Any

from ..bots.ladder import RATINGS_FILE, shipped_ratings
from ..engine import NekobakoError
from ..i18n import Message
from .runner import GameResult, GameTask

__all__ = ["RATINGS_FILE", "cycle", "lineups", "orders", "rate", "schedule", "shipped_ratings"]


def lineups(entries: int, players: int) -> list[tuple[int, ...]]:
    """Every choice of `players` of the `entries` (by index), in a fixed order."""
    if entries < players:
        raise NekobakoError(Message("cli.ladder.too_few", bots=entries, players=players))
    return list(combinations(range(entries), players))


def orders(entries: int, players: int) -> list[tuple[int, ...]]:
    """Every lineup in each of its orders around the table: the lineup's first entry stays first
    (the rotations of `GameTask.seating` give the rest), the others in every permutation."""
    return [(first, *rest) for first, *others in lineups(entries, players) for rest in permutations(others)]


def cycle(entries: int, players: int) -> int:
    """Games after which the schedule is balanced (module docstring): `players!` per lineup."""
    return len(lineups(entries, players)) * factorial(players)


def schedule(
    game: str, players: int, specs: Sequence[Any], games: int, options: Mapping[str, Any], seed: int
) -> list[GameTask]:
    """`games` tasks: order `g // players` (cycling through `orders`), seats rotated by `g`
    (module docstring)."""
    every = orders(len(specs), players)
    tasks = []
    for g in range(games):
        order = every[(g // players) % len(every)]
        tasks.append(GameTask(game, players, tuple(specs[i] for i in order), options, seed, g))
    return tasks


def rate(tasks: Sequence[GameTask], results: Sequence[GameResult], labels: Sequence[str]) -> list[dict[str, Any]]:
    """OpenSkill ratings of every entry (`labels`, in the order of the bots given) after the games,
    best first: label, mu, sigma, the mu ± 2 sigma interval, games and wins."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {label: model.rating(name=label) for label in labels}
    played = dict.fromkeys(labels, 0)
    won = dict.fromkeys(labels, 0.0)
    for task, result in zip(tasks, results, strict=True):
        seated = [task.bots[entry].label for entry in result.seating]
        teams = [[ratings[label]] for label in seated]
        ranks = [0.0 if seat in result.winners else 1.0 for seat in range(task.players)]
        for (new,), label in zip(model.rate(teams, ranks=ranks), seated, strict=True):
            ratings[label] = new
        for seat, label in enumerate(seated):
            played[label] += 1
            won[label] += result.returns[seat]
    rows = [
        {
            "bot": label,
            "mu": r.mu,
            "sigma": r.sigma,
            "interval": [r.mu - 2 * r.sigma, r.mu + 2 * r.sigma],
            "games": played[label],
            "wins": won[label],
        }
        for label, r in ratings.items()
    ]
    return sorted(rows, key=lambda row: -row["mu"])
