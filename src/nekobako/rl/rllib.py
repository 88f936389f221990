"""RLlib: every game as a multi-agent env with action masks, and self-play PPO on a Ray cluster.

Install with `pip install 'nekobako[rllib]'` (Ray's RLlib and PyTorch, beside the `rl` extra).

* `register()` registers `nekobako_shutbox`, `nekobako_catbox` and `nekobako_catopomp` with
  `ray.tune.register_env`; each takes `env_config={"players": N, **options}` (the game's table
  options, validated as at a table).
* `NekobakoMultiAgentEnv` is RLlib's `MultiAgentEnv`, one agent per seat (`seat_0` …), turn-based
  as RLlib's own board games: a step's observations hold only the agent to act next; simultaneous
  decisions are taken one seat at a time in seat order (the later seats do not see the earlier
  choices, as in PettingZoo). An observation is `{"observations": the encoding's tensor,
  "action_mask": 1.0 for each legal id}`, the layout RLlib's action-masking example reads. Rewards
  come at the end: `State.returns()` (1 shared among the winners) to every seat that acted. An
  illegal id changes nothing and costs `illegal_reward` (-1), as in the Gymnasium env (RLlib's
  checker steps an unmasked sample; a masked policy never picks one).
* `MaskedPPOModule` is PPO's torch module with the mask applied to the logits (RLlib's
  `ActionMaskingTorchRLModule` example, on its new API stack): an illegal id has probability 0.
* `ppo_config(…)` is self-play: every seat is played by one shared policy, `main`.
  `evaluate(…)` plays the trained policy against the bots (numpy and torch in this process).

The envs step the pure engine, as the PettingZoo env does: RLlib's multi-agent env runner
vectorises by building its own `SyncVectorMultiAgentEnv` of single envs
(`num_envs_per_env_runner`), so the batched kernel tables of `nekobako.rl.vector` cannot be handed
to it; on this machine the env is a few per cent of a training iteration (docs/research.md).
"""

from __future__ import annotations

import ipaddress
import logging
import math
import os
import random
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Ray reads these when it is first imported: no usage report, and a cluster this process starts
# binds its services to loopback only (without it, the head and the workers listen on every
# interface even with `_node_ip_address="127.0.0.1"`). A value the user set is kept.
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")

import gymnasium as gym
import numpy as np
import ray
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModule, RLModuleSpec
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.rllib.utils.typing import MultiAgentDict
from ray.tune.registry import register_env

from ..bots import make_bot
from ..engine import InvalidOptions, NekobakoError, check_game_name
from ..i18n import Message
from .table import BOUND, Table

ENV_NAMES: dict[str, str] = {game: f"nekobako_{game}" for game in ("shutbox", "catbox", "catopomp")}
"""Game → the name `register()` gives it in RLlib."""
DEFAULT_PLAYERS = {"shutbox": 2, "catbox": 4, "catopomp": 4}
"""Players when `env_config` names none (self-play needs two at least; Shut the Box also takes 1)."""
StepResult = tuple[MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict]
POLICY = "main"
SAMPLE_SECONDS = 900.0
"""How long PPO waits for an env runner's batch. RLlib's 60 s default silently drops a batch that
takes longer (an iteration of 0 env steps), which a busy 2-core machine reaches."""
"""The one policy every seat plays in self-play."""


