"""Speed figures for docs/catopomp.md (not a test: run `python benchmarks/catopomp_speed.py`).

Random playouts through the public API (`random_playout`: legal_actions + apply + sample_chance),
`clone` and `determinize`, each timed in several batches after a warm-up; medians are printed.
Times are CPU time of this process (`time.process_time`), so other work on a shared machine
inflates them less than wall-clock time would.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from typing import Any

from nekobako.engine import random_playout
from nekobako.games.catopomp import GAME, CatopompState


def playout_rate(players: int, options: dict[str, Any], batches: int = 7, games: int = 20) -> float:
    rng = random.Random(players)
    for _ in range(10):  # warm-up: interns the common actions
        random_playout(GAME.new_game(players, options), rng)
    rates = []
    for _ in range(batches):
        actions = 0
        start = time.process_time()
        for _ in range(games):
            actions += random_playout(GAME.new_game(players, options), rng)
        rates.append(actions / (time.process_time() - start))
    return statistics.median(rates)


def mid_game_states(players: int, options: dict[str, Any], count: int = 50) -> list[CatopompState]:
    """States part-way through random games, with a seat to move."""
    rng = random.Random(99 + players)
    states: list[CatopompState] = []
    while len(states) < count:
        state = GAME.new_game(players, options)
        random_playout(state, rng, max_actions=40 + int(rng.random() * 60))
        if not state.is_over() and not state.is_chance():
            states.append(state)
    return states


def per_call_us(fn, items: list, repeat: int = 200) -> float:
    times = []
    for item in items:
        start = time.process_time()
        for _ in range(repeat):
            fn(item)
        times.append((time.process_time() - start) / repeat * 1e6)
    return statistics.median(times)


def main() -> None:
    configs: list[tuple[int, dict[str, Any]]] = [
        (2, {}),
        (3, {}),
        (4, {}),
        (2, {"extra_cards": "both"}),
        (4, {"extra_cards": "both"}),
        (4, {"casual": True}),
    ]
    print(f"{'players':>7} {'options':<28} {'actions/s':>10} {'clone µs':>9} {'determinize µs':>15}")
    for players, options in configs:
        rate = playout_rate(players, options)
        states = mid_game_states(players, options)
        clone = per_call_us(lambda s: s.clone(), states)
        views = [s.view(s.to_move[0]) for s in states]
        rng = random.Random(1)
        det = per_call_us(lambda v, rng=rng: GAME.determinize(v, rng), views, repeat=50)
        print(f"{players:>7} {str(options) or '{}':<28} {rate:>10,.0f} {clone:>9.1f} {det:>15.1f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
