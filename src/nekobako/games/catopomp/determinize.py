"""Worlds for search bots: a full state sampled from what one seat's view allows (`determinize`)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...engine import LastView, Options
from . import actions as A
from .cards import SLOTS
from .options import rules_for
from .phases import SPARE
from .state import CatopompState
from .view import CatopompView, Shown, read_view

if TYPE_CHECKING:
    from .game import CatopompGame

_OPTIONS: dict[tuple[int, str], Options] = {}
"""Validated options by their JSON text: a search determinizes the same table thousands of times."""

_LAST = LastView[CatopompView]()


def determinize(game: CatopompGame, view: Mapping[str, Any], rng: random.Random) -> CatopompState:
    """A full state consistent with `view`: the other hands and the undealt cards are a uniform
    random split of the cards the seat cannot see (all combinations of the right sizes equally
    likely); hidden spare faces chosen by others are uniform 1–6, and the spare faces the view shows
    (all of them once the spare phase is over) are the world's. The history and events are not
    rebuilt (a search needs the position, not the log), except the open spare phase's choices so
    far: the world's history holds them, hidden until the phase closes (`CatopompState.settled`)."""
    seen = _LAST.get(view, read_view)
    seat = seen.seat
    players = seen.players
    key = (players, repr(seen.options))
    options = _OPTIONS.get(key)
    if options is None:
        options = _OPTIONS[key] = game.options(seen.options, players)
    state = CatopompState(game, players, options, rules_for(options, players))
    rules = state.rules
    state.round = seen.round
    state.start_player = seen.start_player
    state.phase = seen.phase
    state.gems = list(seen.gems)
    state.round_losses = [[int(loss) for loss in r] for r in seen.round_scores]  # -1 or 0
    unseen = list(rules.deck)
    hand_n = list(seen.hand_counts)
    state.hand_n = hand_n
    for s in range(players):
        hell = state.hells[s]
        for card in seen.hell[s]:
            hell[card] += 1
            unseen[card] -= 1
        state.hell_n[s] = sum(hell)
    removed = state.removed
    for card in seen.removed:
        removed[card] += 1
        unseen[card] -= 1
    play = seen.table
    if play is not None:
        state.table = play
        state.table_owner = seen.table_owner if seen.table_owner is not None else -1
        state.threshold = play.strength
        for card in play.table_cards:
            unseen[card] -= 1
    if seat is not None:
        own = state.hands[seat]
        for card in seen.hand:
            own[card] += 1
            unseen[card] -= 1
    if state.phase > 1:  # cards are dealt: split the unseen cards among the other hands and the rest
        pool = [c for c in range(SLOTS) for _ in range(unseen[c])]
        rng.shuffle(pool)
        at = 0
        for s in range(players):
            if s == seat:
                continue
            counts = state.hands[s]
            for card in pool[at : at + hand_n[s]]:
                counts[card] += 1
            at += hand_n[s]
        undealt = [0] * SLOTS
        for card in pool[at:]:
            undealt[card] += 1
        state.undealt = undealt
    centre = state.centre
    for face in seen.centre:
        centre[face] += 1
    state.used = list(seen.used)
    state.spare_holders = seen.spare_holders
    spare = [f or 0 for f in seen.spare]  # the view shows every spare face once the spare phase is over
    if state.phase == SPARE:
        state.spare_pending = seen.to_move
        done = len(state.spare_holders) - len(state.spare_pending)
        chosen = [entry[0] for entry in seen.history[len(seen.history) - done :]] if done else []
        for s in chosen:
            if s != seat:
                spare[s] = 1 + int(rng.random() * 6)
        # the phase's choices so far are the history's open entries (in the order they came, as
        # the view lists them last), so the world reveals them as the view will when it closes
        state.history = [(s, A.SPARES[spare[s]]) for s in chosen]
        state.spare_hidden_from = 0
    state.spare = spare
    state.passed = sum(1 << s for s in seen.passed)
    state.current = seen.current if seen.current is not None else -1
    state.transfer_to = seen.transfer_to if seen.transfer_to is not None else -1
    state.last_round = None if seen.last_round is None else Shown(dict(seen.last_round))
    return state
