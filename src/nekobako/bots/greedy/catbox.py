"""Greedy Cat in the Box: predict what the hand is worth, then win exactly that many tricks.

* Discard / predict: a hand is worth about one trick per top card (`_hand_tricks`); discard the
  card that brings that estimate closest to an allowed prediction, then predict the nearest value.
  At 2 players (bonus for 4 tricks or fewer, `Setup.bonus_at_most`) the target is that number.
* Play: while tricks are still needed, win the trick as cheaply as is safe (the last player takes
  it with the lowest winner, earlier players lead or follow with their strongest); once the target
  is met, shed the highest card that cannot win. Among colours for the same card, prefer cells next
  to one's own tokens (the bonus) and the led colour (keeping one's X tokens avoids a paradox).
* Paradox: a play after which the cards we keep have no free cell in a colour we may still
  declare is all but forbidden; plays that leave few such cells are penalised.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ...engine import Action
from ...games.catbox.layouts import COLOURS, RED, setup_for
from ...games.catbox.view import CatboxView, read_view
from ..base import only_choice


class GreedyBot:
    name = "greedy"

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        if (only := only_choice(legal)) is not None:
            return only
        seen = read_view(view)
        texts = [str(a).split() for a in legal]
        verb = texts[0][0]
        if verb == "discard":
            return legal[self._discard(seen, [int(t[1]) for t in texts])]
        if verb == "predict":
            return legal[self._predict(seen, [int(t[1]) for t in texts])]
        scores = self._play_scores(seen, [(int(t[1]), _COLOUR[t[2]]) for t in texts])
        return legal[max(range(len(legal)), key=lambda i: (scores[i], -i))]

    def __repr__(self) -> str:
        return "GreedyBot('catbox')"

    # -- preparation ---------------------------------------------------------------------------
    def _discard(self, view: CatboxView, options: list[int]) -> int:
        hand = list(view.hand)
        values = _targets(view)
        top = _top_number(view)
        best, best_key = 0, None
        for i, card in enumerate(options):
            rest = list(hand)
            rest.remove(card)
            estimate = _hand_tricks(rest, top, view.players)
            miss = min(abs(estimate - v) for v in values)
            key = (miss, -card if estimate > max(values) else card)
            if best_key is None or key < best_key:
                best, best_key = i, key
        return best

    def _predict(self, view: CatboxView, options: list[int]) -> int:
        estimate = _hand_tricks(view.hand, _top_number(view), view.players)
        return min(range(len(options)), key=lambda i: (abs(options[i] - estimate), options[i]))

    # -- tricks --------------------------------------------------------------------------------
    def _play_scores(self, view: CatboxView, plays: list[tuple[int, int]]) -> list[float]:
        """A score per (number, colour) play; what does not depend on the play is read once."""
        me = view.me
        players = view.players
        trick = view.trick
        top = _top_number(view)
        prediction = view.predictions[me] if players > 2 else setup_for(players, view.side).bonus_at_most
        need = (prediction if prediction is not None else 2) - view.tricks[me]
        last = len(trick) == players - 1
        led = trick[0][1].colour if trick else -1
        reds = [card.number for _, card in trick if card.colour == RED]
        best_red = max(reds) if reds else 0
        best_led = max((card.number for _, card in trick if card.colour == led), default=0)
        covered = [view.covered(me, c) for c in range(len(view.rows))]
        hand = list(view.hand)
        free = _free_cells(view)
        own = _own_cells(view, me)
        scores = []
        for number, colour in plays:
            if not trick:
                strength = number / top + (0.3 if colour == RED else 0.0)
                score = 10 * strength if need > 0 else 10 - 10 * strength
            else:
                if reds:
                    wins = colour == RED and number > best_red
                else:
                    wins = colour == RED or (colour == led and number > best_led)
                if need > 0:
                    # Last player: cheapest winner. Otherwise a winner must also survive later players.
                    score = (20 - number if last else 10 + number) if wins else number / top
                else:
                    score = -number if wins else 10 + number
                if colour != led and covered[led]:
                    score -= 0.6  # declaring off the led colour uncovers our X for it
            score -= _paradox_risk(free, hand, covered, led, number, colour)
            bonus = 0.4 * _neighbours(view, own, number, colour)
            scores.append(score + bonus - (0.2 if colour == RED and need <= 0 else 0.0))
        return scores


def _free_cells(view: CatboxView) -> list[set[int]]:
    """Per colour, the numbers whose cell is still empty (read once per decision)."""
    return [
        {n for n, cell in zip(numbers, row, strict=True) if cell is None}
        for numbers, row in zip(view.numbers, view.board, strict=True)
    ]


def _paradox_risk(
    free: list[set[int]], hand: list[int], covered: list[bool], led: int, number: int, colour: int
) -> float:
    """How much a play endangers our next turn: with no (colour, number) cell left for the cards
    we keep we cause a paradox (−1 per trick, no bonus); with few, others may fill them first.
    `free`: empty cells per colour (`_free_cells`); `covered`: our X tokens now; `led`: the
    trick's led colour (-1 when we lead)."""
    if len(hand) <= 2:  # the last card of a hand is never played
        return 0.0
    kept = set(hand) if hand.count(number) > 1 else set(hand) - {number}
    options = 0
    for r, open_x in enumerate(covered):
        if not open_x or (r == led and led != colour):  # declaring off the led colour uncovers its X
            continue
        options += len(kept & free[r])
        if r == colour and number in kept and number in free[r]:
            options -= 1  # the cell this play takes
    return PARADOX_COST if options == 0 else FEW_OPTIONS_COST / options


_COLOUR = {name: c for c, name in enumerate(COLOURS)}

PARADOX_COST = 40.0
FEW_OPTIONS_COST = 8.0


def _top_number(view: CatboxView) -> int:
    """The highest card in use at this table (rules §1)."""
    return setup_for(view.players, view.side).numbers


def _targets(view: CatboxView) -> list[int]:
    return list(view.prediction_values) or [setup_for(view.players, view.side).bonus_at_most or 0]


def _hand_tricks(hand: Sequence[int], top: int, players: int) -> float:
    """Rough tricks a hand takes: the top card ~1, the next ~0.6, the one below ~0.25."""
    weights = {top: 1.0, top - 1: 0.6, top - 2: 0.25}
    return 0.8 * sum(weights.get(n, 0.0) for n in hand) * (4 / players if players > 2 else 1.6)


def _own_cells(view: CatboxView, me: int) -> set[tuple[int, int]]:
    """The physical cells (row, column) holding our tokens (read once per decision)."""
    return {(r, c) for r, row in enumerate(view.board) for c, cell in enumerate(row) if cell == me}


def _neighbours(view: CatboxView, own: set[tuple[int, int]], number: int, colour: int) -> int:
    """Own tokens (`_own_cells`) orthogonally next to the cell (colour, number) on the physical board."""
    r = colour
    c = view.numbers[r].index(number)
    return ((r - 1, c) in own) + ((r + 1, c) in own) + ((r, c - 1) in own) + ((r, c + 1) in own)
