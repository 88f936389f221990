"""Views and bot decisions as the server asks for them (issue 14; not a test, run by hand):

    .venv/bin/python benchmarks/views_speed.py [GAMES per sample]

Plays whole games of each game at 3 players the way the server does (a clone of the state with one
action applied per change) and measures, in CPU time of this process, medians over 5 samples:

* views/s — after every change, `state.view(seat)` for every seat and a spectator (the server
  builds one view per seat and spectator kind per change); random legal play, the same seeds in
  every sample;
* greedy decisions/s — Cat in the Box with a greedy bot in every seat: for each decision the
  bot's seat's view and `choose` on it (what `server/drivers.py` does per bot move).

Only the timed calls are counted (clone and apply are not). To compare two commits, run this
script from each checkout in turn, alternating (the machine is shared): see docs/engine.md.
"""

from __future__ import annotations

import functools
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from nekobako.engine import CHANCE, get_game
from nekobako.sim.bench import greedy_rate  # the machine's speed, as `nekobako bench` and load.py print it

SAMPLES = 5
PLAYERS = 3


def _next(state: Any, rng: random.Random) -> Any:
    new = state.clone()
    to_move = new.to_move
    seat = to_move[rng.randrange(len(to_move))]
    new.apply(seat, new.sample_chance(rng) if seat == CHANCE else rng.choice(list(new.legal_actions(seat))))
    return new


def views_rate(game: str, games: int) -> float:
    """Views per CPU second over `games` whole games, every seat and a spectator after each change."""
    clock, views, spent = time.process_time, 0, 0.0
    readers = [*range(PLAYERS), None]
    for seed in range(games):
        rng = random.Random(seed)
        state = get_game(game).new_game(PLAYERS)
        while state.to_move:
            state = _next(state, rng)
            start = clock()
            for seat in readers:
                state.view(seat)
            spent += clock() - start
            views += len(readers)
    return views / spent


def main(games: int) -> None:
    rows: list[tuple[str, Callable[[], float]]] = [
        (f"{game} views/s", functools.partial(views_rate, game, games)) for game in ("catbox", "catopomp", "shutbox")
    ]
    rows.append(("catbox greedy decisions/s", functools.partial(greedy_rate, games)))
    for label, measure in rows:
        print(f"{label:>28} {statistics.median(measure() for _ in range(SAMPLES)):>10,.0f}", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
