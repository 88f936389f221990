"""One error shape for the REST API: `{"error": words, "code": code, "key": …, "params": {…}}` with
an HTTP status, the words in the client's `Accept-Language`; the WebSocket close codes."""

from __future__ import annotations

import logging
from enum import IntEnum
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from ..i18n import LANGS, Message, has, negotiate

log = logging.getLogger("nekobako.server")
CODES = {404: "not_found", 405: "bad_request", 413: "bad_request"}


class CloseCode(IntEnum):
    """Why the server closes a table's WebSocket: named once here; the browser reads them from
    `/api/catalogue` (`close_codes`) instead of writing the numbers again. 4xxx are ours (the HTTP
    status they echo), 10xx the WebSocket standard's."""

    POLICY = 1008  # the client sent faster than it read (too many unread messages)
    TOO_BIG = 1009  # a frame larger than the server reads (uvicorn closes with it)
    INTERNAL = 1011  # the server failed; reconnecting is safe
    LOGGED_OUT = 4401  # the session logged out elsewhere: this socket may not watch on its behalf
    FOREIGN_ORIGIN = 4403  # the page that opened the socket is not this site's
    NO_TABLE = 4404  # there is no such table
    TOO_MANY_WATCHERS = 4429  # too many anonymous watchers: log in or play as a guest


class ApiError(Exception):
    """A refused request; nothing was changed. `message` says why, as a catalogue message worded
    in the client's `Accept-Language` (a plain string reads the same in every language)."""

    def __init__(self, status: int, code: str, message: Message | str, headers: dict[str, str] | None = None):
        self.message = message if isinstance(message, Message) else Message("words.text", text=message)
        super().__init__(self.message.text("en"))
        self.status = status
        self.code = code
        self.headers = headers


def error_body(code: str, message: Message, lang: str) -> dict[str, Any]:
    """`{"error": words in lang, "code": coarse kind, "key", "params"}`: the words for a person,
    the code for a program, the key and params so a client can word it itself (the browser does,
    in the page's language)."""
    return {"error": message.text(lang), "code": code, **message.to_json()}


LANG_COOKIE = "nekobako_lang"  # set by web/i18n.js when the reader picks a language


def request_lang(request: HTTPConnection) -> str:
    """The reader's language: `?lang=en|ja` if given (a browser cannot set a WebSocket's headers),
    else the language the page's switch chose (its cookie), else `Accept-Language`, else English."""
    for asked in (request.query_params.get("lang"), request.cookies.get(LANG_COOKIE)):
        if asked in LANGS:
            return asked
    return negotiate(request.headers.get("accept-language"))


async def api_error_handler(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    body = error_body(exc.code, exc.message, request_lang(request))
    return JSONResponse(body, status_code=exc.status, headers=exc.headers)


async def http_error_handler(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (unknown path, wrong method, body too large) in the API's shape,
    or, outside /api/, as plain words; both in the reader's language."""
    assert isinstance(exc, HTTPException)
    key = f"error.http_{exc.status_code}"
    message = Message(key) if has(key) else Message("error.http", status=exc.status_code)
    if not request.url.path.startswith("/api/"):  # a person at a wrong address: the words alone
        return PlainTextResponse(message.text(request_lang(request)), status_code=exc.status_code, headers=exc.headers)
    code = CODES.get(exc.status_code, "bad_request")
    return JSONResponse(
        error_body(code, message, request_lang(request)), status_code=exc.status_code, headers=exc.headers
    )


async def database_error_handler(request: Request, exc: Exception) -> JSONResponse:
    """The database is away (outage, lost connection): a 503 the client may retry, never a 500.
    Every change commits before memory changes, so nothing was half done."""
    log.error("database unavailable: %s", exc)
    return JSONResponse(
        error_body("unavailable", Message("error.unavailable"), request_lang(request)),
        status_code=503,
        headers={"Retry-After": "5"},
    )


class Refusal(Exception):
    """An action refused over the WebSocket; nothing changed. The client gets `reason` (English,
    for logs and simple clients) with `key` and `params` to word it in its reader's language."""

    def __init__(self, code: str, reason: Message | str):
        self.message = reason if isinstance(reason, Message) else Message("words.text", text=reason)
        super().__init__(self.message.text("en"))
        self.code = code
        self.reason = self.message.text("en")
