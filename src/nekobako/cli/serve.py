"""`nekobako serve`: the platform (web client, REST lobby, WebSocket play) in one process, or in
`--workers N` processes on one port sharing a PostgreSQL database."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_command)


def serve_command(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (0.0.0.0 for everyone)."),
    port: int = typer.Option(8000, "--port", min=1, max=65535, help="TCP port (1–65535)."),
    database_url: str = typer.Option(
        "sqlite:///nekobako.db", "--database-url", help="SQLite file (default) or postgresql://user@host/db."
    ),
    bot_delay: float = typer.Option(
        0.5, "--bot-delay", min=0.0, help="Seconds a bot waits before moving, so people can follow (≥ 0)."
    ),
    public_url: str = typer.Option(None, "--public-url", help="The address people use; https makes cookies Secure."),
    forwarded_allow_ips: str = typer.Option(
        None, "--forwarded-allow-ips", help="Proxies whose X-Forwarded-* headers are believed (none by default)."
    ),
    bot_processes: int = typer.Option(1, "--bot-processes", min=1, help="Processes for bot searches (ISMCTS)."),
    limit: list[str] = typer.Option([], "--limit", help="NAME=N, e.g. open_tables=10 (see docs/server.md)."),
    workers: int = typer.Option(
        1, "--workers", min=1, max=64, help="Server processes on this port (more than 1 needs PostgreSQL)."
    ),
) -> None:
    """Serve the browser client and the game server; stop with Ctrl-C (no accepted move is lost)."""
    from ..server.run import DatabaseError, run_server
    from ..server.settings import Limits, Settings
    from ..store import open_database

    try:
        limits = Limits().with_text(limit)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--limit") from None
    settings = Settings(bot_delay=bot_delay, public_url=public_url, bot_processes=bot_processes, limits=limits)
    try:
        open_database(database_url).dispose()
        processes = f"  ·  {workers} processes" if workers > 1 else ""
        typer.echo(f"nekobako on http://{host}:{port}/  ·  database {database_url.split('@')[-1]}{processes}")
        run_server(host, port, database_url, settings, forwarded_allow_ips=forwarded_allow_ips, workers=workers)
    except DatabaseError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(2) from None
