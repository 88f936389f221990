"""`nekobako solve shutbox`: the exact value and best first moves of a solo Shut the Box turn."""

from __future__ import annotations

import json
import time
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..engine import InvalidOptions
from ..games.shutbox.solver import Solution, parse_max_close, solve
from ..games.shutbox.tables import ONE_DIE_TOTALS, TWO_DICE_TOTALS
from ..i18n import Message
from ..i18n import text as say
from .common import lang_option, print_error

SOLVABLE = ("shutbox",)


def register(app: typer.Typer) -> None:
    app.command("solve", help="cli.help.solve")(solve_command)


def solve_command(
    ctx: typer.Context,
    game: str = typer.Argument(..., help="cli.help.solve.game"),
    tiles: int = typer.Option(9, "--tiles", help="cli.help.solve.tiles"),
    objective: str = typer.Option("shut", "--objective", help="cli.help.solve.objective"),
    scoring: str = typer.Option("total", "--scoring", help="cli.help.solve.scoring"),
    max_close: str = typer.Option("3", "--max-close", help="cli.help.solve.max_close"),
    one_die: str = typer.Option("max6", "--one-die", help="cli.help.solve.one_die"),
    as_json: bool = typer.Option(False, "--json", help="cli.help.json_table"),
    lang: str = lang_option("cli.help.lang_table"),
) -> None:
    """Solve one solo turn exactly; print its value and the best move for each opening roll."""
    err = Console(stderr=True)
    if game not in SOLVABLE:
        print_error(err, say("cli.solve.only", lang, game=game, games=", ".join(SOLVABLE)), lang)
        raise typer.Exit(2)
    given = {p.name for p in ctx.command.params if p.name and _typed(ctx, p.name)}
    for option, why in ignored_options(given, objective, as_json):
        print_error(err, say("cli.solve.ignored", lang, option=option, why=why), lang, "cli.note")
    started = time.perf_counter()
    try:
        solution = solve(tiles, objective, scoring, parse_max_close(max_close), one_die)
    except InvalidOptions as exc:
        print_error(err, exc.text(lang), lang)
        raise typer.Exit(2) from None
    seconds = time.perf_counter() - started
    rows = first_moves(solution)
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "value": solution.value,
                    "game": game,
                    "tiles": tiles,
                    "objective": objective,
                    "scoring": scoring,
                    "max_close": solution.max_close,
                    "one_die": one_die,
                    "first_roll": "roll 1" if solution.best_dice[solution.full] == 1 else "roll",
                    "first_moves": rows,
                    "seconds": round(seconds, 4),
                }
            )
        )
        return
    show(solution, rows, seconds, lang)


def _typed(ctx: typer.Context, name: str) -> bool:
    """Was this option typed on the command line (not left at its default)?"""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name == "COMMANDLINE"


def ignored_options(given: set[str], objective: str, as_json: bool) -> list[tuple[str, Message]]:
    """The options typed that change nothing here, with the reason, so nobody reads a result as
    depending on them."""
    out = []
    if "scoring" in given and objective == "shut":
        out.append(("--scoring", Message("cli.solve.ignored_scoring")))
    if "lang" in given and as_json:
        out.append(("--lang", Message("cli.solve.ignored_lang")))
    return out


def first_moves(solution: Solution) -> list[dict[str, object]]:
    """Per opening total: its probability, the best close and its value, and the runner-up."""
    one = solution.best_dice[solution.full] == 1
    dist, ways = (ONE_DIE_TOTALS, 6) if one else (TWO_DICE_TOTALS, 36)
    rows: list[dict[str, object]] = []
    for total, w in dist:
        choices = solution.choices(solution.full, total)
        rows.append(
            {
                "total": total,
                "probability": w / ways,
                "best": str(choices[0][0]) if choices else None,
                "value": choices[0][1] if choices else None,
                "next": str(choices[1][0]) if len(choices) > 1 else None,
                "next_value": choices[1][1] if len(choices) > 1 else None,
            }
        )
    return rows


def _fmt(solution: Solution, value: object) -> str:
    if value is None:
        return "—"
    assert isinstance(value, float)
    return f"{value * 100:.4f} %" if solution.maximize else f"{value:.4f}"


def w(key: str, lang: str, **params: Any) -> str:
    return say(f"cli.solve.{key}", lang, **params)


def _option(name: str, value: object, lang: str) -> str:
    """A solver setting as the table options name it: `Tiles per roll: Up to 3`."""
    return say("cli.label", lang, label=say(f"shutbox.option.{name}", lang)) + say(
        f"shutbox.option.{name}.value.{value}", lang
    )


def show(solution: Solution, rows: list[dict[str, object]], seconds: float, lang: str) -> None:
    console = Console()
    value = solution.value
    scoring = say(f"shutbox.option.scoring.value.{solution.scoring}", lang)
    if solution.maximize:
        headline = w("shut", lang, value=f"{value:.10f}", percent=f"{value * 100:.4f}")
        goal = w("goal_shut", lang)
    else:
        headline = w("score", lang, value=f"{value:.6f}")
        goal = w("goal_score", lang, scoring=scoring)
    title = w(
        "title",
        lang,
        game=Message("game.shutbox"),
        tiles=solution.tiles,
        goal=goal,
        close=_option("max_close", solution.max_close, lang),
        one_die=_option("one_die", solution.one_die, lang),
    )
    console.print(f"[bold]{escape(title)}[/]")
    console.print(f"[bold]{escape(headline)}[/]  {escape(w('solved', lang, seconds=f'{seconds:.3f}'))}")
    columns = ("roll", "chance", "best", "value", "next", "next_value")
    table = Table(*[w(key, lang) for key in columns], title=w("table", lang))
    for row in rows:
        table.add_row(
            str(row["total"]),
            f"{row['probability']:.4f}",
            str(row["best"] or w("over", lang)),
            _fmt(solution, row["value"]),
            str(row["next"] or "—"),
            _fmt(solution, row["next_value"]),
        )
    console.print(table)
