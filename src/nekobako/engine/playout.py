"""Random play through the public API: used by property tests, simulations and benchmarks."""

from __future__ import annotations

import random

from .game import CHANCE, State


def random_playout(state: State, rng: random.Random, max_actions: int = 1_000_000) -> int:
    """Play uniformly random legal actions (chance by its own odds) to the end; returns the number
    of actions applied. Simultaneous seats act in seat order."""
    count = 0
    while count < max_actions:
        to_move = state.to_move
        if not to_move:
            break
        seat = to_move[0]
        if seat == CHANCE:
            state.apply(CHANCE, state.sample_chance(rng))
        else:
            legal = state.legal_actions(seat)
            state.apply(seat, legal[int(rng.random() * len(legal))])
        count += 1
    return count
