"""`nekobako simulate GAME --players N --bots a,b,… --games K`: bots against bots, in parallel.

The work lives in `nekobako.sim` (runner and statistics); this module parses, shows progress on
stderr and prints the table (or one JSON object with `--json`).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from ..engine import NekobakoError, get_game, parse_option_text
from ..i18n import Message
from ..i18n import text as say
from ..sim.ray_runner import LOCAL, ClusterError, check_reachable, run_games_on_ray
from ..sim.runner import GameTask, check_bots, parse_bots, run_games
from ..sim.stats import summarize
from .common import lang_option, os_reason, print_error


def register(app: typer.Typer) -> None:
    app.command("simulate", help="cli.help.simulate")(simulate_command)


def parse_option_args(items: list[str]) -> dict[str, str]:
    """`--options` may be repeated, and one value may hold several space-separated `k=v`."""
    return parse_option_text([word for item in items for word in item.split()])


def simulate_command(
    game: str = typer.Argument(..., help="cli.help.simulate.game"),
    players: int = typer.Option(..., "--players", "-p", help="cli.help.simulate.players"),
    bots: str = typer.Option("random", "--bots", "-b", help="cli.help.simulate.bots"),
    games: int = typer.Option(100, "--games", "-n", help="cli.help.simulate.games"),
    seed: int = typer.Option(0, "--seed", "-s", help="cli.help.simulate.seed"),
    workers: int = typer.Option(os.cpu_count() or 1, "--workers", "-w", help="cli.help.simulate.workers"),
    options: list[str] = typer.Option([], "--options", "-o", help="cli.help.options"),
    records: Path | None = typer.Option(None, "--records", help="cli.help.simulate.records"),
    on_ray: bool = typer.Option(False, "--ray", help="cli.help.simulate.ray"),
    ray_address: str | None = typer.Option(
        None, "--ray-address", metavar="HOST:PORT", help="cli.help.simulate.ray_address"
    ),
    as_json: bool = typer.Option(False, "--json", help="cli.help.json_tables"),
    lang: str = lang_option("cli.help.lang_tables"),
) -> None:
    """Play K games between bots (seats rotate every game) and report wins with 95% intervals."""
    err = Console(stderr=True)
    ray = ray_address or (LOCAL if on_ray else None)
    try:
        if games < 1:
            raise NekobakoError(Message("cli.simulate.games_min"))
        if workers < 1:
            raise NekobakoError(Message("cli.simulate.workers_min"))
        table_options = get_game(game).options(parse_option_args(options), players).to_json()
        specs = parse_bots(bots, players)
        check_bots(game, specs, players, table_options)
        if records is not None:
            check_records_dir(records)
        if ray not in (None, LOCAL):
            check_reachable(ray)
    except NekobakoError as exc:
        print_error(err, exc.text(lang), lang)
        raise typer.Exit(2) from None
    tasks = [GameTask(game, players, specs, table_options, seed, i) for i in range(games)]
    try:
        with Progress(
            TextColumn(f"[bold]{escape(w('progress', lang))}[/]"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=err,
            transient=as_json,
        ) as progress:
            bar = progress.add_task("games", total=games)

            def advance(n: int) -> None:
                progress.advance(bar, n)

            if ray is None:
                results = run_games(tasks, workers, on_done=advance)
            else:
                results = run_games_on_ray(tasks, ray, workers, on_done=advance)
    except NekobakoError as exc:
        print_error(err, exc.text(lang), lang)
        raise typer.Exit(2 if isinstance(exc, ClusterError) else 1) from None
    except KeyboardInterrupt:
        err.print(say("cli.interrupted", lang))
        raise typer.Exit(130) from None
    unsaved: Message | None = None
    if records is not None:
        try:
            for result in results:
                path = records / f"{game}-s{seed}-{result.index:05d}.json"
                path.write_text(json.dumps(result.record, ensure_ascii=False) + "\n", encoding="utf-8")
        except OSError as exc:  # checked at the start; a disk can still fill up: the report comes anyway
            unsaved = Message("cli.simulate.records_failed", path=str(records), reason=os_reason(exc))
    summary = summarize(results, specs)
    report = {
        "game": game,
        "players": players,
        "options": table_options,
        "seed": seed,
        "games": games,
        "seating": "bot entry j sits in seat (j + game index) mod players",
        **summary,
    }
    if as_json:
        typer.echo(json.dumps(report, ensure_ascii=False))
    else:
        print_report(report, None if unsaved else records, lang)
    if unsaved:
        print_error(err, unsaved.text(lang), lang)
        raise typer.Exit(1)


def check_records_dir(records: Path) -> None:
    """`--records` must be a directory we can write in (made if missing): checked before the first
    game, so a long simulation never ends with nowhere to put its records."""
    if records.exists() and not records.is_dir():
        raise NekobakoError(Message("cli.simulate.records_file", path=str(records)))
    try:
        records.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=records):
            pass
    except OSError as exc:
        raise NekobakoError(
            Message("cli.simulate.records_unwritable", path=str(records), reason=os_reason(exc))
        ) from None


def w(key: str, lang: str, **params: Any) -> str:
    """The report's words in the reader's language (`cli.simulate.<key>`)."""
    return say(f"cli.simulate.{key}", lang, **params)


def _interval(row: dict) -> str:
    low, high = row["ci95"]
    return f"{low:.1%} – {high:.1%}"


def print_report(report: dict, records: Path | None, lang: str = "en") -> None:
    console = Console()
    has_shut = any("shut_rate" in row for row in report["bots"])
    has_loss = any("loss_rate" in row for row in report["bots"])  # one loser per game (Catopomp)
    table = Table(
        title=w(
            "title",
            lang,
            title=Message(f"game.{report['game']}"),
            players=Message("words.players", n=report["players"]),
            games=Message("words.games", n=report["games"]),
            seed=report["seed"],
        ),
        caption=w("caption", lang, share=f"{report['fair_share']:.1%}"),
    )
    extra = (("shut_rate",) if has_shut else ()) + (("loss_rate", "loss_ci") if has_loss else ())
    for key in ("entry", "bot", "wins", "win_rate", "ci", "mean_score", *extra):
        table.add_column(w(key, lang), justify="left" if key == "bot" else "right")
    for row in report["bots"]:
        cells = [
            str(row["entry"]),
            row["bot"],
            f"{row['wins']:g}",
            f"{row['win_rate']:.1%}",
            _interval(row),
            f"{row['mean_score']:.2f}",
        ]
        if has_shut:
            cells.append(f"{row['shut_rate']:.1%}")
        if has_loss:
            low, high = row["loss_ci95"]
            cells += [f"{row['losses']} ({row['loss_rate']:.1%})", f"{low:.1%} – {high:.1%}"]
        table.add_row(*cells)
    console.print(table)
    if len(report["by_bot"]) < len(report["bots"]):
        by_bot = Table(title=w("by_bot", lang))
        for key in ("bot", "seats", "wins", "win_rate", "ci", "mean_score"):
            by_bot.add_column(w(key, lang), justify="left" if key == "bot" else "right")
        for row in report["by_bot"]:
            by_bot.add_row(
                row["bot"],
                str(row["seats"]),
                f"{row['wins']:g}",
                f"{row['win_rate']:.1%}",
                _interval(row),
                f"{row['mean_score']:.2f}",
            )
        console.print(by_bot)
    if report["players"] > 1:
        seats = Table(title=w("by_seat", lang))
        for key in ("seat", "wins", "win_rate", "ci"):
            seats.add_column(w(key, lang), justify="right")
        for row in report["seats"]:
            seats.add_row(str(row["seat"]), f"{row['wins']:g}", f"{row['win_rate']:.1%}", _interval(row))
        console.print(seats)
    console.print(w("actions", lang, mean=f"{report['mean_actions']:.1f}"))
    if records is not None:
        console.print(w("records", lang, path=records))
