"""Greedy Catopomp: shed as many cards as possible per play, low cards first, keep the dice boost
and the high cards for answering, and push awkward hell cards onto others.

* Play: score each legal play by cards shed (x10), minus its rank (low cards first: high ones win
  tricks later), with a bonus for clearing hell cards (they need combinations of two while the
  hand is not empty) and a penalty for spending the once-per-round dice boost. Answer with the
  best-scoring play; pass only when every answer needs the boost and the seat still has many
  cards (the boost is worth more at the end of the round).
* Bury: the hand card that best joins the hell area's cards (a pair or a neighbour, so hell can be
  played as a combination later), else the lowest.
* Give / discard (after someone passes): the hell card that joins the rest the least; keep only
  when not forced and nothing is worth giving (never: giving always sheds a card).
* Spare die: the face of the number held most often (it makes sets), highest on ties.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, cast

from ...engine import Action
from ...games.catopomp.actions import BURY, DISCARD, GIVE, PASS, PLAY, SPARE, Play, Simple
from ...games.catopomp.actions import Action as CatopompAction
from ...games.catopomp.cards import MAX_NUMBER
from ...games.catopomp.view import read_view
from ..base import only_choice

BOOST_COST = 8.0
HELL_BONUS = 3.0
MANY_CARDS = 4


class GreedyBot:
    name = "greedy"

    def choose(self, view: Mapping[str, Any], actions: Sequence[Action], rng: random.Random) -> Action:
        legal = cast(Sequence[CatopompAction], actions)  # the registry seats this bot at Catopomp only
        if (only := only_choice(legal)) is not None:
            return only
        kinds = {getattr(a, "kind", None) for a in legal}
        seen = read_view(view)
        hand = list(seen.hand)  # card numbers as the actions carry them (cards.py)
        hell = list(seen.hell[seen.me])
        if PLAY in kinds or PASS in kinds:
            return self._play(legal, hand, hell)
        simple = [a for a in legal if isinstance(a, Simple)]  # one kind, one number (`bury 3`, `spare 4`)
        if BURY in kinds:
            return max(simple, key=lambda a: (_joins(a.arg, hell), -a.arg))
        if DISCARD in kinds or GIVE in kinds:
            droppable = [a for a in simple if a.kind in (DISCARD, GIVE)]
            best = min(droppable, key=lambda a: (a.kind != DISCARD, _joins(a.arg, _without(hell, a.arg)), -a.arg))
            return best
        if SPARE in kinds:
            counts = Counter(n for n in hand if 1 <= n <= 6)
            return max(simple, key=lambda a: (counts.get(a.arg, 0), a.arg))
        return legal[0]

    def _play(self, legal: Sequence[CatopompAction], hand: list[int], hell: list[int]) -> Action:
        plays = [a for a in legal if isinstance(a, Play)]
        passing = next((a for a in legal if a.kind == PASS), None)
        if not plays:
            return passing if passing is not None else legal[0]
        cards_left = len(hand) + len(hell)

        def score(a: Play) -> float:
            boosted = bool(a.dice) or bool(a.spare)
            shed = len(a.cards)
            value = 10.0 * shed - 0.5 * a.rank
            if a.hell:
                value += HELL_BONUS * shed
            if boosted:
                value -= BOOST_COST
            if shed >= cards_left:
                value += 100.0  # goes out
            return value

        best = max(plays, key=lambda a: (score(a), -a.strength))
        boosted = bool(best.dice) or bool(best.spare)
        if passing is not None and boosted and cards_left > MANY_CARDS and len(best.cards) < cards_left:
            return passing
        return best

    def __repr__(self) -> str:
        return "GreedyBot('catopomp')"


def _number(card: int) -> int:
    """The number a card counts as in a combination: Mdm Mitch and Cat-leton are both 0 (§7)."""
    return 0 if card > MAX_NUMBER else card


def _joins(card: int, others: list[int]) -> int:
    """How well `card` combines with `others`: 2 per equal number, 1 per neighbour."""
    n = _number(card)
    return sum(2 if _number(o) == n else 1 if abs(_number(o) - n) == 1 else 0 for o in others)


def _without(cards: list[int], card: int) -> list[int]:
    rest = list(cards)
    if card in rest:
        rest.remove(card)
    return rest
