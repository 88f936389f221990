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

from ...engine import CHANCE, NekobakoError
from .actions import PLAYS
from .board import NIBBLE, pack
from .layouts import COLOURS
from .phases import DEAL, PHASE_NAMES, PLAY, PREDICT, START, trick_strength
from .state import CatboxState
from .view import Shown

if TYPE_CHECKING:
    from .game import CatboxGame

MAX_TRIES = 200
"""Rejection attempts for the "seat to play has a legal play" fact. In random positions up to ~95%
of naive shuffles can fail it; after MAX_TRIES the sampler gives that seat one playable card first
(consistent, no longer exactly uniform) so a call never loops for long."""


class Determinizer:
    """One view parsed into a template state plus the unknown cards and where they go."""

    def __init__(self, game: CatboxGame, view: Mapping[str, Any]):
        players = view["players"]
        state = game.new_initial_state(players, game.options(view["options"], players))
        table = state.table
        seat = view.get("seat")
        self.viewer: int | None = seat
        to_move = view["to_move"]
        phase = PHASE_NAMES.index(view["phase"]) if view["phase"] != "deal" else DEAL
        if phase == DEAL and not view["history"]:
            phase = START
        state.phase = phase
        state.round, state.start = view["round"], view["start_player"]
        state.totals = list(view["scores"])
        state.scores_by_round = [list(r) for r in view["round_scores"]]
        state.winners_ = list(view["winners"])
        state.to_move_ = (CHANCE,) if to_move == "chance" else tuple(to_move)
        if phase in (PREDICT, PLAY):
            state.current = state.to_move_[0]
        if phase == PLAY:
            state.leader = view["leader"]
        state.red_broken = bool(view["red_broken"])
        state.predictions = [p or 0 for p in view["predictions"]]
        state.tricks = list(view["tricks"])
        state.tricks_done = sum(state.tricks)
        state.xs = [sum(1 << i for i, c in enumerate(COLOURS) if x[c]) for x in view["x_tokens"]]
        state.paradox = -1 if view["paradox"] is None else view["paradox"]
        state.last_trick = None if view.get("last_trick") is None else Shown(view["last_trick"])
        state.last_round = None if view.get("last_round") is None else Shown(view["last_round"])
        revealed = tuple(view.get("centre", {}).get("revealed", ()))
        state.revealed = revealed

        counts = list(view["hand_counts"])
        dealt = any(counts) or any(view["discarded"])  # false before the first deal
        unknown = table.deck if dealt else 0
        taken = [table.observed_numbers] * len(COLOURS)
        owned = [0] * players
        blocked = 0
        for row, line in enumerate(view["board"]):
            for col, cell in enumerate(line):
                n = table.layout[row][col]
                bit = 1 << (row * table.columns + col)
                if cell is None or cell == "observed":
                    continue
                taken[row] |= 1 << n
                if cell == "blocker":
                    blocked |= bit
                else:
                    owned[cell] |= bit
                    unknown -= 1 << (NIBBLE * n)
        state.taken, state.owned, state.blocked = taken, owned, blocked
        unknown -= pack(revealed)

        for s, t in enumerate(view["trick"]):
            play = PLAYS[t["number"]][COLOURS.index(t["colour"])]
            state.trick.append((t["seat"], play))
            if s == 0:
                state.led = play.colour
            key = trick_strength(play.number, play.colour, state.led)
            if key > state.best_key:
                state.best_seat, state.best_key, state.best_play = t["seat"], key, play

        own_hand = own_discard = 0
        if seat is not None:
            own_hand = pack(view["hand"])
            own_discard = view["discard"] or 0
            state.hands[seat] = own_hand
            state.held[seat] = _held(own_hand)
            state.discards[seat] = own_discard
            unknown -= own_hand + (1 << (NIBBLE * own_discard) if own_discard else 0)
        self.pool = _cards(unknown)
        self.slots = [(s, counts[s], bool(view["discarded"][s])) for s in range(players) if s != seat]
        self.hidden = len(self.pool) - sum(k + d for _, k, d in self.slots)
        expected_hidden = table.setup.centre - table.setup.reveal if dealt else 0
        if self.hidden != expected_hidden:
            raise NekobakoError("this view is inconsistent: its cards do not add up to the deck")
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
        raise NekobakoError("this view is inconsistent: it shows more copies of a card than the deck has")
    return [n for n in range(10) for _ in range(packed >> (NIBBLE * n) & 15)]


def _held(packed: int) -> int:
    return sum(1 << n for n in range(10) if packed >> (NIBBLE * n) & 15)


_last: tuple[Any, Any, Determinizer | None] = (None, None, None)
"""(view, key, determinizer) of the last view asked: bots ask many samples of one view. Replaced as
one tuple, so concurrent callers never pair a view with another view's determinizer."""


def determinizer(game: CatboxGame, view: Mapping[str, Any]) -> Determinizer:
    """The (cached) determinizer of `view`; the cache holds the last view only."""
    global _last
    key = (view.get("seq"), view.get("seat"), view.get("phase"), str(view.get("to_move")))
    last_view, last_key, last = _last
    if last is None or last_view is not view or last_key != key:
        last = Determinizer(game, view)
        _last = (view, key, last)
    return last
