"""Positions for bot tests: reached by random play through the public API, so they cover every
phase a real table goes through."""

from __future__ import annotations

import random

import pytest

from nekobako.engine import CHANCE, State, get_game, random_playout, random_step

GAMES = {"shutbox": (1, 2, 4), "catbox": (2, 3, 4, 5), "catopomp": (2, 3, 4)}
"""Game → player counts to test."""


def random_position(name: str, players: int, rng: random.Random, options=None) -> tuple[State, int]:
    """A position where a player (not chance) is to move, after a random number of random actions."""
    game = get_game(name)
    while True:
        state = game.new_game(players, options)
        steps = rng.randrange(0, 120)
        for _ in range(steps + 1000):
            to_move = state.to_move
            if not to_move:
                break
            if to_move[0] != CHANCE:
                if steps <= 0:
                    return state, to_move[rng.randrange(len(to_move))]
                steps -= 1
            random_step(state, rng)


def late_position(name: str, players: int, rng: random.Random, options=None, within: int = 12) -> tuple[State, int]:
    """A position among the last `within` actions of a random game, a player to move."""
    game = get_game(name)
    while True:
        state = game.new_game(players, options)
        random_playout(state, rng)
        history = state.history
        cuts = [i for i in range(max(0, len(history) - within), len(history)) if history[i][0] != CHANCE]
        if not cuts:
            continue
        cut = rng.choice(cuts)
        position = game.new_game(players, options)
        for seat, action in history[:cut]:
            position.apply(seat, action)
        return position, history[cut][0]


def advance_chance(state: State, rng: random.Random) -> None:
    while state.to_move == (CHANCE,):
        state.apply(CHANCE, state.sample_chance(rng))


@pytest.fixture
def position():
    return random_position


@pytest.fixture
def late():
    return late_position


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """`game_players` runs a test for every game and player count in `GAMES`."""
    if "game_players" in metafunc.fixturenames:
        cases = [(game, players) for game, counts in GAMES.items() for players in counts]
        metafunc.parametrize("game_players", cases, ids=[f"{g}-{p}p" for g, p in cases])
