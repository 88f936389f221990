"""Events and prompts from played games, for the wording tests (Python here, the browser in
tests/browser/test_languages.py): a few of each kind, from random games of every game and size."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from nekobako.engine import Event, State, game_names, get_game, random_step

NAMES = ["Ann", "Greedy bot", "ボット2", "Cy", "Dee", *(f"Player {n}" for n in range(5, 12))]  # people, bots


def samples(per_kind: int = 3, games: int = 4) -> list[tuple[str, int, Event]]:
    """(game, players, event) for events and (game, players, Event(prompt kind…)) for prompts,
    at most `per_kind` of each kind."""
    out: list[tuple[str, int, Event]] = []
    seen: dict[tuple[str, str], int] = {}
    for name, players, state, rng in _new_games(games):
        while not state.is_over():
            random_step(state, rng)
        for event in state.events:
            key = (name, event.kind)
            if seen.get(key, 0) < per_kind:
                seen[key] = seen.get(key, 0) + 1
                out.append((name, players, event))
    return out


def prompts(games: int = 2) -> list[tuple[str, int, int, dict[str, Any]]]:
    """(game, players, viewer seat, prompt or goal) seen along random games, one of each kind."""
    out = []
    seen: set[tuple[str, str]] = set()
    for name, players, state, rng in _new_games(games):
        while not state.is_over():
            for seat in range(players):
                view = state.view(seat)
                for message in (view.get("prompt"), view.get("goal")):
                    if message and (name, message["kind"]) not in seen:
                        seen.add((name, message["kind"]))
                        out.append((name, players, seat, message))
            random_step(state, rng)
    return out


def _new_games(games: int) -> Iterator[tuple[str, int, State[Any], random.Random]]:
    """`games` new games (seeds 0…games-1) of every game and player count, each with its dice."""
    for name in game_names():
        game = get_game(name)
        for players in range(game.min_players, game.max_players + 1):
            for seed in range(games):
                yield name, players, game.new_game(players), random.Random(seed)
