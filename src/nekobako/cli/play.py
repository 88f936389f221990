"""`nekobako play GAME --players N`: one person against bots, in a terminal or over pipes.

Input is read a line at a time from stdin (no raw terminal), so the command works the same in
tmux, in a plain terminal and driven by a script; end of input saves the record and exits. The
board is drawn from the person's view only (`State.view(seat)`), like any other player's.
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import typer
from rich.columns import Columns
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..boards import label, legal_groups, number_text, render, render_summary, seat_text
from ..engine import (
    CHANCE,
    BadRecord,
    IllegalAction,
    MalformedAction,
    NekobakoError,
    Record,
    State,
    check_game_name,
    game_names,
    get_game,
    is_number,
    parse_entry,
)
from ..i18n import Message
from ..i18n import text as say
from ..rules import RulesNotFound, phase_section
from ..rules import load as load_rules
from ..sim.runner import BotSpec, derive_seed, parse_bots
from .common import lang_option, os_reason, parse_json, print_error, read_record
from .rules import rules_markdown
from .simulate import parse_option_args

HINT_ITERATIONS = 1000
"""Search iterations of a hint in the card games (the server's, too)."""


def register(app: typer.Typer) -> None:
    app.command("play", help="cli.help.play")(play_command)


class Quit(Exception):
    """The person asked to stop (or input ended); the record is still saved."""


class TerminalGame:
    """One game: the person's seat answers from stdin, every other seat is a bot."""

    def __init__(
        self,
        state: State,
        seat: int,
        bots: dict[int, tuple[BotSpec, Any]],
        seed: int,
        lang: str,
        auto: bool,
        console: Console,
        chance_rng: random.Random | None = None,
    ):
        self.state = state
        self.game = state.game
        self.seat = seat
        self.bots = bots
        self.seed = seed
        self.lang = lang
        self.auto = auto
        self.console = console
        # Chance draws from Random(seed) in order, as `engine.replay` fills missing chance steps:
        # the record's player actions alone rebuild the same game (a resumed game continues it).
        self.chance_rng = chance_rng or random.Random(seed)
        self.names = [
            say("cli.play.you", lang) if s == seat else say("cli.play.bot", lang, seat=s, label=bots[s][0].label)
            for s in range(state.players)
        ]
        self.events_shown = len(state.events)  # a resumed game does not repeat what was shown before
        last = state.view(seat).get("last_round")
        self.summary_shown = last["round"] if last else 0  # the round whose summary was printed last

    # -- output ----------------------------------------------------------------------------------
    def say(self, text: str, style: str = "") -> None:
        self.console.print(Text(text, style=style), soft_wrap=True)  # the terminal wraps, not mid-word

    def t(self, key: str, **params: Any) -> str:
        """The terminal's words in the player's language (`cli.play.<key>`)."""
        return say(f"cli.play.{key}", self.lang, **params)

    def show_events(self) -> None:
        events = self.state.events
        for event in events[self.events_shown :]:
            try:
                line = self.game.describe(event, self.lang, self.names, self.seat)
            except (KeyError, IndexError, ValueError):
                line = event.kind
            self.console.print(Text("  · " + line, style="italic"))
        self.events_shown = len(events)

    def show_action(self, actor: int, action: Any) -> None:
        self.show_entry(actor, self.game.redact(actor, action, self.seat))

    def show_entry(self, actor: int, text: str, note: str = "") -> None:
        who = Text(say("cli.chance", self.lang), style="dim") if actor == CHANCE else seat_text(actor, self.names)
        label = say("cli.label", self.lang, label="")
        self.console.print(Text.assemble("  ", who, label, (text, "bold"), (note and " " + note, "italic")))

    def show_revealed(self, start: int) -> None:
        """Entries from `start` that read more now than when they were printed (Catopomp's spare
        faces, once every spare die is set), printed again as the view reads them now: the log
        knows what the person's view knows, no less."""
        state, seat, redact = self.state, self.seat, self.game.redact
        settled = state.settled()
        if settled <= start:
            return
        history = state.history
        for i, text in enumerate(state.history_texts(seat, start)[: settled - start], start):
            actor, action = history[i]
            if text != redact(actor, action, seat):
                self.show_entry(actor, text, self.t("revealed"))

    def message(self, key: str) -> str:
        """The view's `prompt` or `goal` in words, from the game's own catalogue (as in the browser)."""
        message = self.state.view(self.seat).get(key)
        if not message:
            return ""
        return self.game.describe_prompt(message, self.lang, self.names, self.seat)

    def show_board(self) -> None:
        self.console.rule()
        self.console.print(render(self.state.view(self.seat), self.lang, self.names))
        prompt = self.message("prompt")
        if prompt:
            self.say("▶ " + prompt, "bold yellow")

    def show_summary(self) -> None:
        """The round that just ended (final board, each seat's breakdown), before the next deal."""
        view = self.state.view(self.seat)
        last = view.get("last_round")
        if not last or last["round"] == self.summary_shown:
            return
        self.summary_shown = last["round"]
        self.console.rule()
        self.console.print(render_summary(view, self.lang, self.names))

    def show_legal(self, legal: list[Any]) -> list[Any]:
        """Print the legal actions numbered in groups; returns them in the order of their numbers."""
        self.console.print(Text(self.t("legal"), style="bold"))
        texts = [str(a) for a in legal]
        numbered: list[Any] = []
        for title, indexes in legal_groups(self.state.view(self.seat), texts, self.lang):
            if title:
                self.console.print(Text("  " + label(title, self.lang).rstrip(), style="bold"))
            items = []
            for i in indexes:
                numbered.append(legal[i])
                items.append(Text.assemble((f"{len(numbered):>3}", "bold cyan"), " ", texts[i]))
            self.console.print(Columns(items, padding=(0, 3)))
        return numbered

    def show_history(self) -> None:
        table = Table(title=self.t("history"))
        table.add_column("#", justify="right")
        table.add_column(self.t("player"))
        table.add_column(self.t("action"))
        for i, (actor, text) in enumerate(self.state.view(self.seat)["history"], 1):
            table.add_row(str(i), say("cli.chance", self.lang) if actor == CHANCE else self.names[actor], text)
        self.console.print(table)

    def show_rules(self, which: str) -> None:
        """The rules section of the current phase (`which` empty), the whole text (`all`) or one section."""
        book = load_rules(self.game.name, self.lang)
        try:
            if which == "all":
                text = book.markdown
            else:
                text = book.section(which or phase_section(self.state.view(self.seat))).markdown
        except RulesNotFound as exc:
            self.say(exc.text(self.lang), "red")
            return
        self.console.rule()
        self.console.print(rules_markdown(text))
        self.say(self.t("rules_more", example="options"), "dim")

    # -- moves -----------------------------------------------------------------------------------
    def read_line(self) -> str:
        self.console.print(self.t("prompt"), end="", markup=False, highlight=False)
        self.console.file.flush()
        line = sys.stdin.readline()
        if not line:
            self.console.print()
            self.say(self.t("eof"), "yellow")
            raise Quit
        if not sys.stdin.isatty():  # a terminal echoes what was typed; a pipe does not
            self.console.print(line.rstrip("\n"), markup=False, highlight=False)
        return line.strip()

    def show_hint(self, legal: list[Any]) -> None:
        """The best move now, at a table with the `hints` option (docs/review.md): the review's
        own rating from this seat's view."""
        state = self.state
        if not state.options.get("hints"):
            self.say(self.t("hint_off", option="-o hints=on"), "yellow")
            return
        from ..review import hint

        best = hint(state.game.name, state.view(self.seat), legal, HINT_ITERATIONS, seed=len(state.history))
        self.say(self.t("hint", action=best.action), "cyan")

    def human_turn(self) -> None:
        state = self.state
        legal = list(state.legal_actions(self.seat))
        if self.auto and len(legal) == 1:
            state.apply(self.seat, legal[0])
            self.show_action(self.seat, legal[0])
            return
        self.show_board()
        legal = self.show_legal(legal)
        while True:
            text = self.read_line()
            if not text:
                continue
            lowered = text.lower()
            if lowered in ("?", "rules") or lowered.startswith("rules "):
                self.show_rules("" if lowered == "?" else lowered.removeprefix("rules").strip())
                continue
            if lowered in ("help", "h"):
                self.say(self.t("help", example=str(legal[0]) if legal else "…"))
                continue
            if lowered == "hint":
                self.show_hint(legal)
                continue
            if lowered in ("quit", "exit", "q"):
                self.say(self.t("quit"), "yellow")
                raise Quit
            if lowered in ("board", "b"):
                self.show_board()
                legal = self.show_legal(legal)
                continue
            if lowered in ("log", "history"):
                self.show_history()
                continue
            actor, text = parse_entry(text)  # a line copied from a record reads "0: shut 7"
            if actor != CHANCE and actor != self.seat:
                self.say(self.t("not_you", seat=self.seat), "red")
                continue
            if is_number(text):
                n = int(text)
                if not 1 <= n <= len(legal):
                    self.say(self.t("bad_number", n=n, count=len(legal)), "red")
                    continue
                action = legal[n - 1]
            else:
                try:
                    action = self.game.parse_action(text)
                except MalformedAction as exc:
                    self.say(self.t("malformed", reason=exc.text(self.lang)), "red")
                    continue
            try:
                state.apply(self.seat, action)
            except IllegalAction as exc:
                self.say(self.t("illegal", reason=exc.text(self.lang)), "red")
                continue
            self.show_action(self.seat, action)
            return

    def bot_rng(self, seat: int) -> random.Random:
        """The generator of one bot decision, seeded from the seed, the seat and the actions so
        far: a resumed game gives each bot what it would have had in one sitting (a generator
        kept per seat would start afresh), however many draws its earlier decisions made."""
        return random.Random(derive_seed(self.seed, seat, len(self.state.history)))

    def bot_turn(self, seat: int) -> None:
        bot = self.bots[seat][1]
        view = self.state.view(seat)
        legal = self.state.legal_actions(seat)
        with Console(stderr=True).status(self.t("thinking", name=self.names[seat])):
            action = bot.choose(view, legal, self.bot_rng(seat))
        self.state.apply(seat, action)
        self.show_action(seat, action)

    def run(self) -> None:
        state = self.state
        while not state.is_over():
            to_move = state.to_move
            if not to_move:
                break
            open_from = state.settled()  # entries from here may read more once this step is made
            if to_move == (CHANCE,):
                outcome = state.sample_chance(self.chance_rng)
                state.apply(CHANCE, outcome)
                self.show_action(CHANCE, outcome)
            elif self.seat in to_move:
                self.human_turn()  # in a simultaneous step the person decides first, unseen by bots
            else:
                self.bot_turn(to_move[0])
            self.show_events()
            self.show_revealed(open_from)
            self.show_summary()

    def show_results(self) -> None:
        state = self.state
        self.console.rule(self.t("results"))
        self.console.print(render(state.view(self.seat), self.lang, self.names))
        self.show_summary()
        winners = set(state.winners())
        rounds = state.round_scores()
        table = Table(title=self.t("results"))
        table.add_column(self.t("seat"), justify="right")
        table.add_column(self.t("player"))
        for i in range(len(rounds)):
            table.add_column(self.t("round_column", n=i + 1), justify="right")
        table.add_column(say("cli.replay.total", self.lang), justify="right", style="bold")
        table.add_column(self.t("winner"))
        for s, total in enumerate(state.scores()):
            table.add_row(
                str(s),
                seat_text(s, self.names),
                *[number_text(r[s]) for r in rounds],
                number_text(total),
                "★" if s in winners else "",
            )
        self.console.print(table)

    def record(self) -> dict[str, Any]:
        record = self.state.record(seed=self.seed).to_json()
        record["seats"] = ["human" if s == self.seat else self.bots[s][0].label for s in range(self.state.players)]
        return record


def play_command(
    game: str | None = typer.Argument(None, help="cli.help.play.game"),
    players: int = typer.Option(2, "--players", "-p", help="cli.help.play.players"),
    options: list[str] = typer.Option([], "--options", "-o", help="cli.help.options"),
    bots: str | None = typer.Option(None, "--bots", "-b", help="cli.help.play.bots"),
    seed: int | None = typer.Option(None, "--seed", "-s", help="cli.help.play.seed"),
    seat: int | None = typer.Option(None, "--seat", help="cli.help.play.seat"),
    lang: str = lang_option(),
    record_path: str | None = typer.Option(None, "--record", help="cli.help.play.record"),
    resume: Path | None = typer.Option(None, "--resume", help="cli.help.play.resume"),
    auto: bool = typer.Option(False, "--auto", help="cli.help.play.auto"),
) -> None:
    """Play against bots in the terminal; the record is saved at the end (or when input ends)."""
    err = Console(stderr=True, soft_wrap=True)  # an error line is never cut in two
    console = Console(highlight=False)
    try:
        if resume is not None:
            state, seed, seat, labels, chance_rng = _resumed(resume, game, seed, seat)
            game = state.game.name
            players = state.players
        elif game is None:
            raise NekobakoError(Message("cli.play.name_game", games=", ".join(game_names())))
        else:
            if seed is None:
                seed = random.SystemRandom().randrange(2**31)
            seat = 0 if seat is None else seat
            state = get_game(game).new_game(players, parse_option_args(options))
            labels, chance_rng = None, random.Random(seed)
        if not 0 <= seat < players:
            raise NekobakoError(Message("cli.play.seat_range", last=players - 1))
        bot_seats = [s for s in range(players) if s != seat]
        specs = _bot_specs(game, bots if bots is not None or labels is None else ",".join(labels), len(bot_seats))
        table_bots = {s: (spec, spec.make(game)) for s, spec in zip(bot_seats, specs, strict=True)}
        for _, bot in table_bots.values():
            if callable(check := getattr(bot, "check_table", None)):  # the learned level's weights
                check(players, state.options)
        default = str(resume) if resume is not None else "records/"
        path = record_target(record_path or default, f"{game}-{time.strftime('%Y%m%d-%H%M%S')}-s{seed}.json")
    except BadRecord as exc:
        print_error(err, exc.text(lang), lang, "cli.bad_record")
        raise typer.Exit(2) from None
    except NekobakoError as exc:
        print_error(err, exc.text(lang), lang)
        raise typer.Exit(2) from None
    session = TerminalGame(state, seat, table_bots, seed, lang, auto, console, chance_rng)
    header = session.t(
        "header", title=Message(f"game.{game}"), players=Message("words.players", n=players), seed=seed, seat=seat
    )
    console.print(Text(header, style="bold"))
    session.say(session.message("goal"), "dim")
    if resume is not None:
        session.say(session.t("resumed", path=resume, n=len(state.history)), "green")
    finished = interrupted = False
    failed: Exception | None = None
    try:
        session.run()
        finished = True
    except Quit:
        pass
    except KeyboardInterrupt:
        console.print()
        session.say(session.t("quit"), "yellow")
        interrupted = True
    except Exception as exc:  # a bug in a bot or a game: keep the record so it can be reproduced
        failed = exc
        print_error(err, say("cli.crashed", lang, error=f"{type(exc).__name__}: {exc}"), lang)
    if finished:
        session.show_results()
    saved = save_record(path, session.record(), err, lang)
    session.say(session.t("saved", path=saved), "green")
    if interrupted:
        raise typer.Exit(130)  # the convention for Ctrl-C, after the record is safe
    if failed is not None:
        raise typer.Exit(1)


def record_target(given: str, name: str) -> Path:
    """Where the record will go: `given`, or `given/name` when it is a directory (or ends in '/').
    Checked before the game starts, so a game is never played only to be lost at the end."""
    path = Path(given)
    if path.is_dir() or given.endswith(("/", os.sep)):
        path = path / name
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise NekobakoError(Message("cli.play.cannot_save_in", path=str(path.parent), reason=os_reason(exc))) from None
    if path.is_dir():
        raise NekobakoError(Message("cli.play.record_is_directory", path=str(path)))
    if not os.access(path.parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise NekobakoError(Message("cli.play.cannot_write", path=str(path)))
    return path


def save_record(path: Path, record: dict[str, Any], err: Console, lang: str = "en") -> Path:
    """Write the record; if that fails after all (disk full, directory removed meanwhile), write it
    to the temporary directory instead and say so: a game played is never lost."""
    text = json.dumps(record, ensure_ascii=False) + "\n"
    try:
        path.write_text(text, encoding="utf-8")
        return path
    except OSError as exc:
        print_error(err, say("cli.play.save_failed", lang, path=str(path), reason=os_reason(exc)), lang)
    fd, spare = tempfile.mkstemp(prefix=f"nekobako-{record['game']}-", suffix=".json")
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        file.write(text)
    return Path(spare)


def _resumed(
    path: Path, game: str | None, seed: int | None, seat: int | None
) -> tuple[State, int, int, list[str] | None, random.Random]:
    """The unfinished game of a record: its state, seed, the person's seat, the bots' labels and
    the dice and deals stream where the game left it (chance draws from Random(seed) in order, as
    `play` drew them, so the record's moves alone still rebuild the whole game)."""
    data = parse_json(read_record(path))
    record = Record.from_json(data)
    if game is not None and game != record.game:
        check_game_name(game)
        theirs, wanted = Message(f"game.{record.game}"), Message(f"game.{game}")
        raise NekobakoError(Message("cli.play.other_game", path=str(path), game=theirs, wanted=wanted))
    if seed is not None and record.seed is not None and seed != record.seed:
        raise NekobakoError(Message("cli.play.other_seed", path=str(path), seed=record.seed))
    seed = record.seed if record.seed is not None else random.SystemRandom().randrange(2**31)
    rng = random.Random(seed)
    try:
        state = get_game(record.game).new_game(record.players, record.options)
        for index, entry in enumerate(record.actions):
            actor, text = parse_entry(entry)
            if actor != CHANCE:
                while state.is_chance():
                    state.apply(CHANCE, state.sample_chance(rng))
            else:
                state.sample_chance(rng)  # the draw `play` made here; the record says what came of it
            try:
                state.apply(actor, state.game.parse_action(text))
            except NekobakoError as exc:
                raise BadRecord(
                    Message("engine.record.refused", index=index, entry=entry, reason=exc.message)
                ) from None
    except BadRecord:
        raise
    except NekobakoError as exc:
        raise BadRecord(exc.message) from None
    if state.is_over():
        raise NekobakoError(Message("cli.play.over", path=str(path)))
    labels = data.get("seats") if isinstance(data, dict) else None
    if not (isinstance(labels, list) and len(labels) == record.players and all(isinstance(x, str) for x in labels)):
        labels = None
    if seat is None:
        humans = [s for s, label in enumerate(labels or []) if label == "human"]
        if len(humans) != 1:
            raise NekobakoError(Message("cli.play.which_seat", path=str(path)))
        seat = humans[0]
    bot_labels = None if labels is None else [label for s, label in enumerate(labels) if s != seat]
    return state, seed, seat, bot_labels, rng


def _bot_specs(game: str, text: str | None, count: int) -> list[BotSpec]:
    if text is None:
        from ..bots import default_bot

        return [BotSpec(default_bot(game))] * count
    return list(parse_bots(text, count))
