"""What a finished game settles: each seat's place, and the ratings change committed with the
game's last action."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..engine import parse_entry
from ..store import ratings
from .elo import elo_update, last_for_replaced, placements
from .live import LiveTable


def rating_settlement(live: LiveTable, state: Any) -> Callable[[Any], None] | None:
    """The ratings change of a finished game, to run inside the game's last transaction (None
    when fewer than two registered players sat at the table, or the table offered hints: a game
    played with the best move on request is never rated)."""
    if live.row.options.get("hints"):
        return None
    seat_users = {
        s.seat: s.user_id
        for s in live.row.seats
        if s.user_id is not None and not live.users.get(s.user_id, {}).get("guest", True)
    }
    if len(seat_users) < 2:
        return None
    places = final_places(live, state)
    # someone sat down and left without playing: only those who left lose, nobody gains
    only = None if everyone_played(live) else {s.seat for s in live.row.seats if s.replaced is not None}

    def compute(before: dict[int, float]) -> dict[int, float]:
        after = elo_update(before, {seat: places[seat] for seat in before})
        return after if only is None else {seat: after[seat] for seat in only if seat in after}

    return lambda conn: ratings.settle_ratings(conn, live.id, live.row.game, seat_users, compute)


def everyone_played(live: LiveTable) -> bool:
    """Did every person who left (or ran out of time) make a move of their own before a bot took
    over? One who joined and left at once proves nothing about anyone, so nobody gains from it.
    (People still seated at the end played, even if the game ended before their turn.)"""
    replaced_at = {n.seat: n.seq for n in live.row.notices if n.kind == "replaced"}
    for seat in live.row.seats:
        if seat.user_id is None or seat.replaced is None:
            continue
        until = replaced_at.get(seat.seat, len(live.entries))
        if not any(parse_entry(entry)[0] == seat.seat for entry in live.entries[:until]):
            return False
    return True


def final_places(live: LiveTable, state: Any) -> list[int]:
    """Placement per seat for results and ratings: the seats a bot took over (the player left or ran
    out of time) share the last place; the others keep their order from the result, ranked from 1."""
    replaced = {s.seat for s in live.row.seats if s.replaced is not None}
    return last_for_replaced(placements(state.scores(), state.winners()), replaced)
