"""`python -m nekobako.server --port 8000 --database-url sqlite:///nekobako.db` (what the tests start)."""

from __future__ import annotations

import argparse
import sys

from .run import DatabaseError, run_server


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m nekobako.server")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--database-url", default="sqlite:///nekobako.db")
    parser.add_argument("--bot-delay", type=float, default=0.5)
    parser.add_argument("--log-level", default="info")
    args = parser.parse_args()
    try:
        run_server(args.host, args.port, args.database_url, bot_delay=args.bot_delay, log_level=args.log_level)
    except DatabaseError as exc:
        print(exc, file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
