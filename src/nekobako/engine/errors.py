"""One exception family, so callers (CLI, server, bots) can tell bad input from bugs.

Each error carries a `Message` (a catalogue key and its parameters), not words: the terminal, the
server and the browser word it in their reader's language (`exc.text("ja")`, or `exc.message`
sent as JSON). `str(exc)` is the English, for logs and tracebacks. A plain string is still
accepted for errors no player meets (a research script's misuse); it reads the same in every
language.
"""

from __future__ import annotations

from typing import Any

from ..i18n import Message


class NekobakoError(Exception):
    """Base of every error the engine raises on purpose."""

    def __init__(self, message: Message | str = ""):
        self.message = message if isinstance(message, Message) else Message("words.text", text=message)
        super().__init__(self.message)

    @property
    def code(self) -> str:
        """The stable key of what went wrong (`shutbox.refusal.tile_shut`)."""
        return self.message.key

    @property
    def params(self) -> dict[str, Any]:
        return dict(self.message.params)

    def text(self, lang: str = "en") -> str:
        return self.message.text(lang)

    def __str__(self) -> str:
        return self.message.text("en")


class InvalidOptions(NekobakoError, ValueError):
    """Options a table cannot be played with; the message is meant for a player."""


class UnknownGame(NekobakoError, ValueError):
    """A game name the registry does not know."""


class MalformedAction(NekobakoError, ValueError):
    """Not an action of this game: text outside its notation, or a value of another type given to
    `State.apply`. Nothing about the position is needed to tell."""

    @classmethod
    def not_an_action(cls, game: str, value: Any) -> MalformedAction:
        """`value` (given to `State.apply`) is not one of `game`'s actions."""
        return cls(Message("engine.refusal.not_an_action", game=Message(f"game.{game}"), value=repr(value)))


class IllegalAction(NekobakoError, ValueError):
    """An action of this game that the rules do not allow now, or a seat that does not exist or may
    not move. The state is unchanged."""


class BadRecord(NekobakoError, ValueError):
    """A record that cannot be replayed; the message names the entry, its index and why."""

    def __init__(self, message: Message | str, index: int | None = None, entry: str | None = None):
        super().__init__(message)
        self.index = index
        self.entry = entry
