"""Play: an action submitted for a seat (by a person or a bot), and a bot taking over a seat.

A refused action raises `Refusal` before anything is written; an accepted one is committed with
the chance steps that follow it (and the ratings of a game it ends) in one transaction.
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from typing import Any

from ..engine import NekobakoError, format_entry
from ..i18n import Message
from ..store.database import now
from ..store.games import LeaseLost, NoticeRow, Replaced, SeatRow
from .clock import clock_after, decision_seconds, timeouts_allowed
from .errors import ApiError, Refusal
from .live import LiveTable, draw_chance_steps, new_notice
from .results import rating_settlement
from .seat_bots import replacement_level
from .tables import Stale, Tables, retry_stale

log = logging.getLogger("nekobako.server")


class Moves:
    def __init__(self, tables: Tables):
        self.tables = tables

    @retry_stale(lambda: Refusal("unavailable", Message("error.too_busy")))
    async def submit(
        self,
        live: LiveTable,
        seat: int,
        seq: int,
        text: str,
        *,
        person: int | None = None,
        bot_turns: int | None = None,
        by_clock: bool = False,
        lease: int | None = None,
    ) -> None:
        """Apply `text` for `seat` as the answer to position `seq`, then the chance steps that follow.
        Raises `Refusal` (and changes nothing) when the action is stale, illegal or out of turn.
        Who acts is checked under the lock, against the table as it is now, not as it was when
        the action was chosen: `person` (a user id) must still hold the seat; a bot's move
        (`bot_turns`: `live.seat_turns(seat)` when it was chosen) counts only while that bot
        still plays the seat; `by_clock` (the person's time ran out and a bot chose this one
        action for them; the seat stays theirs, the timeout is counted and noticed) only while
        the person is overdue. `lease`: the lease epoch under which a driver (bot, clock) chose
        the action; the commit is refused if this process no longer holds it (`LeaseLost`)."""
        tables = self.tables
        async with live.lock:
            await tables.settle_uncertain(live)
            state, tracker = live.state, live.tracker
            if not live.running or state is None or tracker is None:
                raise Refusal("not_running", Message("error.not_running"))
            _check_actor(live, seat, person=person, bot_turns=bot_turns, by_clock=by_clock)
            stale = tracker.stale_reason(seat, seq, live.row.seq)
            if stale is not None:
                raise Refusal("stale", stale)
            if seat not in state.to_move:
                raise Refusal("not_your_turn", Message("engine.refusal.not_your_turn"))
            game = state.game
            new_state, new_tracker = state.clone(), tracker.copy()
            try:
                action = game.parse_action(text)
                new_state.apply(seat, action)
            except NekobakoError as exc:
                raise Refusal("illegal", exc.message) from None
            seq_after = live.row.seq + 1
            new_tracker.update(new_state, seat, seq_after)
            entries = [format_entry(seat, action), *draw_chance_steps(new_state, new_tracker, live.row.seed, seq_after)]
            row = live.row
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
                    first_seq=live.row.seq,
                    entries=entries,
                    new_notices=notices,
                    state=(new_state, new_tracker),
                    extra=extra,
                    lease=lease,
                )
            except (Stale, LeaseLost):
                raise
            except Exception:
                log.exception("table %s: storing %r failed; reading the table back", live.id, entries)
                await tables.after_failed_commit(live, values["seq"])
        tables.changed(live)

    async def replace_by_bot(self, live: LiveTable, seat: int, reason: Replaced, *, lease: int | None = None) -> None:
        """A bot takes over `seat` for the rest of the game (lock held by the caller). `lease`: the
        clock's (a driver's) change, fenced as in `submit`."""
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
        await self.tables.persist(live, seat_rows=seats, values=values, new_notices=[notice], lease=lease)

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


def _check_actor(live: LiveTable, seat: int, *, person: int | None, bot_turns: int | None, by_clock: bool) -> None:
    """Refuse an action whose chooser no longer acts for `seat` (see `Moves.submit`)."""
    row = live.row.seats[seat]
    if person is not None and (row.kind != "human" or row.user_id != person):
        raise Refusal("spectator", Message("error.ws.spectator"))
    if bot_turns is not None and (row.kind != "bot" or live.seat_turns(seat) != bot_turns):
        raise Refusal("stale", Message("error.seat_changed", seat=seat))
    if by_clock:
        due = live.row.deadlines.get(str(seat))
        if row.kind != "human" or due is None or due > time.time():
            raise Refusal("stale", Message("error.seat_changed", seat=seat))


def _without_missed(clock: dict[str, Any], seat: int) -> dict[str, Any]:
    """The clock with `seat`'s timeouts in a row forgotten."""
    if "missed" not in clock:
        return clock
    return {**clock, "missed": {k: v for k, v in clock["missed"].items() if k != str(seat)}}
