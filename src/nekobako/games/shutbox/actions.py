"""Shut the Box actions: tiny immutable values whose `str()` is the notation of the rules file.

Every action is interned (one object per distinct action), so equality is identity: legality
checks are `action in legal` on a short tuple without any Python-level `__eq__`, which keeps
random playouts fast. Build actions with the constructors or `parse_action`; both return the
shared instance.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ...engine import MalformedAction, check_text, is_number
from ...i18n import Message

MAX_TILE = 12


class _Interned:
    """Base of the action types: frozen, interned, printed as notation."""

    __slots__ = ("_text",)
    _cache: ClassVar[dict[Any, _Interned]]
    _text: str

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self._text!r}>"

    def _init(self, **fields: Any) -> None:
        for name, value in fields.items():
            object.__setattr__(self, name, value)


class Roll(_Interned):
    """`roll` (two dice) or `roll 1` (one die)."""

    __slots__ = ("n",)
    _cache: ClassVar[dict[Any, _Interned]] = {}
    n: int

    def __new__(cls, n: int = 2) -> Roll:
        found = cls._cache.get(n)
        if found is None:
            if n not in (1, 2):
                raise MalformedAction(Message("shutbox.notation.roll", value=repr(n)))
            found = object.__new__(cls)
            found._init(n=n, _text="roll" if n == 2 else "roll 1")
            cls._cache[n] = found
        return found  # type: ignore[return-value]

    def __reduce__(self) -> tuple[Any, ...]:
        return (Roll, (self.n,))


class Dice(_Interned):
    """A chance outcome: the faces rolled, ascending (`dice 3 4`, `dice 5`)."""

    __slots__ = ("faces", "n", "total")
    _cache: ClassVar[dict[Any, _Interned]] = {}
    faces: tuple[int, ...]
    n: int  # number of dice
    total: int

    def __new__(cls, *faces: int) -> Dice:
        try:
            key = tuple(sorted(faces))
        except TypeError:
            raise MalformedAction(Message("shutbox.notation.faces", value=repr(faces))) from None
        found = cls._cache.get(key)
        if found is None:
            if len(key) not in (1, 2) or any(type(f) is not int or not 1 <= f <= 6 for f in key):
                raise MalformedAction(Message("shutbox.notation.faces", value=repr(faces)))
            found = object.__new__(cls)
            found._init(faces=key, n=len(key), total=sum(key), _text="dice " + " ".join(map(str, key)))
            cls._cache[key] = found
        return found  # type: ignore[return-value]

    def __reduce__(self) -> tuple[Any, ...]:
        return (Dice, self.faces)


class Shut(_Interned):
    """Close tiles: `shut 2 7` (ascending). `mask` has bit t-1 set for tile t."""

    __slots__ = ("mask", "tiles", "total")
    _cache: ClassVar[dict[Any, _Interned]] = {}
    mask: int
    tiles: tuple[int, ...]
    total: int

    def __new__(cls, *tiles: int) -> Shut:
        return cls.of_mask(_tiles_mask(tiles))

    @classmethod
    def of_mask(cls, mask: int) -> Shut:
        found = cls._cache.get(mask)
        if found is None:
            if not 0 < mask < 1 << MAX_TILE:
                raise MalformedAction(Message("shutbox.notation.shut"))
            tiles = tuple(t + 1 for t in range(MAX_TILE) if mask >> t & 1)
            found = object.__new__(cls)
            found._init(mask=mask, tiles=tiles, total=sum(tiles), _text="shut " + " ".join(map(str, tiles)))
            cls._cache[mask] = found
        return found  # type: ignore[return-value]

    def __reduce__(self) -> tuple[Any, ...]:
        return (Shut, self.tiles)


class Start(_Interned):
    """A chance outcome: the start player (`start 0`)."""

    __slots__ = ("seat",)
    _cache: ClassVar[dict[Any, _Interned]] = {}
    seat: int

    def __new__(cls, seat: int) -> Start:
        found = cls._cache.get(seat)
        if found is None:
            if type(seat) is not int or seat < 0:
                raise MalformedAction(Message("shutbox.notation.start", value=repr(seat)))
            found = object.__new__(cls)
            found._init(seat=seat, _text=f"start {seat}")
            cls._cache[seat] = found
        return found  # type: ignore[return-value]

    def __reduce__(self) -> tuple[Any, ...]:
        return (Start, (self.seat,))


Action = Roll | Dice | Shut | Start

ROLL = Roll(2)
ROLL_ONE = Roll(1)


def _tiles_mask(tiles: tuple[int, ...]) -> int:
    mask = 0
    for t in tiles:
        if type(t) is not int or not 1 <= t <= MAX_TILE:
            raise MalformedAction(Message("shutbox.notation.tile", high=MAX_TILE, value=repr(t)))
        if mask >> (t - 1) & 1:
            raise MalformedAction(Message("shutbox.notation.twice", tile=t))
        mask |= 1 << (t - 1)
    if not mask:
        raise MalformedAction(Message("shutbox.notation.shut"))
    return mask


def _numbers(words: list[str]) -> tuple[int, ...]:
    if not all(map(is_number, words)):  # plain digits: int() would also take '+7', '1_0', '٣'
        raise MalformedAction(Message("shutbox.notation.digits", text=" ".join(words)))
    return tuple(int(w) for w in words)


def parse_action(text: str) -> Action:
    """Parse notation (`roll`, `roll 1`, `dice 3 4`, `shut 2 7`, `start 0`); raise `MalformedAction`."""
    words = check_text(text)
    verb, rest = words[0].lower(), words[1:]
    if verb == "roll":
        if not rest:
            return ROLL
        if len(rest) == 1 and rest[0] in ("1", "2"):
            return Roll(int(rest[0]))
        raise MalformedAction(Message("shutbox.notation.roll_text"))
    if verb == "dice":
        if len(rest) not in (1, 2):
            raise MalformedAction(Message("shutbox.notation.dice_text"))
        return Dice(*_numbers(rest))
    if verb == "shut":
        return Shut(*_numbers(rest))
    if verb == "start":
        if len(rest) != 1:
            raise MalformedAction(Message("shutbox.notation.start_text"))
        return Start(_numbers(rest)[0])
    raise MalformedAction(Message("shutbox.notation.unknown", word=words[0]))
