"""Running many games without a person: bot-against-bot simulation and speed measurements.

`runner` plays games in worker processes (what `nekobako simulate` uses), `stats` turns their
results into win shares with confidence intervals, `bench` measures the engine and the bots.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..engine import get_game
from .runner import BotObject, BotSpec, GameResult, GameTask, check_bots, parse_bots, run_games
from .stats import summarize


def simulate(
    game: str,
    players: int,
    bots: str | Sequence[Any],
    games: int,
    *,
    seed: int = 0,
    workers: int = 1,
    options: Mapping[str, Any] | None = None,
) -> tuple[dict[str, Any], list[GameResult]]:
    """`nekobako simulate` from Python: `bots` are names (`"greedy"`, `"ismcts:iterations=300"`,
    `"mypkg.bots:MyBot"`), `BotSpec`s or your own bot objects (anything with
    `choose(view, legal, rng)`), one per seat or one for all. Returns the report (the `--json`
    object's figures) and every game's result with its record."""
    table_options = get_game(game).options(dict(options or {}), players).to_json()
    specs = parse_bots(bots, players)
    check_bots(game, specs, players, table_options)
    tasks = [GameTask(game, players, specs, table_options, seed, i) for i in range(games)]
    results = run_games(tasks, workers)
    return summarize(results, specs), results


__all__ = ["BotObject", "BotSpec", "GameResult", "GameTask", "run_games", "simulate", "summarize"]
