"""Rematch: at the end of a game one click offers the same seats and options to everyone who
played; the new table is created (same game, seats, options and clock, a new seed; the one who
offered hosts it) and started when the last of them accepts. One decline ends the offer; an offer
not answered by everyone within `Limits.rematch_seconds` (10 minutes) lapses, and anyone who
played may offer again (`store.rematch`).

`GET|POST /api/tables/{id}/rematch`, `POST /api/tables/{id}/rematch/decline`; every change is
also sent to the finished table's sockets as `{"type": "rematch", "rematch": Rematch}`.
"""

from __future__ import annotations

import logging
import secrets
from functools import partial
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..i18n import Message
from ..store import quotas, rematch
from ..store.games import SeatRow
from .errors import ApiError
from .requests import path_int, require_user
from .seat_bots import STRONG_LEVELS
from .settings import Limits

if TYPE_CHECKING:
    from .hub import Hub
    from .live import LiveTable

log = logging.getLogger("nekobako.server")
CLOCK_STATE = ("banks", "missed")  # a running clock's state, not its settings


def players_of(live: LiveTable) -> list[int]:
    """Everyone who played: the people who held a seat (a bot may have finished for them)."""
    return sorted({s.user_id for s in live.row.seats if s.user_id is not None})


def same_seats(live: LiveTable) -> list[SeatRow]:
    """The seats again: each person where they sat, each bot of the table where it sat."""
    return [
        SeatRow(s.seat, "human", s.user_id) if s.user_id is not None else SeatRow(s.seat, "bot", bot=s.bot)
        for s in live.row.seats
    ]


def rematch_json(live: LiveTable, offer: dict[str, Any] | None) -> dict[str, Any] | None:
    """The offer with names: who offered, who accepted, who is still to answer."""
    if offer is None or offer["offered_by"] is None:
        return None
    users = live.users
    accepted = offer["accepted"]
    return {
        **offer,
        "offered_by": users.get(offer["offered_by"]),
        "accepted": [users.get(u) for u in accepted],
        "waiting": [users.get(u) for u in players_of(live) if u not in accepted],
        "declined_by": users.get(offer["declined_by"]) if offer["declined_by"] is not None else None,
    }


async def _finished_table(request: Request) -> tuple[Hub, LiveTable]:
    hub: Hub = request.app.state.hub
    live = await hub.get_fresh(path_int(request, "table_id"))
    if live.row.status != "finished":
        raise ApiError(409, "conflict", Message("error.rematch_over"))
    return hub, live


async def show(request: Request) -> JSONResponse:
    hub, live = await _finished_table(request)
    offer = await hub.db(rematch.offer, live.id, hub.limits.rematch_seconds)
    return JSONResponse({"rematch": rematch_json(live, offer)})


async def _answer(request: Request, accept: bool) -> JSONResponse:
    user = await require_user(request)
    hub, live = await _finished_table(request)
    players = players_of(live)
    if user["id"] not in players:
        raise ApiError(403, "forbidden", Message("error.rematch_players"))
    row = live.row
    new_table = {
        "game": row.game,
        "players": row.players,
        "options": row.options,
        "clock": {k: v for k, v in row.clock.items() if k not in CLOCK_STATE},
        "seed": secrets.randbits(62),
    }
    seats = same_seats(live)
    try:
        offer = await hub.db(
            rematch.answer,
            live.id,
            user["id"],
            accept=accept,
            players=players,
            new_table=new_table,
            new_seats=seats,
            lifetime=hub.limits.rematch_seconds,
            check=partial(_quotas, hub.limits, any(s.bot in STRONG_LEVELS for s in seats)),
        )
    except quotas.HostsTooMany as exc:
        message = Message("error.rematch_hosting", n=exc.hosted, limit=hub.limits.open_tables)
        raise ApiError(429, "quota", message) from None
    except quotas.StrongBotsTooMany as exc:
        if exc.mine is None:
            raise ApiError(429, "quota", Message("error.quota_server")) from None
        raise ApiError(429, "quota", Message("error.rematch_strong", n=exc.mine, limit=exc.limit)) from None
    started = offer["new_table"]
    if started is not None and accept:
        new = await hub.get_fresh(started)
        if new.row.status == "open":  # the last answer created it; start it (a second call finds it running)
            host = {"id": offer["offered_by"]}
            try:
                await hub.rooms.start(host, started)
            except ApiError as exc:  # the host can still start it from its page
                log.warning("rematch table %s of table %s did not start: %s", started, live.id, exc.message)
    body = rematch_json(live, offer)
    hub.broadcast(live, {"type": "rematch", "rematch": body})
    return JSONResponse({"rematch": body})


def _quotas(limits: Limits, strong: bool, conn: Connection, host_id: int) -> None:
    """The new table counts as one more the host hosts, and one more with a searching bot if it
    has one (`store.quotas`, in the transaction that would create it)."""
    quotas.limit_hosting(conn, host_id, limits.open_tables)
    if strong:
        quotas.limit_strong_bots(
            conn,
            table_id=None,
            host_id=host_id,
            levels=STRONG_LEVELS,
            per_host=limits.strong_bot_tables,
            per_server=limits.server_strong_bot_tables,
        )


async def offer_or_accept(request: Request) -> JSONResponse:
    return await (_answer(request, accept=True) if request.method == "POST" else show(request))


async def decline(request: Request) -> JSONResponse:
    return await _answer(request, accept=False)


routes = [
    Route("/api/tables/{table_id:id}/rematch", offer_or_accept, methods=["GET", "POST"]),
    Route("/api/tables/{table_id:id}/rematch/decline", decline, methods=["POST"]),
]
