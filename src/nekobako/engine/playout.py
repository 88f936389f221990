"""Playing a state to its end through the public API: the one loop over chance and players that
simulations, strength tests and benchmarks share.

Both loops call `State._apply`, not `apply`: the seat always comes from `to_move`, so the seat
check `apply` makes for callers it cannot trust would only cost time (about 6% of a Shut the Box
playout)."""

from __future__ import annotations

import random
from collections.abc import Callable

from .game import CHANCE, Action, State


def play_out(
    state: State, choose: Callable[[int], Action], chance_rng: random.Random, max_actions: int = 1_000_000
) -> int:
    """Play to the end (or `max_actions`): chance by its own odds from `chance_rng`, a player by
    `choose(seat)`; returns the number of actions applied. Simultaneous seats act in seat order.
    A caller that must know whether the game ended asks `state.is_over()`."""
    count = 0
    while count < max_actions:
        to_move = state.to_move
        if not to_move:
            break
        seat = to_move[0]
        if seat == CHANCE:
            state._apply(CHANCE, state.sample_chance(chance_rng))
        else:
            state._apply(seat, choose(seat))
        count += 1
    return count


def random_step(state: State, rng: random.Random) -> None:
    """One uniformly random step of the first seat to move (chance included), through the checked
    `apply`: for tests and tools that stop in the middle of a game."""
    seat = state.to_move[0]
    if seat == CHANCE:
        state.apply(CHANCE, state.sample_chance(rng))
    else:
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])


def random_playout(state: State, rng: random.Random, max_actions: int = 1_000_000) -> int:
    """`play_out` with uniformly random legal actions, written out rather than passing a `choose`:
    this loop is what the throughput benchmarks measure, and a call per action costs a few percent."""
    count = 0
    while count < max_actions:
        to_move = state.to_move
        if not to_move:
            break
        seat = to_move[0]
        if seat == CHANCE:
            state._apply(CHANCE, state.sample_chance(rng))
        else:
            legal = state.legal_actions(seat)
            state._apply(seat, legal[int(rng.random() * len(legal))])
        count += 1
    return count
