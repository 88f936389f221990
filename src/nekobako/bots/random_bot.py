"""The `random` level: a uniformly random legal action. The baseline every other bot must beat."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine import Action


class RandomBot:
    name = "random"

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        return legal[int(rng.random() * len(legal))]

    def __repr__(self) -> str:
        return "RandomBot()"
