"""The ASGI application, wired explicitly: routes from each module, one error handler, the
database and the hub made at startup (lifespan) and closed at shutdown."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from functools import partial

from sqlalchemy.exc import DBAPIError
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware

from ..store import open_database
from . import (
    auth,
    catalogue,
    chat,
    hints,
    lobby,
    lobby_feed,
    moderation,
    openapi,
    pages,
    play,
    players,
    rematch,
    reviews,
    tutorials,
)
from .assets import ConditionalGet
from .auth import Throttles
from .errors import ApiError, api_error_handler, database_error_handler, http_error_handler
from .guards import Guards
from .hub import Hub
from .settings import Settings
from .workers import DATABASE_THREADS

MAX_BODY = 1024 * 1024  # a backstop for every route; JSON bodies have their own 64 KiB limit


def create_app(database_url: str, settings: Settings | None = None) -> Starlette:
    """The whole server for one database, with the operator's settings (defaults: no bot delay,
    the limits of `settings.Limits`)."""
    settings = settings or Settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        engine = open_database(database_url, pool_size=DATABASE_THREADS)  # a connection for each
        hub = Hub(engine, settings)
        app.state.engine = engine
        app.state.hub = hub
        app.state.settings = settings
        app.state.throttles = Throttles(settings.limits, hub.db)
        app.state.chat = chat.ChatRoom()
        hub.readers["chat"] = chat.may_read
        hub.signal_listeners.append(partial(moderation.heard, hub))
        app.state.lobby_feed = lobby_feed.LobbyFeed(hub)
        await hub.startup()
        try:
            yield
        finally:
            await hub.shutdown()
            engine.dispose()

    return Starlette(
        routes=[
            *auth.routes,
            *catalogue.routes,
            *lobby.routes,
            *openapi.routes,
            *play.routes,
            *lobby_feed.routes,
            *chat.routes,
            *moderation.routes,
            *rematch.routes,
            *reviews.routes,
            *hints.routes,
            *players.routes,
            *tutorials.routes,
            *pages.routes,
        ],
        exception_handlers={
            ApiError: api_error_handler,
            HTTPException: http_error_handler,
            DBAPIError: database_error_handler,
        },
        lifespan=lifespan,
        # API answers over 1 KB gzip'd for browsers that take it (the catalogue, the game list);
        # the client's own files come compressed already (assets.py) and are left alone
        # API GETs carry an ETag: an unchanged lobby poll is a bodiless 304 (assets.ConditionalGet)
        middleware=[
            Middleware(Guards, public_url=settings.public_url),
            Middleware(GZipMiddleware, minimum_size=1024),
            Middleware(ConditionalGet),
        ],
        max_body_size=MAX_BODY,
    )
