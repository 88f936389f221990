"""`nekobako ladder GAME --players N --bots a,b,… --games K`: every bot on one OpenSkill scale.

The schedule and the ratings live in `nekobako.sim.ladder`; this module parses, shows progress on
stderr and prints the table (or one JSON object with `--json`). `--save` writes the game's row of
the ratings shipped with the package (`bots/ladder.json`), which the lobby's bot menu shows.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from ..engine import NekobakoError, get_game
from ..i18n import Message
from ..i18n import text as say
from ..sim.ladder import RATINGS_FILE, rate, schedule
from ..sim.runner import check_bots, parse_bots, run_games
from .common import lang_option, print_error
from .simulate import parse_option_args


def register(app: typer.Typer) -> None:
    app.command("ladder", help="cli.help.ladder")(ladder_command)


def ladder_command(
    game: str = typer.Argument(..., help="cli.help.simulate.game"),
    players: int = typer.Option(..., "--players", "-p", help="cli.help.simulate.players"),
    bots: str = typer.Option(..., "--bots", "-b", help="cli.help.ladder.bots"),
    games: int = typer.Option(..., "--games", "-n", help="cli.help.simulate.games"),
    seed: int = typer.Option(0, "--seed", "-s", help="cli.help.simulate.seed"),
    workers: int = typer.Option(os.cpu_count() or 1, "--workers", "-w", help="cli.help.simulate.workers"),
    options: list[str] = typer.Option([], "--options", "-o", help="cli.help.options"),
    save: bool = typer.Option(False, "--save", help="cli.help.ladder.save"),
    as_json: bool = typer.Option(False, "--json", help="cli.help.json_tables"),
    lang: str = lang_option("cli.help.lang_tables"),
) -> None:
    """Rate bots on one scale from a balanced schedule of games (seats rotated), with intervals."""
    err = Console(stderr=True)
    try:
        if games < 1:
            raise NekobakoError(Message("cli.simulate.games_min"))
        if workers < 1:
            raise NekobakoError(Message("cli.simulate.workers_min"))
        table_options = get_game(game).options(parse_option_args(options), players).to_json()
        names = [b.strip() for b in bots.split(",")]
        specs = parse_bots(names, len(names))
        check_bots(game, specs, players, table_options)
        labels = [s.label for s in specs]
        if len(set(labels)) != len(labels):
            raise NekobakoError(Message("cli.ladder.duplicate"))
        tasks = schedule(game, players, specs, games, table_options, seed)
    except NekobakoError as exc:
        print_error(err, exc.text(lang), lang)
        raise typer.Exit(2) from None
    try:
        with err.status(say("cli.ladder.progress", lang, games=games)):
            results = run_games(tasks, workers)
    except NekobakoError as exc:
        print_error(err, exc.text(lang), lang)
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        err.print(say("cli.interrupted", lang))
        raise typer.Exit(130) from None
    rows = rate(tasks, results, labels)
    command = f"nekobako ladder {game} --players {players} --bots {','.join(labels)} --games {games} --seed {seed}"
    report = {"game": game, "players": players, "options": table_options, "seed": seed, "games": games,
              "command": command, "bots": rows}  # fmt: skip
    if save:
        _save(report)
    if as_json:
        typer.echo(json.dumps(report, ensure_ascii=False))
        return
    table = Table(
        title=say("cli.ladder.title", lang, game=get_game(game).title.text(lang), players=players, games=games)
    )
    for key in ("bot", "mu", "interval", "games", "wins"):
        table.add_column(say(f"cli.ladder.{key}", lang), justify="left" if key == "bot" else "right")
    for row in rows:
        low, high = row["interval"]
        table.add_row(row["bot"], f"{row['mu']:.2f}", f"{low:.2f} – {high:.2f}", str(row["games"]), f"{row['wins']:g}")
    Console().print(table)


def _save(report: dict) -> None:
    """The game's entry of the shipped ratings (`bots/ladder.json`, beside this package's bots)."""
    path = Path(__file__).resolve().parent.parent / "bots" / RATINGS_FILE
    data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    data[report["game"]] = {
        "players": report["players"],
        "games": report["games"],
        "command": report["command"],
        "levels": {r["bot"]: {"mu": round(r["mu"], 2), "sigma": round(r["sigma"], 2)} for r in report["bots"]},
    }
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
