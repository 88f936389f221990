"""`nekobako review RECORD --seat K`: rate every decision of one seat (nekobako.review; docs/review.md)."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..engine import BadRecord, Record, replay
from ..i18n import Message, join_list, text
from ..review import DEFAULT_ITERATIONS, Review, ReviewError, check_iterations, check_seat, review_record
from .common import RecordFileError, lang_option, parse_json, print_error, read_record
from .replay import player_names

LABEL_STYLES = {"best": "green", "good": "", "inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}


def register(app: typer.Typer) -> None:
    app.command("review", help="cli.help.review")(review_command)


def review_command(
    record_file: Path = typer.Argument(..., help="cli.help.review.record_file"),
    seat: int = typer.Option(..., "--seat", help="cli.help.review.seat"),
    budget: int = typer.Option(DEFAULT_ITERATIONS, "--budget", help="cli.help.review.budget"),
    seed: int = typer.Option(0, "--seed", help="cli.help.review.seed"),
    as_json: bool = typer.Option(False, "--json", help="cli.help.json_table"),
    lang: str = lang_option("cli.help.lang_table"),
) -> None:
    """Review one seat of a record; a table of its decisions and its accuracy."""
    err = Console(stderr=True, soft_wrap=True)
    try:
        data = parse_json(read_record(record_file))
        record = Record.from_json(data)
        check_seat(seat, replay(record).players)  # refused before any progress is drawn
        check_iterations(budget)
        with Progress(
            TextColumn(f"[bold]{escape(text('cli.review.progress', lang))}[/]"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=err,
            transient=True,
        ) as progress:
            bar = progress.add_task("review", total=None)
            review = review_record(
                record, seat, budget, seed, lambda done, total: progress.update(bar, completed=done, total=total)
            )
    except RecordFileError as exc:
        print_error(err, exc.text(lang), lang)
        raise typer.Exit(2) from None
    except BadRecord as exc:
        print_error(err, exc.text(lang), lang, "cli.bad_record")
        raise typer.Exit(2) from None
    except ReviewError as exc:
        print_error(err, exc.text(lang), lang)
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        err.print(text("cli.interrupted", lang))
        raise typer.Exit(130) from None
    if as_json:
        typer.echo(json.dumps(review.to_json(), ensure_ascii=False))
        return
    show(review, player_names(data, review.players, lang), lang)


def show(review: Review, names: list[str], lang: str) -> None:
    console = Console(highlight=False)
    method = (
        text("cli.review.method.solver", lang)
        if review.method == "solver"
        else text("cli.review.method.search", lang, n=review.iterations)
    )
    title = text("cli.review.title", lang, game=Message(f"game.{review.game}"), seat=names[review.seat], method=method)
    console.print(f"[bold]{escape(title)}[/]")
    if not review.decisions:
        console.print(escape(text("cli.review.none", lang)))
        return
    columns = ("move", "round", "played", "label", "best", "value", "loss")
    table = Table(*[text(f"cli.review.{c}", lang) for c in columns])
    for d in review.decisions:
        style = LABEL_STYLES[d.label]
        word = text(f"review.label.{d.label}", lang)
        table.add_row(
            str(d.ply + 1),
            str(d.round + 1),
            escape(d.chosen),
            f"[{style}]{escape(word)}[/]" if style else escape(word),
            escape(d.best) if d.best != d.chosen else "",
            _raw(d.raw_value, d.objective),
            f"{d.loss:.3f}" + (f" ± {d.margin:.3f}" if d.margin else ""),
        )
    console.print(table)
    objectives = dict.fromkeys(d.objective for d in review.decisions)
    units = join_list([text(f"review.objective.{o}", lang) for o in objectives], lang)
    console.print(escape(text("cli.review.values", lang, objectives=units)))
    counts = review.counts()
    console.print(escape(text("cli.review.counts", lang, **counts)))
    console.print(f"[bold]{escape(text('cli.review.accuracy', lang, accuracy=f'{review.accuracy:.1f}'))}[/]")


def _raw(value: float, objective: str) -> str:
    """A value in its own unit: a probability in percent, an expected penalty in points."""
    if objective in ("shut", "target"):
        return f"{value * 100:.2f} %"
    return f"{value:.3f}"
