"""`nekobako serve`: the platform (web client, REST lobby, WebSocket play) in one process, or in
`--workers N` processes on one port sharing a PostgreSQL database."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    app.command("serve", help="cli.help.serve")(serve_command)


def serve_command(
    host: str = typer.Option("127.0.0.1", "--host", help="cli.help.serve.host"),
    port: int = typer.Option(8000, "--port", min=1, max=65535, help="cli.help.serve.port"),
    database_url: str = typer.Option("sqlite:///nekobako.db", "--database-url", help="cli.help.serve.database_url"),
    bot_delay: float = typer.Option(0.5, "--bot-delay", min=0.0, help="cli.help.serve.bot_delay"),
    public_url: str = typer.Option(None, "--public-url", help="cli.help.serve.public_url"),
    forwarded_allow_ips: str = typer.Option(None, "--forwarded-allow-ips", help="cli.help.serve.forwarded_allow_ips"),
    bot_processes: int = typer.Option(1, "--bot-processes", min=1, help="cli.help.serve.bot_processes"),
    limit: list[str] = typer.Option([], "--limit", help="cli.help.serve.limit"),
    workers: int = typer.Option(1, "--workers", min=1, max=64, help="cli.help.serve.workers"),
) -> None:
    """Serve the browser client and the game server; stop with Ctrl-C (no accepted move is lost)."""
    from ..server.run import DatabaseError, run_server
    from ..server.settings import Limits, Settings
    from ..store import open_database

    try:
        limits = Limits().with_text(limit)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--limit") from None
    settings = Settings(
        bot_delay=bot_delay, public_url=public_url, bot_processes=bot_processes, limits=limits, warm_bots=True
    )
    try:
        open_database(database_url).dispose()
        processes = f"  ·  {workers} processes" if workers > 1 else ""
        typer.echo(f"nekobako on http://{host}:{port}/  ·  database {database_url.split('@')[-1]}{processes}")
        run_server(host, port, database_url, settings, forwarded_allow_ips=forwarded_allow_ips, workers=workers)
    except DatabaseError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(2) from None
