"""The two things that move a table when no person does: bots in seats, and the clock that has
a bot play an overdue person's turn (and hands the seat over after too many timeouts in a row).
One task of each per running table, started by the hub after a change; both act only by sending
commands to the table's actor (`moves.BotMove`, `ClockMove`, `TimeOut`), as a person's socket
does; the bot thinks (in a worker) outside the actor, so the table takes other commands meanwhile.

Neither gives up while its table runs: when the database is away they log once, retry with a
growing pause (at most `MAX_BACKOFF` seconds), and log again when they are back. Both stop when
this process no longer holds the table's lease: each action names the lease epoch it was chosen
under, and the commit refuses it once another process claimed the table (`LeaseLost`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from typing import Any

from ..engine import Action
from ..store.games import LeaseLost
from .actor import send
from .clock import timeouts_allowed
from .errors import Refusal
from .live import LiveTable
from .moves import BotMove, ClockMove, TimeOut
from .seat_bots import replacement_level
from .tables import Tables

log = logging.getLogger("nekobako.server")
MAX_BACKOFF = 5.0


def log_if_failed(task: asyncio.Task[Any]) -> None:
    """Done callback: a driver that dies of a bug says so instead of vanishing."""
    if not task.cancelled() and task.exception() is not None:
        log.error("a table task died", exc_info=task.exception())


def backoff(failures: int) -> float:
    return min(MAX_BACKOFF, 0.1 * 2**failures)


async def _bot_action(tables: Tables, live: LiveTable, seat: int, level: str, rng: random.Random) -> Action | str:
    state = live.state
    assert state is not None
    view, legal = state.view(seat), state.legal_actions(seat)
    faults = tables.faults
    if "bot_crash" in faults:
        level = "crash"
    try:
        if level == "crash":
            raise RuntimeError("injected: the bot crashed")
        action: Action | str = await tables.workers.choose(live.row.game, level, view, legal, rng)
    except Exception:
        log.exception("bot %s at table %s seat %s failed; playing at random", level, live.id, seat)
        action = rng.choice(list(legal))
    if "bot_illegal" in faults and level != "random":
        action = "no such move"
    return action


def lease_lost(tables: Tables, live: LiveTable, epoch: int) -> bool:
    """A driver's commit was refused: this process no longer holds the table's lease at `epoch`.
    True when it has claimed it again meanwhile (a later epoch: drive on under that one); else it
    stops driving the table, which another process drives now."""
    held = tables.leases.get(live.id)
    if held is not None and held != epoch:
        return True
    tables.leases.pop(live.id, None)
    log.warning("table %s: another process drives it now; its move from here was refused", live.id)
    return False


async def drive_bots(tables: Tables, live: LiveTable) -> None:
    """Let bots in seats move until a person is to move or the game ends. A bot that fails or
    answers something the engine refuses is replaced by a random legal move, so a table never
    waits for a broken bot. A move counts only if the seat is still that bot's when it is
    committed (its player may take it back meanwhile) and this process still drives the table."""
    failures = 0
    at_random = False
    while live.running and not tables.closing:
        state, seq = live.state, live.row.seq
        assert state is not None
        epoch = tables.leases.get(live.id)
        seat = next((s for s in state.to_move if live.row.seats[s].kind == "bot"), None)
        if seat is None or epoch is None:
            return
        level = "random" if at_random else live.row.seats[seat].bot or "random"
        rng = random.Random(f"{live.row.seed}:bot:{seat}:{seq}")
        turns = live.seat_turns(seat)
        if tables.settings.bot_delay:
            await asyncio.sleep(tables.settings.bot_delay)
        action = await _bot_action(tables, live, seat, level, rng)
        try:
            await tables.faults.hold_bot()
            await send(tables, live, BotMove(seat, seq, str(action), turns, epoch))
        except LeaseLost:
            if lease_lost(tables, live, epoch):
                continue
            return
        except Refusal as refusal:
            if refusal.code == "stale" or live.row.seq != seq:
                continue  # the position moved on meanwhile; look again
            if refusal.code == "illegal":
                log.error("bot move %r refused at table %s: %s; moving at random", str(action), live.id, refusal.reason)
                at_random = True
                continue
            if failures == 0:
                log.warning("table %s: bots wait for the database (%s)", live.id, refusal.reason)
            failures += 1
            await asyncio.sleep(backoff(failures))
            continue
        finally:
            tables.faults.bot_answered()
        if failures:
            log.warning("table %s: bots move again after %s failed attempts", live.id, failures)
        failures, at_random = 0, False


async def watch_clock(tables: Tables, live: LiveTable) -> None:
    """When a person's decision is overdue, a bot plays that one turn for them; the timeout that
    reaches the clock's `timeouts` in a row hands the seat to the bot instead."""
    failures = 0
    while live.running and live.row.deadlines and not tables.closing:
        live.clock_wake.clear()
        wait = min(live.row.deadlines.values()) - time.time()
        if wait > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(live.clock_wake.wait(), timeout=wait)
            continue
        epoch = tables.leases.get(live.id)
        if epoch is None:
            return
        try:
            acted = await _play_overdue(tables, live, epoch)
        except LeaseLost:
            if lease_lost(tables, live, epoch):
                continue
            return
        except Exception as exc:
            if failures == 0:
                log.warning("table %s: the clock waits for the database (%s)", live.id, exc)
            failures += 1
            await asyncio.sleep(backoff(failures))
            continue
        if failures:
            log.warning("table %s: the clock runs again after %s failed attempts", live.id, failures)
            failures = 0
        if not acted:
            await asyncio.sleep(0.05)  # a due time that no longer concerns a person: look again


async def _play_overdue(tables: Tables, live: LiveTable, epoch: int) -> bool:
    """Act for the first overdue person: replace them (too many timeouts in a row) or play their
    turn, under lease `epoch`. False when nobody is overdue any more (they moved meanwhile)."""
    stamp = time.time()
    overdue = [
        int(key)
        for key, due in sorted(live.row.deadlines.items())
        if due <= stamp and live.running and live.row.seats[int(key)].kind == "human"
    ]
    if not overdue:
        return False
    seat, seq, clock = overdue[0], live.row.seq, live.row.clock
    if clock.get("missed", {}).get(str(seat), 0) + 1 >= timeouts_allowed(clock):
        await send(tables, live, TimeOut(seat, seq, epoch))
        return True
    rng = random.Random(f"{live.row.seed}:clock:{seat}:{seq}")
    for level in (replacement_level(live.row.game), "random"):  # a bot the engine refuses: at random
        action = await _bot_action(tables, live, seat, level, rng)
        try:
            await tables.faults.hold_bot()
            await send(tables, live, ClockMove(seat, seq, str(action), epoch))
        except Refusal as refusal:
            if refusal.code in ("stale", "not_your_turn", "not_running") or live.row.seq != seq:
                return True  # the person (or the game) moved meanwhile: look again
            if refusal.code != "illegal":
                raise
            log.error("clock's bot move %r refused at table %s: %s", str(action), live.id, refusal.reason)
            continue
        finally:
            tables.faults.bot_answered()
        return True
    return True
