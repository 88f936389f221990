"""One game being played for learning code: the engine state, its encoding, chance drawn from a
seeded generator, and tensors written into fresh numpy arrays. Shared by the adapters."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from ..engine import CHANCE, Game, State, get_game
from ..engine.encoding import Encoding, encoding_for

BOUND = float(np.finfo(np.float32).max)
"""Observation spaces are unbounded in principle (Shut the Box's "digits" penalties grow fast)."""


class Table:
    """A game of `game` for `players` seats with validated `options`; `reset` starts it."""

    def __init__(self, game: str, players: int, **options: Any):
        self.game: Game = get_game(game)
        self.players = players
        self.options = self.game.options(options, players)
        self.encoding: Encoding = encoding_for(game, players, self.options)
        self.rng = random.Random()
        self.masks: dict[tuple[int, ...], np.ndarray] = {}
        self.state: State = self.game.new_initial_state(players, self.options)

    def reset(self, seed: int | None) -> None:
        self.rng = random.Random(seed)
        self.state = self.game.new_initial_state(self.players, self.options)
        self.play_chance()

    def play_chance(self) -> None:
        """Draw chance outcomes until a seat is to move or the game is over."""
        state, rng = self.state, self.rng
        while state.to_move and state.to_move[0] == CHANCE:
            state.apply(CHANCE, state.sample_chance(rng))

    @property
    def seat(self) -> int:
        """The seat to act now (simultaneous seats act in seat order); -1 when the game is over."""
        to_move = self.state.to_move
        return to_move[0] if to_move else -1

    def observation(self, seat: int) -> np.ndarray:
        out = np.empty(self.encoding.size, np.float32)
        self.encoding.observe(self.state, seat, out)
        return out

    def action_mask(self, seat: int) -> np.ndarray:
        """Legal ids as 0/1. Masks repeat (the same few legal sets come back all game), so each
        distinct one is built once and copied."""
        if seat not in self.state.to_move:
            return np.zeros(self.encoding.num_actions, np.int8)
        ids = tuple(self.encoding.legal_ids(self.state, seat))
        mask = self.masks.get(ids)
        if mask is None:
            mask = np.zeros(self.encoding.num_actions, np.int8)
            mask[list(ids)] = 1
            if len(self.masks) < 20_000:
                self.masks[ids] = mask
        return mask.copy()

    def render(self, seat: int | None) -> str:
        """The terminal board of `seat`'s view (a spectator's for None), as plain text."""
        import io

        from rich.console import Console

        from ..boards import render

        console = Console(file=io.StringIO(), width=100, color_system=None)
        console.print(render(self.state.view(seat)))
        return console.file.getvalue()  # type: ignore[attr-defined]
