"""`nekobako replay RECORD.json`: rebuild a game from its record and show where it stands."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from ..engine import BadRecord, Record, get_game, replay, summary


def register(app: typer.Typer) -> None:
    app.command("replay")(replay_command)


def replay_command(
    record_file: Path = typer.Argument(..., help="A record (JSON); '-' reads standard input."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of tables."),
    lang: str = typer.Option("en", "--lang", help="en or ja, for the event log."),
) -> None:
    """Replay a record; print who is to move, legal actions, scores and winners."""
    try:
        text = sys.stdin.read() if str(record_file) == "-" else record_file.read_text(encoding="utf-8")
    except OSError as exc:
        typer.echo(f"cannot read {record_file}: {exc}", err=True)
        raise typer.Exit(2) from None
    try:
        record = Record.from_json(text)
        state = replay(record)
    except BadRecord as exc:
        typer.echo(f"bad record: {exc}", err=True)
        raise typer.Exit(1) from None
    result = summary(state)
    if as_json:
        typer.echo(json.dumps(result, ensure_ascii=False))
        return
    game = get_game(record.game)
    console = Console()
    console.print(
        f"[bold]{game.title['ja' if lang == 'ja' else 'en']}[/] · {record.players} players · "
        f"{len(record.actions)} actions · {'over' if result['over'] else 'in progress'}"
    )
    table = Table("round", *[f"seat {s}" for s in range(state.players)])
    for i, row in enumerate(result["round_scores"], 1):
        table.add_row(str(i), *[str(v) for v in row])
    table.add_row("total", *[str(v) for v in result["scores"]], style="bold")
    console.print(table)
    if result["over"]:
        console.print("winners: " + ", ".join(f"seat {s}" for s in result["winners"]))
    else:
        console.print(f"to move: {result['to_move']}")
        for seat, actions in result["legal"].items():
            console.print(f"  seat {seat}: " + ", ".join(actions))
    for event in state.events:
        console.print(f"  · {game.describe(event, lang)}")
