"""Play, as commands to a table's actor (`actor`): an action for a seat (by a person, a bot, or a
bot for a person whose time ran out), a bot taking over a seat, its person taking it back.

A refused action raises `Refusal` before anything is written; an accepted one is committed with
the chance steps that follow it (and the ratings of a game it ends) in one transaction.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from ..engine import NekobakoError, format_entry
from ..i18n import Message
from ..store.database import now
from ..store.games import LeaseLost, NoticeRow, Replaced, SeatRow
from .actor import Command, Request
from .clock import clock_after, decision_seconds, timeouts_allowed
from .errors import ApiError, Refusal
from .live import LiveTable, draw_chance_steps, new_notice
from .results import rating_settlement
from .seat_bots import replacement_level
from .tables import Stale, Tables

log = logging.getLogger("nekobako.server")


@dataclass(frozen=True, slots=True)
class Move(Command):
    """An action (`text`) for `seat` as the answer to position `seq`, then the chance steps that
    follow. Refused (nothing changes) when the action is stale, illegal or out of turn, or when
    its chooser no longer acts for the seat (`check_actor`): checked in the actor, against the
    table as it is now, not as it was when the action was chosen."""

    seat: int
    seq: int
    text: str

    by_clock: ClassVar[bool] = False

    def check_actor(self, live: LiveTable) -> None:
        """Refuse the move when whoever chose it no longer acts for the seat."""

    def lease(self) -> int | None:
        """The lease epoch a driver (bot, clock) chose the action under: the commit is refused
        (`LeaseLost`) once this process no longer holds it. None for a person's move."""
        return None

    async def apply(self, tables: Tables, live: LiveTable) -> None:
        seat, by_clock = self.seat, self.by_clock
        state, tracker = live.state, live.tracker
        if not live.running or state is None or tracker is None:
            raise Refusal("not_running", Message("error.not_running"))
        self.check_actor(live)
        stale = tracker.stale_reason(seat, self.seq, live.row.seq)
        if stale is not None:
            raise Refusal("stale", stale)
        if seat not in state.to_move:
            raise Refusal("not_your_turn", Message("engine.refusal.not_your_turn"))
        new_state, new_tracker = state.clone(), tracker.copy()
        try:
            action = state.game.parse_action(self.text)
            new_state.apply(seat, action)
        except NekobakoError as exc:
            raise Refusal("illegal", exc.message) from None
        row = live.row
        seq_after = row.seq + 1
        new_tracker.update(new_state, seat, seq_after)
        entries = [format_entry(seat, action), *draw_chance_steps(new_state, new_tracker, row.seed, seq_after)]
        clock, deadlines = clock_after(
            row.clock, row.seats, row.deadlines, new_state, tracker, new_tracker, actor=seat, by_clock=by_clock
        )
        values: dict[str, Any] = {"seq": row.seq + len(entries), "deadlines": deadlines, "clock": clock}
        notices: list[NoticeRow] = []
        if by_clock:
            data = {
                "name": live.user_name(row.seats[seat].user_id),
                "bot": replacement_level(row.game),
                "count": clock["missed"].get(str(seat), 1),
                "limit": timeouts_allowed(clock),
            }
            notices.append(new_notice("timeout", seat, row.seq, data))
        extra = None
        if new_state.is_over():
            values.update(status="finished", finished_at=now(), deadlines={})
            notices.append(new_notice("finished", None, values["seq"], {}))
            extra = rating_settlement(live, new_state)
        try:
            await tables.persist(
                live,
                values=values,
                first_seq=row.seq,
                entries=entries,
                new_notices=notices,
                state=(new_state, new_tracker),
                extra=extra,
                lease=self.lease(),
            )
        except (Stale, LeaseLost):
            raise
        except Exception:
            log.exception("table %s: storing %r failed; reading the table back", live.id, entries)
            await tables.after_failed_commit(live, values["seq"])


