"""A server's hub in the test's own process, on a real store: for tests of what one process does
between a request and the database (the actor, the lobby's table making), without sockets."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from sqlalchemy import Engine

from nekobako.server import actor
from nekobako.server.hub import Hub


def with_hub(engine: Engine, check: Callable[[Hub], Awaitable[None]]) -> None:
    """Run `check` with a new hub on `engine`; then its actors stop, its threads end and the
    engine is disposed, whatever `check` did."""

    async def main() -> None:
        hub = Hub(engine)
        try:
            await check(hub)
        finally:
            hub.tables.closing = True
            await actor.stop(hub.tables, hub.tables.values())
            hub.workers.close()

    try:
        asyncio.run(main())
    finally:
        engine.dispose()
