"""What a table's actor costs per command beyond the command's own work, issue 31 (not a test, run
by hand):

    PYTHONPATH=src .venv/bin/python benchmarks/actor_step.py

A command that does nothing, sent to an idle table (`actor.send`: the sender runs the step
itself), to a busy one (`actor.queue`: it waits in the inbox, a task handles it), and, for
comparison, the per-table `asyncio.Lock` the actor replaced taken around the same call. CPU
microseconds per command (`time.process_time`), median of 7 passes of 20,000 commands, the three
ways timed in alternation so all see the same machine.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable
from types import SimpleNamespace
from typing import Any

from nekobako.server import actor
from nekobako.server.live import LiveTable
from nekobako.store.games import new_table_row

PASSES = 7
COMMANDS = 20_000


class Nothing(actor.Command):
    __slots__ = ()

    async def apply(self, tables: Any, live: LiveTable) -> None:
        return None


async def main() -> None:
    tables: Any = SimpleNamespace(closing=False, changed=lambda live: None)
    live = LiveTable(row=new_table_row("catopomp", 2, {}, {"kind": "none"}, 1, 1), users={})
    lock = asyncio.Lock()
    command = Nothing()

    async def idle() -> None:
        for _ in range(COMMANDS):
            await actor.send(tables, live, command)

    async def busy() -> None:  # every command queued at once: one task handles them in turn
        await asyncio.gather(*(actor.queue(tables, live, command) for _ in range(COMMANDS)))

    async def locked() -> None:
        for _ in range(COMMANDS):
            async with lock:
                await command.apply(tables, live)

    ways: dict[str, Callable[[], Awaitable[None]]] = {
        "actor, idle table (the sender runs the step)": idle,
        "actor, busy table (queued, one task)": busy,
        "the old per-table lock": locked,
    }
    times: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(PASSES):
        for name, way in ways.items():
            started = time.process_time()
            await way()
            times[name].append((time.process_time() - started) / COMMANDS * 1e6)
    for name, samples in times.items():
        print(f"{name:48} {statistics.median(samples):6.2f} µs per command")


if __name__ == "__main__":
    asyncio.run(main())
