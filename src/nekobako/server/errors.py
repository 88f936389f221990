"""One error shape for the REST API: `{"error": message, "code": code}` with an HTTP status."""

from __future__ import annotations

import logging
from enum import IntEnum

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

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
    """A refused request; nothing was changed. `message` is meant for the player."""

    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers


async def api_error_handler(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return JSONResponse({"error": exc.message, "code": exc.code}, status_code=exc.status, headers=exc.headers)


async def http_error_handler(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (unknown path, wrong method, body too large) in the API's shape."""
    assert isinstance(exc, HTTPException)
    if not request.url.path.startswith("/api/"):
        return PlainTextResponse(exc.detail, status_code=exc.status_code, headers=exc.headers)
    code = CODES.get(exc.status_code, "bad_request")
    return JSONResponse({"error": exc.detail, "code": code}, status_code=exc.status_code, headers=exc.headers)


async def database_error_handler(_request: Request, exc: Exception) -> JSONResponse:
    """The database is away (outage, lost connection): a 503 the client may retry, never a 500.
    Every change commits before memory changes, so nothing was half done."""
    log.error("database unavailable: %s", exc)
    return JSONResponse(
        {"error": "the server cannot reach its database; try again in a moment", "code": "unavailable"},
        status_code=503,
        headers={"Retry-After": "5"},
    )


class Refusal(Exception):
    """An action refused over the WebSocket; nothing changed."""

    def __init__(self, code: str, reason: str):
        super().__init__(reason)
        self.code = code
        self.reason = reason
