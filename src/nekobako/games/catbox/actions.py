"""Actions and their canonical notation (rules §9): `start 2`, `deal 1 1 2 … | … [| reveal a b c |
hidden d e]`, `discard 5`, `predict 3`, `play 7 red`.

Player actions are interned: `PLAYS[number][colour]`, `DISCARDS[number]`, `PREDICTS[value]` are the
only instances the parser returns, so legal-action lists are built from precomputed tuples and
compared by identity in the hot path.
"""

from __future__ import annotations

from typing import Any

from ...engine import MalformedAction, check_text, is_number
from ...i18n import Message
from .layouts import COLOURS

MAX_NUMBER = 9


class CatboxAction:
    """Immutable base: one canonical text, equality and hashing by that text."""

    __slots__ = ("text",)
    text: str

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("actions are immutable")

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.text!r})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Pickle and copy through the notation (player actions come back interned)."""
        return parse_action, (str(self),)


class Start(CatboxAction):
    """Chance: the first round's start player."""

    __slots__ = ("seat",)
    seat: int

    def __init__(self, seat: int):
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "text", f"start {seat}")


class Deal(CatboxAction):
    """Chance: every hand (sorted), and at 2 players the revealed and hidden centre cards."""

    __slots__ = ("hands", "hidden", "reveal")
    hands: tuple[tuple[int, ...], ...]
    reveal: tuple[int, ...]
    hidden: tuple[int, ...]

    def __init__(self, hands: tuple[tuple[int, ...], ...], reveal: tuple[int, ...] = (), hidden: tuple[int, ...] = ()):
        object.__setattr__(self, "hands", tuple(tuple(sorted(h)) for h in hands))
        object.__setattr__(self, "reveal", tuple(sorted(reveal)))
        object.__setattr__(self, "hidden", tuple(sorted(hidden)))
        object.__setattr__(self, "text", "")  # built on first use: sampled deals are rarely printed

    def __str__(self) -> str:
        if not self.text:
            parts = [" ".join(map(str, h)) for h in self.hands]
            if self.reveal or self.hidden:
                parts.append("reveal " + " ".join(map(str, self.reveal)))
                parts.append("hidden " + " ".join(map(str, self.hidden)))
            object.__setattr__(self, "text", "deal " + " | ".join(parts))
        return self.text

    def __eq__(self, other: object) -> bool:
        return type(other) is Deal and str(other) == str(self)

    def __hash__(self) -> int:
        return hash(str(self))

    def __repr__(self) -> str:
        return f"Deal({str(self)!r})"


class Discard(CatboxAction):
    __slots__ = ("number",)
    number: int

    def __init__(self, number: int):
        object.__setattr__(self, "number", number)
        object.__setattr__(self, "text", f"discard {number}")


class Predict(CatboxAction):
    __slots__ = ("value",)
    value: int

    def __init__(self, value: int):
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "text", f"predict {value}")


class Play(CatboxAction):
    """A card of `number` declared as `colour` (row index, 0 = red)."""

    __slots__ = ("colour", "number")
    number: int
    colour: int

    def __init__(self, number: int, colour: int):
        object.__setattr__(self, "number", number)
        object.__setattr__(self, "colour", colour)
        object.__setattr__(self, "text", f"play {number} {COLOURS[colour]}")


PLAYS: tuple[tuple[Play, ...], ...] = tuple(
    tuple(Play(n, c) for c in range(len(COLOURS))) for n in range(MAX_NUMBER + 1)
)
"""`PLAYS[number][colour]` (row 0 unused)."""
DISCARDS: tuple[Discard, ...] = tuple(Discard(n) for n in range(MAX_NUMBER + 1))
PREDICTS: tuple[Predict, ...] = tuple(Predict(v) for v in range(MAX_NUMBER + 1))
_COLOUR_INDEX = {name: i for i, name in enumerate(COLOURS)}


def _number(word: str, what: str, low: int = 1, high: int = MAX_NUMBER) -> int:
    """`what`: `card`, `prediction`, `seat` or `centre` (the key `catbox.notation.<what>`)."""
    if not is_number(word) or not (low <= int(word) <= high):
        raise MalformedAction(Message(f"catbox.notation.{what}", low=low, high=high, word=word))
    return int(word)


def parse_action(text: str) -> CatboxAction:
    """Canonical notation → action (interned for player actions). Raises `MalformedAction`."""
    words = check_text(text)
    verb, args = words[0].lower(), words[1:]
    if verb == "play":
        if len(args) != 2:
            raise MalformedAction(Message("catbox.notation.play"))
        colour = _COLOUR_INDEX.get(args[1].lower())
        if colour is None:
            raise MalformedAction(Message("catbox.notation.colour", word=args[1], colours=list(COLOURS)))
        return PLAYS[_number(args[0], "card")][colour]
    if verb in ("discard", "predict", "start"):
        if len(args) != 1:
            raise MalformedAction(Message("catbox.notation.verb_number", verb=verb))
        if verb == "discard":
            return DISCARDS[_number(args[0], "card")]
        if verb == "predict":
            return PREDICTS[_number(args[0], "prediction")]
        return Start(_number(args[0], "seat", 0, 4))
    if verb == "deal":
        return _parse_deal(text)
    raise MalformedAction(Message("catbox.notation.unknown", word=words[0]))


def _parse_deal(text: str) -> Deal:
    body = text.strip()[len("deal") :]
    hands: list[tuple[int, ...]] = []
    reveal: tuple[int, ...] | None = None
    hidden: tuple[int, ...] | None = None
    for part in body.split("|"):
        words = part.split()
        if words and words[0].lower() in ("reveal", "hidden"):
            cards = tuple(_number(w, "centre") for w in words[1:])
            if words[0].lower() == "reveal":
                reveal = cards
            else:
                hidden = cards
        elif reveal is not None or hidden is not None:
            raise MalformedAction(Message("catbox.notation.deal_order"))
        else:
            hands.append(tuple(_number(w, "card") for w in words))
    if (reveal is None) != (hidden is None):
        raise MalformedAction(Message("catbox.refusal.deal_centre"))
    return Deal(tuple(hands), reveal or (), hidden or ())
