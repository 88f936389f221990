"""Play: an action submitted for a seat (by a person or a bot), and a bot taking over a seat.

A refused action raises `Refusal` before anything is written; an accepted one is committed with
the chance steps that follow it (and the ratings of a game it ends) in one transaction.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from ..engine import NekobakoError, format_entry
from ..store.database import now
from ..store.games import NoticeRow, Replaced, SeatRow
from .clock import deadlines_after
from .errors import Refusal
from .live import LiveTable, draw_chance_steps, new_notice
from .results import rating_settlement
from .seat_bots import replacement_level
from .tables import Tables

log = logging.getLogger("nekobako.server")


class Moves:
    def __init__(self, tables: Tables):
        self.tables = tables

    async def submit(self, live: LiveTable, seat: int, seq: int, text: str) -> None:
        """Apply `text` for `seat` as the answer to position `seq`, then the chance steps that follow.
        Raises `Refusal` (and changes nothing) when the action is stale, illegal or out of turn."""
        tables = self.tables
        async with live.lock:
            await tables.settle_uncertain(live)
            state, tracker = live.state, live.tracker
            if not live.running or state is None or tracker is None:
                raise Refusal("not_running", "the game is not running")
            stale = tracker.stale_reason(seat, seq, live.row.seq)
            if stale is not None:
                raise Refusal("stale", stale)
            if seat not in state.to_move:
                raise Refusal("not_your_turn", f"seat {seat} is not to move now")
            game = state.game
            new_state, new_tracker = state.clone(), tracker.copy()
            try:
                action = game.parse_action(text)
                new_state.apply(seat, action)
            except NekobakoError as exc:
                raise Refusal("illegal", str(exc)) from None
            seq_after = live.row.seq + 1
            new_tracker.update(new_state, seat, seq_after)
            entries = [format_entry(seat, action), *draw_chance_steps(new_state, new_tracker, live.row.seed, seq_after)]
            row = live.row
            values: dict[str, Any] = {
                "seq": row.seq + len(entries),
                "deadlines": deadlines_after(row.clock, row.seats, row.deadlines, new_state, tracker, new_tracker),
            }
            notices: list[NoticeRow] = []
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
                )
            except Exception:
                log.exception("table %s: storing %r failed; reading the table back", live.id, entries)
                await tables.after_failed_commit(live, values["seq"])
        tables.changed(live)

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
        await self.tables.persist(live, seat_rows=seats, values={"deadlines": deadlines}, new_notices=[notice])
