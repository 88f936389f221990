"""Catopomp's compiled kernel against the pure engine (docs/engine.md, *Kernels*; not a test:
run `python benchmarks/catopomp_kernel_speed.py [players …]`, 4 players by default).

Both sides play uniformly random games from the start to the end, chance included, and count
every action applied (the pure side is `engine.random_playout`, the kernel side `playout`).
Figures are medians of several batches in actions per second of CPU time (`time.process_time`),
on one core; the kernel's compilation (or cache load) and the first games are a warm-up.
Target (issue 28): the kernel at 4 players at least 20 times the pure engine.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from nekobako.engine import random_playout
from nekobako.engine.kernel import kernel_for, pure_reason
from nekobako.games.catopomp import GAME

BATCHES = 7


def pure_rate(players: int, games: int = 10) -> float:
    options = GAME.options({}, players)
    rng = random.Random(players)
    for _ in range(5):
        random_playout(GAME.new_game(players, options), rng)
    rates = []
    for _ in range(BATCHES):
        actions = 0
        start = time.process_time()
        for _ in range(games):
            actions += random_playout(GAME.new_game(players, options), rng)
        rates.append(actions / (time.process_time() - start))
    return statistics.median(rates)


def kernel_rate(players: int, games: int = 300) -> float:
    from nekobako.engine.kernel_rng import new_rng

    options = GAME.options({}, players)
    kernel = kernel_for("catopomp", players, options)
    assert kernel is not None
    start_array = kernel.pack(GAME.new_game(players, options))
    rng = new_rng(players)
    for _ in range(20):
        kernel.playout(start_array.copy(), rng, 1_000_000)
    rates = []
    for _ in range(BATCHES):
        arrays = [start_array.copy() for _ in range(games)]
        actions = 0
        start = time.process_time()
        for array in arrays:
            actions += kernel.playout(array, rng, 1_000_000)
        rates.append(actions / (time.process_time() - start))
    return statistics.median(rates)


def main() -> None:
    reason = pure_reason()
    if reason is not None:
        sys.exit(f"the kernels are off: {reason}")
    counts = [int(arg) for arg in sys.argv[1:]] or [4]
    print(f"{'players':>7} {'pure actions/s':>15} {'kernel actions/s':>17} {'ratio':>7}")
    for players in counts:
        kernel = kernel_rate(players)
        pure = pure_rate(players)
        print(f"{players:>7} {pure:>15,.0f} {kernel:>17,.0f} {kernel / pure:>6.1f}x")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
