"""Python's cyclic garbage collector, tuned for a server and watched for the health endpoint.

Every stored action clones a game state and builds views and messages: hundreds of thousands of
short-lived objects a second at a few hundred tables. With Python's default thresholds (700, 10,
10) the young generations fill many times a second and every collection walks what survived; at
500 tables that was about a sixth of the server's CPU per action (docs/server.md). Freezing what
start-up made (modules, the catalogue, the routes: they live as long as the process) keeps it out
of every later walk, and a larger young threshold makes collections rare; objects without cycles
are still freed at once by reference counting, so memory stays bounded. A collection still
pauses its process for tens of milliseconds (Python 3.11 walks every young survivor at once):
`CollectorWatch` reports how often and how long, and docs/server.md ("Third pass") what those
pauses cost and the other schemes measured.
"""

from __future__ import annotations

import collections
import gc
import time
from typing import Any

from .quantiles import quantiles_ms

THRESHOLDS = (50_000, 20, 20)  # gen 0 after 50,000 net allocations; gen 1 and 2 every 20 of the younger
PAUSES_KEPT = 1000  # the last collections, for percentiles


def tune() -> None:
    """Called once the server has started (the serving process only: tests that build many
    applications in one process keep Python's defaults)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)


class CollectorWatch:
    """How long each collection paused the process, by generation (via `gc.callbacks`)."""

    def __init__(self) -> None:
        self.pauses: collections.deque[tuple[int, float]] = collections.deque(maxlen=PAUSES_KEPT)
        self.counts = [0, 0, 0]
        self.collected = 0  # unreachable objects freed: the cyclic garbage only a collection frees
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        generation = int(info.get("generation", 0))
        self.counts[generation] += 1
        self.collected += int(info.get("collected", 0))
        self.pauses.append((generation, time.perf_counter() - self._started))

    def start(self) -> None:
        if self not in gc.callbacks:
            gc.callbacks.append(self)

    def stop(self) -> None:
        if self in gc.callbacks:
            gc.callbacks.remove(self)

    def report(self) -> dict[str, Any]:
        """Collections since start-up by generation, and pause percentiles over the last ones."""
        longest = [round(max((d for g, d in self.pauses if g == gen), default=0.0) * 1000, 2) for gen in range(3)]
        return {
            "thresholds": list(gc.get_threshold()),
            "frozen": gc.get_freeze_count(),
            "collections": list(self.counts),
            "collected": self.collected,
            "pause_ms": {**quantiles_ms(d for _, d in self.pauses), "max_by_generation": longest},
        }
