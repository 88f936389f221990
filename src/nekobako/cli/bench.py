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

from ..sim import bench
from .common import lang_option


def register(app: typer.Typer) -> None:
    app.command("bench")(bench_command)


def bench_command(
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of a table."),
    quick: bool = typer.Option(False, "--quick", help="One tiny repeat of everything (checks, not figures)."),
    lang: str = lang_option("en or ja, for the table."),
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
            progress.update(bar, description=step.label, advance=n)

        result = bench.run(settings, on_progress)
    if as_json:
        typer.echo(json.dumps(result))
        return
    print_result(result, quick, lang)


def _figure(value: float | None, unit: str) -> str:
    if value is None:
        return "—"
    if unit == "s":
        return f"{value:.3f} s"
    return f"{value:,.0f} {unit}"


WORDS = {
    "en": {
        "title": "nekobako bench",
        "quick": " (quick: not figures to quote)",
        "pinned": "one core (pinned)",
        "not_pinned": "not pinned",
        "load": "load {load:.2f} before",
        "medians": "medians of {n} repeats (solver {s})",
        "measure": "measure",
        "median": "median",
        "target": "target",
        "result": "result",
        "pass": "pass",
        "fail": "fail",
        "missing": "not available",
    },
    "ja": {
        "title": "nekobako ベンチマーク",
        "quick": " (簡易: 引用する数値ではありません)",
        "pinned": "1コアに固定",
        "not_pinned": "コア固定なし",
        "load": "開始前の負荷 {load:.2f}",
        "medians": "{n}回の中央値 (ソルバー {s}回)",
        "measure": "測定",
        "median": "中央値",
        "target": "目標",
        "result": "判定",
        "pass": "合格",
        "fail": "不合格",
        "missing": "測定不可",
    },
}


def print_result(result: dict[str, Any], quick: bool, lang: str = "en") -> None:
    w = WORDS["ja" if lang == "ja" else "en"]
    console = Console()
    conditions = [result["cpu"], result["python"], w["pinned"] if result.get("core") is not None else w["not_pinned"]]
    if result.get("load_before"):
        conditions.append(w["load"].format(load=result["load_before"][0]))
    conditions.append(w["medians"].format(n=result["repeats"]["throughput"], s=result["repeats"]["solver"]))
    table = Table(title=w["title"] + (w["quick"] if quick else ""), caption=" · ".join(conditions))
    table.add_column(w["measure"])
    table.add_column(w["median"], justify="right")
    table.add_column(w["target"], justify="right")
    table.add_column(w["result"])
    for step in bench.plan(bench.QUICK):
        path = f"{step.section}.{step.key}"
        if step.section in ("throughput", "rl"):
            game, players = step.key.split(".")
            value = result[step.section][game][players]
        else:
            value = result[step.section][step.key]
        target = "" if step.target is None else f"≥ {step.target:,.0f}"
        if path in result["missing"]:
            verdict = Text(w["missing"], style="yellow")
        elif quick:  # tiny samples from a cold start: a verdict would mislead
            verdict = Text("")
        elif path in result["pass"]:
            verdict = Text(w["pass"], style="green") if result["pass"][path] else Text(w["fail"], style="red")
        else:
            verdict = Text("")
        table.add_row(step.label, _figure(value, step.unit), target, verdict)
    console.print(table)
    for path, reason in result["missing"].items():
        console.print(Text.assemble((w["missing"], "yellow"), f" {path}: {reason}"))
