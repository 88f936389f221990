"""The REST API's OpenAPI 3.1 document, written as data next to the routes. A test checks that
every `/api` route is described here and that nothing here is missing from the routes."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


_OBJ = {"type": "object"}
_USER = {
    "type": "object",
    "required": ["id", "name", "guest"],
    "properties": {"id": {"type": "integer"}, "name": {"type": "string"}, "guest": {"type": "boolean"}},
}
_SEAT = {
    "type": "object",
    "properties": {
        "seat": {"type": "integer"},
        "kind": {"enum": ["empty", "human", "bot"]},
        "user": {"oneOf": [_ref("User"), {"type": "null"}]},
        "bot": {"type": ["string", "null"]},
        "name": {"type": ["string", "null"]},
        "connected": {"type": "boolean"},
        "replaced": {"enum": [None, "left", "timeout"]},
    },
}
_CLOCK = {
    "oneOf": [
        {"type": "object", "properties": {"kind": {"const": "none"}}, "required": ["kind"]},
        {
            "type": "object",
            "properties": {
                "kind": {"const": "realtime"},
                "seconds": {"type": "integer", "minimum": 5, "maximum": 3600},
            },
            "required": ["kind", "seconds"],
        },
        {
            "type": "object",
            "properties": {"kind": {"const": "turn"}, "days": {"type": "integer", "minimum": 1, "maximum": 14}},
            "required": ["kind", "days"],
        },
    ]
}
_NOTICE = {
    "type": "object",
    "properties": {
        "kind": {"type": "string"},
        "seat": {"type": ["integer", "null"]},
        "seq": {"type": "integer"},
        "at": {"type": "string", "format": "date-time"},
        "data": _OBJ,
        "text": {"type": "object", "properties": {"en": {"type": "string"}, "ja": {"type": "string"}}},
    },
}
_TABLE = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "game": {"type": "string"},
        "title": _OBJ,
        "players": {"type": "integer"},
        "options": _OBJ,
        "clock": _ref("Clock"),
        "status": {"enum": ["open", "running", "finished", "abandoned"]},
        "host": {"oneOf": [_ref("User"), {"type": "null"}]},
        "seats": {"type": "array", "items": _ref("Seat")},
        "seq": {"type": "integer"},
        "to_move": {"oneOf": [{"const": "chance"}, {"type": "array", "items": {"type": "integer"}}]},
        "over": {"type": "boolean"},
        "created_at": {"type": "string"},
        "started_at": {"type": ["string", "null"]},
        "finished_at": {"type": ["string", "null"]},
        "notices": {"type": "array", "items": _ref("Notice")},
        "you": {"type": ["integer", "null"]},
    },
}
_GAME = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "title": _OBJ,
        "min_players": {"type": "integer"},
        "max_players": {"type": "integer"},
        "options": {"type": "array", "items": _OBJ, "description": "Game.describe_options()"},
        "bots": {"type": "array", "items": {"type": "string"}},
        "messages": {"type": "object", "description": "event kind -> {en, ja} template ({who} and the event's data)"},
    },
}
_ERROR = {
    "type": "object",
    "required": ["error", "code"],
    "properties": {"error": {"type": "string"}, "code": {"type": "string"}},
}
_CREDENTIALS = {
    "type": "object",
    "required": ["name", "password"],
    "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": 24},
        "password": {"type": "string", "minLength": 8, "maxLength": 200},
    },
}
_NEW_TABLE = {
    "type": "object",
    "required": ["game", "seats"],
    "properties": {
        "game": {"type": "string"},
        "seats": {"type": "integer"},
        "options": {"type": "object", "description": "validated by the game engine"},
        "clock": _ref("Clock"),
    },
}
_RESULTS = {
    "type": "object",
    "properties": {
        "over": {"type": "boolean"},
        "scores": {"type": "array", "items": {"type": "number"}},
        "round_scores": {"type": "array", "items": {"type": "array", "items": {"type": "number"}}},
        "winners": {"type": "array", "items": {"type": "integer"}},
        "places": {"type": "array", "items": {"type": "integer"}},
        "names": {"type": "array", "items": {"type": ["string", "null"]}},
        "ratings": {"type": "array", "items": _OBJ},
    },
}
_RECORD = {
    "type": "object",
    "description": "An engine record (replayable by `nekobako replay`) plus table, names and final (full view).",
    "properties": {
        "game": {"type": "string"},
        "players": {"type": "integer"},
        "options": _OBJ,
        "seed": {"type": ["integer", "null"]},
        "actions": {"type": "array", "items": {"type": "string"}},
        "table": {"type": "integer"},
        "names": {"type": "array", "items": {"type": ["string", "null"]}},
        "final": _OBJ,
    },
}

SCHEMAS = {
    "User": _USER,
    "Seat": _SEAT,
    "Clock": _CLOCK,
    "Notice": _NOTICE,
    "Table": _TABLE,
    "Game": _GAME,
    "Error": _ERROR,
    "Credentials": _CREDENTIALS,
    "NewTable": _NEW_TABLE,
    "Results": _RESULTS,
    "Record": _RECORD,
}

# (method, path, summary, request schema or None, success status, response schema)
ENDPOINTS: list[tuple[str, str, str, Any, int, Any]] = [
    ("post", "/api/auth/signup", "Create an account and log in", _ref("Credentials"), 201, _ref("User")),
    ("post", "/api/auth/login", "Log in (rate-limited)", _ref("Credentials"), 200, _ref("User")),
    (
        "post",
        "/api/auth/guest",
        "Play as a guest under a chosen name",
        {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}},
        201,
        _ref("User"),
    ),
    ("post", "/api/auth/logout", "End the session", None, 200, _OBJ),
    ("get", "/api/auth/me", "The logged-in user", None, 200, _ref("User")),
    (
        "get",
        "/api/games",
        "Games with their option descriptions and bot levels",
        None,
        200,
        {"type": "object", "properties": {"games": {"type": "array", "items": _ref("Game")}}},
    ),
    (
        "get",
        "/api/tables",
        "Tables by status (query `status`, comma list, default open,running)",
        None,
        200,
        {"type": "object", "properties": {"tables": {"type": "array", "items": _ref("Table")}}},
    ),
    ("post", "/api/tables", "Create a table; the creator sits at seat 0", _ref("NewTable"), 201, _ref("Table")),
    ("get", "/api/tables/{table_id}", "One table", None, 200, _ref("Table")),
    (
        "post",
        "/api/tables/{table_id}/join",
        "Take a seat (optional body {seat})",
        {"type": "object", "properties": {"seat": {"type": "integer"}}},
        200,
        _ref("Table"),
    ),
    ("post", "/api/tables/{table_id}/leave", "Leave (a bot takes over a running seat)", None, 200, _ref("Table")),
    (
        "post",
        "/api/tables/{table_id}/bots",
        "Host: seat a bot, or fill every empty seat",
        {
            "type": "object",
            "required": ["level"],
            "properties": {"level": {"type": "string"}, "seat": {"type": "integer"}, "fill": {"type": "boolean"}},
        },
        200,
        _ref("Table"),
    ),
    ("delete", "/api/tables/{table_id}/seats/{seat}", "Host: remove a bot before the start", None, 200, _ref("Table")),
    ("post", "/api/tables/{table_id}/start", "Host: start the game", None, 200, _ref("Table")),
    (
        "get",
        "/api/tables/{table_id}/results",
        "Scores, per-round scores, places, rating changes",
        None,
        200,
        _ref("Results"),
    ),
    ("get", "/api/tables/{table_id}/record", "The full record of a finished game", None, 200, _ref("Record")),
    (
        "get",
        "/api/tables/{table_id}/replay",
        "Full view (every hand) after `step` entries of a finished game (query `step`)",
        None,
        200,
        {
            "type": "object",
            "properties": {"step": {"type": "integer"}, "steps": {"type": "integer"}, "view": _OBJ},
        },
    ),
    (
        "get",
        "/api/ratings",
        "Elo ratings (query `game` optional)",
        None,
        200,
        {"type": "object", "properties": {"ratings": {"type": "array", "items": _OBJ}}},
    ),
    ("get", "/api/openapi.json", "This document", None, 200, _OBJ),
]


# query parameters, by path (the routes read them from `request.query_params`)
QUERY: dict[str, list[dict[str, Any]]] = {
    "/api/tables": [
        {
            "name": "status",
            "in": "query",
            "required": False,
            "description": "comma list of open, running, finished, abandoned (default open,running)",
            "schema": {"type": "string", "default": "open,running"},
        }
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
            "schema": {"type": "string"},
        }
    ],
}


def document() -> dict[str, Any]:
    paths: dict[str, dict[str, Any]] = {}
    for method, path, summary, body, status, response in ENDPOINTS:
        operation: dict[str, Any] = {
            "summary": summary,
            "responses": {
                str(status): {"description": "success", "content": {"application/json": {"schema": response}}},
                "default": {"description": "refused", "content": {"application/json": {"schema": _ref("Error")}}},
            },
        }
        params = [p.strip("{}") for p in path.split("/") if p.startswith("{")]
        parameters = [{"name": p, "in": "path", "required": True, "schema": {"type": "integer"}} for p in params]
        parameters += QUERY.get(path, []) if method == "get" else []
        if parameters:
            operation["parameters"] = parameters
        if body is not None:
            operation["requestBody"] = {"content": {"application/json": {"schema": body}}}
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
            "schemas": SCHEMAS,
            "securitySchemes": {"session": {"type": "apiKey", "in": "cookie", "name": "nekobako_session"}},
        },
    }


async def openapi_json(_request: Request) -> JSONResponse:
    return JSONResponse(document())


routes = [Route("/api/openapi.json", openapi_json, methods=["GET"])]
