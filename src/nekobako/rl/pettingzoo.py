"""PettingZoo: `env(game, players, **options)` is an AEC env, one agent per seat (`seat_0` …).

Observations are `{"observation": float32 tensor, "action_mask": int8 mask}` from the game's
encoding; actions are the encoding's ids. Chance (deals, dice) is drawn inside `step` from the
generator seeded by `reset(seed=…)`. Simultaneous decisions (Cat in the Box discards, Catopomp
spare dice, simultaneous Shut the Box) are taken one seat at a time in seat order; the later
seats do not see the earlier choices, since the views hide them. Rewards come at the end:
`State.returns()` (1 shared among the winners).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .table import BOUND, Table


class NekobakoAEC(AECEnv):
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "nekobako_v0", "is_parallelizable": False}

    def __init__(self, game: str, players: int, render_mode: str | None = None, **options: Any):
        super().__init__()
        self.table = Table(game, players, **options)
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"nekobako_{game}_v0"}  # type: ignore[misc]  # per table
        encoding = self.table.encoding
        self.possible_agents = [f"seat_{s}" for s in range(players)]
        self._seats = {agent: s for s, agent in enumerate(self.possible_agents)}
        space = spaces.Dict(
            {
                "observation": spaces.Box(-BOUND, BOUND, (encoding.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (encoding.num_actions,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces: dict[str, spaces.Space] = {
            a: spaces.Discrete(encoding.num_actions) for a in self.possible_agents
        }

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.table.reset(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seats[agent]
        return {"observation": self.table.observation(seat), "action_mask": self.table.action_mask(seat)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        self._cumulative_rewards[agent] = 0.0
        table.state.apply(self._seats[agent], table.encoding.action(int(action)))  # type: ignore[arg-type]
        table.play_chance()
        self._select()
        if table.state.is_over():  # rewards are all 0 before the end: nothing to accumulate
            for agent_, value in zip(self.possible_agents, table.state.returns(), strict=True):
                self.rewards[agent_] = value
                self.terminations[agent_] = True
            self._accumulate_rewards()
        if self.render_mode == "ansi":
            self.render()

    def _select(self) -> None:
        seat = self.table.seat
        self.agent_selection = self.possible_agents[seat] if seat >= 0 else self.agents[0]

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        seat = self.table.seat
        return self.table.render(seat if seat >= 0 else None)

    def close(self) -> None:
        pass


def env(game: str, players: int, render_mode: str | None = None, **options: Any) -> NekobakoAEC:
    """The AEC env of `game` for `players` seats; `options` are the game's table options."""
    return NekobakoAEC(game, players, render_mode=render_mode, **options)
