"""Random playouts of Shut the Box in the compiled kernel against the pure engine (not a test).

    .venv/bin/python benchmarks/shutbox_kernel_speed.py [seconds-per-run] [runs]

Each run plays whole games from the start position for the given CPU time (process time, one
core): the kernel with `playout` on a copy of the packed start, the engine with
`engine.random_playout` on a new game; actions (chance included) per CPU second, medians of the
runs, and the ratio. Issue 28's target: the kernel ≥ 20× the engine at 2 players. Compiling is
not measured (one warm-up playout first; `numba` caches it on disk).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from typing import Any

from nekobako.engine import get_game, random_playout
from nekobako.engine.kernel import kernel_for, pure_reason
from nekobako.engine.kernel_rng import new_rng

CASES: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (4, {}),
    (12, {}),
    (4, {"simultaneous": True}),
    (2, {"tiles": 12, "max_close": "any", "scoring": "digits"}),
]


def kernel_rate(players: int, options: dict[str, Any], seconds: float, seed: int) -> float:
    game = get_game("shutbox")
    kernel = kernel_for("shutbox", players, game.options(options, players))
    assert kernel is not None
    start = kernel.pack(game.new_game(players, options))
    rng = new_rng(seed)
    kernel.playout(start.copy(), rng, 1_000_000)
    actions = 0
    begin = time.process_time()
    while time.process_time() - begin < seconds:
        for _ in range(100):
            actions += kernel.playout(start.copy(), rng, 1_000_000)
    return actions / (time.process_time() - begin)


def pure_rate(players: int, options: dict[str, Any], seconds: float, seed: int) -> float:
    game = get_game("shutbox")
    rng = random.Random(seed)
    actions = 0
    begin = time.process_time()
    while time.process_time() - begin < seconds:
        actions += random_playout(game.new_game(players, options), rng)
    return actions / (time.process_time() - begin)


def main() -> None:
    if pure_reason() is not None:
        sys.exit(f"kernels are off: {pure_reason()}")
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    for players, options in CASES:
        fast = statistics.median(kernel_rate(players, options, seconds, seed) for seed in range(runs))
        slow = statistics.median(pure_rate(players, options, seconds, seed) for seed in range(runs))
        print(
            f"{players:>2} players {options!s:<55} kernel {fast:>12,.0f}  engine {slow:>9,.0f} actions/s"
            f"  ×{fast / slow:.1f}"
        )


if __name__ == "__main__":
    main()
