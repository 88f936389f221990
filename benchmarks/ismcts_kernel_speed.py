"""ISMCTS iterations per second at a fixed time per move: the compiled search (`ismcts`, the
default) against the pure one (`ismcts:kernel=false`), in one run (not a test; issue 28):

    PYTHONPATH=src .venv/bin/python benchmarks/ismcts_kernel_speed.py [seconds per move] [positions]

Pinned to one core (`sim.bench.one_core`). Positions: 4-player Cat in the Box, for seeds 0, 1, …
the first play decision of a random game (every seat discards and predicts its first legal
action), and the first decision of the round (a discard). At each position both bots search
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
from nekobako.engine.kernel import pure_reason
from nekobako.sim.bench import one_core, round_start


def positions(count: int) -> list[tuple[str, Any, int]]:
    """(what, state, seat) at the round's first decision and the first play decision, per seed."""
    out = []
    for seed in range(count):
        state = round_start("catbox", 4, seed)
        out.append((f"seed {seed} discard", state.clone(), state.to_move[0]))
        while True:
            seat = state.to_move[0]
            legal = state.legal_actions(seat)
            if str(legal[0]).startswith("play"):
                break
            state.apply(seat, legal[0])
        out.append((f"seed {seed} play", state, seat))
    return out


def rate(bot: ISMCTSBot, state: Any, seat: int, seed: int) -> float:
    view, legal = state.view(seat), state.legal_actions(seat)
    start = time.perf_counter()
    bot.choose(view, legal, random.Random(seed))
    return bot.last_iterations / (time.perf_counter() - start)


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 0.3
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    if (reason := pure_reason()) is not None:
        sys.exit(f"kernels are off: {reason}")
    compiled = ISMCTSBot("catbox", seconds=seconds)
    pure = ISMCTSBot("catbox", seconds=seconds, kernel=False)
    ratios, fast, slow = [], [], []
    with one_core() as core:
        print(f"4-player Cat in the Box, {seconds} s per move, core {core}")
        places = positions(count)
        rate(ISMCTSBot("catbox", iterations=100), places[0][1], places[0][2], 0)  # load the compiled code
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
