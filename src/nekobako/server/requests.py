"""Small helpers every REST endpoint uses: reading a JSON body, knowing who is asking."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from starlette.requests import HTTPConnection, Request

from ..store import accounts
from .errors import ApiError

SESSION_COOKIE = "nekobako_session"
MAX_JSON_BODY = 64 * 1024


async def json_body(request: Request, *, required: bool = True) -> dict[str, Any]:
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_JSON_BODY:
        raise ApiError(413, "bad_request", f"the body is larger than {MAX_JSON_BODY // 1024} KiB")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_JSON_BODY:
            raise ApiError(413, "bad_request", f"the body is larger than {MAX_JSON_BODY // 1024} KiB")
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw.strip():
        if required:
            raise ApiError(400, "bad_request", "the request needs a JSON object body")
        return {}
    # HTML forms on other sites cannot send this type without asking first (CORS), so insisting
    # on it keeps cross-site form posts (e.g. login CSRF) out
    if not request.headers.get("content-type", "").lower().startswith("application/json"):
        raise ApiError(415, "bad_request", "send the body as Content-Type: application/json")
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: nested too deeply
        raise ApiError(400, "bad_request", "the body is not valid JSON") from None
    if not isinstance(body, dict):
        raise ApiError(400, "bad_request", "the body must be a JSON object")
    return body


async def current_user(conn: HTTPConnection) -> dict[str, Any] | None:
    """The user of the session cookie (REST requests and WebSocket handshakes alike)."""
    token = conn.cookies.get(SESSION_COOKIE)
    if not token:
        return None
    engine = conn.app.state.engine
    return await asyncio.to_thread(accounts.session_user, engine, token)


async def require_user(request: Request) -> dict[str, Any]:
    user = await current_user(request)
    if user is None:
        raise ApiError(401, "not_logged_in", "log in or play as a guest first")
    return user


def path_int(request: Request, name: str) -> int:
    value = request.path_params[name]
    if isinstance(value, int):
        return value
    raise ApiError(404, "not_found", f"no such {name}")
