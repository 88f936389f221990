"""`nekobako reports`: the players' reports for the operator, newest first, read straight from the
server's database (the same `--database-url` as `nekobako serve`; docs/deploy.md). An operator's
tool beside `serve`, not an endpoint: nobody needs an admin account, and nothing is exposed."""

from __future__ import annotations

import json

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..i18n import text as say
from .common import lang_option, print_error


def register(app: typer.Typer) -> None:
    app.command("reports", help="cli.help.reports")(reports_command)


def reports_command(
    database_url: str = typer.Option("sqlite:///nekobako.db", "--database-url", help="cli.help.serve.database_url"),
    last: int = typer.Option(20, "--last", min=1, max=1000, help="cli.help.reports.last"),
    as_json: bool = typer.Option(False, "--json", help="cli.help.json_table"),
    lang: str = lang_option("cli.help.lang_table"),
) -> None:
    """List the newest reports with their reason and the chat lines the reporter saw."""
    from ..store import DatabaseError, open_database
    from ..store.moderation import list_reports

    try:
        engine = open_database(database_url)
    except DatabaseError as exc:
        print_error(Console(stderr=True), str(exc), lang)
        raise typer.Exit(2) from None
    try:
        found = list_reports(engine, last)
    finally:
        engine.dispose()
    if as_json:
        typer.echo(json.dumps({"reports": found}, ensure_ascii=False, indent=2))
        return
    out = Console(highlight=False)
    if not found:
        out.print(say("cli.reports.none", lang))
        return
    table = Table(title=say("cli.reports.title", lang, n=len(found)), show_lines=True)
    for key in ("id", "at", "reporter", "reported", "table", "reason", "context"):
        table.add_column(say(f"cli.reports.{key}", lang), overflow="fold")
    for r in found:
        lines = "\n".join(f"{m['user']['name']}: {m['text']}" for m in r["context"])
        table.add_row(
            str(r["id"]),
            r["at"] or "",
            escape(r["reporter"]["name"]),
            escape(r["reported"]["name"]),
            "" if r["table"] is None else str(r["table"]),
            escape(r["reason"]) or "—",
            escape(lines) or "—",
        )
    out.print(table)
