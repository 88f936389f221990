"""Bots sitting at tables. They get exactly what a person in the seat gets (the seat's view and
legal actions) and their answer goes to the table's actor as a person's move does (`moves.BotMove`).

Search is slow Python, so searching levels run in separate processes (`workers.py`), quick ones
in a thread, never on the event loop. The server gives ISMCTS a time budget instead of an
iteration count so a table never waits long for a bot.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..bots import default_bot, make_bot
from ..engine import Action

ISMCTS_SECONDS = 1.0
SEARCHING_LEVELS = frozenset({"ismcts", "optimal"})  # run in search processes
STRONG_LEVELS = frozenset({"ismcts"})  # a search of a whole second per move: limited per user and server


def replacement_level(game: str) -> str:
    """The bot that takes over a seat whose player left: the default level, strong enough and quick."""
    return default_bot(game)


class SeatBots:
    """One bot object per (game, level), shared by every seat that plays at that level."""

    def __init__(self) -> None:
        self._bots: dict[tuple[str, str], Any] = {}

    def _bot(self, game: str, level: str) -> Any:
        key = (game, level)
        if key not in self._bots:
            if level == "ismcts":
                self._bots[key] = make_bot(level, game=game, seconds=ISMCTS_SECONDS)
            else:
                self._bots[key] = make_bot(level, game=game)
        return self._bots[key]

    def choose(
        self, game: str, level: str, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        """Blocking: called in a worker (`workers.Workers.choose`)."""
        return self._bot(game, level).choose(view, legal, rng)
