"""The tutorial driver: pure (no I/O, no clock, no randomness) and resumable.

`Tutorial(script, done)` replays the script's first `done` steps through the engine and stands at
the next one: chance and the bots' moves come from the script, the learner's move must be the
step's. `attempt(text)` answers a try with why not (a legal move that is not the step's: a
tutorial message; anything the game refuses: the game's own refusal) or, for the step's move,
plays it and the entries before the next step. A client keeps only `done` to resume.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine import CHANCE, IllegalAction, NekobakoError, State, get_game, is_number, parse_entry
from ..i18n import Message
from .script import Script, Step


@dataclass(frozen=True, slots=True)
class Lesson:
    """What a client shows at one step."""

    step: int  # steps done (the resumption point)
    steps: int  # the learner's moves in the script
    text: Message  # what just happened and what to do now
    point: str  # the part of the table concerned
    rules: str  # the rules section it links to
    expected: str | None  # the move asked for; None when the tutorial is over

    @property
    def over(self) -> bool:
        return self.expected is None

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "steps": self.steps,
            "text": self.text.to_json(),
            "point": self.point,
            "rules": self.rules,
            "expected": self.expected,
            "over": self.over,
        }


class Tutorial:
    """One learner's way through a script. Raises `IllegalAction` from the engine, never a bare
    error, if a script no longer fits the rules (the replay test keeps that from shipping)."""

    def __init__(self, script: Script, done: int = 0):
        if not 0 <= done <= len(script.steps):
            raise IllegalAction(Message("tutorial.no_step", step=done, steps=len(script.steps)))
        self.script = script
        self.seat = script.seat
        self.state: State = get_game(script.game).new_game(script.players, script.options)
        self.done = 0
        self._play(self._step.before)
        for _ in range(done):
            self._advance()

    @property
    def _step(self) -> Step:
        steps = self.script.steps
        return steps[self.done] if self.done < len(steps) else self.script.finish

    @property
    def over(self) -> bool:
        return self.done >= len(self.script.steps)

    def lesson(self) -> Lesson:
        step = self._step
        expected = step.move
        params = {"move": expected} if expected is not None else {}
        return Lesson(self.done, len(self.script.steps), Message(step.text, **params), step.point, step.rules, expected)

    def view(self) -> dict[str, Any]:
        """The learner's view: the table is drawn from it as at any game."""
        return self.state.view(self.seat)

    def attempt(self, text: str) -> Message | None:
        """The learner tries `text` (notation, `SEAT: …` accepted, or a number from the list of
        legal moves). None: it was the step's move, now played with what follows it. Otherwise
        why not, and nothing changed."""
        expected = self._step.move
        if expected is None:
            return Message("tutorial.finished")
        actor, text = parse_entry(text)
        if actor not in (CHANCE, self.seat):
            return Message("tutorial.not_your_seat", seat=self.seat)
        game = self.state.game
        try:
            legal = list(self.state.legal_actions(self.seat))
            if is_number(text):
                n = int(text)
                if not 1 <= n <= len(legal):
                    return Message("tutorial.bad_number", n=n, count=len(legal))
                action = legal[n - 1]
            else:
                action = game.parse_action(text)
            if action != game.parse_action(expected):
                if action in legal:
                    return Message("tutorial.other_move", move=str(action), expected=expected)
                trial = self.state.clone()
                trial.apply(self.seat, action)  # raises the game's own refusal
                return Message("tutorial.other_move", move=str(action), expected=expected)
        except NekobakoError as exc:
            return exc.message
        self._advance()
        return None

    def _advance(self) -> None:
        self._play([f"{self.seat}: {self._step.move}"])
        self.done += 1
        self._play(self._step.before)

    def _play(self, entries: Any) -> None:
        game = self.state.game
        for entry in entries:
            seat, text = parse_entry(entry)
            self.state.apply(seat, game.parse_action(text))
