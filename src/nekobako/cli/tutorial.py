"""`nekobako tutorial GAME`: a first game against scripted bots that teaches the rules.

The tutorial driver (`nekobako.tutorial`) decides everything; this module draws the table as
`play` does (its `TerminalGame`), prints the step's text and passes each line typed to the driver.
Progress is kept after every step in `records/tutorial-GAME.json` (beside `play`'s records) as the
record of the steps done, so running the command again continues where it was left.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.text import Text

from ..engine import NekobakoError, is_number
from ..i18n import Message
from ..i18n import text as say
from ..rules import load as load_rules
from ..sim.runner import BotSpec
from ..tutorial import Tutorial, load
from .common import lang_option, os_reason, print_error
from .play import Quit, TerminalGame, record_target


def register(app: typer.Typer) -> None:
    app.command("tutorial", help="cli.help.tutorial")(tutorial_command)


class TerminalTutorial(TerminalGame):
    """`play`'s drawing with the tutorial's loop: only the step's move is played."""

    def __init__(self, tutorial: Tutorial, lang: str, console: Console, save: Path):
        seat, state = tutorial.seat, tutorial.state
        bots: dict[int, tuple[BotSpec, Any]] = {s: (BotSpec("random"), None) for s in range(state.players) if s != seat}
        super().__init__(state, seat, bots, 0, lang, False, console)
        self.names = [
            say("cli.play.you", lang) if s == seat else say("tutorial.bot", lang, seat=s) for s in range(state.players)
        ]
        self.tutorial = tutorial
        self.save = save
        self.entries_shown = len(state.history)
        self.events_shown = len(state.events)
        self.numbered: list[Any] = []  # the legal moves as numbered on screen

    def show_new(self) -> None:
        """The entries (chance, the bots' moves) and events since the last step, in order."""
        state = self.state
        for actor, action in state.history[self.entries_shown :]:
            self.show_action(actor, action)
        self.entries_shown = len(state.history)
        self.show_events()
        self.show_summary()

    def show_lesson(self) -> None:
        lesson = self.tutorial.lesson()
        self.show_board()
        step = say("tutorial.step", self.lang, step=min(lesson.step + 1, lesson.steps), steps=lesson.steps)
        self.console.rule(Text(step, style="bold"))
        self.say("🐾 " + lesson.text.text(self.lang), "bold green")
        if lesson.expected is not None:
            self.numbered = self.show_legal(list(self.state.legal_actions(self.seat)))
            self.say(say("tutorial.expected", self.lang, move=lesson.expected), "bold cyan")
            section = load_rules(self.game.name, self.lang).section(lesson.rules).title
            self.say(say("cli.tutorial.keys", self.lang, section=section), "dim")

    def run(self) -> None:
        while True:
            self.show_new()
            self.show_lesson()
            if self.tutorial.over:
                return
            while not self.step_once():
                pass
            self.keep()

    def step_once(self) -> bool:
        """Read one line; True once the step's move was played."""
        line = self.read_line()
        lowered = line.lower()
        if not line:
            return False
        if lowered in ("?", "rules"):
            self.show_rules(self.tutorial.lesson().rules)
        elif lowered.startswith("rules "):
            self.show_rules(lowered.removeprefix("rules").strip())
        elif lowered in ("help", "h"):
            self.say(say("cli.tutorial.help", self.lang, example=self.tutorial.lesson().expected))
        elif lowered in ("quit", "exit", "q"):
            self.say(self.t("quit"), "yellow")
            raise Quit
        elif lowered in ("board", "b"):
            self.show_lesson()
        elif lowered in ("log", "history"):
            self.show_history()
        else:
            if is_number(line) and 1 <= int(line) <= len(self.numbered):
                line = str(self.numbered[int(line) - 1])  # the number as the list above shows it
            refusal = self.tutorial.attempt(line)
            if refusal is None:
                return True
            self.say(say("cli.tutorial.refused", self.lang, reason=refusal), "red")
        return False

    def keep(self) -> None:
        """The progress, as the record of the steps done (a crash or Ctrl-C loses no step)."""
        record = self.tutorial.script.record(self.tutorial.done).to_json()
        record["tutorial"] = self.tutorial.done
        self.save.write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")


def saved_step(path: Path, game: str) -> int:
    """Where a saved tutorial stopped: its step count if the file is this game's tutorial and its
    record is the script's own prefix, else 0 (a stale or foreign file starts afresh)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        done = data["tutorial"]
        script = load(game)
        if isinstance(done, int) and data["actions"] == script.record(done).actions:
            return done
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return 0


def tutorial_command(
    game: str = typer.Argument(..., help="cli.help.tutorial.game"),
    lang: str = lang_option(),
    restart: bool = typer.Option(False, "--restart", help="cli.help.tutorial.restart"),
    save: str | None = typer.Option(None, "--save", help="cli.help.tutorial.save"),
) -> None:
    """Learn a game step by step against scripted bots; progress is kept after every step."""
    err = Console(stderr=True, soft_wrap=True)
    console = Console(highlight=False)
    try:
        script = load(game)
        path = record_target(save or "records/", f"tutorial-{game}.json")
        done = 0 if restart else saved_step(path, game)
        tutorial = Tutorial(script, done)
        if tutorial.over:
            tutorial = Tutorial(script)  # a finished tutorial starts again
        session = TerminalTutorial(tutorial, lang, console, path)
        session.keep()
    except OSError as exc:
        print_error(err, say("cli.tutorial.cannot_save", lang, path=str(save), reason=os_reason(exc)), lang)
        raise typer.Exit(2) from None
    except NekobakoError as exc:
        print_error(err, exc.text(lang), lang)
        raise typer.Exit(2) from None
    console.print(Text(say("cli.tutorial.header", lang, title=Message(f"game.{game}")), style="bold"))
    if tutorial.done:
        session.say(say("cli.tutorial.resumed", lang, step=tutorial.done + 1, steps=len(script.steps)), "green")
    try:
        session.run()
    except Quit:
        session.say(say("cli.tutorial.kept", lang, game=game), "green")
    except KeyboardInterrupt:
        console.print()
        session.say(say("cli.tutorial.kept", lang, game=game), "green")
        raise typer.Exit(130) from None
