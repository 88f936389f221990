"""The REST API's OpenAPI 3.1 document, written as data next to the routes. A test checks that
every `/api` route is described here and that nothing here is missing from the routes."""

from __future__ import annotations

import functools
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..bots import bot_names
from ..engine import InvalidOptions, game_names, get_game
from ..i18n import LANGS
from .chat import MAX_CHARS as CHAT_MAX
from .chat import TEXT_PATTERN as CHAT_PATTERN
from .names import NAME_LENGTH, NAME_PATTERN


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


# the names the server accepts: server/names.py's rule, exactly
_NAME: dict[str, Any] = {
    "type": "string",
    "minLength": NAME_LENGTH[0],
    "maxLength": NAME_LENGTH[1],
    "pattern": NAME_PATTERN,
    "description": "NFKC-normalised on arrival; look-alikes of a registered name are taken (409)",
}


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
_TIMEOUTS = {
    "type": "integer",
    "minimum": 1,
    "maximum": 10,
    "default": 3,
    "description": "timeouts in a row that hand the seat to a bot",
}
_CLOCK = {
    "oneOf": [
        {
            "type": "object",
            "properties": {"kind": {"const": "none"}},
            "required": ["kind"],
            "additionalProperties": False,
        },
        {
            "type": "object",
            "description": "a time bank per player (`seconds` is an older name for `bank`) plus an increment per move",
            "properties": {
                "kind": {"const": "realtime"},
                "bank": {"type": "integer", "minimum": 5, "maximum": 3600},
                "increment": {"type": "integer", "minimum": 0, "maximum": 600, "default": 0},
                "timeouts": _TIMEOUTS,
            },
            "required": ["kind", "bank"],
            "additionalProperties": False,
        },
        {
            "type": "object",
            "properties": {
                "kind": {"const": "turn"},
                "days": {"type": "integer", "minimum": 1, "maximum": 14},
                "timeouts": _TIMEOUTS,
            },
            "required": ["kind", "days"],
            "additionalProperties": False,
        },
    ]
}
# a table's clock as the server shows it: the settings and, once running, each seat's state
_TABLE_CLOCK = {
    "type": "object",
    "required": ["kind"],
    "properties": {
        "kind": {"enum": ["none", "realtime", "turn"]},
        "bank": {"type": "integer"},
        "increment": {"type": "integer"},
        "days": {"type": "integer"},
        "timeouts": {"type": "integer"},
        "banks": {
            "type": "object",
            "description": "seat → seconds left in its bank (real time)",
            "additionalProperties": {"type": "number"},
        },
        "missed": {
            "type": "object",
            "description": "seat → timeouts in a row",
            "additionalProperties": {"type": "integer"},
        },
    },
}
_KEY = {"type": "string", "description": "a catalogue key: its words in every language are in /api/catalogue"}
_NOTICE = {
    "type": "object",
    "properties": {
        "kind": {"enum": ["started", "finished", "replaced", "timeout", "returned"]},
        "seat": {"type": ["integer", "null"]},
        "seq": {"type": "integer"},
        "at": {"type": "string", "format": "date-time"},
        "data": _OBJ,
        "key": _KEY,
        "params": {"type": "object", "description": "the message's parameters (a nested message is {key, params})"},
        "text": {
            "type": "string",
            "description": "the notice in the reader's language (?lang= or Accept-Language), "
            "in the second person when it is about the reader's seat",
        },
    },
}
_TABLE = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "game": {"type": "string"},
        "title": _KEY,
        "players": {"type": "integer"},
        "options": _OBJ,
        "clock": _ref("TableClock"),
        "status": {"enum": ["open", "running", "finished", "abandoned"]},
        "host": {"oneOf": [_ref("User"), {"type": "null"}]},
        "seats": {"type": "array", "items": _ref("Seat")},
        "seq": {"type": "integer"},
        "to_move": {"oneOf": [{"const": "chance"}, {"type": "array", "items": {"type": "integer"}}]},
        "over": {"type": "boolean"},
        "winners": {"type": "array", "items": {"type": "integer"}, "description": "seats that won (finished tables)"},
        "created_at": {"type": "string"},
        "started_at": {"type": ["string", "null"]},
        "finished_at": {"type": ["string", "null"]},
        "notices": {"type": "array", "items": _ref("Notice")},
        "you": {"type": ["integer", "null"]},
    },
}
_OPTION = {
    "type": "object",
    "description": "one table option (OptionSpec.describe); its words are catalogue keys",
    "properties": {
        "name": {"type": "string"},
        "label": _KEY,
        "help": _KEY,
        "choices": {"type": ["array", "null"], "description": "the values allowed; null: see presets and bounds"},
        "labels": {
            "type": ["array", "null"],
            "items": {"type": ["string", "null"]},
            "description": "per choice, the key of its label, or null where the value reads as itself",
        },
        "default": {"description": "null when it depends on the number of players"},
        "advanced": {"type": "boolean"},
        "presets": {
            "type": "array",
            "items": {"type": "object", "properties": {"value": {}, "label": _KEY}},
        },
        "bounds": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "integer"}}},
    },
}
_GAME = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "title": _KEY,
        "min_players": {"type": "integer"},
        "max_players": {"type": "integer"},
        "options": {"type": "array", "items": _ref("Option")},
        "bots": {"type": "array", "items": {"type": "string"}},
        "tutorial": {"type": "boolean", "description": "the game has a tutorial (/api/tutorials/{game})"},
        "messages": {
            "type": "object",
            "description": "event or prompt kind -> the key of its template ({who} and the event's data)",
            "additionalProperties": _KEY,
        },
    },
}
_ERROR = {
    "type": "object",
    "required": ["error", "code", "key", "params"],
    "properties": {
        "error": {"type": "string", "description": "in the client's language (Accept-Language)"},
        "code": {"type": "string"},
        "key": _KEY,
        "params": {"type": "object"},
    },
}
_CREDENTIALS = {
    "type": "object",
    "required": ["name", "password"],
    "properties": {"name": _NAME, "password": {"type": "string", "minLength": 8, "maxLength": 200}},
}


