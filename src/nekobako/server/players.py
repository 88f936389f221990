"""Player pages' data: `GET /api/players/{name}` — ratings per game with their history, recent
finished games (every seat's place, links to replays) and win rates.

A finished table's places are what `seat_results_of` computes from its final state — the same
placement rule as ratings (`final_places`): seats a bot took over share the last place.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..engine import State
from ..i18n import Message
from ..store import games, players
from ..store.games import TableRow
from ..store.players import SeatResult
from .elo import last_for_replaced, placements
from .errors import ApiError
from .live import rebuild

MAX_NAME = 100  # longer than any name (names.py allows 24); refused before any lookup


def seat_results_of(row: TableRow, state: State) -> list[SeatResult]:
    """Place, win and score of every seat of a finished game."""
    replaced = {s.seat for s in row.seats if s.replaced is not None}
    scores, winners = state.scores(), state.winners()
    places = last_for_replaced(placements(scores, winners), replaced)
    return [
        SeatResult(
            s.seat, s.user_id, places[s.seat], s.seat in winners and s.seat not in replaced, float(scores[s.seat])
        )
        for s in row.seats
    ]


def settle_table(engine: Any, table_id: int) -> None:
    """Fill in the places of one finished table from its record (tables finished before places
    were stored at the end of a game)."""
    row = games.load_table(engine, table_id)
    if row is None or row.status != "finished":
        return
    state, _ = rebuild(row, games.load_actions(engine, table_id))
    if state.is_over():
        players.store_results(engine, table_id, seat_results_of(row, state))


def player_page(engine: Any, name: str) -> dict[str, Any] | None:
    """Everything a player page shows, or None when nobody has that name. Runs in a thread."""
    user = players.find_player(engine, name)
    if user is None:
        return None
    for table_id in players.unsettled_tables(engine, user["id"]):
        settle_table(engine, table_id)
    return {
        "user": user,
        "ratings": players.rating_history(engine, user["id"]),
        "win_rates": players.win_rates(engine, user["id"]),
        "recent": players.recent_games(engine, user["id"]),
    }


async def player(request: Request) -> JSONResponse:
    name = request.path_params["name"]
    if not name.strip() or len(name) > MAX_NAME:
        raise ApiError(404, "not_found", Message("error.no_player", name=name[:40]))
    page = await request.app.state.hub.db(player_page, name)
    if page is None:
        raise ApiError(404, "not_found", Message("error.no_player", name=name[:40]))
    return JSONResponse(page)


routes = [Route("/api/players/{name}", player, methods=["GET"])]
