"""The ASGI application, wired explicitly: routes from each module, one error handler, the
database and the hub made at startup (lifespan) and closed at shutdown."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.exceptions import HTTPException

from ..store import open_database
from . import auth, lobby, openapi, pages, play
from .auth import LoginLimiter
from .errors import ApiError, api_error_handler, http_error_handler
from .hub import Hub

MAX_BODY = 1024 * 1024  # a backstop for every route; JSON bodies have their own 64 KiB limit


def create_app(database_url: str, *, bot_delay: float = 0.0) -> Starlette:
    """The whole server for one database. `bot_delay` (seconds) makes bots in seats pause before
    moving so people can follow the game; tests use 0."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        engine = open_database(database_url)
        hub = Hub(engine, bot_delay=bot_delay)
        app.state.engine = engine
        app.state.hub = hub
        app.state.login_limiter = LoginLimiter()
        await hub.startup()
        try:
            yield
        finally:
            await hub.shutdown()
            engine.dispose()

    return Starlette(
        routes=[*auth.routes, *lobby.routes, *openapi.routes, *play.routes, *pages.routes],
        exception_handlers={ApiError: api_error_handler, HTTPException: http_error_handler},
        lifespan=lifespan,
        max_body_size=MAX_BODY,
    )
