"""ISMCTS iterations per second at a fixed time per move: the compiled search (`ismcts`, the
default) against the pure one (`ismcts:kernel=false`), in one run (not a test; issue 28):

    PYTHONPATH=src .venv/bin/python benchmarks/ismcts_kernel_speed.py [seconds per move] [positions] [games]

`games`: comma-separated, `catbox,catopomp,shutbox` by default. Pinned to one core
(`sim.bench.one_core`). Positions, for seeds 0, 1, …: 4-player Cat in the Box, the first decision
of the round (a discard) and the first play decision (every seat discards and predicts its first
legal action); 4-player Catopomp, the round's first decision and the first decision of a later
turn (one random action per seat between); 2-player Shut the Box, the first real choice (two legal
actions or more) and the first after two more random actions. At each position both bots search
`seconds` (0.3 by default) from the same view, interleaved; printed: iterations per second of each
and their ratio, then the medians. One compiled search is run first, so loading the compiled code
from numba's cache is not timed.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from typing import Any

from nekobako.bots.ismcts import ISMCTSBot
from nekobako.engine import CHANCE
from nekobako.engine.kernel import pure_reason
from nekobako.sim.bench import one_core, round_start

PLAYERS = {"catbox": 4, "catopomp": 4, "shutbox": 2}


def positions(game: str, count: int) -> list[tuple[str, Any, int]]:
    """(what, state, seat) at two decisions of a round, per seed (see the module docstring)."""
    out: list[tuple[str, Any, int]] = []
    for seed in range(count):
        state = round_start(game, PLAYERS[game], seed)
        rng = random.Random(seed)
        moved = 0
        for what in ("first", "later"):
            while True:
                seat = state.to_move[0]
                if seat == CHANCE:
                    state.apply(CHANCE, state.sample_chance(rng))
                    continue
                legal = state.legal_actions(seat)
                if what == "first":
                    ready = len(legal) > 1 if game != "catbox" else True
                elif game == "catbox":
                    ready = str(legal[0]).startswith("play")
                else:
                    ready = moved >= PLAYERS[game] and len(legal) > 1
                if ready:
                    break
                state.apply(seat, legal[0] if game == "catbox" else rng.choice(legal))
                moved += 1
            out.append((f"seed {seed} {what}", state.clone(), seat))
    return out


def rate(bot: ISMCTSBot, state: Any, seat: int, seed: int) -> float:
    view, legal = state.view(seat), state.legal_actions(seat)
    start = time.perf_counter()
    bot.choose(view, legal, random.Random(seed))
    return bot.last_iterations / (time.perf_counter() - start)


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 0.3
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    games = sys.argv[3].split(",") if len(sys.argv) > 3 else list(PLAYERS)
    if (reason := pure_reason()) is not None:
        sys.exit(f"kernels are off: {reason}")
    with one_core() as core:
        print(f"{seconds} s per move, core {core}")
        for game in games:
            compiled = ISMCTSBot(game, seconds=seconds)
            pure = ISMCTSBot(game, seconds=seconds, kernel=False)
            ratios, fast, slow = [], [], []
            places = positions(game, count)
            rate(ISMCTSBot(game, iterations=100), places[0][1], places[0][2], 0)  # load the compiled code
            print(f"\n{PLAYERS[game]}-player {game}")
            print(f"{'position':<20} {'kernel it/s':>12} {'pure it/s':>10} {'ratio':>7}")
            for i, (what, state, seat) in enumerate(places):
                new = rate(compiled, state, seat, i)
                old = rate(pure, state, seat, i)
                fast.append(new)
                slow.append(old)
                ratios.append(new / old)
                print(f"{what:<20} {new:>12.0f} {old:>10.0f} {new / old:>7.1f}")
            print(
                f"{'median':<20} {statistics.median(fast):>12.0f} {statistics.median(slow):>10.0f} "
                f"{statistics.median(ratios):>7.1f}"
            )


if __name__ == "__main__":
    main()
