"""What one seat may know (`private_view`), everything (`reveal`) and the way back from a view
to a full state (`determinize`). Hidden information leaves the state only through here."""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from ...engine import MalformedAction, Options
from . import actions as A
from .cards import SLOTS, card_from_json, card_json, cards_of
from .options import rules_for
from .state import BURY, PHASE_NAMES, PLAY, SPARE, TRANSFER, CatopompState, RoundEnd

if TYPE_CHECKING:
    from .game import CatopompGame


class Shown(NamedTuple):
    """A `last_round` taken from a view as JSON (determinized worlds carry it on)."""

    json: dict[str, Any]


def _cards(counts: list[int]) -> list[int | str]:
    return [card_json(c) for c in cards_of(counts)]


def _table(play: A.Play | None, owner: int) -> dict[str, Any] | None:
    if play is None:
        return None
    return {
        "owner": owner,
        "cards": [card_json(c) for c in play.table_cards],
        "dice": play.dice_value or None,
        "values": list(play.values),
        "kind": play.combo,
        "size": play.size,
        "rank": play.rank,
        "from": "hell" if play.hell else "hand",
        "text": play.text,
    }


def _dice(centre: list[int], used: list[tuple[int, ...]], spare: list[int | None]) -> dict[str, Any]:
    faces = [f for f in range(1, 7) for _ in range(centre[f])]
    return {"centre": faces, "used": [list(u) for u in used], "spare": spare}


def last_round_json(end: RoundEnd | Shown | None) -> dict[str, Any] | None:
    """The final public board of the last finished round and what it cost each seat."""
    if end is None or isinstance(end, Shown):
        return None if end is None else copy.deepcopy(end.json)
    players = range(len(end.gems))
    return {
        "round": end.round,
        "loser": end.loser,
        "table": _table(end.table, end.owner),
        "hell": [_cards(end.hells[s]) for s in players],
        "dice": _dice(end.centre, end.used, [f or None for f in end.spare]),
        "removed": _cards(end.removed),
        "seats": [
            {
                "cards_left": end.hand_n[s] + len(cards_of(end.hells[s])),
                "hand": end.hand_n[s],
                "lost_gem": s == end.loser,
                "gems": end.gems[s],
            }
            for s in players
        ],
    }


def private_view(state: CatopompState, seat: int | None) -> dict[str, Any]:
    players = range(state.players)
    spare_open = state.phase == SPARE
    view: dict[str, Any] = {
        "round": state.round,
        "start_player": state.start_player,
        "phase": PHASE_NAMES[state.phase],
        "current": state.current if state.phase in (PLAY, BURY) else None,
        "hand_counts": list(state.hand_n),
        "hell": [_cards(state.hells[s]) for s in players],
        "table": _table(state.table, state.table_owner),
        "dice": _dice(
            state.centre,
            state.used,
            [None if not state.spare[s] or (spare_open and s != seat) else state.spare[s] for s in players],
        ),
        "spare_holders": list(state.spare_holders),
        "boost_used": [bool(state.used[s]) for s in players],
        "gems": list(state.gems),
        "out": [state.phase > SPARE and not (state.hand_n[s] + state.hell_n[s]) for s in players],
        "passed": [s for s in players if state.passed >> s & 1],
        "transfer_to": state.transfer_to if state.transfer_to >= 0 else None,
        "removed": _cards(state.removed),
        "last_round": last_round_json(state.last_round),
        "prompt": prompt(state, seat),
        "goal": _message("goal"),
    }
    if seat is not None:
        view["hand"] = _cards(state.hands[seat])
    return view


def prompt(state: CatopompState, seat: int | None) -> dict[str, Any] | None:
    """What `seat` should do now (or who is acting), as a message of the game's catalogue."""
    phase = state.phase
    mine = seat is not None and seat in state.to_move
    if phase == SPARE:
        return _message("do_spare" if mine else "wait_spare")
    if phase == PLAY:
        if not mine:
            return _message("wait_play", state.current)
        return _message("do_lead" if state.table is None else "do_beat")
    if phase == BURY:
        return _message("do_bury") if mine else _message("wait_bury", state.current)
    if phase == TRANSFER:
        passer, owner = state.transfer_to, state.table_owner
        if mine:
            kind = (
                "do_discard_hell" if state.rules.casual else "do_give_must" if state.hell_n[owner] >= 3 else "do_give"
            )
            return _message(kind, passer)
        return _message("wait_give_me" if seat == passer else "wait_give", owner)
    return None


def _message(kind: str, seat: int | None = None) -> dict[str, Any]:
    return {"kind": kind, "seat": seat, "data": {}}


def reveal(state: CatopompState) -> dict[str, Any]:
    return {
        "hands": [_cards(state.hands[s]) for s in range(state.players)],
        "undealt": _cards(state.undealt),
        "spare_choices": list(state.spare),
    }


_OPTIONS: dict[tuple[int, str], Options] = {}
"""Validated options by their JSON text: a search determinizes the same table thousands of times."""


def determinize(game: CatopompGame, view: Mapping[str, Any], rng: random.Random) -> CatopompState:
    """A full state consistent with `view`: the other hands and the undealt cards are a uniform
    random split of the cards the seat cannot see (all combinations of the right sizes equally
    likely); hidden spare faces chosen by others are uniform 1–6. The history and events are not
    rebuilt (a search needs the position, not the log)."""
    seat = view["seat"]
    players = view["players"]
    key = (players, repr(view["options"]))
    options = _OPTIONS.get(key)
    if options is None:
        options = _OPTIONS[key] = game.options(view["options"], players)
    state = CatopompState(game, players, options, rules_for(options, players))
    rules = state.rules
    state.round = view["round"]
    state.start_player = view["start_player"]
    state.phase = PHASE_NAMES.index(view["phase"])
    state.gems = list(view["gems"])
    state.round_losses = [list(r) for r in view["round_scores"]]
    unseen = list(rules.deck)
    hand_n = list(view["hand_counts"])
    state.hand_n = hand_n
    for s in range(players):
        hell = state.hells[s]
        for c in view["hell"][s]:
            card = card_from_json(c)
            hell[card] += 1
            unseen[card] -= 1
        state.hell_n[s] = sum(hell)
    removed = state.removed
    for c in view["removed"]:
        card = card_from_json(c)
        removed[card] += 1
        unseen[card] -= 1
    table = view["table"]
    if table is not None:
        play = A.parse_action(table["text"])
        if not isinstance(play, A.Play):
            raise MalformedAction("the view's table is not a play")
        state.table = play
        state.table_owner = table["owner"]
        state.threshold = play.strength
        for card in play.table_cards:
            unseen[card] -= 1
    if seat is not None:
        own = state.hands[seat]
        for c in view["hand"]:
            card = card_from_json(c)
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
    for face in view["dice"]["centre"]:
        centre[face] += 1
    state.used = [tuple(u) for u in view["dice"]["used"]]
    state.spare_holders = tuple(view["spare_holders"])
    spare = [f or 0 for f in view["dice"]["spare"]]
    to_move = view["to_move"]
    if state.phase == SPARE:
        state.spare_pending = tuple(to_move)
        for s in state.spare_holders:
            if s != seat and s not in state.spare_pending:
                spare[s] = 1 + int(rng.random() * 6)
    state.spare = spare
    state.passed = sum(1 << s for s in view["passed"])
    state.current = view["current"] if view["current"] is not None else -1
    state.transfer_to = view["transfer_to"] if view["transfer_to"] is not None else -1
    state.last_round = None if view.get("last_round") is None else Shown(view["last_round"])
    return state
