"""`python -m nekobako.server --port 8000 --database-url sqlite:///nekobako.db` (what the tests start).

A mistake on the command line is one line in `--lang`'s language (en, ja) and exit code 2, as
`nekobako serve` answers it; the port is checked here, before uvicorn (which would wrap 70000
round to 4464 and serve there)."""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

from ..i18n import LANGS, text
from .run import DatabaseError, run_server
from .settings import Limits, Settings

PROG = "python -m nekobako.server"


class _Parser(argparse.ArgumentParser):
    """argparse with its one-line refusals in our words (its own are English only)."""

    lang = "en"

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        print(f"{text('cli.label', self.lang, label=text('cli.error', self.lang))}{message}", file=sys.stderr)
        sys.exit(2)


def argv_lang(argv: list[str]) -> str:
    """`--lang` read before parsing, so that a mistake anywhere is worded in it."""
    for i, arg in enumerate(argv):
        value = argv[i + 1] if arg == "--lang" and i + 1 < len(argv) else arg.removeprefix("--lang=")
        if (arg == "--lang" or arg.startswith("--lang=")) and value in LANGS:
            return value
    return "en"


def port_number(value: str) -> int | None:
    """The port `value` names, or None when it is not a whole number from 1 to 65535."""
    try:
        number = int(value)
    except ValueError:
        return None
    return number if 1 <= number <= 65535 else None


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    lang = argv_lang(argv)
    parser = _Parser(prog=PROG)
    parser.lang = lang
    parser.add_argument("--lang", choices=LANGS, default="en", help="the language of these messages")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", default="8000", help="1-65535")
    parser.add_argument("--database-url", default="sqlite:///nekobako.db")
    parser.add_argument("--bot-delay", type=float, default=0.5)
    parser.add_argument("--public-url", default=None, help="https://… makes session cookies Secure")
    parser.add_argument("--forwarded-allow-ips", default=None, help="proxies whose X-Forwarded-* headers count")
    parser.add_argument("--bot-processes", type=int, default=1)
    parser.add_argument("--hash-threads", type=int, default=2)
    parser.add_argument(
        "--warm-bots",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="start bot search processes with the server, the compiled search loaded (else at the first search)",
    )
    parser.add_argument("--limit", action="append", default=[], metavar="NAME=N", help=", ".join(Limits.names()))
    parser.add_argument("--log-level", default="info")
    parser.add_argument("--workers", type=int, default=1, help="server processes on this port (>1 needs PostgreSQL)")
    args = parser.parse_args(argv)
    port = port_number(args.port)
    if port is None:
        parser.error(text("cli.usage.port", lang, value=args.port))
    try:
        limits = Limits().with_text(args.limit)
    except ValueError as exc:
        parser.error(str(exc))
    settings = Settings(
        bot_delay=args.bot_delay,
        public_url=args.public_url,
        bot_processes=max(1, args.bot_processes),
        hash_threads=max(1, args.hash_threads),
        warm_bots=args.warm_bots,
        limits=limits,
    )
    try:
        run_server(
            args.host,
            port,
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
