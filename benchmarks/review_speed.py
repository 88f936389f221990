"""How long a review takes per game (not a test; run by hand, issue 29; docs/review.md, *Speed*):

    PYTHONPATH=src nice -n 10 .venv/bin/python benchmarks/review_speed.py

One bots' game per game (seed 2), reviewed for seat 0 three times in one process (the compiled
kernel loaded first); prints the median time and the time per decision.
"""

from __future__ import annotations

import statistics
import time

from nekobako.review import review_record
from nekobako.sim.runner import BotSpec, GameTask, play_game

CASES = [
    ("shutbox", 2, ["random", "optimal"], 1),
    ("catbox", 3, ["greedy"] * 3, 2000),
    ("catopomp", 2, ["greedy"] * 2, 200),
]


def record(game: str, players: int, bots: list[str]) -> dict:
    task = GameTask(game, players, tuple(BotSpec.parse(b) for b in bots), {}, 2, 0)
    result = play_game(task).record
    assert result is not None
    return result


def main() -> None:
    review_record(record("catbox", 3, ["greedy"] * 3), 0, iterations=10)  # load the compiled kernel once
    for game, players, bots, iterations in CASES:
        played = record(game, players, bots)
        times = []
        for _ in range(3):
            start = time.perf_counter()
            review = review_record(played, 0, iterations=iterations)
            times.append(time.perf_counter() - start)
        median = statistics.median(times)
        n = max(1, len(review.decisions))
        print(
            f"{game} {players} players, {iterations} iterations: {len(review.decisions)} decisions, "
            f"median {median:.3f} s, {1000 * median / n:.1f} ms per decision"
        )


if __name__ == "__main__":
    main()
