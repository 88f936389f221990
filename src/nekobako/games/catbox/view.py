"""What a seat may see (`docs/views.md`, catbox section): the one door hidden cards pass through.

A seat sees its own hand and discard and every public fact; spectators see no hand. Other seats'
hands and discards, and the 2 hidden centre cards, leave the engine only through `reveal`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import CatboxAction, Deal, Discard
from .board import unpack
from .layouts import COLOURS

if TYPE_CHECKING:
    from .state import CatboxState


def board_cells(state: CatboxState) -> list[list[int | str | None]]:
    """Per row, per column: null, the seat whose token is there, "observed" or "blocker"."""
    table = state.table
    cells: list[list[int | str | None]] = []
    for row in range(len(COLOURS)):
        line: list[int | str | None] = []
        for col in range(table.columns):
            bit = 1 << (row * table.columns + col)
            owner: int | str | None = None
            if table.observed_cells & bit:
                owner = "observed"
            elif state.blocked & bit:
                owner = "blocker"
            else:
                for s, mask in enumerate(state.owned):
                    if mask & bit:
                        owner = s
                        break
            line.append(owner)
        cells.append(line)
    return cells


def private_view(state: CatboxState, seat: int | None) -> dict[str, Any]:
    from .state import PHASE_NAMES, PLAY

    table = state.table
    n = state.players
    view: dict[str, Any] = {
        "round": state.round,
        "rounds": n,
        "start_player": state.start,
        "phase": PHASE_NAMES[state.phase],
        "layout": {"rows": list(COLOURS), "numbers": [list(r) for r in table.layout], "side": table.side},
        "board": board_cells(state),
        "x_tokens": [{c: bool(xs >> i & 1) for i, c in enumerate(COLOURS)} for xs in state.xs],
        "predictions": [p or None for p in state.predictions],
        "prediction_values": [p.value for p in table.predicts],
        "tricks": list(state.tricks),
        "trick": [{"seat": s, "number": p.number, "colour": COLOURS[p.colour]} for s, p in state.trick],
        "leader": state.leader if state.phase == PLAY else None,
        "red_broken": state.red_broken,
        "discarded": [bool(d) for d in state.discards],
        "hand_counts": [len(unpack(h)) for h in state.hands],
        "paradox": state.paradox if state.paradox >= 0 else None,
    }
    if table.setup.centre:
        view["centre"] = {"revealed": list(state.revealed)}
    if seat is not None and 0 <= seat < n:
        view["hand"] = unpack(state.hands[seat])
        view["discard"] = state.discards[seat] or None
    return view


def reveal(state: CatboxState) -> dict[str, Any]:
    """Every hidden fact of the current round: all hands, all discards, the hidden centre cards."""
    out: dict[str, Any] = {
        "hands": [unpack(h) for h in state.hands],
        "discards": [d or None for d in state.discards],
    }
    if state.table.setup.centre:
        out["centre"] = {"revealed": list(state.revealed), "hidden": list(state.hidden)}
    return out


def redact(actor: int, action: CatboxAction, viewer: int | None) -> str:
    """Other seats' discards read "discard"; a deal shows only the viewer's hand and public cards."""
    if isinstance(action, Discard):
        return str(action) if actor == viewer else "discard"
    if isinstance(action, Deal):
        parts = [" ".join(map(str, h)) if s == viewer else " ".join("?" * len(h)) for s, h in enumerate(action.hands)]
        if action.reveal or action.hidden:
            parts.append("reveal " + " ".join(map(str, action.reveal)))
            parts.append("hidden " + " ".join("?" * len(action.hidden)))
        return "deal " + " | ".join(parts)
    return str(action)