def _accepted(game: Any, players: int, name: str, value: Any) -> bool:
    try:
        game.options({name: value}, players)
    except InvalidOptions:
        return False
    return True


@functools.cache
def new_table_schema() -> dict[str, Any]:
    """One variant per game and player count, each option with exactly the values the engine
    accepts at that count (asked of the engine, so the document cannot drift from it). Catopomp's
    free-form `deck` is described in docs/catopomp.md; the document lists the decks of 1–12 with
    the same number of copies of each card, which every hand size accepts."""
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
            variants.append(
                {
                    "type": "object",
                    "required": ["game", "seats"],
                    "properties": {
                        "game": {"const": name},
                        "seats": {"const": players},
                        "options": {
                            "type": ["object", "null"],
                            "properties": properties,
                            "additionalProperties": False,
                        },
                        "clock": {"oneOf": [_ref("Clock"), {"type": "null"}]},
                        "bots": {
                            "oneOf": [{"enum": bot_names(name)}, {"type": "null"}],
                            "description": "every seat but the host's gets a bot of this level",
                        },
                        "start": {
                            "type": "boolean",
                            "description": "start the game at once (every seat must be taken: `bots`)",
                        },
                    },
                }
            )
    return {"oneOf": variants}


def _bots_schema() -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["level"],
        "properties": {
            "level": {"enum": bot_names()},
            "seat": {"type": ["integer", "null"], "description": "default: the lowest empty seat"},
            "fill": {"type": "boolean"},
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

_PLAYER_PAGE = {
    "type": "object",
    "required": ["user", "ratings", "win_rates", "recent"],
    "properties": {
        "user": _ref("User"),
        "ratings": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "game": {"type": "string"},
                    "rating": {"type": "number"},
                    "games": {"type": "integer"},
                    "start": {"type": ["number", "null"], "description": "the rating before the first rated game"},
                    "history": {
                        "type": "array",
                        "description": "the rating after each rated game, oldest first",
                        "items": {
                            "type": "object",
                            "properties": {
                                "table": {"type": "integer"},
                                "at": {"type": ["string", "null"]},
                                "rating": {"type": "number"},
                            },
                        },
                    },
                },
            },
        },
        "win_rates": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "game": {"type": "string"},
                    "played": {"type": "integer"},
                    "won": {"type": "integer"},
                    "rate": {"type": "number"},
                },
            },
        },
        "recent": {
            "type": "array",
            "description": "newest first; `seats` has every seat's user or bot, place, won and score",
            "items": {
                "type": "object",
                "properties": {
                    "table": {"type": "integer"},
                    "game": {"type": "string"},
                    "players": {"type": "integer"},
                    "finished_at": {"type": ["string", "null"]},
                    "seat": {"type": "integer"},
                    "place": {"type": ["integer", "null"]},
                    "won": {"type": ["boolean", "null"]},
                    "seats": {"type": "array", "items": _OBJ},
                },
            },
        },
    },
}

