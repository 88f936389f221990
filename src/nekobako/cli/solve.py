"""`nekobako solve shutbox`: the exact value and best first moves of a solo Shut the Box turn."""

from __future__ import annotations

import json
import time

import typer
from rich.console import Console
from rich.table import Table

from ..engine import InvalidOptions
from ..games.shutbox.solver import Solution, parse_max_close, solve
from ..games.shutbox.tables import ONE_DIE_TOTALS, TWO_DICE_TOTALS
from .common import lang_option

SOLVABLE = ("shutbox",)

TEXT = {
    "en": {
        "title": "Shut the Box · {tiles} tiles · {goal} · max close {max_close} · one die {one_die}",
        "goal_shut": "chance to shut the box",
        "goal_score": "least expected penalty ({scoring})",
        "shut": "P(shut the box) = {value:.10f} ({percent:.4f} %)",
        "score": "expected penalty = {value:.6f}",
        "solved": "solved in {seconds:.3f} s",
        "table": "Best first moves",
        "columns": ("roll", "chance", "best move", "value after", "next best", "its value"),
        "over": "turn over",
    },
    "ja": {
        "title": "シャット・ザ・ボックス · タイル{tiles}枚 · {goal} · 最大{max_close}枚 · ダイス1個 {one_die}",
        "goal_shut": "シャットする確率を最大化",
        "goal_score": "期待減点を最小化（{scoring}）",
        "shut": "シャットする確率 = {value:.10f}（{percent:.4f} %）",
        "score": "期待減点 = {value:.6f}",
        "solved": "計算時間 {seconds:.3f} 秒",
        "table": "最初の出目ごとの最善手",
        "columns": ("出目", "確率", "最善手", "その後の値", "次善手", "その値"),
        "over": "手番終了",
    },
}


def register(app: typer.Typer) -> None:
    app.command("solve")(solve_command)


def solve_command(
    ctx: typer.Context,
    game: str = typer.Argument(..., help="The game to solve: shutbox."),
    tiles: int = typer.Option(9, "--tiles", help="Tiles on the board: 9, 10 or 12."),
    objective: str = typer.Option(
        "shut", "--objective", help="shut: best chance to shut the box; score: least penalty."
    ),
    scoring: str = typer.Option("total", "--scoring", help="Penalty for --objective score: total, count or digits."),
    max_close: str = typer.Option("3", "--max-close", help="Tiles one roll may close: 3, 2 or any."),
    one_die: str = typer.Option("max6", "--one-die", help="When one die may be rolled: max6, sum6 or never."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of a table."),
    lang: str = lang_option("en or ja, for the table."),
) -> None:
    """Solve one solo turn exactly; print its value and the best move for each opening roll."""
    if game not in SOLVABLE:
        typer.echo(f"cannot solve {game!r}: only {', '.join(SOLVABLE)} has an exact solver", err=True)
        raise typer.Exit(2)
    given = {p.name for p in ctx.command.params if p.name and _typed(ctx, p.name)}
    for option, why in ignored_options(given, objective, as_json):
        typer.echo(f"note: {option} is ignored: {why}", err=True)
    started = time.perf_counter()
    try:
        solution = solve(tiles, objective, scoring, parse_max_close(max_close), one_die)
    except InvalidOptions as exc:
        typer.echo(f"bad settings: {exc}", err=True)
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
    show(solution, rows, seconds, TEXT["ja" if lang == "ja" else "en"])


def _typed(ctx: typer.Context, name: str) -> bool:
    """Was this option typed on the command line (not left at its default)?"""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name == "COMMANDLINE"


def ignored_options(given: set[str], objective: str, as_json: bool) -> list[tuple[str, str]]:
    """The options typed that change nothing here, with the reason, so nobody reads a result as
    depending on them."""
    out = []
    if "scoring" in given and objective == "shut":
        out.append(("--scoring", "the chance to shut the box does not depend on how penalties are counted"))
    if "lang" in given and as_json:
        out.append(("--lang", "--json prints keys and numbers, no words"))
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


def show(solution: Solution, rows: list[dict[str, object]], seconds: float, text: dict) -> None:
    console = Console()
    value = solution.value
    if solution.maximize:
        headline = text["shut"].format(value=value, percent=value * 100)
        goal = text["goal_shut"]
    else:
        headline = text["score"].format(value=value)
        goal = text["goal_score"].format(scoring=solution.scoring)
    console.print(
        "[bold]"
        + text["title"].format(tiles=solution.tiles, goal=goal, max_close=solution.max_close, one_die=solution.one_die)
        + "[/]"
    )
    console.print(f"[bold]{headline}[/]  ({text['solved'].format(seconds=seconds)})")
    table = Table(*text["columns"], title=text["table"])
    for row in rows:
        table.add_row(
            str(row["total"]),
            f"{row['probability']:.4f}",
            str(row["best"] or text["over"]),
            _fmt(solution, row["value"]),
            str(row["next"] or "—"),
            _fmt(solution, row["next_value"]),
        )
    console.print(table)
