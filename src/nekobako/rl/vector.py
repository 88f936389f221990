"""Batched environments: many tables of one game stepped at once in the compiled kernel
(engine/kernel.py), with the observations and legal masks of `nekobako.rl` (docs/research.md,
*Batched environments*).

* `Tables` is the plain-array form for JAX and PyTorch code: `observations` (float32, tables ×
  size), `masks` (bool, tables × actions) and `seats` (the seat each table waits for) are numpy
  arrays updated in place by `step(actions)`. With `seat=None` every seat is played by the caller
  (self-play: each table shows the acting seat's observation); with `seat=k` the caller plays seat
  `k` and every other seat plays uniformly at random inside the kernel.
* `NekobakoVectorEnv` is a Gymnasium `VectorEnv` over `Tables` with one learning seat per table
  (as `NekobakoEnv`), same-step autoreset, the mask in `info["action_mask"]`.

A game takes part by giving, beside its kernel, one module `games/<game>/kernel_observe.py` with
two compiled functions over the kernel's array: `observe(a, seat, out)` (its encoding's tensor)
and `winners(a)` (the winning seats of a finished game as a bit mask). The loops
(`vector_loops.py`) are written once and compiled per game against its functions (cached on
disk like the kernels).
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from ..engine import InvalidOptions, get_game
from ..engine.kernel import OVER, Kernel, kernel_for, pure_reason
from ..i18n import Message
from .gymnasium import NekobakoEnv
from .table import BOUND

__all__ = ["NekobakoVectorEnv", "Tables", "make_vector_env", "vector_reason"]


def vector_reason(game: str) -> str | None:
    """Why `game` cannot be batched here (the kernels are off, or the game has no kernel yet), or None."""
    reason = pure_reason()
    if reason is not None:
        return reason
    get_game(game)
    try:
        importlib.import_module(f"nekobako.games.{game}.kernel_observe")
    except ModuleNotFoundError as error:
        if error.name in (f"nekobako.games.{game}.kernel_observe", f"nekobako.games.{game}.kernel"):
            return f"{game} has no compiled kernel yet"
        raise
    return None


class Tables:
    """`num_tables` games of `game` in one `(num_tables, kernel.size)` int64 array.

    `seat=None` (self-play): the caller plays every seat; `seats[i]` is the seat table `i` waits
    for and `observations[i]` is that seat's tensor. A finished game is started again in the same
    `step` (same-step autoreset): `step` returns every seat's return of the game that ended, and the
    arrays already show the new game. `seat=k`: the caller plays seat `k` only, the other seats
    play uniformly at random in the kernel, and `autoreset="next_step"` (the default then) keeps a
    finished game's last observation (mask all False) for one step, as Gymnasium's vector envs do.
    """

    def __init__(
        self,
        game: str,
        players: int,
        num_tables: int,
        *,
        seat: int | None = None,
        autoreset: str | None = None,
        illegal_reward: float = -1.0,
        seed: int | None = None,
        **options: Any,
    ):
        reason = vector_reason(game)
        if reason is not None:
            raise InvalidOptions(Message("rl.vector.no_kernel", game=game, reason=reason))
        spec = get_game(game)
        self.options = spec.options(options, players)
        if seat is not None and (type(seat) is not int or not 0 <= seat < players):
            raise InvalidOptions(Message("rl.seat", last=players - 1, value=repr(seat)))
        if type(num_tables) is not int or num_tables < 1:
            raise InvalidOptions(Message("rl.vector.num_tables", value=repr(num_tables)))
        mode = autoreset or ("same_step" if seat is None else "next_step")
        if mode not in ("same_step", "next_step"):
            raise InvalidOptions(Message("rl.vector.autoreset", choices="same_step, next_step", value=repr(autoreset)))
        kernel = kernel_for(game, players, self.options)
        assert kernel is not None  # vector_reason said it exists
        self.kernel: Kernel = kernel
        self.encoding = kernel.encoding
        self.game, self.players, self.num_tables = game, players, num_tables
        self.seat, self.autoreset, self.illegal_reward = seat, mode, float(illegal_reward)
        self.start = kernel.pack(spec.new_initial_state(players, self.options))
        n, size, actions = num_tables, kernel.size, self.encoding.num_actions
        self.arrays = np.zeros((n, size), np.int64)
        """The positions (the kernel's arrays), one row per table."""
        self.rngs = np.ones((n, 2), np.uint64)
        """Each table's generator (chance and the random seats), `kernel_rng`'s state."""
        self.observations = np.zeros((n, self.encoding.size), np.float32)
        self.masks = np.zeros((n, actions), np.bool_)
        self.final_observations = np.zeros((n, self.encoding.size), np.float32)
        """Same-step autoreset: the learner's (seat 0's in self-play) last observation of a game
        that ended in the last `step` (rows of `terminated`; the others are stale)."""
        self.seats = np.full(n, OVER, np.int64)
        """The seat each table waits for; OVER (-2) for a finished game awaiting its next-step reset."""
        self.rewards = np.zeros((n, players), np.float64)
        self.terminated = np.zeros(n, np.bool_)
        self.illegal = np.zeros(n, np.bool_)
        self._pending = np.zeros(n, np.bool_)
        self._legal = np.zeros((n, actions), np.bool_)  # the masks as shown, for checking actions
        self._buf = np.zeros(max(actions, 8), np.int64)
        self._actions = np.zeros(n, np.int64)
        self.reset(seed)

    def reset(self, seed: int | Sequence[int] | None = None, which: np.ndarray | None = None) -> None:
        """Start new games (on the tables of the boolean mask `which`, else on all). A seed makes
        every table's stream from it (`numpy.random.SeedSequence`; a list: one seed per table);
        None draws fresh entropy, or with `which` lets those tables go on with their own streams."""
        n = self.num_tables
        mask = np.ones(n, np.bool_) if which is None else np.asarray(which, np.bool_).reshape(n)
        if seed is not None or which is None:
            self.seed_tables(seed, mask)
        from . import vector_loops

        vector_loops.loops_for(self.game)[0](
            self.arrays, self.start, self.rngs, self._learner, mask,
            self.seats, self._pending, self.observations, self.masks, self._legal, self._buf,
        )  # fmt: skip

    def seed_tables(self, seed: int | Sequence[int] | None, which: np.ndarray) -> None:
        """New generator states for the tables of `which`, from `seed`, or from one seed per table
        (a list, as Gymnasium's vector envs take); never all zero."""
        n = self.num_tables
        if isinstance(seed, Sequence):
            if len(seed) != n:
                raise ValueError(f"expected {n} seeds, got {len(seed)}")
            states = np.stack([np.random.SeedSequence(s).generate_state(2, np.uint64) for s in seed])
        else:
            states = np.random.SeedSequence(seed).generate_state(2 * n, np.uint64).reshape(-1, 2)
        states[(states == 0).all(axis=1), 0] = 1
        self.rngs[which] = states[which]

    @property
    def _learner(self) -> int:
        return -1 if self.seat is None else self.seat

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray]:
        """Play one action id per table (for the seat it waits for); `rewards` (tables × seats:
        each seat's return of a game that ended now, `illegal_reward` to a seat whose id was not
        legal, which changes nothing) and `terminated`, both arrays updated in place."""
        acts = np.asarray(actions)
        if acts.shape != (self.num_tables,) or acts.dtype.kind not in "iu":
            raise ValueError(f"expected {self.num_tables} integer action ids, got shape {acts.shape} {acts.dtype}")
        self._actions[:] = acts
        from . import vector_loops

        vector_loops.loops_for(self.game)[1](
            self.arrays, self.start, self.rngs, self._learner,
            self.autoreset == "same_step", self._actions, self.illegal_reward, self.seats, self._pending,
            self.observations, self.masks, self._legal, self.rewards, self.terminated, self.illegal, self._buf,
            self.final_observations,
        )  # fmt: skip
        return self.rewards, self.terminated

    def state(self, table: int) -> Any:
        """A pure engine state at table `table`'s position (for checks and rendering)."""
        return self.kernel.unpack(self.arrays[table])


