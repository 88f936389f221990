"""Where games are found by name. Modules load on first use, so importing the engine stays cheap."""

from __future__ import annotations

import importlib

from .errors import InvalidOptions
from .game import Game

GAME_MODULES: dict[str, str] = {
    "shutbox": "nekobako.games.shutbox",
    "catbox": "nekobako.games.catbox",
    "catopomp": "nekobako.games.catopomp",
}
"""Game name → module exposing `GAME`. The one list of games in the project."""

_loaded: dict[str, Game] = {}


def get_game(name: str) -> Game:
    if name not in GAME_MODULES:
        raise InvalidOptions(f"unknown game {name!r}; games: {', '.join(GAME_MODULES)}")
    if name not in _loaded:
        _loaded[name] = importlib.import_module(GAME_MODULES[name]).GAME
    return _loaded[name]


def game_names() -> list[str]:
    return list(GAME_MODULES)
