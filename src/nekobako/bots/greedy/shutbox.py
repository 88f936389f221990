"""Greedy Shut the Box: close as few tiles as possible, the highest first; roll one die once the
open tiles add up to 6 or less.

"Fewest, highest" keeps the low tiles that make many totals, the usual rule of thumb; it shuts the
9-tile box about as often as a careful human does, well below the exact solver (see
docs/strength.md).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ...engine import Action
from ...games.shutbox.view import read_view
from ..base import only_choice


class GreedyBot:
    name = "greedy"

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        if (only := only_choice(legal)) is not None:
            return only
        texts = [str(a) for a in legal]
        if texts[0].startswith("roll"):
            seen = read_view(view)
            board = seen.boards[seen.me]
            if "roll 1" in texts and sum(board) <= 6:
                return legal[texts.index("roll 1")]
            return legal[texts.index("roll")] if "roll" in texts else legal[0]
        return min(zip(texts, legal, strict=True), key=lambda item: _shut_rank(item[0]))[1]

    def __repr__(self) -> str:
        return "GreedyBot('shutbox')"


def _shut_rank(text: str) -> tuple[int, list[int]]:
    """Fewest tiles first, then the highest tiles (lexicographically, from the top) first."""
    tiles = sorted((int(w) for w in text.split()[1:]), reverse=True)
    return len(tiles), [-t for t in tiles]
