"""Accounts: sign up, log in (argon2id hashes, rate-limited), guests, logout, who am I.

Hashing is deliberately slow, so it runs in a worker thread. Failed logins are counted in memory
per name and per client address; after `MAX_FAILURES` within `WINDOW` seconds further attempts
are refused with 429 until the window has passed (a restart forgets the counts, which only helps
a guesser once per restart).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time
import unicodedata
from collections import defaultdict, deque
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..store import accounts
from ..store.accounts import SESSION_DAYS, NameTaken
from .errors import ApiError
from .requests import SESSION_COOKIE, current_user, json_body

MAX_FAILURES = 5
WINDOW = 60.0
MAX_KEYS = 10_000  # past this many names and addresses, old entries are dropped
NAME_LENGTH = (1, 24)
PASSWORD_LENGTH = (8, 200)

hasher = PasswordHasher()


@functools.cache
def _dummy_hash() -> str:
    """A hash to verify against when the name is unknown, so timing does not reveal which names
    exist. Made on first use: hashing is slow on purpose and would slow down every start."""
    return hasher.hash("not a real password")


class LoginLimiter:
    """Login attempts per key (a name, a client address) within the last `WINDOW` seconds.

    An attempt counts from the moment it starts, and is forgotten only if it succeeds: counting
    failures only once they are known would let a burst of parallel guesses (all checked before
    the first slow hash is verified) get past the limit."""

    def __init__(self) -> None:
        self.failures: dict[str, deque[float]] = defaultdict(deque)

    def _recent(self, key: str, stamp: float) -> deque[float]:
        times = self.failures[key]
        while times and times[0] <= stamp - WINDOW:
            times.popleft()
        return times

    def check(self, keys: list[str]) -> None:
        stamp = time.monotonic()
        for key in keys:
            times = self._recent(key, stamp)
            if len(times) >= MAX_FAILURES:
                wait = max(1, int(times[0] + WINDOW - stamp) + 1)
                raise ApiError(
                    429,
                    "rate_limited",
                    f"too many failed logins; try again in {wait} seconds",
                    headers={"Retry-After": str(wait)},
                )

    def begin(self, keys: list[str]) -> float:
        """Refuse (429) or count one attempt as failed until `succeeded` says otherwise."""
        self.check(keys)
        stamp = time.monotonic()
        if len(self.failures) > MAX_KEYS:
            self._forget_old(stamp)
        for key in keys:
            self.failures[key].append(stamp)
        return stamp

    def succeeded(self, keys: list[str], stamp: float) -> None:
        for key in keys:
            with contextlib.suppress(ValueError):
                self.failures[key].remove(stamp)

    def _forget_old(self, stamp: float) -> None:
        """Drop keys without a recent attempt, so guessing many names cannot fill the memory."""
        for key in [k for k, times in self.failures.items() if not times or times[-1] <= stamp - WINDOW]:
            del self.failures[key]


def clean_name(value: Any) -> str:
    if not isinstance(value, str):
        raise ApiError(400, "bad_request", "name must be text")
    name = " ".join(value.split())
    if not NAME_LENGTH[0] <= len(name) <= NAME_LENGTH[1]:
        raise ApiError(400, "bad_request", f"a name has {NAME_LENGTH[0]} to {NAME_LENGTH[1]} characters")
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise ApiError(400, "bad_request", "a name cannot contain control characters")
    return name


def check_password(value: Any) -> str:
    if not isinstance(value, str) or not PASSWORD_LENGTH[0] <= len(value) <= PASSWORD_LENGTH[1]:
        raise ApiError(400, "bad_request", f"a password has {PASSWORD_LENGTH[0]} to {PASSWORD_LENGTH[1]} characters")
    return value


async def _logged_in(request: Request, user: dict[str, Any], status: int) -> JSONResponse:
    token = await asyncio.to_thread(accounts.create_session, request.app.state.engine, user["id"])
    response = JSONResponse(user, status_code=status)
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=SESSION_DAYS * 86400,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return response


async def signup(request: Request) -> JSONResponse:
    body = await json_body(request)
    name, password = clean_name(body.get("name")), check_password(body.get("password"))
    password_hash = await asyncio.to_thread(hasher.hash, password)
    try:
        user = await asyncio.to_thread(accounts.create_user, request.app.state.engine, name, password_hash)
    except NameTaken:
        raise ApiError(409, "conflict", f"the name {name!r} is taken") from None
    return await _logged_in(request, user, 201)


async def login(request: Request) -> JSONResponse:
    body = await json_body(request)
    name = clean_name(body.get("name"))
    password = body.get("password")
    if not isinstance(password, str) or len(password) > PASSWORD_LENGTH[1]:
        raise ApiError(400, "bad_request", "password must be text")
    limiter: LoginLimiter = request.app.state.login_limiter
    client = request.client.host if request.client else "unknown"
    keys = [f"name:{name.casefold()}", f"ip:{client}"]
    attempt = limiter.begin(keys)
    engine = request.app.state.engine
    found = await asyncio.to_thread(accounts.account_for_login, engine, name)
    stored = found[1] if found else await asyncio.to_thread(_dummy_hash)
    try:
        await asyncio.to_thread(hasher.verify, stored, password)
        ok = found is not None
    except (VerificationError, InvalidHashError):
        ok = False
    if not ok or found is None:
        raise ApiError(401, "bad_credentials", "wrong name or password")
    limiter.succeeded(keys, attempt)
    user, stored = found
    if hasher.check_needs_rehash(stored):
        await asyncio.to_thread(accounts.set_password_hash, engine, user["id"], hasher.hash(password))
    return await _logged_in(request, user, 200)


async def guest(request: Request) -> JSONResponse:
    body = await json_body(request)
    name = clean_name(body.get("name"))
    try:
        user = await asyncio.to_thread(accounts.create_user, request.app.state.engine, name, None)
    except NameTaken:
        raise ApiError(409, "conflict", f"{name!r} is a registered player's name; choose another") from None
    return await _logged_in(request, user, 201)


async def logout(request: Request) -> JSONResponse:
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        await asyncio.to_thread(accounts.delete_session, request.app.state.engine, token)
    response = JSONResponse({"ok": True})
    response.delete_cookie(SESSION_COOKIE, httponly=True, samesite="lax")
    return response


async def me(request: Request) -> JSONResponse:
    user = await current_user(request)
    if user is None:
        raise ApiError(401, "not_logged_in", "not logged in")
    return JSONResponse(user)


routes = [
    Route("/api/auth/signup", signup, methods=["POST"]),
    Route("/api/auth/login", login, methods=["POST"]),
    Route("/api/auth/guest", guest, methods=["POST"]),
    Route("/api/auth/logout", logout, methods=["POST"]),
    Route("/api/auth/me", me, methods=["GET"]),
]
