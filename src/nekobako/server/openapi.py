"""The REST API's OpenAPI 3.1 document, generated: every body's and answer's schema comes from its
type in `server/wire.py` (`msgspec.json.schema_components`), the routes' summaries, statuses and
query parameters from the table below. What only the engine knows is added to the generated
schemas from the engine itself: each game's options at each player count (`new_table_schema`)
and the bot levels. A test checks that every `/api` route is described here and that nothing
here is missing from the routes."""

from __future__ import annotations

import copy
import functools
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..bots import bot_names
from ..engine import InvalidOptions, game_names, get_game
from ..i18n import LANGS
from . import wire

REF = "#/components/schemas/{name}"


@functools.cache
def _generated() -> tuple[dict[type[msgspec.Struct], dict[str, Any]], dict[str, Any]]:
    """(type → its `$ref`, name → schema) for every type the endpoints name."""
    named = {t for _, _, _, body, _, answer in ENDPOINTS for t in (body, answer) if t is not None}
    types = sorted(named | {wire.Error}, key=lambda t: t.__name__)
    refs, components = msgspec.json.schema_components(types, ref_template=REF)
    return dict(zip(types, refs, strict=True)), dict(components)


def _accepted(game: Any, players: int, name: str, value: Any) -> bool:
    try:
        game.options({name: value}, players)
    except InvalidOptions:
        return False
    return True


def new_table_schema(generated: dict[str, Any]) -> dict[str, Any]:
    """`wire.NewTable`'s schema, once per game and player count, each option with exactly the
    values the engine accepts at that count (asked of the engine, so the document cannot drift
    from it). Catopomp's free-form `deck` is described in docs/catopomp.md; the document lists the
    decks of 1–12 with the same number of copies of each card, which every hand size accepts."""
    variants = []
    for name in game_names():
        game = get_game(name)
        for players in range(game.min_players, game.max_players + 1):
            properties: dict[str, Any] = {}
            for spec in game.option_specs:
                if spec.choices is not None:
                    allowed = [c for c in spec.choices if _accepted(game, players, spec.name, c)]
                    properties[spec.name] = {"enum": allowed}
                else:
                    decks = [[[n, c] for n in range(1, 13)] for c in range(1, 9)]
                    fits = [d for d in decks if _accepted(game, players, spec.name, d)]
                    properties[spec.name] = {"enum": fits}
            if name == "catopomp":  # every hand size must fit the smallest deck listed
                sizes = properties["hand_size"]["enum"]
                smallest = min(sum(c for _, c in d) for d in properties["deck"]["enum"])
                properties["hand_size"]["enum"] = [h for h in sizes if h * players <= smallest]
            variant = copy.deepcopy(generated)
            variant.pop("title", None)
            variant.pop("description", None)
            fields = variant["properties"]
            fields["game"] = {"const": name}
            fields["seats"] = {"const": players}
            fields["options"] = {"type": ["object", "null"], "properties": properties, "additionalProperties": False}
            fields["bots"] = {**fields["bots"], "anyOf": [{"enum": bot_names(name)}, {"type": "null"}]}
            variants.append(variant)
    return {"description": generated.get("description", ""), "oneOf": variants}


def _refined(components: dict[str, Any]) -> dict[str, Any]:
    """The generated schemas with what the engine and the bots know added."""
    schemas = copy.deepcopy(components)
    schemas["NewTable"] = new_table_schema(components["NewTable"])
    schemas["AddBots"]["properties"]["level"] = {"enum": bot_names()}
    return schemas


