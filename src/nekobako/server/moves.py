"""Play: an action submitted for a seat (by a person or a bot), and a bot taking over a seat.

A refused action raises `Refusal` before anything is written; an accepted one is committed with
the chance steps that follow it (and the ratings of a game it ends) in one transaction.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..engine import Action, NekobakoError, State, format_entry
from ..i18n import Message
from ..store.database import now
from ..store.games import NoticeRow, Replaced, SeatRow
from .choices import ChoiceTracker
from .clock import clock_after, decision_seconds, timeouts_allowed
from .errors import ApiError, Refusal
from .live import LiveTable, draw_chance_steps, new_notice
from .results import rating_settlement
from .seat_bots import SEARCHING_LEVELS, replacement_level
from .tables import Passing, Stale, Tables, retry_stale

log = logging.getLogger("nekobako.server")


MAX_CHAIN = 8  # quick bots' moves committed with the move before them, at most


@dataclass
class _Base:
    """The position a step starts from: the state and what the table row says of it."""

    state: State
    tracker: ChoiceTracker
    seq: int
    clock: dict[str, Any]
    deadlines: dict[str, float]

    @classmethod
    def of(cls, live: LiveTable) -> _Base:
        assert live.state is not None and live.tracker is not None
        row = live.row
        return cls(live.state, live.tracker, row.seq, row.clock, row.deadlines)

    @classmethod
    def after(cls, step: _Step) -> _Base:
        values = step.values
        return cls(step.state, step.tracker, values["seq"], values["clock"], values["deadlines"])


@dataclass
class _Step:
    """One action and the chance steps after it: the position it leads to and what is stored."""

    state: State
    tracker: ChoiceTracker
    entries: list[str]
    values: dict[str, Any]
    notices: list[NoticeRow]
    extra: Callable[[Any], None] | None

    def passing(self) -> Passing:
        return Passing(self.values, self.entries, self.notices, (self.state, self.tracker))


class Moves:
    def __init__(self, tables: Tables):
        self.tables = tables
        # does this process drive the table's bots (holds its lease)? Set by the hub; None: never chain
        self.chains: Callable[[LiveTable], bool] | None = None

    @retry_stale(lambda: Refusal("unavailable", Message("error.too_busy")))
    async def submit(self, live: LiveTable, seat: int, seq: int, text: str, *, by_clock: bool = False) -> None:
        """Apply `text` for `seat` as the answer to position `seq`, then the chance steps that follow.
        Raises `Refusal` (and changes nothing) when the action is stale, illegal or out of turn.
        `by_clock`: the person's time ran out and a bot chose this one action for them (their
        seat stays theirs; the timeout is counted and noticed).

        Quick bots to move next (`chains`) move at once and go into the same transaction: one
        commit for a person's move and the bots' answers; each position is still shown on its own
        (`Tables.persist`'s `passing`)."""
        tables = self.tables
        async with live.lock:
            await tables.settle_uncertain(live)
            state, tracker = live.state, live.tracker
            if not live.running or state is None or tracker is None:
                raise Refusal("not_running", Message("error.not_running"))
            stale = tracker.stale_reason(seat, seq, live.row.seq)
            if stale is not None:
                raise Refusal("stale", stale)
            if seat not in state.to_move:
                raise Refusal("not_your_turn", Message("engine.refusal.not_your_turn"))
            try:
                action = state.game.parse_action(text)
                first = self._step(live, _Base.of(live), seat, action, by_clock=by_clock)
            except NekobakoError as exc:
                raise Refusal("illegal", exc.message) from None
            steps = [first, *await self._bots_after(live, first)]
            last = steps[-1]
            values = {key: value for step in steps for key, value in step.values.items()}
            try:
                await tables.persist(
                    live,
                    values=values,
                    first_seq=live.row.seq,
                    entries=[entry for step in steps for entry in step.entries],
                    new_notices=[notice for step in steps for notice in step.notices],
                    state=(last.state, last.tracker),
                    extra=last.extra,
                    passing=[step.passing() for step in steps[:-1]],
                )
            except Stale:
                raise
            except Exception:
                log.exception("table %s: storing %s actions failed; reading the table back", live.id, len(steps))
                await tables.after_failed_commit(live, first.values["seq"])
        tables.changed(live)

    def _step(self, live: LiveTable, base: _Base, seat: int, action: Action, *, by_clock: bool = False) -> _Step:
        """`action` for `seat` applied to a copy of `base`, with the chance steps that follow, the
        clock and the notices; raises `NekobakoError` when the engine refuses it."""
        row = live.row
        new_state, new_tracker = base.state.clone(), base.tracker.copy()
        new_state.apply(seat, action)
        seq_after = base.seq + 1
        new_tracker.update(new_state, seat, seq_after)
        entries = [format_entry(seat, action), *draw_chance_steps(new_state, new_tracker, row.seed, seq_after)]
        clock, deadlines = clock_after(
            base.clock, row.seats, base.deadlines, new_state, base.tracker, new_tracker, actor=seat, by_clock=by_clock
        )
        values: dict[str, Any] = {"seq": base.seq + len(entries), "deadlines": deadlines, "clock": clock}
        notices: list[NoticeRow] = []
        if by_clock:
            data = {
                "name": live.user_name(row.seats[seat].user_id),
                "bot": replacement_level(row.game),
                "count": clock["missed"].get(str(seat), 1),
                "limit": timeouts_allowed(clock),
            }
            notices.append(new_notice("timeout", seat, base.seq, data))
        extra = None
        if new_state.is_over():
            values.update(status="finished", finished_at=now(), deadlines={})
            notices.append(new_notice("finished", None, values["seq"], {}))
            extra = rating_settlement(live, new_state)
        return _Step(new_state, new_tracker, entries, values, notices, extra)

    async def _bots_after(self, live: LiveTable, step: _Step) -> list[_Step]:
        """The moves of the quick bots to move after `step`, chosen now (`MAX_CHAIN` at most):
        only where this process drives the table's bots (`chains`) and bots do not pause. A bot
        that fails or is refused ends the chain; `drivers.drive_bots` then handles it."""
        tables = self.tables
        if self.chains is None or tables.settings.bot_delay or not self.chains(live):
            return []
        if "bot_crash" in tables.faults or "bot_illegal" in tables.faults:
            return []  # those faults test drive_bots' handling of a bot that fails
        steps: list[_Step] = []
        while len(steps) < MAX_CHAIN and not step.state.is_over():
            seat = next((s for s in step.state.to_move if live.row.seats[s].kind == "bot"), None)
            if seat is None:
                break
            level = live.row.seats[seat].bot or "random"
            if level in SEARCHING_LEVELS:
                break
            base = _Base.after(step)
            rng = random.Random(f"{live.row.seed}:bot:{seat}:{base.seq}")  # as drive_bots would
            try:
                view, legal = step.state.view(seat), step.state.legal_actions(seat)
                action = await tables.workers.choose(live.row.game, level, view, legal, rng)
                step = self._step(live, base, seat, action)
            except Exception:
                break
            steps.append(step)
        return steps

    async def replace_by_bot(self, live: LiveTable, seat: int, reason: Replaced) -> None:
        """A bot takes over `seat` for the rest of the game (lock held by the caller)."""
        await self.tables.settle_uncertain(live)
        level = replacement_level(live.row.game)
        seats = [replace(s) for s in live.row.seats]
        old = seats[seat]
        seats[seat] = SeatRow(seat, "bot", old.user_id, level, reason)
        name = live.user_name(old.user_id)
        notice = new_notice("replaced", seat, live.row.seq, {"reason": reason, "name": name, "bot": level})
        deadlines = {k: v for k, v in live.row.deadlines.items() if k != str(seat)}
        clock = _without_missed(live.row.clock, seat)
        values = {"deadlines": deadlines, "clock": clock}
        await self.tables.persist(live, seat_rows=seats, values=values, new_notices=[notice])

    @retry_stale(lambda: ApiError(503, "busy", Message("error.too_fast")))
    async def reclaim(self, live: LiveTable, user: dict[str, Any]) -> None:
        """A person a bot replaced (they left, or ran out of time too often) takes their seat back;
        their clock starts again with what their bank holds."""
        async with live.lock:
            await self.tables.settle_uncertain(live)
            if not live.running or live.state is None:
                raise ApiError(409, "conflict", Message("error.not_running"))
            seat = next((s.seat for s in live.row.seats if s.user_id == user["id"] and s.kind == "bot"), None)
            if seat is None:
                raise ApiError(409, "conflict", Message("error.no_bot_seat"))
            seats = [replace(s) for s in live.row.seats]
            seats[seat] = SeatRow(seat, "human", user["id"])
            clock = _without_missed(live.row.clock, seat)
            deadlines = dict(live.row.deadlines)
            limit = decision_seconds(clock, seat)
            if limit is not None and seat in live.state.to_move:
                deadlines[str(seat)] = time.time() + limit
            notice = new_notice("returned", seat, live.row.seq, {"name": live.user_name(user["id"])})
            values = {"deadlines": deadlines, "clock": clock}
            await self.tables.persist(live, seat_rows=seats, values=values, new_notices=[notice])
        self.tables.changed(live)


def _without_missed(clock: dict[str, Any], seat: int) -> dict[str, Any]:
    """The clock with `seat`'s timeouts in a row forgotten."""
    if "missed" not in clock:
        return clock
    return {**clock, "missed": {k: v for k, v in clock["missed"].items() if k != str(seat)}}
