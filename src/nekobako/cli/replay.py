"""`nekobako replay RECORD.json`: rebuild a game from its record and show where it stands."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..engine import CHANCE, BadRecord, Record, State, get_game, replay, seat_name, summary
from ..i18n import join_list, text
from .common import RecordFileError, lang_option, parse_json, print_error, read_record


def register(app: typer.Typer) -> None:
    app.command("replay", help="cli.help.replay")(replay_command)


def replay_command(
    record_file: Path = typer.Argument(..., help="cli.help.replay.record_file"),
    as_json: bool = typer.Option(False, "--json", help="cli.help.json_tables"),
    moves: bool = typer.Option(False, "--moves", help="cli.help.replay.moves"),
    lang: str = lang_option("cli.help.lang_log"),
) -> None:
    """Replay a record; print who is to move, legal actions, scores and winners."""
    err = Console(stderr=True, soft_wrap=True)  # an error line is never cut in two
    try:
        data = parse_json(read_record(record_file))
        record = Record.from_json(data)
        state = replay(record)
    except RecordFileError as exc:
        print_error(err, exc.text(lang), lang)
        raise typer.Exit(2) from None
    except BadRecord as exc:
        print_error(err, exc.text(lang), lang, "cli.bad_record")
        raise typer.Exit(2) from None
    result = summary(state)
    if as_json:
        if moves:
            result["moves"] = [{"seat": seat, "action": str(action)} for seat, action in state.history]
        typer.echo(json.dumps(result, ensure_ascii=False))
        return
    game = get_game(record.game)
    names = player_names(data, state.players, lang)
    console = Console(highlight=False)
    status = text("cli.replay.over" if result["over"] else "cli.replay.running", lang)
    console.print(
        f"[bold]{text(f'game.{game.name}', lang)}[/] · {text('words.players', lang, n=record.players)} · "
        f"{text('cli.replay.actions', lang, n=len(state.history))} · {status}"
    )
    if moves:
        console.print(move_list(state, names, lang))
    table = Table(text("cli.replay.round", lang), *[escape(n) for n in names])
    for i, row in enumerate(result["round_scores"], 1):
        table.add_row(str(i), *[str(v) for v in row])
    table.add_row(text("cli.replay.total", lang), *[str(v) for v in result["scores"]], style="bold")
    console.print(table)
    if result["over"]:
        winners = [names[s] for s in result["winners"]]
        console.print(escape(text("cli.replay.winners", lang, n=len(winners), names=join_list(winners, lang))))
    else:
        to_move = result["to_move"]
        who = text("cli.chance", lang) if to_move == "chance" else join_list([names[s] for s in to_move], lang)
        console.print(escape(text("cli.replay.to_move", lang, who=who)))
        for seat, actions in result["legal"].items():
            console.print("  " + escape(text("cli.label", lang, label=names[int(seat)]) + ", ".join(actions)))
    if not moves:
        for event in state.events:
            console.print(f"  · {escape(game.describe(event, lang, names))}")


def player_names(data: Any, players: int, lang: str) -> list[str]:
    """The players' names a record carries (a server record's `names`, a terminal game's `seats`
    labels), else `Seat 2` / `席2`; never an empty or missing name."""
    for key in ("names", "seats"):
        given = data.get(key) if isinstance(data, dict) else None
        if isinstance(given, list) and len(given) == players:
            return [
                text("cli.replay.name", lang, name=_label(g, lang), seat=seat_name(s, lang))
                if isinstance(g, str) and g.strip()
                else seat_name(s, lang)
                for s, g in enumerate(given)
            ]
    return [seat_name(s, lang) for s in range(players)]


def _label(name: str, lang: str) -> str:
    """A name as a record gives it; a terminal game's `human` is the person who played it."""
    return text("cli.replay.human", lang) if name == "human" else name


def move_list(state: State, names: Sequence[str], lang: str) -> Table:
    """Every move in order, numbered, with who made it; the events each one caused under it."""
    game = state.game
    table = Table("#", text("cli.replay.player", lang), text("cli.replay.move", lang), box=None)
    events = sorted(state.events, key=lambda e: e.at)
    shown = 0

    def events_until(at: int) -> None:
        nonlocal shown
        while shown < len(events) and events[shown].at <= at:
            table.add_row("", "", f"[italic]· {escape(game.describe(events[shown], lang, names))}[/]")
            shown += 1

    events_until(0)
    for i, (seat, action) in enumerate(state.history, 1):
        who = text("cli.chance", lang) if seat == CHANCE else names[seat]
        table.add_row(str(i), escape(who), escape(str(action)))
        events_until(i)
    return table
