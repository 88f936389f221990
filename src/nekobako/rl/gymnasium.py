"""Gymnasium: one learning seat against bots. Importing `nekobako.rl` registers

* `nekobako/ShutTheBox-v0` (1 player by default: the solitaire),
* `nekobako/CatInTheBox-v0` (4 players),
* `nekobako/Catopomp-v0` (4 players),

each taking `players`, `seat` (the learner's), `opponents` (a bot level for every other seat, or
one per seat, e.g. `["greedy", "random", "greedy"]`; default `"greedy"`), `opponent_params` (for
`ismcts`: `iterations` …) and the game's table options. Observations are the encoding's tensor,
actions its ids; `action_masks()` and `info["action_mask"]` give the legal ids (the interface
sb3-contrib's MaskablePPO reads). An illegal id changes nothing and costs `illegal_reward`.
The reward comes at the end: the learner's share of the win (`State.returns()`).

`gymnasium.make_vec(id, num_envs, opponents="random")` steps every table in the compiled kernel
(`nekobako.rl.vector`); with bots as opponents it is a `SyncVectorEnv` of this env.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..bots import make_bot
from ..engine import InvalidOptions
from ..i18n import Message
from .table import BOUND, Table

GYM_IDS: dict[str, tuple[str, int]] = {
    "nekobako/ShutTheBox-v0": ("shutbox", 1),
    "nekobako/CatInTheBox-v0": ("catbox", 4),
    "nekobako/Catopomp-v0": ("catopomp", 4),
}
"""Registered id → (game, default players)."""


class NekobakoEnv(gym.Env[Any, Any]):
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "render_fps": 1}  # type: ignore[misc]

    def __init__(
        self,
        game: str,
        players: int,
        seat: int = 0,
        opponents: str | Sequence[str] = "greedy",
        opponent_params: dict[str, Any] | None = None,
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **options: Any,
    ):
        self.table = Table(game, players, **options)
        if type(seat) is not int or not 0 <= seat < players:
            raise InvalidOptions(Message("rl.seat", last=players - 1, value=repr(seat)))
        self.seat = seat
        names = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != players - 1:
            raise InvalidOptions(Message("rl.opponents", n=players - 1, given=len(names)))
        params = opponent_params or {}
        self.bots = [make_bot(name, game, **(params if name == "ismcts" else {})) for name in names]
        self.bot_of = {s: self.bots[i] for i, s in enumerate(s for s in range(players) if s != seat)}
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        encoding = self.table.encoding
        self.observation_space = spaces.Box(-BOUND, BOUND, (encoding.size,), np.float32)
        self.action_space = spaces.Discrete(encoding.num_actions)
        self.bot_rng = random.Random()

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        while True:  # a game that ends before the learner's first decision (a box shut) is dealt again
            draw = self.np_random.integers(0, 2**62, size=2)
            self.table.reset(int(draw[0]))
            self.bot_rng = random.Random(int(draw[1]))
            self._play_others()
            if not self.table.state.is_over():
                return self._observation(), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        table = self.table
        if table.state.is_over():
            raise gym.error.ResetNeeded("the game is over: call reset()")
        ids = table.encoding.legal_ids(table.state, self.seat)
        if int(action) not in ids:
            return self._observation(), self.illegal_reward, False, False, {**self._info(), "illegal": True}
        table.state.apply(self.seat, table.encoding.actions[int(action)])
        table.play_chance()
        self._play_others()
        over = table.state.is_over()
        reward = table.state.returns()[self.seat] if over else 0.0
        return self._observation(), float(reward), over, False, self._info()

    def _play_others(self) -> None:
        """Bots and chance move until the learner is to move or the game is over."""
        table = self.table
        state = table.state
        while True:
            table.play_chance()
            seat = table.seat
            if seat < 0 or seat == self.seat:
                return
            bot = self.bot_of[seat]
            state.apply(seat, bot.choose(state.view(seat), state.legal_actions(seat), self.bot_rng))

    def _observation(self) -> np.ndarray:
        return self.table.observation(self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks()}

    def action_masks(self) -> np.ndarray:
        """Legal ids as a boolean mask (sb3-contrib's MaskablePPO calls this)."""
        return self.table.action_mask(self.seat).astype(bool)

    def render(self) -> str | None:  # type: ignore[override]  # the ansi text (Gymnasium 1.2's RenderFrame has no str)
        return self.table.render(self.seat) if self.render_mode == "ansi" else None


def register_envs() -> None:
    for env_id, (game, players) in GYM_IDS.items():
        if env_id not in gym.registry:
            gym.register(
                id=env_id,
                entry_point=f"{__name__}:NekobakoEnv",
                vector_entry_point="nekobako.rl.vector:make_vector_env",
                kwargs={"game": game, "players": players},
            )
