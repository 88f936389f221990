"""A bot written outside nekobako, for the simulation tests (importable as `sim_custom_bots`)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any


class FirstLegal:
    """Always the first legal action; `label` names it in reports."""

    label = "first-legal"

    def __init__(self, offset: int = 0):
        self.offset = offset

    def choose(self, view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        return legal[min(self.offset, len(legal) - 1)]
