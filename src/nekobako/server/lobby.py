"""The lobby's REST endpoints: games with their options and bot levels, tables, results,
records and ratings. Each endpoint reads the request, asks the hub, answers JSON."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..bots import bot_names
from ..bots.ladder import level_ratings
from ..engine import game_names, get_game, is_number
from ..i18n import Message
from ..store import ratings
from ..tutorial import tutorial_games
from .errors import ApiError, request_lang
from .hub import Hub
from .live import LiveTable, rebuild
from .moves import Reclaim
from .requests import current_user, json_body, path_int, require_user
from .results import final_places
from .rooms import PAGE_SIZE, new_table_body
from .tables import MAX_TABLE_ID

STATUSES = ("open", "running", "finished", "abandoned")
DEFAULT_PAGE = 50


def _hub(request: Request) -> Hub:
    return request.app.state.hub


def installed_games() -> list[dict[str, Any]]:
    """Every game with what a lobby needs: options, bot levels, the catalogue keys of its title,
    option words and event templates (worded from `/api/catalogue` in the reader's language)."""
    out = []
    for name in game_names():
        game = get_game(name)
        out.append(
            {
                "name": game.name,
                "title": game.title.key,
                "min_players": game.min_players,
                "max_players": game.max_players,
                "options": game.describe_options(),
                "bots": bot_names(game.name),
                "ratings": level_ratings(game.name),  # the ladder (bots/ladder.py)
                "messages": game.messages,
                "tutorial": name in tutorial_games(),
            }
        )
    return out


async def list_games(_request: Request) -> JSONResponse:
    return JSONResponse({"games": installed_games()})


def _query_int(request: Request, name: str, low: int, high: int) -> int | None:
    raw = request.query_params.get(name)
    if raw is None:
        return None
    if not (is_number(raw) and len(raw) <= 10 and low <= int(raw) <= high):
        raise ApiError(400, "bad_request", Message("error.whole_number", name=name, low=low, high=high))
    return int(raw)


async def list_tables(request: Request) -> JSONResponse:
    """One page of the lobby, filtered on the server: `status` (comma list), `game`, `seats_free`,
    `limit` and the `before` cursor from the previous page's `next`."""
    raw = request.query_params.get("status", "open,running")
    statuses = [s.strip() for s in raw.split(",") if s.strip()]
    unknown = [s for s in statuses if s not in STATUSES]
    if unknown or not statuses:
        raise ApiError(400, "bad_request", Message("error.status_list", statuses=list(STATUSES)))
    game = request.query_params.get("game")
    if game is not None and game not in game_names():
        raise ApiError(400, "unknown_game", Message("error.unknown_game", games=game_names()))
    seats_free = request.query_params.get("seats_free", "false")
    if seats_free not in ("true", "false"):
        raise ApiError(400, "bad_request", Message("error.seats_free"))
    limit = _query_int(request, "limit", *PAGE_SIZE) or DEFAULT_PAGE
    before = _query_int(request, "before", 1, MAX_TABLE_ID)
    viewer = await current_user(request)
    tables, cursor = await _hub(request).rooms.list_tables(
        statuses,
        viewer,
        game=game,
        limit=limit,
        before=before,
        seats_free=seats_free == "true",
        lang=request_lang(request),
    )
    return JSONResponse({"tables": tables, "next": cursor})


async def tables(request: Request) -> JSONResponse:
    return await (create_table(request) if request.method == "POST" else list_tables(request))


async def create_table(request: Request) -> JSONResponse:
    user = await require_user(request)
    body = new_table_body(await json_body(request))
    live = await _hub(request).rooms.create_table(user, body)
    request.app.state.lobby_feed.created()
    return JSONResponse(live.detail(user, request_lang(request)), status_code=201)


async def table_detail(request: Request) -> JSONResponse:
    live = await _hub(request).get_fresh(path_int(request, "table_id"))
    return JSONResponse(live.detail(await current_user(request), request_lang(request)))


async def join(request: Request) -> JSONResponse:
    user = await require_user(request)
    body = await json_body(request, required=False)
    live = await _hub(request).rooms.join(user, path_int(request, "table_id"), body)
    return JSONResponse(live.detail(user, request_lang(request)))


async def leave(request: Request) -> JSONResponse:
    user = await require_user(request)
    live = await _hub(request).rooms.leave(user, path_int(request, "table_id"))
    return JSONResponse(live.detail(user, request_lang(request)))


async def reclaim(request: Request) -> JSONResponse:
    """A player a bot replaced (left, or timed out too often) takes their seat back."""
    user = await require_user(request)
    hub = _hub(request)
    live = await hub.get_fresh(path_int(request, "table_id"))
    await hub.send(live, Reclaim(user))
    return JSONResponse(live.detail(user, request_lang(request)))


async def add_bots(request: Request) -> JSONResponse:
    user = await require_user(request)
    body = await json_body(request)
    live = await _hub(request).rooms.add_bots(user, path_int(request, "table_id"), body)
    return JSONResponse(live.detail(user, request_lang(request)))


async def remove_seat(request: Request) -> JSONResponse:
    user = await require_user(request)
    live = await _hub(request).rooms.remove_seat(user, path_int(request, "table_id"), path_int(request, "seat"))
    return JSONResponse(live.detail(user, request_lang(request)))


async def start(request: Request) -> JSONResponse:
    user = await require_user(request)
    live = await _hub(request).rooms.start(user, path_int(request, "table_id"))
    return JSONResponse(live.detail(user, request_lang(request)))


async def _finished(request: Request) -> LiveTable:
    live = await _hub(request).get_fresh(path_int(request, "table_id"))
    if live.row.status != "finished" or live.state is None:
        raise ApiError(409, "conflict", Message("error.not_over"))
    return live


async def results(request: Request) -> JSONResponse:
    live = await _finished(request)
    state = live.state
    assert state is not None
    changes = await _hub(request).db(ratings.table_rating_changes, live.id)
    return JSONResponse(
        {
            "over": True,
            "scores": state.scores(),
            "round_scores": state.round_scores(),
            "winners": state.winners(),
            "places": final_places(live, state),
            "names": live.names(request_lang(request)),
            "ratings": changes,
        }
    )


async def record(request: Request) -> JSONResponse:
    live = await _finished(request)
    assert live.state is not None
    body = live.record().to_json()
    body.update(table=live.id, names=live.names(request_lang(request)), final=live.state.full_view())
    return JSONResponse(body)


async def replay_step(request: Request) -> JSONResponse:
    """The full view (every hand) after `step` stored entries of a finished game, for replays."""
    live = await _finished(request)
    raw = request.query_params.get("step", "")
    total = len(live.entries)
    if not is_number(raw):
        raise ApiError(400, "bad_request", Message("error.whole_number", name="step", low=0, high=total))
    if len(raw) > 9 or int(raw) > total:  # nine digits at most: no huge int()
        raise ApiError(409, "conflict", Message("error.no_step", step=raw[:12], total=total))
    step = int(raw)
    state, _ = await asyncio.to_thread(rebuild, live.row, live.entries[:step])
    return JSONResponse({"step": step, "steps": total, "view": state.full_view()})


async def health(request: Request) -> JSONResponse:
    """For operators and the load benchmark: tables in memory and the event loop's lag."""
    return JSONResponse(_hub(request).health())


async def leaderboard(request: Request) -> JSONResponse:
    game = request.query_params.get("game")
    if game is not None and game not in game_names():
        raise ApiError(400, "unknown_game", Message("error.unknown_game", games=game_names()))
    rows = await _hub(request).db(ratings.leaderboard, game)
    return JSONResponse({"ratings": rows})


routes = [
    Route("/api/games", list_games, methods=["GET"]),
    Route("/api/tables", tables, methods=["GET", "POST"]),  # one route: `Allow` names both
    Route("/api/tables/{table_id:id}", table_detail, methods=["GET"]),
    Route("/api/tables/{table_id:id}/join", join, methods=["POST"]),
    Route("/api/tables/{table_id:id}/leave", leave, methods=["POST"]),
    Route("/api/tables/{table_id:id}/reclaim", reclaim, methods=["POST"]),
    Route("/api/tables/{table_id:id}/bots", add_bots, methods=["POST"]),
    Route("/api/tables/{table_id:id}/seats/{seat:id}", remove_seat, methods=["DELETE"]),
    Route("/api/tables/{table_id:id}/start", start, methods=["POST"]),
    Route("/api/tables/{table_id:id}/results", results, methods=["GET"]),
    Route("/api/tables/{table_id:id}/record", record, methods=["GET"]),
    Route("/api/tables/{table_id:id}/replay", replay_step, methods=["GET"]),
    Route("/api/ratings", leaderboard, methods=["GET"]),
    Route("/api/health", health, methods=["GET"]),
]
