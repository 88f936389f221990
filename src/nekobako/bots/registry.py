"""Bot levels by name. Levels load lazily so that importing `nekobako.bots` stays cheap (the
optimal bot's tables, ISMCTS, the games' modules load on first use)."""

from __future__ import annotations

import importlib
from typing import Any

from ..engine import InvalidOptions, check_game_name
from ..i18n import Message
from .base import Bot

LEVELS: tuple[str, ...] = ("random", "greedy", "learned", "ismcts", "optimal")
"""Every level name, weakest first."""

GREEDY_MODULES: dict[str, str] = {
    "shutbox": "nekobako.bots.greedy.shutbox",
    "catbox": "nekobako.bots.greedy.catbox",
    "catopomp": "nekobako.bots.greedy.catopomp",
}
"""Game → module defining `GreedyBot` (a heuristic written for that game)."""

OPTIMAL_GAMES = ("shutbox",)
LEARNED_GAMES = ("catbox", "catopomp", "shutbox")
"""Games with shipped `learned` weights (bots/learned/weights/, one file per player count)."""


def bot_names(game: str | None = None) -> list[str]:
    """Levels available for `game` (all levels when None), weakest first: for the lobby and the CLI."""
    if game is None:
        return list(LEVELS)
    check_game_name(game)
    names = ["random"]
    if game in GREEDY_MODULES:
        names.append("greedy")
    if game in LEARNED_GAMES:
        names.append("learned")
    names.append("ismcts")
    if game in OPTIMAL_GAMES:
        names.append("optimal")
    return names


def default_bot(game: str) -> str:
    """The level that plays a seat nobody chose a bot for (the terminal's opponents, a seat whose
    player left a table): the game's own heuristic where there is one — quick and sensible —
    else random."""
    return "greedy" if "greedy" in bot_names(game) else "random"


def make_bot(name: str, game: str | None = None, **params: Any) -> Bot:
    """A bot of level `name` for `game`. Parameters: `ismcts` takes `iterations` or `seconds`,
    `exploration`, `rollout` ("random" or "greedy"); `learned` takes `weights` (a weights file);
    the others take none. Unknown names and
    parameters raise `InvalidOptions` carrying a catalogue message (`bots.*`), worded by the reader."""
    if not isinstance(name, str):
        raise InvalidOptions(Message("bots.not_text", value=repr(name)))
    key = name.strip().lower()
    if key not in LEVELS:
        raise InvalidOptions(Message("bots.unknown", name=name, bots=", ".join(LEVELS)))
    if key != "random" and game is None:
        raise InvalidOptions(Message("bots.needs_game", name=key))
    if game is not None and key not in bot_names(game):
        choices = ", ".join(bot_names(game))
        raise InvalidOptions(Message("bots.not_for_game", name=key, game=Message(f"game.{game}"), bots=choices))
    if key not in ("ismcts", "learned") and params:
        raise InvalidOptions(Message("bots.no_params", name=key, params=", ".join(sorted(params))))
    if key == "random":
        from .random_bot import RandomBot

        return RandomBot()
    assert game is not None
    if key == "greedy":
        module = importlib.import_module(GREEDY_MODULES[game])
        return module.GreedyBot()
    if key == "learned":
        from .learned import LearnedBot

        return LearnedBot.from_params(game, **params)
    if key == "optimal":
        from .optimal import OptimalBot

        return OptimalBot()
    from .ismcts import ISMCTSBot

    return ISMCTSBot.from_params(game, **params)