# the server's rule exactly (server/chat.py clean_text)
_CHAT_TEXT = {"type": "string", "maxLength": CHAT_MAX, "pattern": CHAT_PATTERN}
_CHAT_MESSAGE = {
    "type": "object",
    "required": ["id", "channel", "user", "seat", "seq", "text", "at"],
    "properties": {
        "id": {"type": "integer"},
        "channel": {"enum": ["players", "spectators"]},
        "user": _ref("User"),
        "seat": {"type": ["integer", "null"], "description": "the writer's seat (players' channel)"},
        "seq": {"type": "integer", "description": "the table's seq when written: where a replay shows it"},
        "text": {"type": "string", "description": "plain text: show it as text, never as HTML"},
        "at": {"type": "string"},
    },
}

_REMATCH = {
    "type": "object",
    "properties": {
        "table": {"type": "integer", "description": "the finished table"},
        "offered_by": _ref("User"),
        "accepted": {"type": "array", "items": _ref("User")},
        "waiting": {"type": "array", "items": _ref("User"), "description": "who played and has not accepted yet"},
        "declined_by": {"oneOf": [_ref("User"), {"type": "null"}]},
        "new_table": {"type": ["integer", "null"], "description": "the new table, once everyone accepted"},
        "at": {"type": ["string", "null"]},
        "expires_at": {"type": ["string", "null"], "description": "when the offer lapses unless all accepted"},
        "expired": {"type": "boolean", "description": "lapsed: a new offer may be made"},
    },
}

_USER_ID = {"type": "integer", "minimum": 1, "maximum": 2**31 - 1, "description": "a player's id"}
_MUTED = {"type": "object", "properties": {"muted": {"type": "array", "items": _ref("User")}}}
_REPORT = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "table": {"type": "integer"},
        "at": {"type": ["string", "null"]},
        "lines": {"type": "integer", "description": "chat lines kept with the report"},
    },
}

_REVIEW = {
    "type": "object",
    "required": ["status", "done", "total", "review"],
    "properties": {
        "status": {"enum": ["none", "running", "done", "failed"]},
        "done": {"type": "integer", "description": "decisions rated so far"},
        "total": {"type": "integer", "description": "decisions to rate (0 until counted)"},
        "review": {"type": ["object", "null"], "description": "nekobako.review's JSON (docs/review.md)"},
    },
}
SCHEMAS = {
    "User": _USER,
    "Seat": _SEAT,
    "Clock": _CLOCK,
    "TableClock": _TABLE_CLOCK,
    "Notice": _NOTICE,
    "Table": _TABLE,
    "Option": _OPTION,
    "Game": _GAME,
    "Error": _ERROR,
    "Credentials": _CREDENTIALS,
    "NewTable": new_table_schema(),
    "Results": _RESULTS,
    "Record": _RECORD,
    "PlayerPage": _PLAYER_PAGE,
    "ChatMessage": _CHAT_MESSAGE,
    "Rematch": _REMATCH,
    "Review": _REVIEW,
}

