"""Loading the compiled search before the first move (docs/bots.md, *The compiled search*).

A new process spends its first `ismcts` move loading numba, the games' kernels and the compiled
search from numba's cache (1–2 s; minutes where the cache is cold), so a server's first bot move
would come late by that much. `warm_up()` does that work up front, with one tiny search per game
with a kernel; the server runs it in each search process as the process starts
(server/workers.py).
"""

from __future__ import annotations

import random
import time
from typing import Any

from ..engine import CHANCE, get_game


def warm_up() -> dict[str, Any]:
    """Run one small compiled search per game with a kernel, in this process. Returns the games
    warmed (none where the kernels are off: `engine.kernel.pure_reason`) and the seconds taken."""
    from ..engine.kernel import pure_reason

    start = time.perf_counter()
    if pure_reason() is not None:
        return {"games": [], "seconds": 0.0, "pure": pure_reason()}
    from . import ismcts_kernel
    from .ismcts import ISMCTSBot

    for name in ismcts_kernel.GAMES:
        game = get_game(name)
        rng = random.Random(0)
        state = game.new_game(max(2, game.min_players))
        while True:  # the first decision with a choice (chance and forced steps played)
            seat = state.to_move[0]
            if seat == CHANCE:
                state.apply(CHANCE, state.sample_chance(rng))
                continue
            legal = state.legal_actions(seat)
            if len(legal) > 1:
                break
            state.apply(seat, legal[0])
        ISMCTSBot(name, iterations=8).choose(state.view(seat), legal, rng)
    return {"games": list(ismcts_kernel.GAMES), "seconds": round(time.perf_counter() - start, 3), "pure": None}
