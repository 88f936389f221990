"""The table options of rules §1 and the per-table constants derived from them.

Several numbers are house defaults (the publisher's rulebook was not available): they live here
once, as option defaults, and changing an option changes nothing else. What the lobby says about
each option (name, help, value and preset labels) is in messages.po, `catopomp.option.*`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from ...engine import HINTS, InvalidOptions, Options, OptionSpec
from ...i18n import Message
from .cards import CATLETON, MAX_NUMBER, MITCH, SLOTS

DEFAULT_DECK: tuple[tuple[int, int], ...] = tuple((n, 4) for n in range(1, 13))
"""House default: numbers 1–12, four copies each (48 cards)."""

MAX_COPIES = 8
MAX_DECK_TEXT = 200  # longer than any real deck; refused before it is read


def parse_deck(raw: Any) -> tuple[tuple[int, int], ...]:
    """A deck is a list of (number, copies). Text forms: `1-12x4`, `1:4,2:4,5-9x2`."""
    pairs: list[tuple[int, int]] = []
    if isinstance(raw, str):
        if len(raw) > MAX_DECK_TEXT:
            raise InvalidOptions(Message("catopomp.options.deck_long", n=MAX_DECK_TEXT))
        for part in raw.replace(" ", "").split(","):
            match = re.fullmatch(r"(\d+)(?:-(\d+))?[x:](\d+)", part)
            if not match:
                raise InvalidOptions(Message("catopomp.options.deck_unreadable", part=part[:40]))
            lo = int(match.group(1))
            hi = int(match.group(2) or lo)
            _check_number(lo)  # bounds first: a range is expanded only once it is known to be small
            _check_number(hi)
            pairs.extend((n, int(match.group(3))) for n in range(lo, hi + 1))
    elif isinstance(raw, (list, tuple)):
        for item in raw:
            if (
                not isinstance(item, (list, tuple))
                or len(item) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in item)
            ):
                raise InvalidOptions(Message("catopomp.options.deck_pair", item=repr(item)))
            pairs.append((item[0], item[1]))
    else:
        raise InvalidOptions(Message("catopomp.options.deck_list"))
    seen: set[int] = set()
    for number, copies in pairs:
        _check_number(number)
        if not 1 <= copies <= MAX_COPIES:
            shown = _short(copies)
            raise InvalidOptions(Message("catopomp.options.deck_copies", high=MAX_COPIES, value=shown))
        if number in seen:
            raise InvalidOptions(Message("catopomp.options.deck_twice", number=number))
        seen.add(number)
    if len(pairs) < 2:
        raise InvalidOptions(Message("catopomp.options.deck_two"))
    return tuple(sorted(pairs))


def _short(number: int) -> str:
    text = str(number)  # the text is at most MAX_DECK_TEXT long, JSON numbers at most 4,300 digits
    return text if len(text) <= 8 else text[:8] + "…"


def _check_number(number: int) -> None:
    if not 1 <= number <= MAX_NUMBER:
        shown = _short(number)
        raise InvalidOptions(Message("catopomp.options.deck_number", high=MAX_NUMBER, value=shown))


OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "deck",
        DEFAULT_DECK,
        parse=parse_deck,
        presets=(
            ("default", DEFAULT_DECK),
            ("short", tuple((n, 3) for n in range(1, 13))),
            ("small", tuple((n, 4) for n in range(1, 11))),
            ("long", tuple((n, 3) for n in range(1, 17))),
        ),
        bounds={"number": (1, MAX_NUMBER), "copies": (1, MAX_COPIES)},
    ),
    OptionSpec("hand_size", 10, choices=tuple(range(5, 17))),
    OptionSpec("dice", lambda players: players + 1, choices=tuple(range(2, 9))),
    OptionSpec("gems", 2, choices=(1, 2, 3, 4, 5)),
    OptionSpec("casual", False, choices=(False, True)),
    OptionSpec("extra_cards", "none", choices=("none", "mitch", "catleton", "both")),
    HINTS,
)


def extra_cards(kind: str, players: int) -> list[int]:
    """As many extra cards as players; `both` alternates Mitch, Cat-leton, Mitch, …"""
    if kind == "mitch":
        return [MITCH] * players
    if kind == "catleton":
        return [CATLETON] * players
    if kind == "both":
        return [MITCH if i % 2 == 0 else CATLETON for i in range(players)]
    return []


def check_options(options: Options, players: int) -> None:
    deck = sum(copies for _, copies in options.deck) + len(extra_cards(options.extra_cards, players))
    need = options.hand_size * players
    if need > deck:
        raise InvalidOptions(
            Message("catopomp.options.deck_small", players=players, size=options.hand_size, need=need, deck=deck)
        )


@dataclass(frozen=True, slots=True)
class Rules:
    """Constants of one table, derived once from the options (cached per options and players)."""

    players: int
    max_size: int  # cards per play: 4, or 3 with 2 players
    hand_size: int
    deck: tuple[int, ...]  # counts per card slot, extras included
    pool: tuple[int, ...]  # the deck as a sorted card list
    dice: int
    gems: int
    casual: bool
    max_value: int  # highest number a play can count to (cards or two dice)
    has_mitch: bool
    has_catleton: bool


@cache
def rules_for(options: Options, players: int) -> Rules:
    counts = [0] * SLOTS
    for number, copies in options.deck:
        counts[number] = copies
    for card in extra_cards(options.extra_cards, players):
        counts[card] += 1
    pool = tuple(card for card in range(SLOTS) for _ in range(counts[card]))
    return Rules(
        players=players,
        max_size=3 if players == 2 else 4,
        hand_size=options.hand_size,
        deck=tuple(counts),
        pool=pool,
        dice=options.dice,
        gems=options.gems,
        casual=options.casual,
        max_value=max(12, max(n for n, _ in options.deck)),
        has_mitch=counts[MITCH] > 0,
        has_catleton=counts[CATLETON] > 0,
    )