class NekobakoVectorEnv(gym.vector.VectorEnv):
    """`num_envs` tables of `game`, one learning `seat` per table, the others uniformly random
    in the kernel (docs/research.md, *Batched environments*). Same-step autoreset (Gymnasium's
    `AutoresetMode.SAME_STEP`): the step that ends a game starts the next one, so the
    observation and `info["action_mask"]` are always of a game in play and a mask always has a
    legal id; the ended game's last observation and info are in `info["final_obs"]` and
    `info["final_info"]` (rows of `info["_final_obs"]`). `autoreset_mode=AutoresetMode.NEXT_STEP`
    is the other documented mode, which Gymnasium 1.4's observation wrappers require: the step
    that ends a game shows its last observation, mask all False, and the next step starts a new
    game whatever its action. `copy=False` returns the env's own arrays."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        players: int,
        num_envs: int = 1,
        seat: int = 0,
        opponents: str = "random",
        illegal_reward: float = -1.0,
        copy: bool = True,
        autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
        **options: Any,
    ):
        if opponents != "random":
            raise InvalidOptions(Message("rl.vector.opponents", choice='opponents="random"', value=repr(opponents)))
        mode = _autoreset_mode(autoreset_mode)
        self.metadata = {**self.metadata, "autoreset_mode": mode}
        self.tables = Tables(
            game,
            players,
            num_envs,
            seat=seat,
            autoreset="same_step" if mode == AutoresetMode.SAME_STEP else "next_step",
            illegal_reward=illegal_reward,
            **options,
        )
        self.num_envs = num_envs
        self.seat = seat
        self.copy = copy
        encoding = self.tables.encoding
        self.single_observation_space = spaces.Box(-BOUND, BOUND, (encoding.size,), np.float32)
        self.single_action_space = spaces.Discrete(encoding.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.spec = None
        self._every = np.ones(num_envs, np.bool_)

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """New games on every table, or on those of `options["reset_mask"]` (Gymnasium's
        vector convention)."""
        super().reset(seed=seed[0] if isinstance(seed, list) else seed)
        which = None if not options or "reset_mask" not in options else options["reset_mask"]
        table_seeds: int | list[int] | None = seed
        if seed is None and which is not None:  # fresh streams for the tables reset, from np_random
            self.tables.seed_tables(int(self.np_random.integers(2**63)), np.asarray(which, np.bool_))
        elif seed is None:
            table_seeds = int(self.np_random.integers(2**63))
        self.tables.reset(table_seeds, which)
        return self._out(self.tables.observations), self._info()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        rewards, terminated = self.tables.step(actions)
        info = self._info()
        if terminated.any() and self.tables.autoreset == "same_step":  # as SyncVectorEnv's gives them
            ended = terminated.copy()
            final_obs = np.full(self.num_envs, None, object)
            for i in np.flatnonzero(ended):
                final_obs[i] = self.tables.final_observations[i].copy()
            nothing = np.zeros_like(self.tables.masks)  # a finished game: nothing is legal
            info |= {
                "final_obs": final_obs,
                "_final_obs": ended,
                "final_info": {
                    "action_mask": nothing,
                    "_action_mask": ended.copy(),
                    "illegal": np.zeros(self.num_envs, np.bool_),
                    "_illegal": ended.copy(),
                },
                "_final_info": ended.copy(),
            }
        return (
            self._out(self.tables.observations),
            rewards[:, self.seat].copy(),
            terminated.copy(),
            np.zeros(self.num_envs, np.bool_),
            info,
        )

    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

    def _info(self) -> dict[str, Any]:
        tables = self.tables
        return {
            "action_mask": self._out(tables.masks),
            "_action_mask": self._every.copy(),
            "illegal": tables.illegal.copy(),
            "_illegal": self._every.copy(),
        }

    def action_masks(self) -> np.ndarray:
        """Legal ids as booleans, tables × actions (sb3-contrib's MaskablePPO reads this)."""
        return self._out(self.tables.masks)


def make_vector_env(
    game: str, players: int, num_envs: int = 1, opponents: str | Sequence[str] = "greedy", **kwargs: Any
) -> gym.vector.VectorEnv:
    """The `vector_entry_point` of the registered ids (`gymnasium.make_vec`): the kernel's
    `NekobakoVectorEnv` for `opponents="random"` where the game has a kernel, else (bots as
    opponents, or no kernel) a `SyncVectorEnv` of `NekobakoEnv`. Both autoreset in the same step,
    so the legal mask a learner samples from is always the game in play's."""
    if opponents == "random" and vector_reason(game) is None:
        return NekobakoVectorEnv(game, players, num_envs, **kwargs)
    kwargs.pop("copy", None)
    mode = _autoreset_mode(kwargs.pop("autoreset_mode", AutoresetMode.SAME_STEP))
    return gym.vector.SyncVectorEnv(
        [lambda: NekobakoEnv(game, players, opponents=opponents, **kwargs) for _ in range(num_envs)],
        autoreset_mode=mode,
    )


def _autoreset_mode(value: AutoresetMode | str) -> AutoresetMode:
    """Same step or next step (Gymnasium's `AutoresetMode` or its value), else a clear error."""
    choices = (AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP)
    try:
        mode = AutoresetMode(value)
    except ValueError:
        mode = None
    if mode not in choices:
        raise InvalidOptions(
            Message("rl.vector.autoreset", choices=", ".join(c.value for c in choices), value=repr(value))
        )
    return mode
