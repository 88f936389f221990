"""Speed of Cat in the Box through the public API (not a test; run by hand):

    .venv/bin/python benchmarks/catbox_speed.py [seconds per sample]

Prints medians over 5 samples: random-playout actions/s per player count (`random_playout`, i.e.
`legal_actions` + `apply` + `sample_chance`), `clone()` and `GAME.determinize(view, rng)` per second.
Rates are per second of this process's CPU time (`time.process_time`), so other jobs sharing the
machine slow the measurement less than wall-clock time would.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from nekobako.engine import random_playout, random_step
from nekobako.games.catbox import GAME

SAMPLES = 5


def _rate(work, seconds: float) -> float:
    """Median over SAMPLES of units of work per second; `work()` returns units done."""
    rates = []
    for _ in range(SAMPLES):
        done = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            done += work()
        rates.append(done / (time.process_time() - start))
    return statistics.median(rates)


def _mid_round(players: int, rng: random.Random):
    """A position in the middle of round 1 (a few tricks played)."""
    state = GAME.new_game(players)
    while state.phase_name != "play" or sum(state.tricks) < 3:
        random_step(state, rng)
        if not state.to_move or state.round > 1:
            state = GAME.new_game(players)
    return state


def main(seconds: float) -> None:
    rng = random.Random(1)
    print(f"{'players':>7} {'playout actions/s':>18} {'clone/s':>10} {'determinize/s':>14}")
    for players in (2, 3, 4, 5):
        playout = _rate(lambda p=players: random_playout(GAME.new_game(p), rng), seconds)
        state = _mid_round(players, rng)
        clones = _rate(lambda s=state: [s.clone() for _ in range(100)] and 100, seconds)
        view = state.view(state.to_move[0])
        dets = _rate(lambda v=view: [GAME.determinize(v, rng) for _ in range(100)] and 100, seconds)
        print(f"{players:>7} {playout:>18,.0f} {clones:>10,.0f} {dets:>14,.0f}")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 1.0)
