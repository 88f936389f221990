"""Cards as small integers, so hands, hell areas and the deck are count lists indexed by card.

Numbered cards are their number (1–20). The two extra cards of §7 both count as 0 but are
different cards, so they get their own slots after the highest possible number. Every count list
in the game has `SLOTS` entries (index 0 is unused: there is no plain 0 card).
"""

from __future__ import annotations

from ...engine import MalformedAction, is_number
from ...i18n import Message

MAX_NUMBER = 20
MITCH = 21
CATLETON = 22
SLOTS = 23

_TEXT = {MITCH: "M", CATLETON: "C"}
_PARSE = {"M": MITCH, "C": CATLETON, "m": MITCH, "c": CATLETON}


def card_text(card: int) -> str:
    """`7`, `M` (Mdm Mitch) or `C` (Cat-leton)."""
    return _TEXT.get(card) or str(card)


def card_json(card: int) -> int | str:
    return _TEXT.get(card) or card


def parse_card(word: str) -> int:
    """One card word of the notation; raises `MalformedAction`."""
    card = _PARSE.get(word)
    if card is not None:
        return card
    if is_number(word) and 1 <= int(word) <= MAX_NUMBER:
        return int(word)
    raise MalformedAction(Message("catopomp.notation.card", word=word, high=MAX_NUMBER))


_FROM_JSON: dict[object, int] = {n: n for n in range(1, MAX_NUMBER + 1)} | {"M": MITCH, "C": CATLETON}


def card_from_json(value: object) -> int:
    """A card as views write it (`7`, `"M"`, `"C"`)."""
    if type(value) is int or type(value) is str:
        found = _FROM_JSON.get(value)
        if found is not None:
            return found
    if isinstance(value, bool):
        raise MalformedAction(Message("catopomp.notation.card", word=repr(value), high=MAX_NUMBER))
    if isinstance(value, int):
        value = str(value)
    if not isinstance(value, str):
        raise MalformedAction(Message("catopomp.notation.card", word=repr(value), high=MAX_NUMBER))
    return parse_card(value)


def cards_of(counts: list[int]) -> list[int]:
    """Sorted card list (numbers ascending, then M, then C) from a count list."""
    out: list[int] = []
    for card in range(1, SLOTS):
        if counts[card]:
            out.extend([card] * counts[card])
    return out
