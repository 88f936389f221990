"""Small helpers every REST endpoint uses: reading a JSON body, knowing who is asking."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import msgspec
from starlette.convertors import Convertor, register_url_convertor
from starlette.requests import HTTPConnection, Request

from ..i18n import Message
from ..store import accounts
from .errors import ApiError
from .wire import first_misfit

SESSION_COOKIE = "nekobako_session"


class IdConvertor(Convertor[int]):
    """`{name:id}` in a path: a whole number. One of more than ten digits names nothing, so it
    becomes -1 (a 404 further on) instead of reaching `int()`, which refuses over 4,300 digits."""

    regex = "[0-9]+"

    def convert(self, value: str) -> int:
        return int(value) if len(value) <= 10 else -1

    def to_string(self, value: int) -> str:
        return str(value)


register_url_convertor("id", IdConvertor())
MAX_JSON_BODY = 64 * 1024


async def json_body(request: Request, *, required: bool = True) -> dict[str, Any]:
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_JSON_BODY:
        raise ApiError(413, "bad_request", Message("error.body_large", n=MAX_JSON_BODY // 1024))
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_JSON_BODY:
            raise ApiError(413, "bad_request", Message("error.body_large", n=MAX_JSON_BODY // 1024))
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw.strip():
        if required:
            raise ApiError(400, "bad_request", Message("error.body_needed"))
        return {}
    # HTML forms on other sites cannot send this type without asking first (CORS), so insisting
    # on it keeps cross-site form posts (e.g. login CSRF) out
    if not request.headers.get("content-type", "").lower().startswith("application/json"):
        raise ApiError(415, "bad_request", Message("error.body_type"))
    try:
        body = json.loads(raw, parse_float=_number)
    except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: nested too deeply
        raise ApiError(400, "bad_request", Message("error.body_json")) from None
    if not isinstance(body, dict):
        raise ApiError(400, "bad_request", Message("error.body_object"))
    if not valid_text(body):
        raise ApiError(400, "bad_request", Message("error.body_surrogate"))
    return body


B = TypeVar("B", bound=msgspec.Struct)
# how a misfit field is refused: a catalogue message (400 bad_request), or the check that words it
# (it raises its own ApiError; called with the value sent, None when missing)
FieldRefusal = Message | Callable[[Any], object]


async def read_body(
    request: Request, kind: type[B], refusals: Mapping[str, FieldRefusal], *, required: bool = True
) -> B:
    """The request's JSON body as `kind` (server/wire.py), or the refusal of its first misfit."""
    return typed(await json_body(request, required=required), kind, refusals)


def typed(body: dict[str, Any], kind: type[B], refusals: Mapping[str, FieldRefusal]) -> B:
    """`body` (a JSON object) as `kind`. One that does not fit is refused for its first misfit
    field in declaration order, with that field's refusal from `refusals`."""
    try:
        return msgspec.convert(body, kind)
    except msgspec.ValidationError:
        field = first_misfit(body, kind)
    refusal = refusals.get(field) if field is not None else None
    if isinstance(refusal, Message):
        raise ApiError(400, "bad_request", refusal)
    if refusal is not None:
        refusal(body.get(field) if field is not None else None)  # raises its own ApiError
    raise ApiError(400, "bad_request", Message("error.body_field", field=field or "?"))


def _number(text: str) -> int | float:
    """JSON has one number type: `2.0` is the whole number 2 (JSON Schema agrees), so a seat
    count or an option sent as `2.0` means 2. Other fractions stay floats (and are refused)."""
    value = float(text)
    return int(value) if value.is_integer() else value


def valid_text(value: Any) -> bool:
    """False when decoded JSON holds a lone surrogate (`"\\ud800"` is valid JSON but not Unicode):
    such text could be neither hashed, stored nor sent back, so it is refused at the door."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


async def current_user(conn: HTTPConnection) -> dict[str, Any] | None:
    """The user of the session cookie (REST requests and WebSocket handshakes alike)."""
    token = conn.cookies.get(SESSION_COOKIE)
    if not token:
        return None
    return await conn.app.state.hub.db(accounts.session_user, token)


def client_address(conn: HTTPConnection) -> str:
    """The peer's address (a proxy's `X-Forwarded-For` only counts when the operator trusts it:
    `--forwarded-allow-ips`, applied by uvicorn before this point)."""
    return conn.client.host if conn.client else "unknown"


async def require_user(request: Request) -> dict[str, Any]:
    user = await current_user(request)
    if user is None:
        raise ApiError(401, "not_logged_in", Message("error.log_in_first"))
    return user


def path_int(request: Request, name: str) -> int:
    value = request.path_params[name]
    if isinstance(value, int):
        return value
    raise ApiError(404, "not_found", Message("error.no_such", name=name))
