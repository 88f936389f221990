"""Running the server under uvicorn (used by `nekobako serve` and `python -m nekobako.server`).

One process by default. `workers` > 1 starts that many server processes on one port (uvicorn's
supervisor hands each connection to one of them and starts a process again if one dies); they
share the database, which must then be PostgreSQL. A SQLite file is served by one process only:
a second server on the same file stops at once with a message saying so.
"""

from __future__ import annotations

import dataclasses
import fcntl
import json
import os
from pathlib import Path
from typing import IO, Any

import uvicorn
from sqlalchemy.engine import make_url

from ..store import DatabaseError, normalize_url, open_database
from .app import create_app
from .proxies import ProxyCheck
from .settings import Limits, Settings

WS_MAX_SIZE = 1024 * 1024  # larger frames are not read: the connection closes with 1009
SERVE_ENV = "NEKOBAKO_SERVE"  # the database URL and settings, for each worker process
SEVERAL_NEED_POSTGRES = "several server processes need PostgreSQL (--database-url postgresql://…); SQLite serves one"

_sqlite_lock: IO[bytes] | None = None  # held for the life of the process


def app_from_environment() -> ProxyCheck:
    """The application in a worker process, made from what the starting process put in
    `NEKOBAKO_SERVE` (uvicorn starts workers by import string)."""
    data = json.loads(os.environ[SERVE_ENV])
    settings = data["settings"]
    app = create_app(data["url"], Settings(**{**settings, "limits": Limits(**settings["limits"])}))
    return ProxyCheck(app, data["forwarded_allow_ips"])


def lock_sqlite(database_url: str) -> None:
    """Refuse to serve a SQLite file another server process serves (it has no way to tell that
    process of its changes). The lock goes with the process, however it ends."""
    global _sqlite_lock
    parsed = make_url(database_url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return
    lock = Path(parsed.database + ".serve-lock").open("ab")  # noqa: SIM115 (open while the process lives)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        lock.close()
        raise DatabaseError(
            f"another nekobako server already serves {parsed.database}; {SEVERAL_NEED_POSTGRES}"
        ) from None
    _sqlite_lock = lock


def run_server(
    host: str,
    port: int,
    database_url: str,
    settings: Settings | None = None,
    *,
    forwarded_allow_ips: str | None = None,
    log_level: str = "info",
    workers: int = 1,
) -> None:
    """Check the database first so a bad URL fails with one clear line, then serve until stopped.
    `X-Forwarded-For` / `-Proto` are believed only from the proxies `forwarded_allow_ips` names
    (`proxies.ProxyCheck`, which warns once when another peer sends them)."""
    database_url = normalize_url(database_url)
    settings = dataclasses.replace(settings or Settings(bot_delay=0.5), tune_collector=True)
    open_database(database_url).dispose()  # raises DatabaseError with the reason
    sqlite = make_url(database_url).get_backend_name() == "sqlite"
    if workers > 1 and sqlite:
        raise DatabaseError(f"--workers {workers}: {SEVERAL_NEED_POSTGRES}")
    lock_sqlite(database_url)
    common: dict[str, Any] = {
        "host": host,
        "port": port,
        "log_level": log_level,
        "ws_max_size": WS_MAX_SIZE,
        "lifespan": "on",
        "proxy_headers": False,  # believed in ProxyCheck, which also warns about an untrusted proxy
    }
    if workers > 1:
        os.environ[SERVE_ENV] = json.dumps(
            {"url": database_url, "settings": dataclasses.asdict(settings), "forwarded_allow_ips": forwarded_allow_ips}
        )
        config = uvicorn.Config(f"{__name__}:app_from_environment", factory=True, workers=workers, **common)
        sock = config.bind_socket()
        uvicorn.supervisors.Multiprocess(config, sockets=[sock]).run()
        return
    config = uvicorn.Config(ProxyCheck(create_app(database_url, settings), forwarded_allow_ips), **common)
    # `uvicorn.Server.run`, not `uvicorn.run`: after its graceful shutdown on Ctrl-C the server
    # raises the signal again, and `uvicorn.run` would swallow the KeyboardInterrupt that lets the
    # command exit with status 130.
    uvicorn.Server(config).run()


__all__ = ["DatabaseError", "run_server"]
