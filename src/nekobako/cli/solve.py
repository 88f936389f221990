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

SOLVABLE = ("shutbox",)


def register(app: typer.Typer) -> None:
    app.command("solve")(solve_command)


def solve_command(
    game: str = typer.Argument(..., help="The game to solve: shutbox."),
    tiles: int = typer.Option(9, "--tiles", help="Tiles on the board: 9, 10 or 12."),
    objective: str = typer.Option(
        "shut", "--objective", help="shut: best chance to shut the box; score: least penalty."
    ),
    scoring: str = typer.Option("total", "--scoring", help="Penalty for --objective score: total, count or digits."),
    max_close: str = typer.Option("3", "--max-close", help="Tiles one roll may close: 3, 2 or any."),
    one_die: str = typer.Option("max6", "--one-die", help="When one die may be rolled: max6, sum6 or never."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of a table."),
) -> None:
    """Solve one solo turn exactly; print its value and the best move for each opening roll."""
    if game not in SOLVABLE:
        typer.echo(f"cannot solve {game!r}: only {', '.join(SOLVABLE)} has an exact solver", err=True)
        raise typer.Exit(2)
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
    show(solution, rows, seconds)


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


def show(solution: Solution, rows: list[dict[str, object]], seconds: float) -> None:
    console = Console()
    if solution.maximize:
        headline = f"P(shut the box) = {solution.value:.10f} ({solution.value * 100:.4f} %)"
        goal = "chance to shut the box"
    else:
        headline = f"expected penalty = {solution.value:.6f}"
        goal = f"least expected penalty ({solution.scoring})"
    console.print(
        f"[bold]Shut the Box[/] · {solution.tiles} tiles · {goal} · max close {solution.max_close} · "
        f"one die {solution.one_die}"
    )
    console.print(f"[bold]{headline}[/]  (solved in {seconds:.3f} s)")
    table = Table("roll", "chance", "best move", "value after", "next best", "its value", title="Best first moves")
    for row in rows:
        table.add_row(
            str(row["total"]),
            f"{row['probability']:.4f}",
            str(row["best"] or "turn over"),
            _fmt(solution, row["value"]),
            str(row["next"] or "—"),
            _fmt(solution, row["next_value"]),
        )
    console.print(table)
