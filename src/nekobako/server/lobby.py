"""The lobby's REST endpoints: games with their options and bot levels, tables, results,
records and ratings. Each endpoint reads the request, asks the hub, answers JSON."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..bots import bot_names
from ..engine import game_names, get_game, is_number
from ..store import ratings
from .errors import ApiError
from .hub import Hub, final_places
from .live import LiveTable, rebuild
from .requests import current_user, json_body, path_int, require_user

STATUSES = ("open", "running", "finished", "abandoned")


def _hub(request: Request) -> Hub:
    return request.app.state.hub


def installed_games() -> list[dict[str, Any]]:
    """Every game with what a lobby needs: options with their help, bot levels, event templates."""
    out = []
    for name in game_names():
        game = get_game(name)
        out.append(
            {
                "name": game.name,
                "title": dict(game.title),
                "min_players": game.min_players,
                "max_players": game.max_players,
                "options": game.describe_options(),
                "bots": bot_names(game.name),
                "messages": {kind: {"en": en, "ja": ja} for kind, (en, ja) in game.messages.items()},
            }
        )
    return out


async def list_games(_request: Request) -> JSONResponse:
    return JSONResponse({"games": installed_games()})


async def list_tables(request: Request) -> JSONResponse:
    raw = request.query_params.get("status", "open,running")
    statuses = [s.strip() for s in raw.split(",") if s.strip()]
    unknown = [s for s in statuses if s not in STATUSES]
    if unknown or not statuses:
        raise ApiError(400, "bad_request", f"status must be a comma list of: {', '.join(STATUSES)}")
    viewer = await current_user(request)
    return JSONResponse({"tables": await _hub(request).list_tables(statuses, viewer)})


async def create_table(request: Request) -> JSONResponse:
    user = await require_user(request)
    body = await json_body(request)
    live = await _hub(request).create_table(user, body)
    return JSONResponse(live.detail(user), status_code=201)


async def table_detail(request: Request) -> JSONResponse:
    live = await _hub(request).get(path_int(request, "table_id"))
    return JSONResponse(live.detail(await current_user(request)))


async def join(request: Request) -> JSONResponse:
    user = await require_user(request)
    body = await json_body(request, required=False)
    live = await _hub(request).join(user, path_int(request, "table_id"), body.get("seat"))
    return JSONResponse(live.detail(user))


async def leave(request: Request) -> JSONResponse:
    user = await require_user(request)
    live = await _hub(request).leave(user, path_int(request, "table_id"))
    return JSONResponse(live.detail(user))


async def add_bots(request: Request) -> JSONResponse:
    user = await require_user(request)
    body = await json_body(request)
    live = await _hub(request).add_bots(user, path_int(request, "table_id"), body)
    return JSONResponse(live.detail(user))


async def remove_seat(request: Request) -> JSONResponse:
    user = await require_user(request)
    live = await _hub(request).remove_seat(user, path_int(request, "table_id"), path_int(request, "seat"))
    return JSONResponse(live.detail(user))


async def start(request: Request) -> JSONResponse:
    user = await require_user(request)
    live = await _hub(request).start(user, path_int(request, "table_id"))
    return JSONResponse(live.detail(user))


async def _finished(request: Request) -> LiveTable:
    live = await _hub(request).get(path_int(request, "table_id"))
    if live.row.status != "finished" or live.state is None:
        raise ApiError(409, "conflict", "the game is not over yet")
    return live


async def results(request: Request) -> JSONResponse:
    live = await _finished(request)
    state = live.state
    assert state is not None
    changes = await asyncio.to_thread(ratings.table_rating_changes, request.app.state.engine, live.id)
    return JSONResponse(
        {
            "over": True,
            "scores": state.scores(),
            "round_scores": state.round_scores(),
            "winners": state.winners(),
            "places": final_places(live, state),
            "names": live.names(),
            "ratings": changes,
        }
    )


async def record(request: Request) -> JSONResponse:
    live = await _finished(request)
    assert live.state is not None
    body = live.record().to_json()
    body.update(table=live.id, names=live.names(), final=live.state.full_view())
    return JSONResponse(body)


async def replay_step(request: Request) -> JSONResponse:
    """The full view (every hand) after `step` stored entries of a finished game, for replays."""
    live = await _finished(request)
    raw = request.query_params.get("step", "")
    total = len(live.entries)
    if not (is_number(raw) and len(raw) <= 9) or int(raw) > total:  # nine digits at most: no huge int()
        raise ApiError(400, "bad_request", f"step must be a whole number from 0 to {total}")
    step = int(raw)
    state, _ = await asyncio.to_thread(rebuild, live.row, live.entries[:step])
    return JSONResponse({"step": step, "steps": total, "view": state.full_view()})


async def leaderboard(request: Request) -> JSONResponse:
    game = request.query_params.get("game")
    if game is not None and game not in game_names():
        raise ApiError(400, "unknown_game", f"unknown game {game!r}; games: {', '.join(game_names())}")
    rows = await asyncio.to_thread(ratings.leaderboard, request.app.state.engine, game)
    return JSONResponse({"ratings": rows})


routes = [
    Route("/api/games", list_games, methods=["GET"]),
    Route("/api/tables", list_tables, methods=["GET"]),
    Route("/api/tables", create_table, methods=["POST"]),
    Route("/api/tables/{table_id:int}", table_detail, methods=["GET"]),
    Route("/api/tables/{table_id:int}/join", join, methods=["POST"]),
    Route("/api/tables/{table_id:int}/leave", leave, methods=["POST"]),
    Route("/api/tables/{table_id:int}/bots", add_bots, methods=["POST"]),
    Route("/api/tables/{table_id:int}/seats/{seat:int}", remove_seat, methods=["DELETE"]),
    Route("/api/tables/{table_id:int}/start", start, methods=["POST"]),
    Route("/api/tables/{table_id:int}/results", results, methods=["GET"]),
    Route("/api/tables/{table_id:int}/record", record, methods=["GET"]),
    Route("/api/tables/{table_id:int}/replay", replay_step, methods=["GET"]),
    Route("/api/ratings", leaderboard, methods=["GET"]),
]
