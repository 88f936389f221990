"""What a seat may see (`docs/views.md`, catbox section): the one door hidden cards pass through.

A seat sees its own hand and discard and every public fact; spectators see no hand. Other seats'
hands and discards, and the 2 hidden centre cards, leave the engine only through `reveal`.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from ...engine import SeatView, envelope
from ...engine.viewlog import kept
from .actions import PLAYS, CatboxAction, Deal, Discard, Play, Predict
from .board import Table, card_count, unpack
from .layouts import COLOURS
from .phases import DEAL, DISCARD, PHASE_NAMES, PLAY, PREDICT, START
from .scoring import bonus_earned

if TYPE_CHECKING:
    from .state import CatboxState


LastTrick = tuple[int, list[tuple[int, Play]], int, int]
"""The round's latest finished trick as the state keeps it, a plain tuple (one per trick, on the
hot path): (1-based trick number, plays, winner or -1 after a paradox, paradox seat or -1)."""


class RoundEnd(NamedTuple):
    """The facts of a finished round, kept until the next round ends (`last_round` in views)."""

    round: int
    owned: list[int]
    blocked: int
    xs: list[int]
    predictions: list[int]
    tricks: list[int]
    discards: list[int]
    paradox: int
    paradox_hand: list[int]
    revealed: tuple[int, ...]
    scored: list[tuple[int, int]]  # (points, bonus) per seat
    totals: tuple[int, ...]
    last_trick: LastTrick | Shown | None


class Shown(NamedTuple):
    """A `last_trick` / `last_round` taken from a view as JSON (determinized worlds carry it on)."""

    json: dict[str, Any]


def plays_json(plays: Any) -> list[dict[str, Any]]:
    """Played cards as `trick` entries: {"seat", "number", "colour"} in play order."""
    return [{"seat": s, "number": p.number, "colour": COLOURS[p.colour]} for s, p in plays]


def last_trick_json(last: LastTrick | Shown | None) -> dict[str, Any] | None:
    if last is None:
        return None
    if isinstance(last, Shown):
        return copy.deepcopy(last.json)
    number, plays, winner, paradox = last
    return {
        "trick": number,
        "plays": plays_json(plays),
        "winner": winner if winner >= 0 else None,
        "paradox": paradox if paradox >= 0 else None,
    }


def last_round_json(table: Table, end: RoundEnd | Shown | None) -> dict[str, Any] | None:
    """The final public board of the last finished round and each seat's score breakdown."""
    if end is None:
        return None
    if isinstance(end, Shown):
        return copy.deepcopy(end.json)
    seats = []
    for s, (points, bonus) in enumerate(end.scored):
        tricks, prediction = end.tricks[s], end.predictions[s]
        seats.append(
            {
                "tricks": tricks,
                "prediction": prediction or None,
                "hit": s != end.paradox and bonus_earned(table, tricks, prediction),
                "group": table.largest_group(end.owned[s]),
                "bonus": bonus,
                "paradox": s == end.paradox,
                "points": points,
                "total": end.totals[s],
            }
        )
    out: dict[str, Any] = {
        "round": end.round,
        "board": cells_of(table, end.owned, end.blocked),
        "x_tokens": x_tokens(end.xs),
        "last_trick": last_trick_json(end.last_trick),
        "discards": [d or None for d in end.discards],
        "paradox": end.paradox if end.paradox >= 0 else None,
        "paradox_hand": end.paradox_hand if end.paradox >= 0 else None,
        "seats": seats,
    }
    if table.setup.centre:
        out["centre"] = {"revealed": list(end.revealed)}
    return out


def x_tokens(xs: Any) -> list[dict[str, bool]]:
    return [dict(_X_TOKENS[x]) for x in xs]


_X_TOKENS = [{c: bool(x >> i & 1) for i, c in enumerate(COLOURS)} for x in range(1 << len(COLOURS))]
"""Per X mask, `{colour: covered}`: each view gets its own copies."""


def board_cells(state: CatboxState) -> list[list[int | str | None]]:
    """Per row, per column: null, the seat whose token is there, "observed" or "blocker"."""
    return cells_of(state.table, state.owned, state.blocked)


