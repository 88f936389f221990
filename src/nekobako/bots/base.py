"""What a bot is: a function of one seat's knowledge (its view), the legal actions and its own rng.

Bots never receive a `State` of the game they play in; the only door to hidden information is
`State.view(seat)`, so a bot cannot peek even by accident. Search bots build their own worlds with
`get_game(view["game"]).determinize(view, rng)`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

from ..engine import Action

A = TypeVar("A")


@runtime_checkable
class Bot(Protocol):
    """A player. `choose` returns one element of `legal`; the same view and rng state give the
    same action (no global random state, no clock unless a seconds budget is asked for)."""

    name: str

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action: ...


def only_choice(legal: Sequence[A]) -> A | None:
    """The one legal action when there is nothing to decide, else None. An empty list is the
    caller's mistake (`ValueError`): a bot is asked only for a seat that is to move. (The random
    bot draws even then, so its rng stream does not depend on how many choices there were.)"""
    if not legal:
        raise ValueError("no legal action to choose from")
    return legal[0] if len(legal) == 1 else None
