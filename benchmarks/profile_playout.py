"""Profile random playouts of one game: `python benchmarks/profile_playout.py catbox 4 3`.

Profile before optimizing: the top of this listing says whether legal generation, apply, chance
or cloning dominates.
"""

from __future__ import annotations

import cProfile
import pstats
import sys

from nekobako.sim.bench import playout_rate


def main(argv: list[str]) -> None:
    if not argv:
        sys.exit("usage: profile_playout.py GAME [PLAYERS] [SECONDS]")
    game = argv[0]
    players = int(argv[1]) if len(argv) > 1 else 2
    seconds = float(argv[2]) if len(argv) > 2 else 2.0
    profiler = cProfile.Profile()
    rate = profiler.runcall(playout_rate, game, players, seconds)
    print(f"{game} {players} players: {rate:,.0f} actions/s under the profiler (slower than without)")
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    main(sys.argv[1:])