def cells_of(table: Table, owned: Any, blocked: int) -> list[list[int | str | None]]:
    """Each cell's occupant; only the few occupied cells are visited (set bits of each mask),
    marked from the lowest priority up: an owner (the lowest seat first), a blocker, "observed"."""
    columns = table.columns
    cells: list[list[int | str | None]] = [[None] * columns for _ in COLOURS]
    marks: list[tuple[int, int | str]] = [(owned[s], s) for s in reversed(range(len(owned)))]
    marks.append((blocked, "blocker"))
    marks.append((table.observed_cells, "observed"))
    for mask, occupant in marks:
        while mask:
            low = mask & -mask
            row, col = divmod(low.bit_length() - 1, columns)
            cells[row][col] = occupant
            mask ^= low
    return cells


def _goal(table: Table) -> dict[str, Any]:
    setup = table.setup
    if setup.research:  # one round, and the bonus limit of its own (layouts.SMALL_SETUP)
        return _message("goal_small", None, at_most=setup.bonus_at_most)
    return _message("goal_two" if setup.players == 2 else "goal", None, rounds=setup.rounds)


def private_view(state: CatboxState, seat: int | None) -> dict[str, Any]:
    table = state.table
    n = state.players
    view: dict[str, Any] = {
        "round": state.round,
        "rounds": table.setup.rounds,
        "start_player": state.start,
        "phase": PHASE_NAMES[state.phase],
        "layout": kept(state, "layout", table, _layout_json),
        "board": board_cells(state),
        "x_tokens": x_tokens(state.xs),
        "predictions": [p or None for p in state.predictions],
        "prediction_values": kept(state, "prediction_values", table, lambda t: [p.value for p in t.predicts]),
        "tricks": list(state.tricks),
        "trick": plays_json(state.trick),
        "last_trick": kept(state, "last_trick", state.last_trick, last_trick_json),
        "leader": state.leader if state.phase == PLAY else None,
        "red_broken": state.red_broken,
        "discarded": [bool(d) for d in state.discards],
        "hand_counts": list(map(card_count, state.hands)),
        "paradox": state.paradox if state.paradox >= 0 else None,
        "last_round": kept(state, "last_round", state.last_round, lambda end: last_round_json(table, end)),
        "prompt": prompt(state, seat),
        "goal": kept(state, "goal", table, _goal),
    }
    if table.setup.centre:
        view["centre"] = {"revealed": list(state.revealed)}
    if seat is not None and 0 <= seat < n:
        view["hand"] = unpack(state.hands[seat])
        view["discard"] = state.discards[seat] or None
    return view


def _layout_json(table: Table) -> dict[str, Any]:
    """The round's board layout (the same `Table` for every state of a game: made once, shared)."""
    return {"rows": list(COLOURS), "numbers": [list(r) for r in table.layout], "side": table.side}


def prompt(state: CatboxState, seat: int | None) -> dict[str, Any] | None:
    """What `seat` should do now (or who is acting), as a message of the game's catalogue."""
    phase, to_move = state.phase, state.to_move
    mine = seat is not None and seat in to_move
    if phase == DISCARD:
        kind = "do_discard" if mine else "wait_discard"
    elif phase == PREDICT:
        kind = "do_predict" if mine else "wait_predict"
    elif phase == PLAY:
        if not mine:
            kind = "wait_play"
        elif state.trick:
            return _message("do_follow", None, colour=COLOURS[state.led])
        else:
            kind = "do_lead_red" if state.red_broken else "do_lead"
    else:
        return None
    return _message(kind, None if mine or phase == DISCARD else state.current)


def _message(kind: str, seat: int | None, **data: Any) -> dict[str, Any]:
    return {"kind": kind, "seat": seat, "data": data}


def reveal(state: CatboxState) -> dict[str, Any]:
    """Every hidden fact of the current round: all hands, all discards, the hidden centre cards."""
    out: dict[str, Any] = {
        "hands": [unpack(h) for h in state.hands],
        "discards": [d or None for d in state.discards],
    }
    if state.table.setup.centre:
        out["centre"] = {"revealed": list(state.revealed), "hidden": list(state.hidden)}
    return out


