"""Tutorial scripts as data: one TOML file per game in `scripts/`, read into value types.

    game = "shutbox"      players = 2      seat = 0      options = {}
    [[step]]
    before = ["start 0"]  # chance outcomes and bots' moves played before this step (notation)
    move = "roll"         # the one move the learner's seat may make at this step
    text = "tutorial.shutbox.roll"   # catalogue key (i18n/tutorial.po): what happened, what to do
    point = "controls"    # the part of the table the text points at (a name both clients know)
    rules = "roll"        # the rules section (an anchor of rules/<lang>/<game>.md)
    [finish]              # what follows the last step, and the closing text
    before = […]   text = "…"   point = "…"   rules = "…"

The words live in the catalogue, never here, so the same script teaches in every language.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from ..engine import NekobakoError, Record, check_game_name
from ..i18n import Message

POINTS = frozenset({"controls", "dice", "tiles", "scores", "hand", "hell", "board", "trick", "players", "table"})
"""The parts of a table a step may point at; each client maps them to what it draws."""


class TutorialNotFound(NekobakoError, ValueError):
    """A game with no tutorial (the message names those that have one)."""


@dataclass(frozen=True, slots=True)
class Step:
    before: tuple[str, ...]  # record entries (`SEAT: action` or a chance outcome) played first
    move: str | None  # the learner's move at this step; None for the closing step
    text: str  # catalogue key
    point: str  # one of POINTS
    rules: str  # rules anchor


@dataclass(frozen=True, slots=True)
class Script:
    game: str
    players: int
    seat: int  # the learner's seat; every other seat is a scripted bot
    options: dict[str, Any]
    steps: tuple[Step, ...]  # the learner's moves, in order
    finish: Step  # what follows the last move, and the closing words

    def record(self, done: int | None = None) -> Record:
        """The record of the tutorial's first `done` steps (all of it, closing entries included,
        when `done` is None): what `engine.replay` rebuilds, and what a saved tutorial holds."""
        steps = self.steps if done is None else self.steps[:done]
        actions: list[str] = []
        for step in steps:
            actions += step.before
            actions.append(f"{self.seat}: {step.move}")
        if done is None or done >= len(self.steps):
            actions += self.finish.before
        return Record(self.game, self.players, dict(self.options), None, actions)


def _step(data: dict[str, Any], final: bool) -> Step:
    before = data.get("before", [])
    move = data.get("move")
    fields = (data.get("text"), data.get("point"), data.get("rules"))
    if not isinstance(before, list) or not all(isinstance(e, str) for e in before):
        raise ValueError(f"a step's `before` must be a list of entries: {data!r}")
    if (move is None) != final or (move is not None and not isinstance(move, str)):
        raise ValueError(f"every step but the finish names its move: {data!r}")
    if not all(isinstance(f, str) for f in fields) or fields[1] not in POINTS:
        raise ValueError(f"a step needs text, rules and a point among {sorted(POINTS)}: {data!r}")
    return Step(tuple(before), move, *fields)  # type: ignore[arg-type]


def parse(text: str) -> Script:
    """A script from its TOML text. A malformed script is a programming error (ValueError):
    scripts ship with the package and a test replays each one."""
    data = tomllib.loads(text)
    steps = tuple(_step(s, False) for s in data["step"])
    return Script(
        data["game"], data["players"], data["seat"], dict(data.get("options", {})), steps, _step(data["finish"], True)
    )


def tutorial_games() -> list[str]:
    """The games that have a tutorial, from the files there are (no list kept elsewhere)."""
    folder = resources.files(__package__) / "scripts"
    return sorted(p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml"))


@cache
def load(game: str) -> Script:
    """The tutorial of `game`; `UnknownGame` for a game that does not exist, `TutorialNotFound`
    for one without a tutorial."""
    check_game_name(game)
    if game not in tutorial_games():
        raise TutorialNotFound(
            Message("tutorial.none", game=Message(f"game.{game}"), games=", ".join(tutorial_games()))
        )
    return parse((resources.files(__package__) / "scripts" / f"{game}.toml").read_text(encoding="utf-8"))


__all__ = ["POINTS", "Script", "Step", "TutorialNotFound", "load", "parse", "tutorial_games"]