_QUANTILES = ("p50", "p90", "p99", "max")
Body = type[msgspec.Struct] | None
# (method, path, summary, request type or None, success status, answer type)
ENDPOINTS: list[tuple[str, str, str, Body, int, Body]] = [
    ("post", "/api/auth/signup", "Create an account and log in", wire.Credentials, 201, wire.User),
    ("post", "/api/auth/login", "Log in (rate-limited)", wire.Login, 200, wire.User),
    ("post", "/api/auth/guest", "Play as a guest under a chosen name", wire.Guest, 201, wire.User),
    ("post", "/api/auth/logout", "End the session", None, 200, wire.Done),
    ("get", "/api/auth/me", "The logged-in user", None, 200, wire.User),
    ("get", "/api/games", "Games with their option descriptions and bot levels", None, 200, wire.Games),
    (
        "get",
        "/api/catalogue",
        "Every message of the interface in every language, or in `lang` (keys as in docs/i18n.md), and the WebSocket "
        "close codes",
        None,
        200,
        wire.Catalogue,
    ),
    (
        "get",
        "/api/tables",
        "One page of tables, newest first, filtered by status, game and free seats",
        None,
        200,
        wire.TablePage,
    ),
    (
        "post",
        "/api/tables",
        "Create a table; the creator sits at seat 0 (with `bots` and `start`: filled and started at once)",
        wire.NewTable,
        201,
        wire.Table,
    ),
    ("get", "/api/tables/{table_id}", "One table", None, 200, wire.Table),
    ("post", "/api/tables/{table_id}/join", "Take a seat (optional body {seat})", wire.Join, 200, wire.Table),
    ("post", "/api/tables/{table_id}/leave", "Leave (a bot takes over a running seat)", None, 200, wire.Table),
    (
        "post",
        "/api/tables/{table_id}/reclaim",
        "Take back a running seat a bot took over (you left, or timed out too often in a row)",
        None,
        200,
        wire.Table,
    ),
    (
        "post",
        "/api/tables/{table_id}/bots",
        "Host: seat a bot, or fill every empty seat",
        wire.AddBots,
        200,
        wire.Table,
    ),
    ("delete", "/api/tables/{table_id}/seats/{seat}", "Host: remove a bot before the start", None, 200, wire.Table),
    ("post", "/api/tables/{table_id}/start", "Host: start the game", None, 200, wire.Table),
    (
        "get",
        "/api/tables/{table_id}/results",
        "Scores, per-round scores, places, rating changes",
        None,
        200,
        wire.Results,
    ),
    ("get", "/api/tables/{table_id}/record", "The full record of a finished game", None, 200, wire.Record),
    (
        "get",
        "/api/tables/{table_id}/replay",
        "Full view (every hand) after `step` entries of a finished game (query `step`)",
        None,
        200,
        wire.ReplayStep,
    ),
    (
        "post",
        "/api/tutorials/{game}",
        "A tutorial's step: the learner's view and the step's lesson after `step` steps done; with `move`, that "
        "move tried there (played when it is the step's, else `refused` says why). Stores nothing.",
        wire.TutorialTry,
        200,
        wire.TutorialStep,
    ),
    (
        "post",
        "/api/tables/{table_id}/hint",
        "The best move at your turn, at a table with the `hints` option (docs/review.md)",
        None,
        200,
        wire.Hint,
    ),
    (
        "get",
        "/api/tables/{table_id}/reviews/{seat}",
        "A seat's stored review of a finished game: none, running (done of total decisions), done, failed",
        None,
        200,
        wire.Review,
    ),
    (
        "post",
        "/api/tables/{table_id}/reviews/{seat}",
        "Review a seat of a finished game (202 while it is computed; limits per user and per server)",
        None,
        202,
        wire.Review,
    ),
    ("get", "/api/ratings", "Elo ratings (query `game` optional)", None, 200, wire.Ratings),
    (
        "get",
        "/api/health",
        "The answering process (its name, how many running tables it drives), its tables in memory, "
        "its event loop's lag over the last minute, how long its last group commits took and how often "
        "its garbage collector paused it (ms)",
        None,
        200,
        wire.Health,
    ),
    (
        "get",
        "/api/tables/{table_id}/chat",
        "Chat messages the asker may read: the players' channel, and the spectators' unless the asker "
        "plays at a table that is not over",
        None,
        200,
        wire.ChatMessages,
    ),
    (
        "post",
        "/api/tables/{table_id}/chat",
        "Write in the table's chat (players' channel when seated, else spectators'); 429 over the rate limit",
        wire.ChatPost,
        201,
        wire.ChatMessage,
    ),
    (
        "get",
        "/api/tables/{table_id}/rematch",
        "The rematch offer of a finished table (null when none)",
        None,
        200,
        wire.RematchAnswer,
    ),
    (
        "post",
        "/api/tables/{table_id}/rematch",
        "Offer a rematch (same seats, options and clock) or accept the offer; the new table starts when "
        "everyone who played has accepted",
        None,
        200,
        wire.RematchAnswer,
    ),
    (
        "post",
        "/api/tables/{table_id}/rematch/decline",
        "Decline the rematch offer (it ends)",
        None,
        200,
        wire.RematchAnswer,
    ),
    (
        "post",
        "/api/tables/{table_id}/reports",
        "Report a player to the operator; the table's last chat lines the reporter could read are kept "
        "with it. 409 when this player was reported at this table already; 429 past 5 reports an hour",
        wire.Report,
        201,
        wire.Reported,
    ),
    ("get", "/api/mutes", "The players the reader muted", None, 200, wire.Muted),
    (
        "post",
        "/api/mutes",
        "Mute a player: none of their chat lines reach the reader, at any table, until unmuted",
        wire.Mute,
        200,
        wire.Muted,
    ),
    ("delete", "/api/mutes/{user_id}", "Unmute a player (one not muted stays so)", None, 200, wire.Muted),
    (
        "get",
        "/api/players/{name}",
        "A player's page: ratings with their history, win rates, recent finished games",
        None,
        200,
        wire.PlayerPage,
    ),
    ("get", "/api/openapi.json", "This document", None, 200, wire.Document),
]


