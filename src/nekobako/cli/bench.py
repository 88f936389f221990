"""`nekobako bench [--json] [--quick]`: how fast the engine, ISMCTS, the solver and the RL envs
run here.

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
from rich.text import Text

from ..i18n import Message
from ..i18n import text as say
from ..sim import bench
from .common import lang_option


def register(app: typer.Typer) -> None:
    app.command("bench", help="cli.help.bench")(bench_command)


def bench_command(
    as_json: bool = typer.Option(False, "--json", help="cli.help.json_table"),
    quick: bool = typer.Option(False, "--quick", help="cli.help.bench.quick"),
    lang: str = lang_option("cli.help.lang_table"),
) -> None:
    """Measure playout throughput, ISMCTS iterations/s, solver time and RL env steps/s on one core."""
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
            progress.update(bar, description=step_label(step, lang), advance=n)

        result = bench.run(settings, on_progress)
    if as_json:
        typer.echo(json.dumps(result))
        return
    print_result(result, quick, lang)


def w(key: str, lang: str, **params: Any) -> str:
    """The table's words in the reader's language (`cli.bench.<key>`)."""
    return say(f"cli.bench.{key}", lang, **params)


def figure(step: bench.Step, value: float | None, lang: str) -> str:
    if value is None:
        return "—"
    number = f"{value:.3f}" if step.unit == "s" else f"{value:,.0f}"
    return w(f"figure.{step.section}", lang, value=number)


def step_label(step: bench.Step, lang: str) -> str:
    """What a step measures, in words: the game and table size, or the solver's tiles."""
    if step.section == "solver":
        return w("step.solver", lang, game=Message("game.shutbox"), tiles=step.key)
    game, _, players = step.key.partition(".")
    players = players or str(bench.ISMCTS_CASES[game])
    return w(
        f"step.{step.section}", lang, game=Message(f"game.{game}"), players=Message("words.players", n=int(players))
    )


def print_result(result: dict[str, Any], quick: bool, lang: str = "en") -> None:
    console = Console()
    pinned = w("pinned" if result.get("core") is not None else "not_pinned", lang)
    conditions = [result["cpu"], result["python"], pinned]
    if result.get("load_before"):
        conditions.append(w("load", lang, load=f"{result['load_before'][0]:.2f}"))
    conditions.append(w("medians", lang, n=result["repeats"]["throughput"], solver=result["repeats"]["solver"]))
    title = w("title", lang)
    table = Table(title=w("quick", lang, title=title) if quick else title, caption=" · ".join(conditions))
    table.add_column(w("measure", lang), overflow="fold")
    table.add_column(w("median", lang), justify="right")
    table.add_column(w("target", lang), justify="right")
    table.add_column(w("result", lang))
    for step in bench.plan(bench.QUICK):
        path = f"{step.section}.{step.key}"
        if step.section in ("throughput", "rl"):
            game, players = step.key.split(".")
            value = result[step.section][game][players]
        else:
            value = result[step.section][step.key]
        target = "" if step.target is None else f"≥ {step.target:,.0f}"
        if path in result["missing"]:
            verdict = Text(w("missing", lang), style="yellow")
        elif quick:  # tiny samples from a cold start: a verdict would mislead
            verdict = Text("")
        elif path in result["pass"]:
            passed = result["pass"][path]
            verdict = Text(w("pass" if passed else "fail", lang), style="green" if passed else "red")
        else:
            verdict = Text("")
        table.add_row(step_label(step, lang), figure(step, value, lang), target, verdict)
    console.print(table)
    for path, reason in result["missing"].items():
        console.print(Text(w("missing_reason", lang, path=path, reason=reason), style="yellow"))
