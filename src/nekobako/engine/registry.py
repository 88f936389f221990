"""Where games are found by name. Modules load on first use, so importing the engine stays cheap."""

from __future__ import annotations

import importlib
from typing import Any

from ..i18n import Message
from .errors import UnknownGame
from .game import Game

GAME_MODULES: dict[str, str] = {
    "shutbox": "nekobako.games.shutbox",
    "catbox": "nekobako.games.catbox",
    "catopomp": "nekobako.games.catopomp",
}
"""Game name → module exposing `GAME`. The one list of games in the project."""

_loaded: dict[str, Game[Any, Any]] = {}


def check_game_name(name: str) -> None:
    """Raise `UnknownGame` (naming the games there are) unless `name` is one."""
    if name not in GAME_MODULES:
        raise UnknownGame(Message("engine.unknown_game", name=repr(name), games=list(GAME_MODULES)))


def get_game(name: str) -> Game[Any, Any]:
    check_game_name(name)
    if name not in _loaded:
        _loaded[name] = importlib.import_module(GAME_MODULES[name]).GAME
    return _loaded[name]


def game_names() -> list[str]:
    return list(GAME_MODULES)
