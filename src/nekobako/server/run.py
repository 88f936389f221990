"""Running the server under uvicorn (used by `nekobako serve` and `python -m nekobako.server`)."""

from __future__ import annotations

import uvicorn

from ..store import DatabaseError, normalize_url, open_database
from .app import create_app
from .settings import Settings

WS_MAX_SIZE = 1024 * 1024  # larger frames are not read: the connection closes with 1009


def run_server(
    host: str,
    port: int,
    database_url: str,
    settings: Settings | None = None,
    *,
    forwarded_allow_ips: str | None = None,
    log_level: str = "info",
) -> None:
    """Check the database first so a bad URL fails with one clear line, then serve until stopped.
    `X-Forwarded-For` / `-Proto` are believed only from the proxies `forwarded_allow_ips` names."""
    database_url = normalize_url(database_url)
    open_database(database_url).dispose()  # raises DatabaseError with the reason
    config = uvicorn.Config(
        create_app(database_url, settings or Settings(bot_delay=0.5)),
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=WS_MAX_SIZE,
        lifespan="on",
        proxy_headers=forwarded_allow_ips is not None,
        forwarded_allow_ips=forwarded_allow_ips or "",
    )
    # `uvicorn.Server.run`, not `uvicorn.run`: after its graceful shutdown on Ctrl-C the server
    # raises the signal again, and `uvicorn.run` would swallow the KeyboardInterrupt that lets the
    # command exit with status 130.
    uvicorn.Server(config).run()


__all__ = ["DatabaseError", "run_server"]
