"""`state` messages, built and encoded once per table version and per kind of viewer.

Every connection at the same seat (every spectator, too) that has been sent the same events and
notices, in the same language (notices are worded for the reader), gets the same text, so the view,
the table detail and the JSON encoding are computed once per change for all of them, not once per
connection. A different message format (a delta against
what a viewer already has) adds its own key: anything that decides the text belongs in the key.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import orjson

from .clock import decision_seconds
from .deltas import diff

if TYPE_CHECKING:
    from .live import LiveTable


def encode(message: Any) -> str:
    """Compact JSON, non-ASCII as is (Japanese names stay readable and short). orjson, because
    encoding state messages was a sixth of the event loop's time with the standard library's
    encoder (orjson: a tenth of that, the same text: `tests/server/test_messages.py`)."""
    return orjson.dumps(message, default=_tuple, option=orjson.OPT_NON_STR_KEYS).decode()


def _tuple(value: Any) -> Any:
    """A named tuple (orjson writes plain tuples only) as a list, as the standard library would."""
    if isinstance(value, tuple):
        return list(value)
    raise TypeError(f"{type(value).__name__} is not JSON")


def state_text(
    table: LiveTable, seat: int | None, sent_events: int, sent_notices: int, lang: str = "en"
) -> tuple[str, int, int]:
    """The `state` message for a viewer at `seat` (None: a spectator) reading `lang` who has been
    sent `sent_events` events and `sent_notices` notices; returns it with the new counts."""
    shared, version = table.shared, table.version
    view = shared.part(version, ("view", seat), lambda: _view(table, seat))
    detail = shared.part(version, ("detail", lang), lambda: table.detail(None, lang))
    events = view["events"] if view is not None else []
    notices = shared.part(version, ("notices", seat, lang), lambda: table.notices(seat, lang))

    def build() -> dict[str, Any]:
        return {
            "type": "state",
            "seq": table.row.seq,
            "seat": seat,
            "view": view,
            "events": events[sent_events:],
            "event_index": sent_events,
            "notices": notices[sent_notices:],
            "table": {**detail, "you": seat, "notices": notices},
        }

    body = shared.text(version, ("state", seat, sent_events, sent_notices, lang), build, encode)
    # the clock carries the server's time of sending, so it is spliced in fresh every time
    return f'{body[:-1]},"clock":{encode(clock_json(table))}}}', len(events), len(notices)


def delta_state_text(
    table: LiveTable, seat: int | None, base: dict[str, Any] | None, lang: str = "en"
) -> tuple[str, dict[str, Any]]:
    """For a connection that asked for deltas (`?deltas=1`): a full `state` message when it has
    nothing yet (`base` None: the first message, a `sync`), else a `delta` message against `base`,
    the last message it was sent (docs/protocol.md). Returns the text and the full message now
    held by the client. A full message here has the whole notices list and no `events` slice:
    the view's own `events` and `history` grow by patches."""
    shared, version = table.shared, table.version

    def build_full() -> dict[str, Any]:
        view = shared.part(version, ("view", seat), lambda: _view(table, seat))
        detail = shared.part(version, ("detail", lang), lambda: table.detail(None, lang))
        notices = shared.part(version, ("notices", seat, lang), lambda: table.notices(seat, lang))
        return {
            "type": "state",
            "version": version,
            "seq": table.row.seq,
            "seat": seat,
            "view": view,
            "notices": notices,
            "table": {**detail, "you": seat, "notices": notices},
        }

    full = shared.part(version, ("full", seat, lang), build_full)
    if base is None:
        body = shared.text(version, ("full", seat, lang), lambda: full, encode)
    else:
        # the base is the shared message of its seat and version, so this text is shared too
        body = shared.text(
            version,
            ("delta", seat, lang, base["seat"], base["version"]),
            lambda: {"type": "delta", "base": base["version"], "version": version, "patch": diff(base, full)},
            encode,
        )
    return f'{body[:-1]},"clock":{encode(clock_json(table))}}}', full


def _view(table: LiveTable, seat: int | None) -> dict[str, Any] | None:
    state = table.state
    if state is None or table.row.status not in ("running", "finished"):
        return None
    return state.view(seat)


def clock_json(table: LiveTable) -> dict[str, Any]:
    clock = dict(table.row.clock)
    running = decision_seconds(clock) is not None and table.running
    clock["deadlines"] = dict(table.row.deadlines) if running else {}
    clock["now"] = time.time()
    return clock
