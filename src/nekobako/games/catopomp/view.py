"""What one seat may know (`private_view`), everything (`reveal`), and a view read back as typed
values (`read_view`, what `determinize` and the greedy bot read). Hidden information leaves the
state only through here."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from ...engine import MalformedAction, SeatView, envelope
from ...engine.viewlog import kept
from ...i18n import Message
from . import actions as A
from .cards import SLOTS, card_from_json, card_json, cards_of
from .phases import BURY, PHASE_NAMES, PLAY, SPARE, TRANSFER

if TYPE_CHECKING:
    from .state import CatopompState


class RoundEnd(NamedTuple):
    """The last finished round as the state keeps it: the round's own lists, which the next deal
    replaces rather than changes, so keeping them costs nothing."""

    round: int
    loser: int
    table: A.Play | None
    owner: int
    hand_n: list[int]
    hells: list[list[int]]
    gems: tuple[int, ...]
    centre: list[int]
    used: list[tuple[int, ...]]
    spare: list[int]
    removed: list[int]


class Shown(NamedTuple):
    """A `last_round` taken from a view as JSON (determinized worlds carry it on)."""

    json: dict[str, Any]


def _cards(counts: list[int]) -> list[int | str]:
    """`card_json` of `cards_of(counts)` in one pass; most hells are empty (a view shows every seat's)."""
    out: list[int | str] = []
    if any(counts):
        for card in range(1, SLOTS):
            if counts[card]:
                out += [_CARD_JSON[card]] * counts[card]
    return out


_CARD_JSON = [card_json(card) for card in range(SLOTS)]


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
        "last_round": kept(state, "last_round", state.last_round, last_round_json),
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


@dataclass(frozen=True, slots=True)
class CatopompView(SeatView):
    """A Catopomp view read back (`read_view`): `private_view`'s keys as the state's own values
    where it has them (phase numbers, cards as `cards.py` numbers, the table as its `Play`), the
    rest as the view says. What `determinize` and the greedy bot read; clients get the JSON."""

    round: int
    start_player: int
    phase: int  # START … OVER (phases.py)
    current: int | None
    hand_counts: tuple[int, ...]
    hell: tuple[tuple[int, ...], ...]  # per seat: its hell cards, as card numbers (cards.py)
    table: A.Play | None  # the combination to beat
    table_owner: int | None  # who played it
    centre: tuple[int, ...]  # faces of the central dice
    used: tuple[tuple[int, ...], ...]  # per seat: the dice faces its boost used this round
    spare: tuple[int | None, ...]  # per seat: its spare die's face, when this seat may see it
    spare_holders: tuple[int, ...]
    boost_used: tuple[bool, ...]
    gems: tuple[int, ...]
    out: tuple[bool, ...]
    passed: tuple[int, ...]
    transfer_to: int | None
    removed: tuple[int, ...]  # cards out of the round (swapped Cat-leton), as card numbers
    hand: tuple[int, ...]  # this seat's cards as card numbers, sorted; () for a spectator
    last_round: Mapping[str, Any] | None  # as the view holds it
    prompt: Mapping[str, Any] | None
    goal: Mapping[str, Any]


def read_view(view: Mapping[str, Any]) -> CatopompView:
    """The one reader of `private_view`'s keys (and `envelope` of the engine's)."""
    table = view["table"]
    play: A.Play | None = None
    if table is not None:
        action = A.parse_action(table["text"])
        if not isinstance(action, A.Play):
            raise MalformedAction(Message("catopomp.view.table_not_a_play"))
        play = action
    dice = view["dice"]
    return CatopompView(
        **envelope(view),
        round=view["round"],
        start_player=view["start_player"],
        phase=PHASE_NAMES.index(view["phase"]),
        current=view["current"],
        hand_counts=tuple(view["hand_counts"]),
        hell=tuple(tuple(map(card_from_json, cards)) for cards in view["hell"]),
        table=play,
        table_owner=None if table is None else table["owner"],
        centre=tuple(dice["centre"]),
        used=tuple(map(tuple, dice["used"])),
        spare=tuple(dice["spare"]),
        spare_holders=tuple(view["spare_holders"]),
        boost_used=tuple(view["boost_used"]),
        gems=tuple(view["gems"]),
        out=tuple(view["out"]),
        passed=tuple(view["passed"]),
        transfer_to=view["transfer_to"],
        removed=tuple(map(card_from_json, view["removed"])),
        hand=tuple(map(card_from_json, view.get("hand", ()))),
        last_round=view["last_round"],
        prompt=view["prompt"],
        goal=view["goal"],
    )
