"""Action values and the notation of rules §9.

Every action is interned: one object per canonical text, so legal lists compare by identity
and building them allocates nothing new after warm-up. `str(action)` is the canonical text;
`parse_action` accepts the same words in any card order and returns the interned value.
"""

from __future__ import annotations

import re
from typing import Any

from ...engine import MalformedAction, check_text, is_number
from ...i18n import Message
from .cards import CATLETON, MAX_NUMBER, MITCH, card_text, parse_card

# action kinds (dispatch codes)
START, DEAL, ROLL, SPARE, PLAY, BURY, PASS, GIVE, DISCARD, KEEP = range(10)

# combination kinds
SINGLE, RUN, SET = "single", "run", "set"


class Action:
    """Base of all actions: immutable and interned where the game creates them, so legal lists
    compare by identity on the hot path; equal texts are equal actions, so a parsed action that was
    not interned (see `parse_action`) still matches its legal twin."""

    __slots__ = ("kind", "text")
    kind: int
    text: str

    def __init__(self, kind: int, text: str):
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "text", text)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("actions are immutable")

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"<{self.text}>"

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Action) and self.text == other.text)

    def __hash__(self) -> int:
        return hash(self.text)

    def __reduce__(self) -> tuple[Any, ...]:
        return (parse_action, (self.text,))


class Simple(Action):
    """`start N`, `spare F`, `bury N`, `give N`, `discard N`, `pass`, `keep`: one kind, one number."""

    __slots__ = ("arg",)
    arg: int

    def __init__(self, kind: int, text: str, arg: int):
        super().__init__(kind, text)
        object.__setattr__(self, "arg", arg)


class Deal(Action):
    """`deal 1 1 4 … | 2 3 … | …`: the hands in seat order (chance). Not interned (one per round)."""

    __slots__ = ("hands",)
    hands: tuple[tuple[int, ...], ...]

    def __init__(self, hands: tuple[tuple[int, ...], ...]):
        hands = tuple(tuple(sorted(h)) for h in hands)
        super().__init__(DEAL, "deal " + " | ".join(" ".join(card_text(c) for c in h) for h in hands))
        object.__setattr__(self, "hands", hands)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deal) and other.hands == self.hands

    def __hash__(self) -> int:
        return hash(self.hands)


class Roll(Action):
    """`dice 3 5 6 1`: the central dice faces (chance), kept in the order written."""

    __slots__ = ("faces",)
    faces: tuple[int, ...]

    def __init__(self, faces: tuple[int, ...]):
        super().__init__(ROLL, " ".join(["dice", *map(str, faces)]))
        object.__setattr__(self, "faces", faces)


