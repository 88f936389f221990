"""Batched environments (`nekobako.rl.vector`): agent-steps per second with a random policy that
reads the legal mask (not a test; run by hand, issue 28):

    PYTHONPATH=src .venv/bin/python benchmarks/vector_speed.py [seconds per sample] [tables]

Pinned to one core (`sim.bench.one_core`); per second of CPU time; medians over 5 samples, after
one untimed step (numba compiles the loops at the first `Tables`). For every game that has a
kernel, at the table size of `nekobako bench`'s `rl` section (`sim.bench.RL_CASES`: Shut the Box 2
players, the others 4):

* `self-play`: `Tables(seat=None)`, every seat chosen by the policy; an agent-step is one action;
* `gymnasium`: `NekobakoVectorEnv` (one learner, the other seats random in the kernel, `copy=False`,
  as a training loop that reads the arrays at once uses it); an agent-step is one learner action.

The policy is numpy on the whole batch: a uniform legal id per table, picked among the mask's set
bits (`sim.bench.random_legal_ids`). `nekobako bench` reports the self-play figure at 1,024 tables
(its `rl_vector` section).
Targets (issue 28): Shut the Box ≥ 1M, Cat in the Box ≥ 300k, Catopomp ≥ 100k agent-steps/s.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

from nekobako.engine import game_names
from nekobako.engine.kernel import pure_reason
from nekobako.rl.vector import NekobakoVectorEnv, Tables, vector_reason
from nekobako.sim.bench import RL_CASES, one_core
from nekobako.sim.bench import VECTOR_TARGETS as TARGETS
from nekobako.sim.bench import random_legal_ids as _policy

SAMPLES = 5
SEED = 28


def _sample(step: Callable[[], None], tables: int, seconds: float) -> float:
    """Agent-steps per CPU second for about `seconds`."""
    steps = 0
    began = time.process_time()
    while (spent := time.process_time() - began) < seconds:
        for _ in range(10):
            step()
        steps += 10 * tables
    return steps / spent


def _self_play(game: str, players: int, n: int) -> Callable[[], None]:
    tables = Tables(game, players, n, seed=SEED)
    rng = np.random.default_rng(SEED)

    def step() -> None:
        tables.step(_policy(rng, tables.masks))

    step()
    return step


def _gymnasium(game: str, players: int, n: int) -> Callable[[], None]:
    env = NekobakoVectorEnv(game, players, n, copy=False)
    rng = np.random.default_rng(SEED)
    env.reset(seed=SEED)
    masks = env.tables.masks  # the env's own array (copy=False): the info holds the same one

    def step() -> None:
        env.step(_policy(rng, masks))

    step()
    return step


def main(seconds: float, n: int) -> None:
    reason = pure_reason()
    if reason is not None:
        sys.exit(f"the kernels are off: {reason}")
    with one_core() as core:
        print(f"pinned to core {core}; {n} tables; medians of {SAMPLES} samples of {seconds:g} s (CPU)")
        for game in game_names():
            why = vector_reason(game)
            if why is not None:
                print(f"{game:9} skipped: {why}")
                continue
            players = RL_CASES[game]
            for name, make in (("self-play", _self_play), ("gymnasium", _gymnasium)):
                step = make(game, players, n)
                rate = statistics.median(_sample(step, n, seconds) for _ in range(SAMPLES))
                verdict = "meets" if rate >= TARGETS[game] else "below"
                print(f"{game:9} {players}p {name:9} {rate:>12,.0f} agent-steps/s ({verdict} {TARGETS[game]:,})")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 1.0, int(sys.argv[2]) if len(sys.argv) > 2 else 1024)
