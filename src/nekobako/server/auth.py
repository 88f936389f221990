"""Accounts: sign up, log in (argon2id hashes, rate-limited), guests, logout, who am I.

Hashing is deliberately slow, so it runs in its own bounded thread pool (`workers.py`). Failed
logins are counted per (account, client address) and per address; after `MAX_FAILURES` within
`WINDOW` seconds further attempts are refused with 429 until the window has passed. Counting per
account *and address* means nobody can lock another person out of their account from elsewhere.
Sign-ups and guests are counted per address per hour. The counts are kept in the database
(`store.attempts`), so they hold across server processes and restarts.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Awaitable, Callable
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..i18n import Message
from ..store import accounts, attempts
from ..store.accounts import SESSION_DAYS, NameTaken
from .errors import ApiError
from .hub import Hub
from .names import clean_name
from .requests import SESSION_COOKIE, client_address, current_user, read_body
from .settings import Limits
from .wire import PASSWORD_LENGTH, Credentials, Guest, Login

MAX_FAILURES = 5
WINDOW = 60.0
HOUR = 3600.0


hasher = PasswordHasher()
Database = Callable[..., Awaitable[Any]]  # runs a store function in a database thread (`Hub.db`)


@functools.cache
def _dummy_hash() -> str:
    """A hash to verify against when the name is unknown, so timing does not reveal which names
    exist. Made on first use: hashing is slow on purpose and would slow down every start."""
    return hasher.hash("not a real password")


class LoginLimiter:
    """Attempts per key (an account at an address, an address) within the last `window` seconds.

    An attempt counts from the moment it starts, and is forgotten only if it succeeds: counting
    failures only once they are known would let a burst of parallel guesses (all checked before
    the first slow hash is verified) get past the limit. Checking and counting is one step, under
    the keys' locks in the database (`store.attempts`), in one process or several."""

    def __init__(self, db: Database, name: str, limit: int = MAX_FAILURES, window: float = WINDOW) -> None:
        self.db = db
        self.name = name  # keys of different limits never count for each other
        self.limit = limit
        self.window = window

    async def begin(self, keys: list[str]) -> list[int]:
        """Refuse (429) or count one attempt as failed until `succeeded` says otherwise."""
        named = [f"{self.name}/{key}" for key in keys]
        wait, ids = await self.db(attempts.begin, named, self.limit, self.window, time.time())
        if wait:
            seconds = int(wait) + 1
            raise ApiError(
                429,
                "rate_limited",
                Message("error.rate_limited", n=seconds),
                headers={"Retry-After": str(seconds)},
            )
        return ids

    async def succeeded(self, attempt: list[int]) -> None:
        await self.db(attempts.forget, attempt)


class Throttles:
    """The server's rate limits on accounts, made once per app."""

    def __init__(self, limits: Limits, db: Database) -> None:
        self.logins = LoginLimiter(db, "login")
        self.guests = LoginLimiter(db, "guest", limits.guests_per_hour, HOUR)  # guest accounts per address
        self.signups = LoginLimiter(db, "signup", limits.signups_per_hour, HOUR)  # new accounts per address


def check_password(value: Any) -> str:
    if not isinstance(value, str) or not PASSWORD_LENGTH[0] <= len(value) <= PASSWORD_LENGTH[1]:
        low, high = PASSWORD_LENGTH
        raise ApiError(400, "bad_request", Message("error.password_length", low=low, high=high))
    return value


def _hub(request: Request) -> Hub:
    return request.app.state.hub


def _throttles(request: Request) -> Throttles:
    return request.app.state.throttles


def _secure(request: Request) -> bool:
    return request.url.scheme == "https" or request.app.state.settings.secure_cookies


async def _logged_in(request: Request, user: dict[str, Any], status: int) -> JSONResponse:
    token = await _hub(request).db(accounts.create_session, user["id"])
    response = JSONResponse(user, status_code=status)
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=SESSION_DAYS * 86400,
        httponly=True,
        samesite="lax",
        secure=_secure(request),
    )
    return response


async def signup(request: Request) -> JSONResponse:
    body = await read_body(request, Credentials, {"name": clean_name, "password": check_password})
    name, password = clean_name(body.name), body.password
    await _throttles(request).signups.begin([f"ip:{client_address(request)}"])
    password_hash = await _hub(request).workers.hash(hasher.hash, password)
    try:
        user = await _hub(request).db(accounts.create_user, name, password_hash)
    except NameTaken:
        raise _taken(name) from None
    return await _logged_in(request, user, 201)


def _taken(name: str) -> ApiError:
    return ApiError(
        409,
        "conflict",
        Message("error.name_taken", name=name),
    )


async def login(request: Request) -> JSONResponse:
    body = await read_body(request, Login, {"name": clean_name, "password": Message("error.password_text")})
    name, password = clean_name(body.name), body.password
    limiter = _throttles(request).logins
    client = client_address(request)
    keys = [f"account:{accounts.account_key(name)}@{client}", f"ip:{client}"]
    attempt = await limiter.begin(keys)
    hub = _hub(request)
    found = await hub.db(accounts.account_for_login, name)
    stored = found[1] if found else await hub.workers.hash(_dummy_hash)
    try:
        await hub.workers.hash(hasher.verify, stored, password)
        ok = found is not None
    except (VerificationError, InvalidHashError):
        ok = False
    if not ok or found is None:
        raise ApiError(401, "bad_credentials", Message("error.bad_credentials"))
    await limiter.succeeded(attempt)
    user, stored = found
    if hasher.check_needs_rehash(stored):
        await hub.db(accounts.set_password_hash, user["id"], await hub.workers.hash(hasher.hash, password))
    return await _logged_in(request, user, 200)


async def guest(request: Request) -> JSONResponse:
    body = await read_body(request, Guest, {"name": clean_name})
    name = clean_name(body.name)
    await _throttles(request).guests.begin([f"ip:{client_address(request)}"])
    try:
        user = await _hub(request).db(accounts.create_user, name, None)
    except NameTaken:
        raise _taken(name) from None
    return await _logged_in(request, user, 201)


async def logout(request: Request) -> JSONResponse:
    """Ends the session and closes the table sockets it opened."""
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        await _hub(request).db(accounts.delete_session, token)
        await _hub(request).close_session_sockets(token)
    response = JSONResponse({"ok": True})
    response.delete_cookie(SESSION_COOKIE, httponly=True, samesite="lax", secure=_secure(request))
    return response


async def me(request: Request) -> JSONResponse:
    user = await current_user(request)
    if user is None:
        raise ApiError(401, "not_logged_in", Message("error.not_logged_in"))
    return JSONResponse(user)


routes = [
    Route("/api/auth/signup", signup, methods=["POST"]),
    Route("/api/auth/login", login, methods=["POST"]),
    Route("/api/auth/guest", guest, methods=["POST"]),
    Route("/api/auth/logout", logout, methods=["POST"]),
    Route("/api/auth/me", me, methods=["GET"]),
]