@dataclass(frozen=True, slots=True)
class PersonMove(Move):
    """A person's move from their socket: `person` (a user id) must still hold the seat."""

    person: int | None

    def check_actor(self, live: LiveTable) -> None:
        row = live.row.seats[self.seat]
        if self.person is not None and (row.kind != "human" or row.user_id != self.person):
            raise Refusal("spectator", Message("error.ws.spectator"))


@dataclass(frozen=True, slots=True)
class BotMove(Move):
    """A bot's move (`drivers`): it counts only while that bot still plays the seat (`turns`:
    `live.seat_turns(seat)` when it was chosen; its person may have taken the seat back)."""

    turns: int
    epoch: int

    def check_actor(self, live: LiveTable) -> None:
        row = live.row.seats[self.seat]
        if row.kind != "bot" or live.seat_turns(self.seat) != self.turns:
            raise Refusal("stale", Message("error.seat_changed", seat=self.seat))

    def lease(self) -> int | None:
        return self.epoch


@dataclass(frozen=True, slots=True)
class ClockMove(Move):
    """A person's time ran out and a bot chose this one action for them (`drivers`): the seat
    stays theirs, the timeout is counted and noticed; only while the person is overdue."""

    epoch: int

    by_clock: ClassVar[bool] = True

    def check_actor(self, live: LiveTable) -> None:
        row = live.row.seats[self.seat]
        due = live.row.deadlines.get(str(self.seat))
        if row.kind != "human" or due is None or due > time.time():
            raise Refusal("stale", Message("error.seat_changed", seat=self.seat))

    def lease(self) -> int | None:
        return self.epoch


@dataclass(frozen=True, slots=True)
class TimeOut(Command):
    """The person at `seat` ran out of time once too often: a bot takes the seat, if they are
    still overdue at position `seq` (taking the seat back gives a new due time)."""

    seat: int
    seq: int
    epoch: int

    async def apply(self, tables: Tables, live: LiveTable) -> None:
        seat = self.seat
        overdue = live.row.deadlines.get(str(seat), float("inf")) <= time.time()
        if live.running and live.row.seats[seat].kind == "human" and live.row.seq == self.seq and overdue:
            await replace_by_bot(tables, live, seat, "timeout", lease=self.epoch)


@dataclass(frozen=True, slots=True)
class Reclaim(Request):
    """A person a bot replaced (they left, or ran out of time too often) takes their seat back;
    their clock starts again with what their bank holds."""

    user: dict[str, Any]

    async def apply(self, tables: Tables, live: LiveTable) -> None:
        user = self.user
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
        await tables.persist(live, seat_rows=seats, values=values, new_notices=[notice])


async def replace_by_bot(
    tables: Tables, live: LiveTable, seat: int, reason: Replaced, *, lease: int | None = None
) -> None:
    """A bot takes over `seat` for the rest of the game (in the actor: `TimeOut`, `rooms.Leave`).
    `lease`: the clock's (a driver's) change, fenced as a driver's move."""
    level = replacement_level(live.row.game)
    seats = [replace(s) for s in live.row.seats]
    old = seats[seat]
    seats[seat] = SeatRow(seat, "bot", old.user_id, level, reason)
    name = live.user_name(old.user_id)
    notice = new_notice("replaced", seat, live.row.seq, {"reason": reason, "name": name, "bot": level})
    deadlines = {k: v for k, v in live.row.deadlines.items() if k != str(seat)}
    clock = _without_missed(live.row.clock, seat)
    values = {"deadlines": deadlines, "clock": clock}
    await tables.persist(live, seat_rows=seats, values=values, new_notices=[notice], lease=lease)


def _without_missed(clock: dict[str, Any], seat: int) -> dict[str, Any]:
    """The clock with `seat`'s timeouts in a row forgotten."""
    if "missed" not in clock:
        return clock
    return {**clock, "missed": {k: v for k, v in clock["missed"].items() if k != str(seat)}}
