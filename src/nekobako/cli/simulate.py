"""`nekobako simulate GAME --players N --bots a,b,… --games K`: bots against bots, in parallel.

The work lives in `nekobako.sim` (runner and statistics); this module parses, shows progress on
stderr and prints the table (or one JSON object with `--json`).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from ..engine import NekobakoError, game_names, get_game, parse_option_text
from ..sim.runner import GameTask, check_bots, parse_bots, run_games
from ..sim.stats import summarize
from .common import lang_option


def register(app: typer.Typer) -> None:
    app.command("simulate")(simulate_command)


def parse_option_args(items: list[str]) -> dict[str, str]:
    """`--options` may be repeated, and one value may hold several space-separated `k=v`."""
    return parse_option_text([word for item in items for word in item.split()])


def simulate_command(
    game: str = typer.Argument(..., help=f"One of: {', '.join(game_names())}."),
    players: int = typer.Option(..., "--players", "-p", help="Number of seats."),
    bots: str = typer.Option("random", "--bots", "-b", help="One bot per seat, comma-separated (one name fills all)."),
    games: int = typer.Option(100, "--games", "-n", help="Number of games."),
    seed: int = typer.Option(0, "--seed", "-s", help="Base seed; game i uses a seed derived from (seed, i)."),
    workers: int = typer.Option(os.cpu_count() or 1, "--workers", "-w", help="Worker processes."),
    options: list[str] = typer.Option([], "--options", "-o", help="Table option k=v (repeatable)."),
    records: Path | None = typer.Option(None, "--records", help="Write each game's record (JSON) here."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of tables."),
    lang: str = lang_option("en or ja, for the tables."),
) -> None:
    """Play K games between bots (seats rotate every game) and report wins with 95% intervals."""
    err = Console(stderr=True)
    try:
        if games < 1:
            raise NekobakoError("--games must be at least 1")
        if workers < 1:
            raise NekobakoError("--workers must be at least 1")
        table_options = get_game(game).options(parse_option_args(options), players).to_json()
        specs = parse_bots(bots, players)
        check_bots(game, specs)
        if records is not None:
            check_records_dir(records)
    except NekobakoError as exc:
        err.print(f"[red]error:[/] {escape(str(exc))}", highlight=False, soft_wrap=True)
        raise typer.Exit(2) from None
    tasks = [GameTask(game, players, specs, table_options, seed, i) for i in range(games)]
    try:
        with Progress(
            TextColumn("[bold]simulating[/]"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=err,
            transient=as_json,
        ) as progress:
            bar = progress.add_task("games", total=games)
            results = run_games(tasks, workers, on_done=lambda n: progress.advance(bar, n))
    except NekobakoError as exc:
        err.print(f"[red]error:[/] {escape(str(exc))}", highlight=False, soft_wrap=True)
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        err.print("interrupted")
        raise typer.Exit(130) from None
    unsaved = None
    if records is not None:
        try:
            for result in results:
                path = records / f"{game}-s{seed}-{result.index:05d}.json"
                path.write_text(json.dumps(result.record, ensure_ascii=False) + "\n", encoding="utf-8")
        except OSError as exc:  # checked at the start; a disk can still fill up: the report comes anyway
            unsaved = f"cannot write the records to {records}: {exc.strerror or exc}"
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
        err.print(f"[red]error:[/] {escape(unsaved)}", highlight=False, soft_wrap=True)
        raise typer.Exit(1)


def check_records_dir(records: Path) -> None:
    """`--records` must be a directory we can write in (made if missing): checked before the first
    game, so a long simulation never ends with nowhere to put its records."""
    if records.exists() and not records.is_dir():
        raise NekobakoError(f"--records {records} is a file; name a directory (it is made if missing)")
    try:
        records.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=records):
            pass
    except OSError as exc:
        raise NekobakoError(f"--records {records}: cannot write there ({exc.strerror or exc})") from None


WORDS = {
    "en": {
        "title": "{title} · {players} players · {games} games · seed {seed}",
        "caption": "seats rotate: entry j sits in seat (j + game index) mod players; "
        "ties share the win; fair share {share}",
        "entry": "entry",
        "bot": "bot",
        "wins": "wins",
        "win_rate": "win rate",
        "ci": "95% interval",
        "mean_score": "mean score",
        "shut_rate": "shut rate",
        "loss_rate": "lost (rate)",
        "loss_ci": "95% interval (lost)",
        "seat": "seat",
        "seats": "seats",
        "by_seat": "by seat (whatever bot sat there)",
        "by_bot": "by bot (its entries together; win rate per seat played)",
        "actions": "mean actions per game: {n:.1f}",
        "records": "records written to {path}/",
    },
    "ja": {
        "title": "{title} · {players}人 · {games}ゲーム · シード {seed}",
        "caption": "席は毎ゲーム回転 (エントリー j は席 (j + ゲーム番号) mod 人数); "
        "同点は勝ちを等分; 公平な取り分 {share}",
        "entry": "エントリー",
        "bot": "ボット",
        "wins": "勝ち",
        "win_rate": "勝率",
        "ci": "95%信頼区間",
        "mean_score": "平均得点",
        "shut_rate": "シャット率",
        "loss_rate": "負け (率)",
        "loss_ci": "95%信頼区間 (負け)",
        "seat": "席",
        "seats": "席数",
        "by_seat": "席ごと (座ったボットを問わず)",
        "by_bot": "ボットごと (同じボットのエントリーを合算; 1席あたりの勝率)",
        "actions": "1ゲームの平均手数: {n:.1f}",
        "records": "記録の保存先: {path}/",
    },
}


def _interval(row: dict) -> str:
    low, high = row["ci95"]
    return f"{low:.1%} – {high:.1%}"


def print_report(report: dict, records: Path | None, lang: str = "en") -> None:
    w = WORDS["ja" if lang == "ja" else "en"]
    console = Console()
    game = get_game(report["game"])
    has_shut = any("shut_rate" in row for row in report["bots"])
    has_loss = any("loss_rate" in row for row in report["bots"])  # one loser per game (Catopomp)
    table = Table(
        title=w["title"].format(
            title=game.title.text(lang),
            players=report["players"],
            games=report["games"],
            seed=report["seed"],
        ),
        caption=w["caption"].format(share=f"{report['fair_share']:.1%}"),
    )
    extra = (("shut_rate",) if has_shut else ()) + (("loss_rate", "loss_ci") if has_loss else ())
    for key in ("entry", "bot", "wins", "win_rate", "ci", "mean_score", *extra):
        table.add_column(w[key], justify="left" if key == "bot" else "right")
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
        by_bot = Table(title=w["by_bot"])
        for key in ("bot", "seats", "wins", "win_rate", "ci", "mean_score"):
            by_bot.add_column(w[key], justify="left" if key == "bot" else "right")
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
        seats = Table(title=w["by_seat"])
        for key in ("seat", "wins", "win_rate", "ci"):
            seats.add_column(w[key], justify="right")
        for row in report["seats"]:
            seats.add_row(str(row["seat"]), f"{row['wins']:g}", f"{row['win_rate']:.1%}", _interval(row))
        console.print(seats)
    console.print(w["actions"].format(n=report["mean_actions"]))
    if records is not None:
        console.print(w["records"].format(path=records))