@dataclass(frozen=True, slots=True)
class CatboxView(SeatView):
    """A Cat in the Box view read back (`read_view`): `private_view`'s keys as the state's own
    values where it has them (phase numbers, X masks, `Play` cards), the rest as the view says.
    What `determinize` and the greedy bot read; clients get the JSON."""

    round: int
    rounds: int
    start_player: int
    phase: int  # START … OVER (phases.py): the view's "deal" is START before the first deal
    rows: tuple[str, ...]  # the layout's colour names, top to bottom (COLOURS)
    numbers: tuple[tuple[int, ...], ...]  # the layout's numbers per row, per column
    side: str
    board: tuple[tuple[int | str | None, ...], ...]  # per row, per column: None, seat, "observed", "blocker"
    xs: tuple[int, ...]  # per seat: bit c set while the X of colour c is covered (the state's `xs`)
    predictions: tuple[int | None, ...]
    prediction_values: tuple[int, ...]
    tricks: tuple[int, ...]
    trick: tuple[tuple[int, Play], ...]  # (seat, card) in play order (the state's `trick`)
    leader: int | None
    red_broken: bool
    discarded: tuple[bool, ...]
    hand_counts: tuple[int, ...]
    paradox: int | None
    revealed: tuple[int, ...]  # the revealed centre cards (2 players), else ()
    hand: tuple[int, ...]  # this seat's cards, ascending; () for a spectator
    discard: int | None  # this seat's face-down discard
    last_trick: Mapping[str, Any] | None  # as the view holds it
    last_round: Mapping[str, Any] | None  # as the view holds it
    prompt: Mapping[str, Any] | None
    goal: Mapping[str, Any]

    def covered(self, seat: int, colour: int) -> bool:
        """Whether `seat`'s X token of `colour` (an index of COLOURS) is still covered."""
        return bool(self.xs[seat] >> colour & 1)


def read_view(view: Mapping[str, Any]) -> CatboxView:
    """The one reader of `private_view`'s keys (and `envelope` of the engine's)."""
    layout = view["layout"]
    phase = view["phase"]
    red, blue, yellow, green = COLOURS  # an X token's bit is its colour's index
    return CatboxView(
        **envelope(view),
        round=view["round"],
        rounds=view["rounds"],
        start_player=view["start_player"],
        phase=(START if not view["history"] else DEAL) if phase == "deal" else PHASE_NAMES.index(phase),
        rows=tuple(layout["rows"]),
        numbers=tuple(map(tuple, layout["numbers"])),
        side=layout["side"],
        board=tuple(map(tuple, view["board"])),
        xs=tuple(x[red] | x[blue] << 1 | x[yellow] << 2 | x[green] << 3 for x in view["x_tokens"]),
        predictions=tuple(view["predictions"]),
        prediction_values=tuple(view["prediction_values"]),
        tricks=tuple(view["tricks"]),
        trick=tuple((t["seat"], PLAYS[t["number"]][COLOURS.index(t["colour"])]) for t in view["trick"]),
        leader=view["leader"],
        red_broken=bool(view["red_broken"]),
        discarded=tuple(view["discarded"]),
        hand_counts=tuple(view["hand_counts"]),
        paradox=view["paradox"],
        revealed=tuple(view.get("centre", {}).get("revealed", ())),
        hand=tuple(view.get("hand", ())),
        discard=view.get("discard"),
        last_trick=view["last_trick"],
        last_round=view["last_round"],
        prompt=view["prompt"],
        goal=view["goal"],
    )


def redact(actor: int, action: CatboxAction, viewer: int | None) -> str:
    """Other seats' discards read "discard"; a deal shows only the viewer's hand and public cards."""
    kind = type(action)
    if kind is Play or kind is Predict:  # public: most of a history, so asked first
        return action.text
    if isinstance(action, Discard):
        return str(action) if actor == viewer else "discard"
    if isinstance(action, Deal):
        parts = [" ".join(map(str, h)) if s == viewer else " ".join("?" * len(h)) for s, h in enumerate(action.hands)]
        if action.reveal or action.hidden:
            parts.append("reveal " + " ".join(map(str, action.reveal)))
            parts.append("hidden " + " ".join("?" * len(action.hidden)))
        return "deal " + " | ".join(parts)
    return str(action)
