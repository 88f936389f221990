"""Table clocks as data: none, real-time seconds per decision, or turn-based days per decision."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .errors import ApiError

if TYPE_CHECKING:
    from ..store.games import SeatRow
    from .choices import ChoiceTracker

REALTIME_SECONDS = (5, 3600)
TURN_DAYS = (1, 14)
CLOCK_FIELDS = {"none": {"kind"}, "realtime": {"kind", "seconds"}, "turn": {"kind", "days"}}


def parse_clock(raw: Any) -> dict[str, Any]:
    """Validate a clock from the lobby; raises `ApiError` (400) with the reason."""
    if raw is None:
        return {"kind": "none"}
    if not isinstance(raw, dict):
        raise ApiError(400, "bad_request", 'clock must be an object such as {"kind": "none"}')
    kind = raw.get("kind")
    fields = CLOCK_FIELDS.get(kind, {"kind"}) if isinstance(kind, str) else {"kind"}
    extra = set(raw) - fields
    if kind in CLOCK_FIELDS and extra:
        shown = sorted(extra)[0][:40]
        raise ApiError(400, "bad_request", f"a {kind} clock has no field {shown!r}")
    if kind == "none":
        return {"kind": "none"}
    if kind == "realtime":
        return {"kind": "realtime", "seconds": _int_in(raw.get("seconds"), "clock seconds", *REALTIME_SECONDS)}
    if kind == "turn":
        return {"kind": "turn", "days": _int_in(raw.get("days"), "clock days", *TURN_DAYS)}
    raise ApiError(400, "bad_request", "clock kind must be one of: none, realtime, turn")


def _int_in(value: Any, what: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not (low <= value <= high):
        raise ApiError(400, "bad_request", f"{what} must be a whole number from {low} to {high}, not {value!r}")
    return value


def decision_seconds(clock: dict[str, Any]) -> float | None:
    """How long one decision may take, or None without a clock."""
    if clock.get("kind") == "realtime":
        return float(clock["seconds"])
    if clock.get("kind") == "turn":
        return float(clock["days"]) * 86400.0
    return None


def deadlines_after(
    clock: dict[str, Any],
    seats: Sequence[SeatRow],
    kept: dict[str, float],
    state: Any,
    old: ChoiceTracker | None,
    new: ChoiceTracker,
) -> dict[str, float]:
    """Due times of the people to move after a change: `kept` while a seat's choices stand,
    restarted when they change (a bot's seat and a finished game or a chance step have none)."""
    limit = decision_seconds(clock)
    if limit is None or state.is_over() or state.is_chance():
        return {}
    stamp = time.time()
    out = {}
    for seat in state.to_move:
        if seats[seat].kind != "human":
            continue
        key = str(seat)
        due = kept.get(key)
        if due is not None and old is not None and old.since[seat] == new.since[seat]:
            out[key] = due
        else:
            out[key] = stamp + limit
    return out


def extend_lapsed(clock: dict[str, Any], deadlines: dict[str, float]) -> dict[str, float]:
    """Time the server was down does not count: deadlines that passed meanwhile start again."""
    limit = decision_seconds(clock)
    if limit is None or not deadlines:
        return deadlines
    stamp = time.time()
    return {k: (v if v > stamp else stamp + limit) for k, v in deadlines.items()}
