"""How many bot moves a process works on at once.

A quick bot moves as soon as a person has (the default `bot_delay` aside), so each person's move
starts two or three bot moves, and on a busy process hundreds of them wait on the event loop at
once: a person's move, and the message that answers it, queued behind all of them. A few turns at
a time (`LIMIT`) keep that queue short; the other bots wait here, in order, for a turn. Holding
the turn until the move is committed also keeps each group commit small, so a person's commit
waits less. Measured with `benchmarks/load.py` at 500 tables and 2 processes (docs/server.md,
"Fourth pass"): p99 of a person's move 200–311 ms without turns, 79–103 ms with 8, worse with 16
(the queue again) and with 4 (bots waiting on commits held back the play).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import time
from collections.abc import AsyncIterator
from typing import Any

from .quantiles import quantiles_ms

LIMIT = 8
WAITS_KEPT = 1000


class BotTurns:
    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit
        self._slots = asyncio.Semaphore(limit)
        self.busy = 0
        self.waiting = 0
        self.most = 0  # the most turns taken at once since start-up
        self.waits: collections.deque[float] = collections.deque(maxlen=WAITS_KEPT)

    @contextlib.asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        """A bot's move from choosing to committed, once a turn is free."""
        started = time.perf_counter()
        self.waiting += 1
        try:
            await self._slots.acquire()
        finally:
            self.waiting -= 1
        self.waits.append(time.perf_counter() - started)
        self.busy += 1
        self.most = max(self.most, self.busy)
        try:
            yield
        finally:
            self.busy -= 1
            self._slots.release()

    def report(self) -> dict[str, Any]:
        """For the health endpoint: how long the last bot moves waited for a turn (how far the
        process is behind its bots), and how many wait now."""
        return {
            "limit": self.limit,
            "busy": self.busy,
            "waiting": self.waiting,
            "most_at_once": self.most,
            "wait_ms": quantiles_ms(self.waits),
        }
