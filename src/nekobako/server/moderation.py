"""Muting and reporting players (issue 32; stored in `store/moderation.py`).

* `GET /api/mutes`, `POST /api/mutes {user}`, `DELETE /api/mutes/{user_id}`: whom the reader muted.
  A muted player's chat lines are not sent to the muter — not live (`chat.may_read` checks each
  connection's `muted`), not in the history a socket or `GET …/chat` gives — at any table, until
  unmuted. Each of the muter's sockets holds the set, loaded when it opens; a change updates the
  sockets of this process at once and those of the others through one signal (`{"k": "mutes"}`).
* `POST /api/tables/{id}/reports {user, reason?}`: a report for the operator with the table's last
  `CONTEXT_LINES` chat lines the reporter could read; `REPORT_RATE` per reporter, one per reported
  player and table. The operator lists them with `nekobako reports` (docs/deploy.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..i18n import Message
from ..store import moderation
from .chat import readable
from .errors import ApiError
from .requests import FieldRefusal, path_int, read_body, require_user
from .wire import MAX_REASON, Mute, Report

if TYPE_CHECKING:
    from .hub import Hub

CONTEXT_LINES = 20
REPORT_RATE = (5, 3600.0)  # reports, seconds


def _hub(request: Request) -> Hub:
    return request.app.state.hub


def set_muted(hub: Hub, user_id: int, muted: frozenset[int]) -> None:
    """The user's sockets on this process read with `muted` from now on."""
    for live in hub.tables.values():
        for conn in live.connections:
            if conn.user is not None and conn.user["id"] == user_id:
                conn.muted = muted


def heard(hub: Hub, message: dict[str, Any]) -> None:
    """Another process changed someone's mutes (`signal_listeners`)."""
    if message.get("k") == "mutes" and isinstance(message.get("u"), int):
        set_muted(hub, message["u"], frozenset(int(i) for i in message.get("m", [])))


def _reason(value: Any) -> None:
    """Why a report's reason does not fit (`wire.Report`): not text, or too long."""
    if not isinstance(value, str):
        raise ApiError(400, "bad_request", Message("error.report.reason"))
    raise ApiError(400, "bad_request", Message("error.report.long", most=MAX_REASON, n=len(value)))


MUTE_REFUSALS: dict[str, FieldRefusal] = {"user": Message("error.mute.user")}
REPORT_REFUSALS: dict[str, FieldRefusal] = {**MUTE_REFUSALS, "reason": _reason}


async def _changed(hub: Hub, user_id: int, muted: frozenset[int]) -> JSONResponse:
    set_muted(hub, user_id, muted)
    hub.send_signal({"k": "mutes", "u": user_id, "m": sorted(muted)})
    return JSONResponse({"muted": await hub.db(moderation.muted_users, user_id)})


async def mutes(request: Request) -> JSONResponse:
    """GET: whom I muted; POST {user}: mute one more."""
    hub = _hub(request)
    user = await require_user(request)
    if request.method == "GET":
        return JSONResponse({"muted": await hub.db(moderation.muted_users, user["id"])})
    target = (await read_body(request, Mute, MUTE_REFUSALS)).user
    if target == user["id"]:
        raise ApiError(400, "bad_request", Message("error.mute.self"))
    try:
        muted = await hub.db(moderation.mute, user["id"], target)
    except moderation.NoSuchUser:
        raise ApiError(404, "not_found", Message("error.mute.nobody")) from None
    except moderation.TooManyMutes:
        raise ApiError(409, "conflict", Message("error.mute.many", most=moderation.MAX_MUTES)) from None
    return await _changed(hub, user["id"], muted)


async def unmute(request: Request) -> JSONResponse:
    hub = _hub(request)
    user = await require_user(request)
    muted = await hub.db(moderation.unmute, user["id"], path_int(request, "user_id"))
    return await _changed(hub, user["id"], muted)


async def report(request: Request) -> JSONResponse:
    """POST {user, reason?}: report a player at this table to the operator."""
    hub = _hub(request)
    user = await require_user(request)
    live = await hub.get_fresh(path_int(request, "table_id"))
    body = await read_body(request, Report, REPORT_REFUSALS)
    target = body.user
    if target == user["id"]:
        raise ApiError(400, "bad_request", Message("error.report.self"))
    reason = body.reason or ""
    reason = " ".join(reason.split())
    try:
        stored = await hub.db(
            moderation.add_report,
            reporter_id=user["id"],
            reported_id=target,
            table_id=live.id,
            reason=reason,
            channels=readable(live, user),
            lines=CONTEXT_LINES,
            rate=REPORT_RATE,
        )
    except moderation.NoSuchUser:
        raise ApiError(409, "conflict", Message("error.mute.nobody")) from None
    except moderation.AlreadyReported:
        raise ApiError(409, "conflict", Message("error.report.again")) from None
    except moderation.TooManyReports as exc:
        message = Message("error.report.rate", count=REPORT_RATE[0], n=int(exc.wait // 60) + 1)
        raise ApiError(429, "rate_limited", message, headers={"Retry-After": str(int(exc.wait) + 1)}) from None
    return JSONResponse({"report": stored}, status_code=201)


routes = [
    Route("/api/mutes", mutes, methods=["GET", "POST"]),
    Route("/api/mutes/{user_id:id}", unmute, methods=["DELETE"]),
    Route("/api/tables/{table_id:id}/reports", report, methods=["POST"]),
]
