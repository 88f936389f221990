"""Where blocking work runs, so that no kind of work waits behind another:

* database calls: their own threads (short, I/O bound);
* password hashing: a small thread pool with a bounded queue (argon2 releases the interpreter
  lock, but is slow on purpose; past the queue a request is told to come back, not queued);
* bot searches (`ismcts`, `optimal`): separate processes, because a search holds the interpreter
  lock for its whole budget and would otherwise slow every table on the server.

Quick bots (random, greedy) answer in about a tenth of a millisecond and run on the event loop:
handing each decision to a thread cost more than the decision (the thread pool's hand-off was
7 % of the loop's time at 100 tables), and a thread would hold the interpreter lock all the same.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from ..engine import Action
from ..i18n import Message
from .errors import ApiError
from .seat_bots import SEARCHING_LEVELS, SeatBots
from .settings import Settings

log = logging.getLogger("nekobako.server")
T = TypeVar("T")
DATABASE_THREADS = 8
HASH_QUEUE_PER_THREAD = 8

_process_bots: SeatBots | None = None  # one per search process


def _search(game: str, level: str, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
    """Runs in a search process; the bot objects stay there between moves."""
    global _process_bots
    if _process_bots is None:
        _process_bots = SeatBots()
    return _process_bots.choose(game, level, view, legal, rng)


def _rate(game: str, moment: Any, iterations: int, seed: int) -> Any:
    """Runs in a search process: one decision of a review (nekobako.review)."""
    from ..review import rate_moment

    return rate_moment(game, moment, iterations, seed)


_warmed: dict[str, Any] = {}  # what `warm_up` did in this search process


def _start_search_process(parent: int, warm: bool) -> None:
    """Runs first in a search process: leave with the server (`_exit_with`), then load the
    compiled search (bots/warm.py) before taking any move, so the first move is not late."""
    _exit_with(parent)
    if warm:
        from ..bots.warm import warm_up

        _warmed.update(warm_up())


def _ready() -> dict[str, Any]:
    """A search process's warm-up report (submitted once per process at the server's start)."""
    return {"pid": os.getpid(), **_warmed}


def _exit_with(parent: int) -> None:
    """Runs first in a search process: it leaves as soon as the server that started it is gone
    (stopped, killed or crashed), instead of finishing searches nobody will read."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


class Workers:
    def __init__(self, settings: Settings):
        self.settings = settings
        self.database = ThreadPoolExecutor(DATABASE_THREADS, thread_name_prefix="nekobako-db")
        self.hashing = ThreadPoolExecutor(settings.hash_threads, thread_name_prefix="nekobako-hash")
        self._hash_slots = asyncio.Semaphore(settings.hash_threads * HASH_QUEUE_PER_THREAD)
        self._searches: ProcessPoolExecutor | None = None
        self._local_bots = SeatBots()
        self.warm_up: dict[str, Any] | None = None  # the search processes' warm-up, once all are ready

    @staticmethod
    async def _run(pool: Executor, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(pool, functools.partial(fn, *args, **kwargs))

    async def db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return await self._run(self.database, fn, *args, **kwargs)

    async def hash(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a password hash or check; 503 when too many are waiting already."""
        if self._hash_slots.locked():
            message = Message("error.busy_hashing")
            raise ApiError(503, "busy", message, {"Retry-After": "2"})
        async with self._hash_slots:
            return await self._run(self.hashing, fn, *args)

    async def choose(
        self, game: str, level: str, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        """A bot's move: searches in a process, quick bots here and now."""
        if level not in SEARCHING_LEVELS:
            return self._local_bots.choose(game, level, view, legal, rng)
        pool = self._search_pool()
        try:
            return await asyncio.wrap_future(pool.submit(_search, game, level, dict(view), list(legal), rng))
        except BrokenProcessPool:
            log.error("a bot search process died; starting a new pool")
            if self._searches is pool:
                self._searches = None
            raise

    async def rate(self, game: str, moment: Any, iterations: int, seed: int) -> Any:
        """One decision of a review, rated in a search process (the solver's too: it is exact but
        builds tables the first time)."""
        pool = self._search_pool()
        try:
            return await asyncio.wrap_future(pool.submit(_rate, game, moment, iterations, seed))
        except BrokenProcessPool:
            log.error("a review's search process died; starting a new pool")
            if self._searches is pool:
                self._searches = None
            raise

    def _search_pool(self) -> ProcessPoolExecutor:
        if self._searches is None:
            # spawn: forking a process that runs threads and an event loop is not safe
            context = multiprocessing.get_context("spawn")
            self._searches = ProcessPoolExecutor(
                self.settings.bot_processes,
                mp_context=context,
                initializer=_start_search_process,
                initargs=(os.getpid(), self.settings.warm_bots),
            )
        return self._searches

    def start_searches(self) -> None:
        """At the server's start: start every search process now, each loading the compiled search
        as it starts (`settings.warm_bots`); once all are ready, `warm_up` says so (the health
        endpoint shows it). The server answers meanwhile."""
        if not self.settings.warm_bots:
            return
        pool = self._search_pool()
        started = time.perf_counter()
        futures = [pool.submit(_ready) for _ in range(self.settings.bot_processes)]
        left = len(futures)
        lock = threading.Lock()

        def done(future: Any) -> None:
            nonlocal left
            with lock:
                left -= 1
                if left:
                    return
            try:
                reports = [f.result() for f in futures]
            except Exception as error:  # a process that died is replaced at the next search
                log.warning("bot search processes did not start: %s", error)
                return
            pids = sorted({r["pid"] for r in reports})
            seconds = round(time.perf_counter() - started, 3)
            self.warm_up = {"processes": len(pids), "seconds": seconds, "games": reports[0].get("games") or []}
            log.info("bot search processes warm: %s", self.warm_up)

        for future in futures:
            future.add_done_callback(done)

    def close(self) -> None:
        if self._searches is not None:
            self._searches.shutdown(wait=False, cancel_futures=True)
        for pool in (self.hashing, self.database):
            pool.shutdown(wait=False, cancel_futures=True)
