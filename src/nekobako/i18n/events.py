"""Events, prompts and goals in words: the one rule for filling a game's templates from an event's
data. `web/words.js` follows the same rule in the browser (tests/i18n checks both give the same
words for every event of played games), so a game writes its words once, in its `messages.po`.

* `{who}` is the event's seat; when that seat is the reader, the template's `.you` form is used.
* `who`, `seat`, `to`, `from`, `owner`, `winner`, `loser`, `leader`, `target`: a seat, by name
  ("you" / "あなた" when it is the reader's).
* `winners`, `seats`, `losers`, `players`: seats, by name, joined ("Ann, Bo and Cy" / "Ann、Bo、Cy").
* a mapping of seat numbers (`{"0": 4}`): "Ann: 4, Bo: 7" / "Ann：4、Bo：7".
* a text value `v` of field `f` with a catalogue key `<game>.<f>.<v>` (`catbox.colour.red`): translated.
* a list of numbers (a hand): notation, "1 1 4 7" in both languages; other lists "a, b" / "a、b".
* nothing (`None`, an empty list): "none" / "なし".
* plural forms count `n`, or else the seats of the first seat list ("winner" / "winners").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .message import has, join_list, text, value_text, you

SEAT_KEYS = frozenset({"who", "seat", "to", "from", "owner", "winner", "loser", "leader", "target"})
SEAT_LIST_KEYS = frozenset({"winners", "seats", "losers", "players"})


def seat_name(seat: int, lang: str = "en", names: Sequence[str] | None = None) -> str:
    """A seat in words: the player's name when the caller knows it, else `Seat 2` / `席2`."""
    if names and 0 <= seat < len(names):
        return names[seat]
    return text("words.seat", lang, n=seat)


def field_text(
    game: str, key: str, value: Any, lang: str, names: Sequence[str] | None, viewer: int | None = None
) -> str:
    if key in SEAT_KEYS and isinstance(value, int) and not isinstance(value, bool):
        return text("words.reader", lang) if value == viewer else seat_name(value, lang, names)
    if key in SEAT_LIST_KEYS and isinstance(value, (list, tuple)) and all(isinstance(v, int) for v in value):
        return join_list([seat_name(v, lang, names) for v in value], lang, names=True) or text("words.none", lang)
    if isinstance(value, Mapping) and all(str(k).isdigit() for k in value):
        colon = "：" if lang == "ja" else ": "
        pairs = [
            f"{seat_name(int(k), lang, names)}{colon}{field_text(game, '', v, lang, names)}" for k, v in value.items()
        ]
        return join_list(pairs, lang) or text("words.none", lang)
    if isinstance(value, (list, tuple)) and value and all(type(v) is int for v in value):
        return " ".join(map(str, value))
    if isinstance(value, str) and has(f"{game}.{key}.{value}"):
        return text(f"{game}.{key}.{value}", lang)
    return value_text(value, lang)


def describe(
    game: str,
    family: str,
    kind: str,
    seat: int | None,
    data: Mapping[str, Any],
    lang: str = "en",
    names: Sequence[str] | None = None,
    viewer: int | None = None,
) -> str:
    """`family` is `event` or `prompt` (prompts and goals of views). An unknown kind reads as itself."""
    key = f"{game}.{family}.{kind}"
    if not has(key):
        return kind
    params: dict[str, Any] = {k: field_text(game, k, v, lang, names, viewer) for k, v in data.items()}
    params["who"] = "" if seat is None else seat_name(seat, lang, names)
    if "n" not in data:  # plural forms count the seats listed ("winner" / "winners")
        params["n"] = next((len(v) for k, v in data.items() if k in SEAT_LIST_KEYS and isinstance(v, (list, tuple))), 1)
    return text(you(key, seat is not None and seat == viewer), lang, **params)