class Play(Action):
    """A play from the hand (`play …`) or the hell area (`hell …`), with its combination.

    `cards` are the cards leaving the source, sorted (numbers, then M, then C); `dice` are central
    faces used, `spare` the own spare die's face (0: none); `swap` is the hell card a Cat-leton is
    swapped for (0: none; a number, MITCH or CATLETON), which takes that Cat-leton's place on the
    table (`table_cards`). `mitch_as` of the Mitches on the table (the swapped-in one included)
    count as the dice card's number; the text gives that value to the hand's Mitches first
    (`play 4 M=4 C +d4 swap M`, not `… M C +d4 swap M=4`: the same cards, the same combination).

    `strength` is rules §3 as one integer, `size * 64 + (32 if set) + rank`: size first, then set
    over run, then the (highest) number. A well-formed text that can never be legal (`play 3 5`)
    is still a value, with `problem` saying why and strength -1, so it prints back unchanged.
    """

    __slots__ = (
        "cards",
        "combo",
        "dice",
        "dice_value",
        "hell",
        "mitch_as",
        "problem",
        "rank",
        "size",
        "spare",
        "strength",
        "swap",
        "table_cards",
        "values",
    )
    cards: tuple[int, ...]
    combo: str | None
    dice: tuple[int, ...]
    dice_value: int
    hell: bool
    mitch_as: int
    problem: Message | None
    rank: int
    size: int
    spare: int
    strength: int
    swap: int
    table_cards: tuple[int, ...]
    values: tuple[int, ...]

    def __init__(self, hell: bool, cards: tuple[int, ...], mitch_as: int, dice: tuple[int, ...], spare: int, swap: int):
        numbers = [c for c in cards if c <= MAX_NUMBER]
        mitches = cards.count(MITCH)
        catletons = cards.count(CATLETON)
        boosted = bool(dice) or bool(spare)
        dice_value = sum(dice) + spare if boosted else 0
        table_cards = list(cards)
        if swap and catletons:
            table_cards.remove(CATLETON)
            table_cards.append(swap)
            table_cards.sort()
        table_mitches = table_cards.count(MITCH)
        if mitch_as > table_mitches:
            raise MalformedAction(Message("catopomp.notation.mitch_count"))
        if mitch_as and not boosted:
            raise MalformedAction(Message("catopomp.notation.mitch_boost"))
        if len(dice) + (1 if spare else 0) > 2:
            raise MalformedAction(Message("catopomp.notation.boost_dice"))
        values = (
            [c for c in table_cards if c <= MAX_NUMBER]
            + [0] * (table_mitches - mitch_as + table_cards.count(CATLETON))
            + [dice_value] * mitch_as
            + ([dice_value] if boosted else [])
        )
        values.sort()
        hand_as = min(mitch_as, mitches)  # the hand's Mitches take the dice number first
        size = len(values)
        # well-formed but never legal: kept as values so the text round-trips and apply says why
        problem = None
        combo = None
        if swap and not catletons:
            problem = Message("catopomp.refusal.swap_needs_catleton")
        elif swap and hell:
            problem = Message("catopomp.refusal.swap_from_hand")
        elif not cards:
            problem = Message("catopomp.refusal.dice_alone")
        elif size > 4:
            problem = Message("catopomp.refusal.at_most_4")
        elif size == 1:
            combo = SINGLE
        elif values[0] == values[-1]:
            combo = SET
        elif all(values[i + 1] == values[i] + 1 for i in range(size - 1)):
            combo = RUN
        else:
            problem = Message("catopomp.refusal.not_a_combination", values="-".join(map(str, values)))
        rank = values[-1] if values else 0
        words = ["hell" if hell else "play"]
        words += [str(n) for n in numbers]
        words += ["M"] * (mitches - hand_as)
        words += [f"M={dice_value}"] * hand_as
        words += ["C"] * catletons
        if boosted:
            suffix = f"+s{spare}" if spare else ""
            if dice:
                suffix += "+d" + "+".join(map(str, dice))
            words.append(suffix)
        if swap:
            words += ["swap", f"M={dice_value}" if mitch_as > hand_as else card_text(swap)]
        super().__init__(PLAY, " ".join(words))
        for name, value in (
            ("hell", hell),
            ("cards", cards),
            ("mitch_as", mitch_as),
            ("dice", dice),
            ("spare", spare),
            ("swap", swap),
            ("dice_value", dice_value),
            ("values", tuple(values)),
            ("size", size),
            ("combo", combo),
            ("rank", rank),
            ("strength", -1 if combo is None else size * 64 + (32 if combo == SET else 0) + rank),
            ("problem", problem),
            ("table_cards", tuple(table_cards)),
        ):
            object.__setattr__(self, name, value)


_PLAYS: dict[tuple[bool, tuple[int, ...], int, tuple[int, ...], int, int], Play] = {}


def play(
    hell: bool, cards: tuple[int, ...], mitch_as: int = 0, dice: tuple[int, ...] = (), spare: int = 0, swap: int = 0
) -> Play:
    """The interned play (cards sorted, dice faces ascending). Raises `MalformedAction`."""
    key = (hell, cards, mitch_as, dice, spare, swap)
    found = _PLAYS.get(key)
    if found is None:
        found = _PLAYS[key] = Play(*key)
    return found


PLAYS_BY_KEY = _PLAYS
"""For the generator: it looks plays up by key directly (the hot path)."""


PASS_ACTION = Simple(PASS, "pass", 0)
KEEP_ACTION = Simple(KEEP, "keep", 0)
SPARES = {face: Simple(SPARE, f"spare {face}", face) for face in range(1, 7)}
BURIES = {c: Simple(BURY, f"bury {card_text(c)}", c) for c in range(1, CATLETON + 1)}
GIVES = {c: Simple(GIVE, f"give {card_text(c)}", c) for c in range(1, CATLETON + 1)}
DISCARDS = {c: Simple(DISCARD, f"discard {card_text(c)}", c) for c in range(1, CATLETON + 1)}
STARTS: dict[int, Simple] = {seat: Simple(START, f"start {seat}", seat) for seat in range(8)}
_ROLLS: dict[tuple[int, ...], Roll] = {}


def roll(faces: tuple[int, ...]) -> Roll:
    found = _ROLLS.get(faces)
    if found is None:
        found = _ROLLS[faces] = Roll(faces)
    return found


_DICE = re.compile(r"\+(?:s([1-6]))?(?:\+?d([1-6])(?:\+([1-6]))?)?")
_MITCH_AS = re.compile(r"[Mm]=([0-9]+)")


def _face(word: str) -> int:
    if is_number(word) and 1 <= int(word) <= 6:
        return int(word)
    raise MalformedAction(Message("catopomp.notation.face", word=word))


def _one_card(words: list[str], what: str) -> int:
    if len(words) != 2:
        raise MalformedAction(Message("catopomp.notation.one_card", verb=what))
    if is_number(words[1]) and int(words[1]) == 0:
        raise MalformedAction(Message("catopomp.notation.card_0"))
    return parse_card(words[1])


