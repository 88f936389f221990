"""Worlds for search bots: full states sampled from what one seat's view allows.

Known to the seat: its own hand and discard, every card on the board (each player token is one
played card), the revealed centre cards, and how many cards every hand holds. Unknown: the rest of
the deck, split among the other hands, the other seats' discards and (2 players) the 2 hidden
centre cards. A sample shuffles those unknown cards uniformly into those places, so every deal
consistent with the counts is equally likely; the one extra hard fact is enforced by rejection:
the seat to play (if not the viewer) holds a legal play, otherwise a paradox would already have
ended the round. Nothing is inferred from how others played (followers may declare any colour, so
an uncovered X proves nothing about a hand).

The view is parsed once into a template (`Determinizer`); each sample is one list shuffle and one
`clone`. A sampled state has empty `history` and `events`: it is a world to plan on, not a record.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...engine import LastView, NekobakoError
from ...i18n import Message
from .board import NIBBLE, pack
from .layouts import COLOURS
from .phases import PLAY, PREDICT, trick_strength
from .state import CatboxState
from .view import Shown, read_view

if TYPE_CHECKING:
    from .game import CatboxGame

MAX_TRIES = 200
"""Rejection attempts for the "seat to play has a legal play" fact. In random positions up to ~95%
of naive shuffles can fail it; after MAX_TRIES the sampler gives that seat one playable card first
(consistent, no longer exactly uniform) so a call never loops for long."""


class Determinizer:
    """One view parsed into a template state plus the unknown cards and where they go."""

    def __init__(self, game: CatboxGame, view: Mapping[str, Any]):
        seen = read_view(view)
        players = seen.players
        # the view's options were checked when its game began: a research game's may be research values
        state = game.new_initial_state(players, game.options(seen.options, players, research=True))
        table = state.table
        seat = self.viewer = seen.seat
        phase = state.phase = seen.phase
        state.round, state.start = seen.round, seen.start_player
        state.totals = [int(t) for t in seen.scores]  # points are whole numbers
        state.scores_by_round = [[int(p) for p in r] for r in seen.round_scores]
        state.winners_ = list(seen.winners)
        state.to_move_ = seen.to_move
        if phase in (PREDICT, PLAY):
            state.current = state.to_move_[0]
        if phase == PLAY and seen.leader is not None:
            state.leader = seen.leader
        state.red_broken = seen.red_broken
        state.predictions = [p or 0 for p in seen.predictions]
        state.tricks = list(seen.tricks)
        state.tricks_done = sum(state.tricks)
        state.xs = list(seen.xs)
        state.paradox = -1 if seen.paradox is None else seen.paradox
        state.last_trick = None if seen.last_trick is None else Shown(dict(seen.last_trick))
        state.last_round = None if seen.last_round is None else Shown(dict(seen.last_round))
        state.revealed = seen.revealed

        counts = seen.hand_counts
        dealt = any(counts) or any(seen.discarded)  # false before the first deal
        unknown = table.deck if dealt else 0
        taken = [table.observed_numbers] * len(COLOURS)
        owned = [0] * players
        blocked = 0
        for row, line in enumerate(seen.board):
            for col, cell in enumerate(line):
                n = table.layout[row][col]
                bit = 1 << (row * table.columns + col)
                if cell is None or cell == "observed":
                    continue
                taken[row] |= 1 << n
                if cell == "blocker":
                    blocked |= bit
                elif isinstance(cell, int):
                    owned[cell] |= bit
                    unknown -= 1 << (NIBBLE * n)
        state.taken, state.owned, state.blocked = taken, owned, blocked
        unknown -= pack(seen.revealed)

        for s, (at, play) in enumerate(seen.trick):
            state.trick.append((at, play))
            if s == 0:
                state.led = play.colour
            key = trick_strength(play.number, play.colour, state.led)
            if key > state.best_key:
                state.best_seat, state.best_key, state.best_play = at, key, play

        own_hand = own_discard = 0
        if seat is not None:
            own_hand = pack(seen.hand)
            own_discard = seen.discard or 0
            state.hands[seat] = own_hand
            state.held[seat] = _held(own_hand)
            state.discards[seat] = own_discard
            unknown -= own_hand + (1 << (NIBBLE * own_discard) if own_discard else 0)
        self.pool = _cards(unknown)
        self.slots = [(s, counts[s], seen.discarded[s]) for s in range(players) if s != seat]
        self.hidden = len(self.pool) - sum(k + d for _, k, d in self.slots)
        expected_hidden = table.setup.centre - table.setup.reveal if dealt else 0
        if self.hidden != expected_hidden:
            raise NekobakoError(Message("catbox.view.cards_do_not_add_up"))
        self.check = state.current if phase == PLAY and state.current != seat else -1
        self.check_at = 0  # where the checked seat's hand starts in a shuffled pool
        self.playable = 0  # numbers the checked seat could play now
        if self.check >= 0:
            for s, k, discarded in self.slots:
                if s == self.check:
                    break
                self.check_at += k + discarded
            xs = state.xs[self.check]
            for n in range(1, 10):
                if any(xs >> c & 1 and not taken[c] >> n & 1 for c in range(len(COLOURS))):
                    self.playable |= 1 << n
        self.template = state

    def sample(self, rng: random.Random) -> CatboxState:
        state = self.template.clone()
        if not self.pool:
            return state
        for _ in range(MAX_TRIES):
            cards = self.pool[:]
            rng.shuffle(cards)
            self._place(state, cards)
            if self.check < 0 or state._can_play(self.check):
                return state
        cards = self.pool[:]
        rng.shuffle(cards)
        for i, n in enumerate(cards):  # the first playable card of a shuffle: a uniform pick
            if self.playable >> n & 1:
                cards[i], cards[self.check_at] = cards[self.check_at], cards[i]
                break
        self._place(state, cards)
        return state

    def _place(self, state: CatboxState, cards: list[int]) -> None:
        at = 0
        for s, k, discarded in self.slots:
            hand = pack(cards[at : at + k])
            state.hands[s] = hand
            state.held[s] = _held(hand)
            at += k
            if discarded:
                state.discards[s] = cards[at]
                at += 1
        state.hidden = tuple(sorted(cards[at:]))


def _cards(packed: int) -> list[int]:
    if packed < 0 or any(packed >> (NIBBLE * n) & 8 for n in range(10)):
        raise NekobakoError(Message("catbox.view.too_many_copies"))
    return [n for n in range(10) for _ in range(packed >> (NIBBLE * n) & 15)]


def _held(packed: int) -> int:
    return sum(1 << n for n in range(10) if packed >> (NIBBLE * n) & 15)


_LAST = LastView[Determinizer]()


def determinizer(game: CatboxGame, view: Mapping[str, Any]) -> Determinizer:
    """The determinizer of `view`, made once per view (`LastView`)."""
    return _LAST.get(view, lambda v: Determinizer(game, v))
