"""The bot levels' ladder ratings shipped with the package (`ladder.json` beside this module),
written by `nekobako ladder … --save` (sim/ladder.py) and shown in the lobby's bot menu."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

RATINGS_FILE = "ladder.json"
"""{game: {"players", "games", "command", "levels": {bot label: {"mu", "sigma"}}}}."""


@cache
def shipped_ratings() -> dict[str, Any]:
    path = resources.files(__package__).joinpath(RATINGS_FILE)
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def level_ratings(game: str) -> dict[str, dict[str, float]]:
    """{level: {"mu", "sigma"}} for `game`: each level's first ladder entry (a ladder may rate a
    level with parameters, `ismcts:iterations=200`)."""
    out: dict[str, dict[str, float]] = {}
    for label, rating in shipped_ratings().get(game, {}).get("levels", {}).items():
        out.setdefault(label.split(":")[0], rating)
    return out
