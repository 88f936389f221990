"""`nekobako bench [--json] [--quick]`: how fast the engine, ISMCTS, the solver, the RL envs and
the compiled kernels run here, and how fast this machine is (the targets are judged against it).

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
    """Measure playouts, ISMCTS, the solver, the RL envs and the compiled kernels on one core."""
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


def number(value: float | None, key: str, lang: str, digits: str = ",.0f") -> str:
    return "—" if value is None else w(key, lang, value=format(value, digits))


VERDICT_STYLES = {"pass": "green", "fail": "red", "slow_machine": "yellow"}


def verdict_text(result: dict[str, Any], path: str, quick: bool, lang: str) -> Text:
    if path in result["missing"]:
        return Text(w("missing", lang), style="yellow")
    judged = result["verdict"].get(path)
    if quick or judged is None:  # quick samples are checks: a verdict would be quoted
        return Text("")
    return Text(w(judged, lang), style=VERDICT_STYLES[judged])


def kernel_rows(result: dict[str, Any], quick: bool, lang: str) -> list[tuple[str, str, str, Text]]:
    """Per kernel table: its playouts, against the engine and the C loop, compile and start-up."""
    rows = []
    targets = result["targets"]["kernel"]
    for game, counts in result["kernel"].items():
        for players, row in counts.items():
            names = {"game": Message(f"game.{game}"), "players": Message("words.players", n=int(players))}
            base = f"kernel.{game}.{players}"

            rows.append(
                (
                    w("step.kernel", lang, **names),
                    number(row["actions_per_second"], "figure.throughput", lang),
                    "",
                    verdict_text(result, f"{base}.kernel", quick, lang),
                )
            )
            for field in ("ratio_pure", "ratio_c"):
                if field in row:
                    path = f"{base}.{field}"
                    goal = targets.get(game, {}).get(field)
                    missing = result["missing"].get(f"{base}.kernel") or result["missing"].get(f"{base}.c")
                    shown = Text(w("missing", lang), style="yellow") if row[field] is None and missing else None
                    rows.append(
                        (
                            w(f"step.kernel_{field}", lang, **names),
                            number(row[field], "figure.ratio", lang, ".1f"),
                            "" if goal is None else f"≥ ×{goal:g}",
                            shown or verdict_text(result, path, quick, lang),
                        )
                    )
            for field, part in (("compile_seconds", "compile"), ("startup_seconds", "startup")):
                goal = f"< {targets['startup_seconds']:g} s" if part == "startup" else ""
                rows.append(
                    (
                        w(f"step.kernel_{part}", lang, **names),
                        number(row[field], "figure.solver", lang, ".2f"),
                        goal,
                        verdict_text(result, f"{base}.{part}", quick, lang),
                    )
                )
    return rows


def step_label(step: bench.Step, lang: str) -> str:
    """What a step measures, in words: the game and table size, or the solver's tiles."""
    if step.section == "machine":
        return w("step.machine", lang)
    if step.section == "kernel":
        game, players, part = step.key.split(".")
        names = {"game": Message(f"game.{game}"), "players": Message("words.players", n=int(players))}
        return w(f"step.kernel_{part}" if part != "kernel" else "step.kernel", lang, **names)
    if step.section == "solver":
        return w("step.solver", lang, game=Message("game.shutbox"), tiles=step.key)
    game, _, players = step.key.partition(".")
    players = players or str(bench.ISMCTS_CASES[game])
    return w(
        f"step.{step.section}", lang, game=Message(f"game.{game}"), players=Message("words.players", n=int(players))
    )


def print_result(result: dict[str, Any], quick: bool, lang: str = "en") -> None:
    console = Console()
    speed = result["machine"]["greedy_decisions_per_second"]
    if speed is not None:  # as benchmarks/load.py begins: figures are quoted with it
        reference = f"{result['machine']['reference']:,.0f}"
        console.print(w("machine", lang, speed=f"{speed:,.0f}", reference=reference))
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
        if step.section in ("machine", "kernel"):
            continue
        if step.section in ("throughput", "rl", "rl_vector"):
            game, players = step.key.split(".")
            value = result[step.section][game][players]
        else:
            value = result[step.section][step.key]
        target = "" if step.target is None else f"≥ {step.target:,.0f}"
        table.add_row(
            step_label(step, lang), figure(step, value, lang), target, verdict_text(result, step.path, quick, lang)
        )
    for row in kernel_rows(result, quick, lang):
        table.add_row(*row)
    console.print(table)
    if any(v == "slow_machine" for v in result["verdict"].values()) and not quick:
        console.print(Text(w("slow_machine_note", lang), style="yellow"))
    labels = {step.path: step_label(step, lang) for step in bench.plan(bench.FULL)}
    for path, reason in result["missing"].items():
        if path in result.get("missing_words", {}):  # a reason of ours: in the reader's language
            key, params = result["missing_words"][path]
            reason = w(f"why.{key}", lang, **params)
        label = labels.get(path, path)
        console.print(Text(w("missing_reason", lang, path=label, reason=reason), style="yellow"))
