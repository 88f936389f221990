"""Hints (issue 29 §3, docs/review.md): at a table whose `hints` option is on, a seated player asks
for the best move at their turn (`POST /api/tables/{id}/hint`). The answer comes from the same
rating as the review (`nekobako.review.rate_moment`: the solver, or the search from the player's
own view), computed in the search processes; one hint at a time per person in a process. A table
with hints is never rated (`results.rating_settlement`)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..i18n import Message
from ..review import Moment
from .errors import ApiError
from .hub import Hub
from .requests import path_int, require_user
from .reviews import ITERATIONS

_asking: set[int] = set()  # people whose hint is being computed in this process


def _hub(request: Request) -> Hub:
    return request.app.state.hub


async def post_hint(request: Request) -> JSONResponse:
    user = await require_user(request)
    live = await _hub(request).get_fresh(path_int(request, "table_id"))
    if not live.row.options.get("hints"):
        raise ApiError(409, "conflict", Message("error.hints_off"))
    state = live.state
    if live.row.status != "running" or state is None:
        raise ApiError(409, "conflict", Message("error.hints_off"))
    seat = live.seat_of(user["id"])
    if seat is None:
        raise ApiError(403, "forbidden", Message("error.hint_not_seated"))
    if seat not in state.to_move:
        raise ApiError(409, "conflict", Message("error.hint_not_your_turn"))
    if user["id"] in _asking:
        raise ApiError(429, "quota", Message("error.hint_busy"), {"Retry-After": "2"})
    ply = len(state.history)
    legal = tuple(state.legal_actions(seat))
    moment = Moment(ply, len(state.round_scores()), state.view(seat), legal, 0)
    _asking.add(user["id"])
    try:
        rating = await _hub(request).workers.rate(live.row.game, moment, ITERATIONS, live.row.seed + ply)
    finally:
        _asking.discard(user["id"])
    best = rating.best
    return JSONResponse(
        {"seq": ply, "action": str(legal[best]), "value": rating.values[best], "objective": rating.objective}
    )


routes = [Route("/api/tables/{table_id:id}/hint", post_hint, methods=["POST"])]