class NekobakoMultiAgentEnv(MultiAgentEnv):
    """A table of `config["game"]` for `config["players"]` seats; the other keys are the game's
    table options (`illegal_reward` too). Bad names and values raise `InvalidOptions` (or `UnknownGame`) with the
    reader's words, before any game is played."""

    def __init__(self, config: Mapping[str, Any] | None = None):
        super().__init__()
        settings = dict(config or {})  # an EnvContext is a dict with the worker's index beside it
        self.illegal_reward = float(settings.pop("illegal_reward", -1.0))
        game = settings.pop("game", None)
        check_game_name(game)  # an unknown name: the registry's message (engine.unknown_game)
        players = settings.pop("players", DEFAULT_PLAYERS[game])
        self.table = Table(game, players, **settings)
        encoding = self.table.encoding
        self.possible_agents = [f"seat_{s}" for s in range(players)]
        self.agents = self.possible_agents[:]
        space = gym.spaces.Dict(
            {
                "observations": gym.spaces.Box(-BOUND, BOUND, (encoding.size,), np.float32),
                "action_mask": gym.spaces.Box(0.0, 1.0, (encoding.num_actions,), np.float32),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: gym.spaces.Discrete(encoding.num_actions) for a in self.possible_agents}
        self._seeds = np.random.default_rng()
        self._acted: set[int] = set()
        self._mask = np.zeros(encoding.num_actions, np.float32)

    def reset(  # type: ignore[override]  # RLlib's MultiAgentEnv returns dicts per agent, unlike gymnasium.Env
        self, *, seed: int | None = None, options: dict | None = None
    ) -> tuple[MultiAgentDict, MultiAgentDict]:
        """A new game; `seed` makes this game and the following ones repeat (Gymnasium's rule)."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        self.table.reset(int(self._seeds.integers(2**62)))
        self._acted = set()
        seat = self.table.seat  # every game has a first decision: a roll, a discard, a play
        return {self.possible_agents[seat]: self._observation(seat)}, {}

    def step(self, action_dict: MultiAgentDict) -> StepResult:  # type: ignore[override]  # as reset
        table = self.table
        seat = table.seat
        agent = f"seat_{seat}"
        if seat < 0 or agent not in action_dict:
            raise ValueError(f"expected an action of {agent if seat >= 0 else 'nobody (the game is over)'}")
        action = int(action_dict[agent])
        if not 0 <= action < len(self._mask) or not self._mask[action]:  # changes nothing, costs the seat
            return (
                {agent: self._observation(seat)},
                {agent: self.illegal_reward},
                *_going_on(),
                {agent: {"illegal": True}},
            )
        table.state.apply(seat, table.encoding.actions[action])
        self._acted.add(seat)
        table.play_chance()
        if not table.state.is_over():
            nxt = table.seat
            # RLlib wants a reward for each action before the agent's next observation
            return {self.possible_agents[nxt]: self._observation(nxt)}, {agent: 0.0}, *_going_on(), {}
        returns = table.state.returns()
        acted = sorted(self._acted)
        observations = {self.possible_agents[s]: self._observation(s) for s in acted}
        rewards = {self.possible_agents[s]: float(returns[s]) for s in acted}
        done = {self.possible_agents[s]: True for s in acted}
        return observations, rewards, {**done, "__all__": True}, {"__all__": False}, {}

    def _observation(self, seat: int) -> dict[str, np.ndarray]:
        """`seat`'s tensor and legal mask; the mask of the seat to act is kept to check its action."""
        mask = self.table.action_mask(seat).astype(np.float32)
        if seat == self.table.seat:
            self._mask = mask
        return {"observations": self.table.observation(seat), "action_mask": mask}

    def render(self) -> str:  # type: ignore[override]  # the ansi text, as the PettingZoo env's
        seat = self.table.seat
        return self.table.render(seat if seat >= 0 else None)


def _going_on() -> tuple[MultiAgentDict, MultiAgentDict]:
    """`terminateds` and `truncateds` of a game in play (new dicts: RLlib may write into them)."""
    return {"__all__": False}, {"__all__": False}


def make_env(game: str, config: Mapping[str, Any] | None = None) -> NekobakoMultiAgentEnv:
    """The env of `game` with `config` (players and options), as the registered creators make it."""
    return NekobakoMultiAgentEnv({**(config or {}), "game": game})


def register() -> None:
    """Register the three games with RLlib (`ENV_NAMES`), so `config.environment("nekobako_catbox",
    env_config={"players": 4})` finds them, in this process and on the cluster's workers."""
    for game, name in ENV_NAMES.items():
        register_env(name, lambda config, game=game: make_env(game, config))


class MaskedPPOModule(DefaultPPOTorchRLModule):
    """PPO's default torch module (its encoder, policy and value heads) over `observations`, with
    the legal mask added to the logits as log(mask) (0 or a very large negative number)."""

    def __init__(self, *, observation_space: gym.Space | None = None, **kwargs: Any):
        if not isinstance(observation_space, gym.spaces.Dict) or "action_mask" not in observation_space.spaces:
            raise ValueError("MaskedPPOModule needs a Dict observation space of 'observations' and 'action_mask'")
        self.space_with_mask = observation_space
        super().__init__(observation_space=observation_space["observations"], **kwargs)

    def setup(self) -> None:
        super().setup()
        self.observation_space = self.space_with_mask  # the env's space; the networks read only the tensor

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:  # inference and exploration
        mask, batch = self._split(batch)
        return self._masked(super()._forward(batch, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, batch = self._split(batch)
        return self._masked(super()._forward_train(batch, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
        """The value head reads the tensor only (GAE on the learner calls this with the env's dicts)."""
        return super().compute_values(self._split(batch)[1], embeddings)

    @staticmethod
    def _split(batch: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        """The mask, and a shallow copy of `batch` whose observations are the tensor alone."""
        obs = batch[Columns.OBS]
        if not isinstance(obs, dict) or "action_mask" not in obs:
            raise ValueError("MaskedPPOModule reads observations of 'observations' and 'action_mask'")
        return obs["action_mask"], {**batch, Columns.OBS: obs["observations"]}

    @staticmethod
    def _masked(outs: dict[str, Any], mask: Any) -> dict[str, Any]:
        floor = torch.finfo(torch.float32).min
        outs[Columns.ACTION_DIST_INPUTS] = outs[Columns.ACTION_DIST_INPUTS] + torch.clamp(torch.log(mask), min=floor)
        return outs


@dataclass(frozen=True)
class Training:
    """How much and how: the PPO settings `ppo_config` uses (small defaults for a 2-core machine)."""

    env_runners: int = 1
    envs_per_runner: int = 4
    batch: int = 2000
    minibatch: int = 500
    epochs: int = 4
    lr: float = 3e-4
    hidden: tuple[int, ...] = (128, 128)
    entropy: float = 0.01


def ppo_config(
    game: str, players: int, training: Training = Training(), seed: int | None = 0, **options: Any
) -> PPOConfig:
    """Self-play PPO on `game`: one policy (`POLICY`) plays every seat, with the masked module.
    The table (`players`, `options`) is checked here, in this process, before Ray starts anything."""
    make_env(game, {"players": players, **options})  # bad names and values: the reader's message now
    register()
    spec = RLModuleSpec(module_class=MaskedPPOModule, model_config={"fcnet_hiddens": list(training.hidden)})
    config = (
        PPOConfig()
        .environment(ENV_NAMES[game], env_config={"players": players, **options})
        .multi_agent(policies={POLICY}, policy_mapping_fn=lambda agent_id, episode, **kw: POLICY)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={POLICY: spec}))
        .env_runners(
            num_env_runners=training.env_runners,
            num_envs_per_env_runner=training.envs_per_runner,
            sample_timeout_s=SAMPLE_SECONDS,
        )
        .training(
            train_batch_size_per_learner=training.batch,
            minibatch_size=training.minibatch,
            num_epochs=training.epochs,
            lr=training.lr,
            entropy_coeff=training.entropy,
        )
        .debugging(seed=seed, log_level="ERROR")
    )
    return config


@contextmanager
def local_cluster(cpus: int = 2) -> Iterator[None]:
    """A Ray cluster of `cpus` CPUs on this machine for the block, its services on loopback only,
    its workers importing this very `nekobako`. Stopped at the end, whatever happened."""
    source = str(Path(__file__).resolve().parents[2])  # the folder that holds the `nekobako` package
    path = os.pathsep.join(p for p in (source, os.environ.get("PYTHONPATH", "")) if p)
    try:
        ray.init(
            address="local",
            num_cpus=cpus,
            include_dashboard=False,
            log_to_driver=False,
            logging_level=logging.ERROR,
            runtime_env={"env_vars": {"PYTHONPATH": path}},
        )
    except Exception as exc:  # Ray raises bare Exceptions (a node that timed out starting, a busy machine)
        ray.shutdown()
        raise NekobakoError(Message("rl.rllib.no_cluster", reason=str(exc).strip() or type(exc).__name__)) from None
    try:
        if not ipaddress.ip_address(ray.util.get_node_ip_address()).is_loopback:
            raise NekobakoError(
                Message("rl.rllib.not_loopback", module=__name__, setting="RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0")
            )
        yield
    finally:
        ray.shutdown()


@dataclass(frozen=True)
class Strength:
    """The trained policy's share of wins against `opponents` over `games` games (a tie shares
    the win, as `State.returns()`), with a 95% Wilson interval, and a fair seat's share (1/players)."""

    opponents: str
    games: int
    share: float
    low: float
    high: float
    fair: float


def evaluate(
    module: RLModule, game: str, players: int, opponents: str, games: int, seed: int = 0, **options: Any
) -> Strength:
    """`games` games of the policy (the most likely legal id) against the bot level `opponents` in
    every other seat, the policy's seat rotating; the policy reads only its seat's tensor and mask."""
    table = Table(game, players, **options)
    bots = [make_bot(opponents, game) for _ in range(players)]
    rng = random.Random(seed)
    won = 0.0
    for g in range(games):
        me = g % players
        table.reset(rng.getrandbits(62))
        state = table.state
        while not state.is_over():
            seat = table.seat
            if seat == me:
                state.apply(seat, table.encoding.actions[greedy_id(module, table, seat)])
            else:
                state.apply(seat, bots[seat].choose(state.view(seat), state.legal_actions(seat), rng))
            table.play_chance()
        won += state.returns()[me]
    share = won / games
    low, high = wilson(share, games)
    return Strength(opponents, games, share, low, high, 1.0 / players)


def greedy_id(module: RLModule, table: Table, seat: int) -> int:
    """The legal id the module rates highest at `seat` (inference pass, no exploration)."""
    obs = {
        "observations": torch.from_numpy(table.observation(seat)[None]),
        "action_mask": torch.from_numpy(table.action_mask(seat).astype(np.float32)[None]),
    }
    with torch.no_grad():
        logits = module.forward_inference({Columns.OBS: obs})[Columns.ACTION_DIST_INPUTS]
    return int(torch.argmax(logits[0]))


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion `p` over `n` trials."""
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def check_opponents(game: str, names: Sequence[str]) -> None:
    """Bot levels to measure against, checked before training (`bots.*` messages)."""
    for name in names:
        make_bot(name, game)


__all__ = [
    "DEFAULT_PLAYERS",
    "ENV_NAMES",
    "POLICY",
    "InvalidOptions",
    "MaskedPPOModule",
    "NekobakoMultiAgentEnv",
    "Strength",
    "Training",
    "evaluate",
    "local_cluster",
    "make_env",
    "ppo_config",
    "register",
]
