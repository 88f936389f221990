"""Train a policy for one seat of a nekobako game with sb3-contrib's MaskablePPO, on a CPU in a
few minutes, and compare it with a random policy against the same opponents.

    pip install -e '.[rl]' sb3-contrib torch      # torch: any CPU build
    python examples/train_maskable_ppo.py                      # Shut the Box, 2 players, vs random
    python examples/train_maskable_ppo.py --env nekobako/CatInTheBox-v0 --players 2 --steps 200000

The learner sees the game's observation tensor and picks an action id among the legal ones
(`env.action_masks()`); the reward is its share of the win at the end of the game. The report
gives each policy's win rate over the same evaluation seeds with a 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import math
import time

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker

import nekobako.rl  # noqa: F401  (registers the nekobako/… envs)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def make_env(env_id: str, players: int, opponents: str) -> gym.Env:
    env = gym.make(env_id, players=players, opponents=opponents)
    return ActionMasker(env, lambda e: e.unwrapped.action_masks())


def evaluate(env: gym.Env, choose, games: int, seed: int) -> float:
    """Mean end-of-game reward (the learner's win share) over `games` seeded games."""
    total = 0.0
    for game in range(games):
        obs, info = env.reset(seed=seed + game)
        done = False
        reward = 0.0
        while not done:
            obs, reward, done, _, info = env.step(choose(obs, info["action_mask"]))
        total += reward
    return total / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", default="nekobako/ShutTheBox-v0")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponents", default="random", help="bot level of every other seat")
    parser.add_argument("--steps", type=int, default=100_000, help="learner decisions to train on")
    parser.add_argument("--eval-games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)

    env = make_env(args.env, args.players, args.opponents)
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0, n_steps=2048, batch_size=256)
    start, cpu = time.perf_counter(), time.process_time()
    model.learn(total_timesteps=args.steps)
    minutes, cpu_minutes = (time.perf_counter() - start) / 60, (time.process_time() - cpu) / 60

    rng = np.random.default_rng(args.seed)
    eval_env = make_env(args.env, args.players, args.opponents)

    def trained(obs: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return int(action)

    def random_policy(obs: np.ndarray, mask: np.ndarray) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    seed = 10_000 + args.seed  # evaluation games differ from training ones, and are the same for both
    setting = f"{args.env}, {args.players} players, learner vs {args.opponents}"
    print(f"{setting}: trained {args.steps:,} steps in {minutes:.1f} min ({cpu_minutes:.1f} min of CPU time)")
    for name, policy in (("trained MaskablePPO", trained), ("random policy", random_policy)):
        share = evaluate(eval_env, policy, args.eval_games, seed)
        low, high = wilson(share * args.eval_games, args.eval_games)
        print(f"  {name:20} wins {share:6.1%}  [{low:.1%} – {high:.1%}] of {args.eval_games} games")


if __name__ == "__main__":
    main()
