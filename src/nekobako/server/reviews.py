"""Reviews of finished games over HTTP (docs/review.md): asked for, computed off the event loop,
stored with the game and served from storage the next time.

* `POST /api/tables/{id}/reviews/{seat}` (logged in): the stored review, or it starts computing
  (202) within the limits per person and per server (`Limits.reviews`, `server_reviews`, counted
  in the database by `store.reviews`, so they hold across server processes).
* `GET /api/tables/{id}/reviews/{seat}`: what is stored: `none`, `running` (with `done` of `total`
  decisions rated: the browser polls it for its progress bar), `done` (with the review), `failed`.

Who may read a review follows the replay: a finished game's replay shows every hand to anyone,
so any seat's review of a finished game may be read by anyone; before the end, nobody's (not even
the player's own: a review names the best move, which would coach a game still being played).
The rating itself sees only the seat's own views (nekobako.review).

The process that begins a review computes it: it replays the record here (quick), hands each
decision to the search processes (`Workers.rate`) and stores the progress after each one.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..i18n import Message
from ..review import Review, decision, method_of, moments
from ..store import reviews as stored
from .errors import ApiError
from .hub import Hub
from .live import LiveTable
from .requests import path_int, require_user

log = logging.getLogger("nekobako.server")

ITERATIONS = 1000
"""Search iterations per card-game decision on the server (fixed: every stored review alike)."""

_running: set[asyncio.Task[None]] = set()  # keeps the tasks alive until they end


def _hub(request: Request) -> Hub:
    return request.app.state.hub


async def _readable(request: Request) -> tuple[LiveTable, int]:
    """The finished table and the seat asked for; 409 before the game is over (as the replay),
    404 for a seat the table does not have."""
    live = await _hub(request).get_fresh(path_int(request, "table_id"))
    seat = path_int(request, "seat")
    if not may_read(live):
        raise ApiError(409, "conflict", Message("error.not_over"))
    if not 0 <= seat < live.row.players:
        raise ApiError(404, "not_found", Message("error.no_such", name="seat"))
    return live, seat


def may_read(live: LiveTable) -> bool:
    """The replay's rule: a finished game is open to everyone, every hand shown."""
    return live.row.status == "finished" and live.state is not None


def _body(row: dict[str, Any] | None) -> dict[str, Any]:
    if row is None:
        return {"status": "none", "done": 0, "total": 0, "review": None}
    if row["status"] == "stale":
        row = {**row, "status": "failed"}
    return row


async def get_review(request: Request) -> JSONResponse:
    live, seat = await _readable(request)
    return JSONResponse(_body(await _hub(request).db(stored.read, live.id, seat)))


async def post_review(request: Request) -> JSONResponse:
    user = await require_user(request)
    live, seat = await _readable(request)
    hub = _hub(request)
    limits = hub.limits
    try:
        found = await hub.db(
            stored.begin, live.id, seat, user["id"], per_user=limits.reviews, per_server=limits.server_reviews
        )
    except stored.ReviewsTooMany as exc:
        if exc.mine is not None:
            raise ApiError(429, "quota", Message("error.review_quota_mine", limit=exc.limit)) from None
        raise ApiError(429, "quota", Message("error.review_quota_server"), {"Retry-After": "30"}) from None
    if found is not None:
        return JSONResponse(_body(found), status_code=200 if found["status"] == "done" else 202)
    record = live.record()
    task = asyncio.get_running_loop().create_task(compute(hub, live.id, seat, record.to_json(), live.row.seed))
    _running.add(task)
    task.add_done_callback(_running.discard)
    return JSONResponse({"status": "running", "done": 0, "total": 0, "review": None}, status_code=202)


async def compute(hub: Hub, table_id: int, seat: int, record: dict[str, Any], seed: int) -> None:
    """Rate every decision in the search processes, storing the progress after each."""
    try:
        game, players, found = await asyncio.to_thread(moments, record, seat)
        exact = method_of(game) == "solver"
        review = Review(game, seat, players, method_of(game), None if exact else ITERATIONS, seed)
        await hub.db(stored.progress, table_id, seat, 0, len(found))
        for done, moment in enumerate(found, 1):
            rating = await hub.workers.rate(game, moment, ITERATIONS, seed)
            review.decisions.append(decision(moment, rating))
            await hub.db(stored.progress, table_id, seat, done, len(found))
        await hub.db(stored.finish, table_id, seat, review.to_json())
    except Exception:
        log.exception("review of table %s seat %s failed", table_id, seat)
        try:
            await hub.db(stored.finish, table_id, seat, None)
        except Exception:
            log.exception("could not mark the review failed")


async def reviews(request: Request) -> JSONResponse:
    return await (post_review(request) if request.method == "POST" else get_review(request))


routes = [Route("/api/tables/{table_id:id}/reviews/{seat:id}", reviews, methods=["GET", "POST"])]
