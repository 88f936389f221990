"""`python -m nekobako.server --port 8000 --database-url sqlite:///nekobako.db` (what the tests start)."""

from __future__ import annotations

import argparse
import sys

from .run import DatabaseError, run_server
from .settings import Limits, Settings


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m nekobako.server")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--database-url", default="sqlite:///nekobako.db")
    parser.add_argument("--bot-delay", type=float, default=0.5)
    parser.add_argument("--public-url", default=None, help="https://… makes session cookies Secure")
    parser.add_argument("--forwarded-allow-ips", default=None, help="proxies whose X-Forwarded-* headers count")
    parser.add_argument("--bot-processes", type=int, default=1)
    parser.add_argument("--hash-threads", type=int, default=2)
    parser.add_argument("--limit", action="append", default=[], metavar="NAME=N", help=", ".join(Limits.names()))
    parser.add_argument("--log-level", default="info")
    parser.add_argument("--workers", type=int, default=1, help="server processes on this port (>1 needs PostgreSQL)")
    args = parser.parse_args()
    try:
        limits = Limits().with_text(args.limit)
    except ValueError as exc:
        parser.error(str(exc))
    settings = Settings(
        bot_delay=args.bot_delay,
        public_url=args.public_url,
        bot_processes=max(1, args.bot_processes),
        hash_threads=max(1, args.hash_threads),
        limits=limits,
    )
    try:
        run_server(
            args.host,
            args.port,
            args.database_url,
            settings,
            forwarded_allow_ips=args.forwarded_allow_ips,
            log_level=args.log_level,
            workers=max(1, args.workers),
        )
    except DatabaseError as exc:
        print(exc, file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:  # Ctrl-C, after the server shut down cleanly
        sys.exit(130)


if __name__ == "__main__":
    main()
