"""A Shut the Box view read back as typed values (`read_view`): the keys `ShutState.private_view`
writes (docs/views.md, shutbox), read in one place for the bots and any other Python reader.
Everything is public in this game, so a view holds the whole position."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...engine import SeatView, envelope


@dataclass(frozen=True, slots=True)
class ShutView(SeatView):
    """`private_view`'s keys, typed; clients get the JSON."""

    phase: str  # "play" | "over"
    round: int
    start_player: int | None
    order: tuple[int, ...]  # seats in turn order this round
    current: int | None  # whose turn it is (None in simultaneous mode: see `active`)
    active: tuple[int, ...]
    rolling: int | None  # the seat whose dice are about to be rolled
    boards: tuple[tuple[int, ...], ...]  # per seat: its open tiles, ascending
    tiles: int
    dice: tuple[tuple[int, ...], ...]  # per seat: its last roll's faces
    eliminated: tuple[bool, ...]
    shut: tuple[bool, ...]
    penalty: tuple[int | None, ...]  # per seat: this round's penalty once its turn ended
    one_die: tuple[bool, ...]  # per seat: may roll one die now
    elimination_at: int | None
    round_limit: int | None
    last_round: Mapping[str, Any] | None  # as the view holds it
    prompt: Mapping[str, Any] | None
    goal: Mapping[str, Any]


def read_view(view: Mapping[str, Any]) -> ShutView:
    """The one reader of `private_view`'s keys (and `envelope` of the engine's)."""
    return ShutView(
        **envelope(view),
        phase=view["phase"],
        round=view["round"],
        start_player=view["start_player"],
        order=tuple(view["order"]),
        current=view["current"],
        active=tuple(view["active"]),
        rolling=view["rolling"],
        boards=tuple(map(tuple, view["boards"])),
        tiles=view["tiles"],
        dice=tuple(map(tuple, view["dice"])),
        eliminated=tuple(view["eliminated"]),
        shut=tuple(view["shut"]),
        penalty=tuple(view["penalty"]),
        one_die=tuple(view["one_die"]),
        elimination_at=view["elimination_at"],
        round_limit=view["round_limit"],
        last_round=view["last_round"],
        prompt=view["prompt"],
        goal=view["goal"],
    )
