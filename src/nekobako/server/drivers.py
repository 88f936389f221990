"""The two things that move a table when no person does: bots in seats, and the clock that
hands an overdue person's seat to a bot. One task of each per running table, started by the hub
after a change; both act only through the hub, like a person would."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from typing import TYPE_CHECKING

from .errors import Refusal
from .live import LiveTable

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("nekobako.server")


async def drive_bots(hub: Hub, live: LiveTable) -> None:
    """Let bots in seats move until a person is to move or the game ends. A bot that fails or
    answers something the engine refuses is replaced by a random legal move, so a table never
    waits for a broken bot."""
    failures = 0
    at_random = False
    while live.running and not hub.closing:
        state, seq = live.state, live.row.seq
        assert state is not None
        seat = next((s for s in state.to_move if live.row.seats[s].kind == "bot"), None)
        if seat is None:
            return
        level = "random" if at_random else live.row.seats[seat].bot or "random"
        view, legal = state.view(seat), state.legal_actions(seat)
        rng = random.Random(f"{live.row.seed}:bot:{seat}:{seq}")
        if hub.bot_delay:
            await asyncio.sleep(hub.bot_delay)
        try:
            action = await asyncio.to_thread(hub.bots.choose, live.row.game, level, view, legal, rng)
        except Exception:
            log.exception("bot %s at table %s seat %s failed; playing at random", level, live.id, seat)
            action = rng.choice(list(legal))
        try:
            await hub.submit(live, seat, seq, str(action))
            at_random = False
        except Refusal as refusal:
            if refusal.code == "stale" or live.row.seq != seq:
                continue  # the position moved on meanwhile; look again
            log.error("bot move %r refused at table %s: %s", str(action), live.id, refusal.reason)
            at_random = refusal.code == "illegal"
            failures += 1
            if failures > 10:
                return  # the database is gone; the next change to the table starts again
            await asyncio.sleep(min(5.0, 0.1 * 2**failures))


async def watch_clock(hub: Hub, live: LiveTable) -> None:
    """Replace people whose decision is overdue by a bot."""
    while live.running and live.row.deadlines and not hub.closing:
        live.clock_wake.clear()
        wait = min(live.row.deadlines.values()) - time.time()
        if wait > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(live.clock_wake.wait(), timeout=wait)
            continue
        replaced = False
        async with live.lock:
            stamp = time.time()
            for key, due in sorted(live.row.deadlines.items()):
                seat = int(key)
                if due <= stamp and live.running and live.row.seats[seat].kind == "human":
                    await hub.replace_by_bot(live, seat, "timeout")
                    replaced = True
        if replaced:
            hub.after_change(live)
        else:
            await asyncio.sleep(0.05)  # a due time that no longer concerns a person: look again
