"""`nekobako bench [--json] [--quick]`: how fast the engine, ISMCTS and the solver run here.

The measuring code is `nekobako.sim.bench` (so the installed command works from any directory);
`benchmarks/` holds runnable scripts and notes that call it.
"""

from __future__ import annotations

import json
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..sim import bench


def register(app: typer.Typer) -> None:
    app.command("bench")(bench_command)


def bench_command(
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of a table."),
    quick: bool = typer.Option(False, "--quick", help="One tiny repeat of everything (checks, not figures)."),
) -> None:
    """Measure playout throughput, ISMCTS iterations/s and solver time on one core."""
    settings = bench.QUICK if quick else bench.FULL
    err = Console(stderr=True)
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    ) as progress:
        bar = progress.add_task("bench", total=bench.total_repeats(settings))

        def on_progress(step: bench.Step, n: int) -> None:
            progress.update(bar, description=step.label, advance=n)

        result = bench.run(settings, on_progress)
    if as_json:
        typer.echo(json.dumps(result))
        return
    print_result(result, quick)


def _figure(value: float | None, unit: str) -> str:
    if value is None:
        return "—"
    if unit == "s":
        return f"{value:.3f} s"
    return f"{value:,.0f} {unit}"


def print_result(result: dict[str, Any], quick: bool) -> None:
    console = Console()
    core = "one core (pinned)" if result.get("core") is not None else "not pinned"
    if result.get("load_before"):
        core += f" · load {result['load_before'][0]:.2f} before"
    table = Table(
        title=f"nekobako bench{' (quick: not figures to quote)' if quick else ''}",
        caption=f"{result['cpu']} · {result['python']} · {core} · medians of {result['repeats']['throughput']} repeats",
    )
    table.add_column("measure")
    table.add_column("median", justify="right")
    table.add_column("target", justify="right")
    table.add_column("result")
    for step in bench.plan(bench.QUICK):
        path = f"{step.section}.{step.key}"
        if step.section == "throughput":
            game, players = step.key.split(".")
            value = result["throughput"][game][players]
        else:
            value = result[step.section][step.key]
        target = "" if step.target is None else f"≥ {step.target:,.0f}"
        if path in result["missing"]:
            verdict = "[yellow]not available[/]"
        elif path in result["pass"]:
            verdict = "[green]pass[/]" if result["pass"][path] else "[red]fail[/]"
        else:
            verdict = ""
        table.add_row(step.label, _figure(value, step.unit), target, verdict)
    console.print(table)
    for path, reason in result["missing"].items():
        console.print(f"[yellow]not available[/] {path}: {reason}", highlight=False, markup=True)