_TUTORIAL_TRY = {
    "type": "object",
    "properties": {
        "step": {"type": "integer", "minimum": 0, "description": "steps done (where the learner resumes)"},
        "move": {"type": "string", "maxLength": 200, "description": "a move in notation, tried at that step"},
    },
}
_TUTORIAL_STEP = {
    "type": "object",
    "required": ["game", "seat", "lesson", "view", "refused"],
    "properties": {
        "game": {"type": "string"},
        "seat": {"type": "integer", "description": "the learner's seat"},
        "view": _OBJ,
        "lesson": {
            "type": "object",
            "properties": {
                "step": {"type": "integer"},
                "steps": {"type": "integer"},
                "text": {"type": "object", "description": "{key, params}: the step's words"},
                "point": {"type": "string", "description": "the part of the table the text points at"},
                "rules": {"type": "string", "description": "the rules section (anchor) it links to"},
                "expected": {"type": ["string", "null"]},
                "over": {"type": "boolean"},
            },
        },
        "refused": {"type": ["object", "null"], "description": "{key, params, error}: why the move was not played"},
    },
}
_QUANTILES = ("p50", "p90", "p99", "max")
# (method, path, summary, request schema or None, success status, response schema)
ENDPOINTS: list[tuple[str, str, str, Any, int, Any]] = [
    ("post", "/api/auth/signup", "Create an account and log in", _ref("Credentials"), 201, _ref("User")),
    ("post", "/api/auth/login", "Log in (rate-limited)", _ref("Credentials"), 200, _ref("User")),
    (
        "post",
        "/api/auth/guest",
        "Play as a guest under a chosen name",
        {"type": "object", "required": ["name"], "properties": {"name": _NAME}},
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
        "/api/catalogue",
        "Every message of the interface in every language, or in `lang` (keys as in docs/i18n.md), and the WebSocket "
        "close codes",
        None,
        200,
        {
            "type": "object",
            "required": ["langs", "close_codes"],
            "properties": {
                "langs": {"type": "array", "items": {"type": "string"}},
                "en": {"type": "object", "description": "key -> text, or [one, other] plural forms"},
                "ja": {"type": "object", "description": "key -> text, or [text] (one plural form)"},
                "close_codes": {"type": "object", "additionalProperties": {"type": "integer"}},
            },
        },
    ),
    (
        "get",
        "/api/tables",
        "One page of tables, newest first, filtered by status, game and free seats",
        None,
        200,
        {
            "type": "object",
            "properties": {
                "tables": {"type": "array", "items": _ref("Table")},
                "next": {"type": ["integer", "null"], "description": "pass as `before` for the next page"},
            },
        },
    ),
    (
        "post",
        "/api/tables",
        "Create a table; the creator sits at seat 0 (with `bots` and `start`: filled and started at once)",
        _ref("NewTable"),
        201,
        _ref("Table"),
    ),
    ("get", "/api/tables/{table_id}", "One table", None, 200, _ref("Table")),
    (
        "post",
        "/api/tables/{table_id}/join",
        "Take a seat (optional body {seat})",
        {"type": "object", "properties": {"seat": {"type": ["integer", "null"]}}},
        200,
        _ref("Table"),
    ),
    ("post", "/api/tables/{table_id}/leave", "Leave (a bot takes over a running seat)", None, 200, _ref("Table")),
    (
        "post",
        "/api/tables/{table_id}/reclaim",
        "Take back a running seat a bot took over (you left, or timed out too often in a row)",
        None,
        200,
        _ref("Table"),
    ),
    (
        "post",
        "/api/tables/{table_id}/bots",
        "Host: seat a bot, or fill every empty seat",
        _bots_schema(),
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
        "post",
        "/api/tutorials/{game}",
        "A tutorial's step: the learner's view and the step's lesson after `step` steps done; with `move`, that "
        "move tried there (played when it is the step's, else `refused` says why). Stores nothing.",
        _TUTORIAL_TRY,
        200,
        _TUTORIAL_STEP,
    ),
    (
        "post",
        "/api/tables/{table_id}/hint",
        "The best move at your turn, at a table with the `hints` option (docs/review.md)",
        None,
        200,
        {
            "type": "object",
            "properties": {
                "seq": {"type": "integer"},
                "action": {"type": "string"},
                "value": {"type": "number"},
                "objective": {"type": "string"},
            },
        },
    ),
    (
        "get",
        "/api/tables/{table_id}/reviews/{seat}",
        "A seat's stored review of a finished game: none, running (done of total decisions), done, failed",
        None,
        200,
        _ref("Review"),
    ),
    (
        "post",
        "/api/tables/{table_id}/reviews/{seat}",
        "Review a seat of a finished game (202 while it is computed; limits per user and per server)",
        None,
        202,
        _ref("Review"),
    ),
    (
        "get",
        "/api/ratings",
        "Elo ratings (query `game` optional)",
        None,
        200,
        {"type": "object", "properties": {"ratings": {"type": "array", "items": _OBJ}}},
    ),
    (
        "get",
        "/api/health",
        "The answering process (its name, how many running tables it drives), its tables in memory, "
        "its event loop's lag over the last minute, how long its last group commits took and how often "
        "its garbage collector paused it (ms)",
        None,
        200,
        {
            "type": "object",
            "required": ["ok", "loop_lag_ms"],
            "properties": {
                "ok": {"type": "boolean"},
                "process": {"type": "string"},
                "drives": {"type": "integer"},
                "commits": {
                    "type": "object",
                    "properties": {
                        "changes": {"type": "integer"},
                        "transactions": {"type": "integer"},
                        "ms": {"type": "object", "properties": {q: {"type": "number"} for q in _QUANTILES}},
                    },
                },
                "collector": {
                    "type": "object",
                    "properties": {
                        "thresholds": {"type": "array", "items": {"type": "integer"}},
                        "frozen": {"type": "integer"},
                        "collections": {"type": "array", "items": {"type": "integer"}},
                        "collected": {"type": "integer"},
                        "pause_ms": {"type": "object"},
                    },
                },
                "tables_in_memory": {"type": "integer"},
                "running": {"type": "integer"},
                "loop_lag_ms": {"type": "object", "properties": {q: {"type": "number"} for q in _QUANTILES}},
                "bot_warm_up": {
                    "type": ["object", "null"],
                    "description": "the bot search processes, once all started with the compiled search loaded",
                    "properties": {
                        "processes": {"type": "integer"},
                        "seconds": {"type": "number"},
                        "games": {"type": "array", "items": {"type": "string"}},
                    },
                },
            },
        },
    ),
    (
        "get",
        "/api/tables/{table_id}/chat",
        "Chat messages the asker may read: the players' channel, and the spectators' unless the asker "
        "plays at a table that is not over",
        None,
        200,
        {"type": "object", "properties": {"messages": {"type": "array", "items": _ref("ChatMessage")}}},
    ),
    (
        "post",
        "/api/tables/{table_id}/chat",
        "Write in the table's chat (players' channel when seated, else spectators'); 429 over the rate limit",
        {
            "type": "object",
            "required": ["text"],
            "properties": {"text": _CHAT_TEXT},
        },
        201,
        _ref("ChatMessage"),
    ),
    (
        "get",
        "/api/tables/{table_id}/rematch",
        "The rematch offer of a finished table (null when none)",
        None,
        200,
        {"type": "object", "properties": {"rematch": {"oneOf": [_ref("Rematch"), {"type": "null"}]}}},
    ),
    (
        "post",
        "/api/tables/{table_id}/rematch",
        "Offer a rematch (same seats, options and clock) or accept the offer; the new table starts when "
        "everyone who played has accepted",
        None,
        200,
        {"type": "object", "properties": {"rematch": {"oneOf": [_ref("Rematch"), {"type": "null"}]}}},
    ),
    (
        "post",
        "/api/tables/{table_id}/rematch/decline",
        "Decline the rematch offer (it ends)",
        None,
        200,
        {"type": "object", "properties": {"rematch": {"oneOf": [_ref("Rematch"), {"type": "null"}]}}},
    ),
    (
        "post",
        "/api/tables/{table_id}/reports",
        "Report a player to the operator; the table's last chat lines the reporter could read are kept "
        "with it. 409 when this player was reported at this table already; 429 past 5 reports an hour",
        {
            "type": "object",
            "required": ["user"],
            "properties": {"user": _USER_ID, "reason": {"type": ["string", "null"], "maxLength": 500}},
        },
        201,
        {"type": "object", "properties": {"report": _REPORT}},
    ),
    ("get", "/api/mutes", "The players the reader muted", None, 200, _MUTED),
    (
        "post",
        "/api/mutes",
        "Mute a player: none of their chat lines reach the reader, at any table, until unmuted",
        {"type": "object", "required": ["user"], "properties": {"user": _USER_ID}},
        200,
        _MUTED,
    ),
    ("delete", "/api/mutes/{user_id}", "Unmute a player (one not muted stays so)", None, 200, _MUTED),
    (
        "get",
        "/api/players/{name}",
        "A player's page: ratings with their history, win rates, recent finished games",
        None,
        200,
        _ref("PlayerPage"),
    ),
    ("get", "/api/openapi.json", "This document", None, 200, _OBJ),
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
    paths: dict[str, dict[str, Any]] = {}
    for method, path, summary, body, status, response in ENDPOINTS:
        operation: dict[str, Any] = {
            "operationId": operation_id(method, path),
            "summary": summary,
            "responses": {
                str(status): {"description": "success", "content": {"application/json": {"schema": response}}},
                "default": {"description": "refused", "content": {"application/json": {"schema": _ref("Error")}}},
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
            "schemas": SCHEMAS,
            "securitySchemes": {"session": {"type": "apiKey", "in": "cookie", "name": "nekobako_session"}},
        },
    }


async def openapi_json(_request: Request) -> JSONResponse:
    return JSONResponse(document())


routes = [Route("/api/openapi.json", openapi_json, methods=["GET"])]
