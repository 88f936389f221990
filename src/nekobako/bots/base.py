"""What a bot is: a function of one seat's knowledge (its view), the legal actions and its own rng.

Bots never receive a `State` of the game they play in; the only door to hidden information is
`State.view(seat)`, so a bot cannot peek even by accident. Search bots build their own worlds with
`get_game(view["game"]).determinize(view, rng)`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from ..engine import Action


@runtime_checkable
class Bot(Protocol):
    """A player. `choose` returns one element of `legal`; the same view and rng state give the
    same action (no global random state, no clock unless a seconds budget is asked for)."""

    name: str

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action: ...