_CANONICAL: dict[str, Action] = {}
"""Canonical texts already parsed (plays and simple actions): determinization parses the table's
text on every call. Bounded, since the texts may come from outside."""
_CANONICAL_MAX = 100_000


def parse_action(text: str) -> Action:
    """Canonical notation → interned action. Raises `MalformedAction` saying what is wrong."""
    found = _CANONICAL.get(text) if type(text) is str else None
    if found is not None:
        return found
    action = _parse(text)
    if action.kind != DEAL and action.text == text and len(_CANONICAL) < _CANONICAL_MAX and _interned(action):
        _CANONICAL[text] = action
    return action


def _interned(action: Action) -> bool:
    if not isinstance(action, Play):
        return True
    key = (action.hell, action.cards, action.mitch_as, action.dice, action.spare, action.swap)
    return _PLAYS.get(key) is action


MAX_DEAL_TEXT = 400
"""A deal may be longer than the engine's 200-character limit for one action: four hands of 16
two-digit cards take 202 characters (e.g. `deck=10-20x8`). Deals come only from chance and records."""


def _words(text: str) -> list[str]:
    """`check_text`, with room for the longest deal."""
    if isinstance(text, str) and 200 < len(text) <= MAX_DEAL_TEXT:
        words = text.split()
        if words and words[0].lower() == "deal":
            return words
    return check_text(text)


def _parse(text: str) -> Action:
    words = _words(text)
    head = words[0].lower()
    if head in ("play", "hell"):
        return _parse_play(head == "hell", words[1:])
    if head == "pass" and len(words) == 1:
        return PASS_ACTION
    if head == "keep" and len(words) == 1:
        return KEEP_ACTION
    if head == "bury":
        return BURIES[_one_card(words, "bury")]
    if head == "give":
        return GIVES[_one_card(words, "give")]
    if head == "discard":
        return DISCARDS[_one_card(words, "discard")]
    if head == "spare":
        if len(words) != 2:
            raise MalformedAction(Message("catopomp.notation.spare"))
        return SPARES[_face(words[1])]
    if head == "start":
        if len(words) != 2 or not is_number(words[1]) or int(words[1]) >= len(STARTS):
            raise MalformedAction(Message("catopomp.notation.start"))
        return STARTS[int(words[1])]
    if head == "dice":
        return roll(tuple(_face(w) for w in words[1:]))
    if head == "deal":
        hands: list[list[int]] = [[]]
        for word in words[1:]:
            if word == "|":
                hands.append([])
            else:
                hands[-1].append(parse_card(word))
        return Deal(tuple(tuple(h) for h in hands))
    raise MalformedAction(Message("catopomp.notation.unknown", text=text))


def _parse_play(hell: bool, words: list[str]) -> Play:
    cards: list[int] = []
    mitch_values: list[int] = []
    dice: tuple[int, ...] = ()
    spare = 0
    swap = 0
    boosted = False
    i = 0
    while i < len(words):
        word = words[i]
        if word.lower() == "swap":
            if swap or i + 1 >= len(words):
                raise MalformedAction(Message("catopomp.notation.swap"))
            card = words[i + 1]
            if (m := _MITCH_AS.fullmatch(card)) is not None:
                swap = MITCH
                mitch_values.append(int(m.group(1)))
            else:
                swap = parse_card(card)
            i += 2
            continue
        if word.startswith("+"):
            match = _DICE.fullmatch(word)
            if boosted or not match or not (match.group(1) or match.group(2)):
                raise MalformedAction(Message("catopomp.notation.boost", word=word))
            boosted = True
            spare = int(match.group(1) or 0)
            dice = tuple(sorted(int(g) for g in match.group(2, 3) if g))
            if spare and len(dice) > 1:
                raise MalformedAction(Message("catopomp.notation.boost_dice"))
        elif (m := _MITCH_AS.fullmatch(word)) is not None:
            cards.append(MITCH)
            mitch_values.append(int(m.group(1)))
        else:
            if is_number(word) and int(word) == 0:
                raise MalformedAction(Message("catopomp.notation.card_0"))
            cards.append(parse_card(word))
        i += 1
    if not cards and not boosted:
        raise MalformedAction(Message("catopomp.notation.no_cards"))
    dice_value = sum(dice) + spare
    for value in mitch_values:
        if value != dice_value:
            raise MalformedAction(Message("catopomp.notation.mitch_value", value=value, dice=dice_value or None))
    cards.sort()
    key = (hell, tuple(cards), len(mitch_values), dice, spare, swap)
    # Parsing never grows the intern table: text from outside (a record, a client) must not be
    # able to fill memory with plays no position ever offers.
    found = _PLAYS.get(key)
    return found if found is not None else Play(*key)