_STATUS = "(open|running|finished|abandoned)"
_LIMIT = {"type": "integer", "minimum": 1, "maximum": 100}
# query parameters, by path (the routes read them from `request.query_params`)
QUERY: dict[str, list[dict[str, Any]]] = {
    "/api/catalogue": [
        {
            "name": "lang",
            "in": "query",
            "required": False,
            "description": "one language only (the page holds its own; the other is asked for on a switch)",
            "schema": {"enum": list(LANGS)},
        }
    ],
    "/api/tables": [
        {
            "name": "status",
            "in": "query",
            "required": False,
            "description": "comma list of open, running, finished, abandoned (default open,running)",
            "schema": {"type": "string", "default": "open,running", "pattern": f"^{_STATUS}(,{_STATUS})*$"},
        },
        {"name": "game", "in": "query", "required": False, "schema": {"enum": game_names()}},
        {"name": "seats_free", "in": "query", "required": False, "schema": {"enum": ["true", "false"]}},
        {"name": "limit", "in": "query", "required": False, "schema": _LIMIT},
        {
            "name": "before",
            "in": "query",
            "required": False,
            "description": "the `next` of the previous page",
            "schema": {"type": "integer", "minimum": 1, "maximum": 2**31 - 1},
        },
    ],
    "/api/tables/{table_id}/replay": [
        {
            "name": "step",
            "in": "query",
            "required": True,
            "description": "number of record entries applied, 0 to the record's length",
            "schema": {"type": "integer", "minimum": 0},
        }
    ],
    "/api/ratings": [
        {
            "name": "game",
            "in": "query",
            "required": False,
            "description": "one game's ratings",
            "schema": {"enum": game_names()},
        }
    ],
}


_ID = {"type": "integer"}
PATH_SCHEMAS: dict[str, Any] = {
    "name": {"type": "string", "minLength": 1, "maxLength": 100},
    "game": {"type": "string", "minLength": 1, "maxLength": 100},
}
OPTIONAL_BODIES = {"/api/tables/{table_id}/join"}


def operation_id(method: str, path: str) -> str:
    """`post /api/tables/{table_id}/join` → `post_table_join`; `get /api/tables` → `get_tables`."""
    parts = path.replace("/tables/{table_id}", "/table").split("/")[2:]
    return "_".join([method, *(part for part in parts if part and "{" not in part)])


# from a new table to every route about it, so clients (and the fuzzer's stateful phase) can follow
TABLE_LINKS = {
    operation_id(method, path): {
        "operationId": operation_id(method, path),
        "parameters": {"table_id": "$response.body#/id", **({"seat": 1} if "{seat}" in path else {})},
    }
    for method, path, *_ in ENDPOINTS
    if path.startswith("/api/tables/{table_id}")
}


@functools.cache
def document() -> dict[str, Any]:
    """The whole document, built once."""
    refs, components = _generated()
    paths: dict[str, dict[str, Any]] = {}
    for method, path, summary, body_type, status, answer in ENDPOINTS:
        response = refs[answer] if answer is not None else {"type": "object"}
        body = refs[body_type] if body_type is not None else None
        operation: dict[str, Any] = {
            "operationId": operation_id(method, path),
            "summary": summary,
            "responses": {
                str(status): {"description": "success", "content": {"application/json": {"schema": response}}},
                "default": {"description": "refused", "content": {"application/json": {"schema": refs[wire.Error]}}},
            },
        }
        if (method, path) == ("post", "/api/tables"):
            operation["responses"][str(status)]["links"] = TABLE_LINKS
        params = [p.strip("{}") for p in path.split("/") if p.startswith("{")]
        parameters = [{"name": p, "in": "path", "required": True, "schema": PATH_SCHEMAS.get(p, _ID)} for p in params]
        parameters += QUERY.get(path, []) if method == "get" else []
        if parameters:
            operation["parameters"] = parameters
        if body is not None:
            operation["requestBody"] = {
                "required": path not in OPTIONAL_BODIES,
                "content": {"application/json": {"schema": body}},
            }
        paths.setdefault(path, {})[method] = operation
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "nekobako",
            "version": "0.1.0",
            "description": "Lobby and accounts. Play: WebSocket /ws/tables/{table_id}, see docs/protocol.md.",
        },
        "paths": paths,
        "components": {
            "schemas": _refined(components),
            "securitySchemes": {"session": {"type": "apiKey", "in": "cookie", "name": "nekobako_session"}},
        },
    }


async def openapi_json(_request: Request) -> JSONResponse:
    return JSONResponse(document())


routes = [Route("/api/openapi.json", openapi_json, methods=["GET"])]
