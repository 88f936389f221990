"""Random-playout throughput of Shut the Box through the public API (not a test; run by hand).

    .venv/bin/python benchmarks/shutbox_speed.py [seconds-per-run] [runs]

Each run plays whole games (new_game included) with `nekobako.engine.random_playout` for the
given CPU time and reports actions per CPU second (process time, so that other processes on a
shared machine disturb the figure less than wall time would); the median of the runs is printed.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from typing import Any

from nekobako.engine import get_game, random_playout

CASES: list[tuple[int, dict[str, Any]]] = [
    (1, {}),
    (2, {}),
    (12, {}),
    (4, {"simultaneous": True}),
    (2, {"tiles": 12, "max_close": "any", "scoring": "digits"}),
]


def actions_per_second(players: int, options: dict, seconds: float, seed: int) -> float:
    game = get_game("shutbox")
    rng = random.Random(seed)
    actions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        actions += random_playout(game.new_game(players, options), rng)
    return actions / (time.process_time() - start)


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    for players, options in CASES:
        rates = [actions_per_second(players, options, seconds, seed) for seed in range(runs)]
        shown = ", ".join(f"{r:,.0f}" for r in rates)
        print(f"{players:>2} players {options!s:<55} median {statistics.median(rates):>10,.0f} actions/s  ({shown})")


if __name__ == "__main__":
    main()
