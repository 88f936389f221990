"""Table clocks as data, and their arithmetic: none; real-time (a time bank per player with an
increment per move); turn-based (days per decision). Running out costs one turn (a bot plays it);
`timeouts` in a row hand the seat to a bot until the player takes it back.

A running clock's state lives in the table's stored `clock` (`banks`: seconds left per seat,
`missed`: timeouts in a row per seat) and `deadlines`, so any process may drive it."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..i18n import Message
from .errors import ApiError

if TYPE_CHECKING:
    from ..store.games import SeatRow
    from .choices import ChoiceTracker

REALTIME_SECONDS = (5, 3600)  # the time bank each player starts with
INCREMENT_SECONDS = (0, 600)  # added to a player's bank after each of their moves
TURN_DAYS = (1, 14)
TIMEOUTS = (1, 10)  # timeouts in a row that hand a seat to a bot
DEFAULT_TIMEOUTS = 3
GRACE_SECONDS = 30  # a real-time bank after a timeout: at most this, at least the increment
CLOCK_FIELDS = {
    "none": {"kind"},
    "realtime": {"kind", "bank", "seconds", "increment", "timeouts"},
    "turn": {"kind", "days", "timeouts"},
}


def parse_clock(raw: Any) -> dict[str, Any]:
    """Validate a clock from the lobby; raises `ApiError` (400) with the reason. A real-time clock
    may name its bank `seconds` (the name it had when it was a limit per decision)."""
    if raw is None:
        return {"kind": "none"}
    if not isinstance(raw, dict):
        raise ApiError(400, "bad_request", Message("error.clock_object"))
    kind = raw.get("kind")
    fields = CLOCK_FIELDS.get(kind, {"kind"}) if isinstance(kind, str) else {"kind"}
    extra = set(raw) - fields
    if isinstance(kind, str) and kind in CLOCK_FIELDS and extra:  # a list or object as kind is no key
        shown = sorted(extra)[0][:40]
        raise ApiError(400, "bad_request", Message("error.clock_field", kind=kind, field=shown))
    if kind == "none":
        return {"kind": "none"}
    timeouts = _int_in(raw.get("timeouts", DEFAULT_TIMEOUTS), "clock timeouts", *TIMEOUTS)
    if kind == "realtime":
        if "bank" in raw and "seconds" in raw:
            raise ApiError(400, "bad_request", Message("error.clock_bank_or_seconds"))
        bank = _int_in(raw.get("bank", raw.get("seconds")), "clock bank", *REALTIME_SECONDS)
        increment = _int_in(raw.get("increment", 0), "clock increment", *INCREMENT_SECONDS)
        return {"kind": "realtime", "bank": bank, "increment": increment, "timeouts": timeouts}
    if kind == "turn":
        days = _int_in(raw.get("days"), "clock days", *TURN_DAYS)
        return {"kind": "turn", "days": days, "timeouts": timeouts}
    raise ApiError(400, "bad_request", Message("error.clock_kind"))


def _int_in(value: Any, what: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not (low <= value <= high):
        message = Message("error.clock_number", what=what, low=low, high=high, value=repr(value))
        raise ApiError(400, "bad_request", message)
    return value


def timeouts_allowed(clock: dict[str, Any]) -> int:
    """Timeouts in a row after which a bot takes the seat for good."""
    return int(clock.get("timeouts", DEFAULT_TIMEOUTS))


def decision_seconds(clock: dict[str, Any], seat: int | None = None) -> float | None:
    """How long `seat`'s next decision may take (its bank, in real time), or None without a clock."""
    if clock.get("kind") == "realtime":
        bank = float(clock.get("bank", clock.get("seconds", 0)))
        return float(clock.get("banks", {}).get(str(seat), bank)) if seat is not None else bank
    if clock.get("kind") == "turn":
        return float(clock["days"]) * 86400.0
    return None


def grace_seconds(clock: dict[str, Any]) -> float:
    """A real-time bank after a timeout: enough for one decision, never a full bank again."""
    bank = float(clock.get("bank", clock.get("seconds", 0)))
    return max(float(clock.get("increment", 0)), min(bank, GRACE_SECONDS))


def clock_after(
    clock: dict[str, Any],
    seats: Sequence[SeatRow],
    kept: dict[str, float],
    state: Any,
    old: ChoiceTracker | None,
    new: ChoiceTracker,
    *,
    actor: int | None = None,
    by_clock: bool = False,
) -> tuple[dict[str, Any], dict[str, float]]:
    """The clock (with each seat's `banks` and `missed` timeouts in a row) and the due times of
    the people to move after a change. `actor` moved (`by_clock`: a bot moved for them because
    their time ran out).

    Real time: a person's bank runs while they are to move; after their move what is left plus
    the increment is their bank, after a timeout the grace. Turn-based: each decision has `days`
    again. A bot's seat, a chance step and a finished game have no due time."""
    kind = clock.get("kind")
    if kind not in ("realtime", "turn"):
        return clock, {}
    stamp = time.time()
    clock = {**clock, "banks": dict(clock.get("banks", {})), "missed": dict(clock.get("missed", {}))}
    if actor is not None and 0 <= actor < len(seats) and seats[actor].kind == "human":
        key = str(actor)
        if kind == "realtime":
            due = kept.get(key)
            left = max(0.0, due - stamp) if due is not None else decision_seconds(clock, actor) or 0.0
            banks = clock["banks"]
            banks[key] = round(grace_seconds(clock) if by_clock else left + float(clock.get("increment", 0)), 3)
        if by_clock:
            clock["missed"][key] = clock["missed"].get(key, 0) + 1
        else:
            clock["missed"].pop(key, None)
    if state.is_over() or state.is_chance():
        return clock, {}
    out = {}
    for seat in state.to_move:
        if seats[seat].kind != "human":
            continue
        key = str(seat)
        due = kept.get(key)
        unchanged = old is not None and old.since[seat] == new.since[seat]
        runs_on = kind == "realtime" and old is not None and seat != actor  # a bank runs across others' moves
        if due is not None and (unchanged or runs_on):
            out[key] = due
        else:
            out[key] = stamp + (decision_seconds(clock, seat) or 0.0)
    return clock, out


def extend_lapsed(clock: dict[str, Any], deadlines: dict[str, float]) -> dict[str, float]:
    """Time the server was down does not count: deadlines that passed meanwhile start again."""
    if decision_seconds(clock) is None or not deadlines:
        return deadlines
    stamp = time.time()
    return {k: (v if v > stamp else stamp + (decision_seconds(clock, int(k)) or 0.0)) for k, v in deadlines.items()}
