"""`GAME`: Cat in the Box on the engine contract (options, notation, words, determinization)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from ...engine import HINTS, Game, InvalidOptions, Options, OptionSpec, SearchHints
from ...i18n import Message
from .actions import CatboxAction, parse_action
from .board import table_for
from .determinize import determinizer
from .layouts import SETUPS, SMALL
from .state import CatboxState
from .view import CatboxView, read_view, redact


def _default_side(players: int) -> str:
    setup = SETUPS.get(players)
    return setup.sides[0] if setup else "white"


SIDE = OptionSpec(
    name="side",
    default=_default_side,
    choices=("white", "purple"),  # words: messages.po, catbox.option.side.*
    research=(SMALL,),  # a 2-player game a solver walks whole (layouts.SMALL_SETUP), never at a table
)


class CatboxGame(Game[CatboxAction, CatboxState]):
    name = "catbox"
    min_players = 2
    max_players = 5
    option_specs = (SIDE, HINTS)
    search: ClassVar[SearchHints] = SearchHints(scale=4.0)  # a margin of ~4 points per round matters

    def check_options(self, options: Options, players: int) -> None:
        side = options["side"]
        if side == SMALL:
            if players != 2:
                raise InvalidOptions(Message("catbox.options.small_at_2"))
        elif side not in SETUPS[players].sides:
            raise InvalidOptions(Message("catbox.options.purple_at_2" if players == 2 else "catbox.options.white_at_5"))

    def new_initial_state(self, players: int, options: Options) -> CatboxState:
        return CatboxState(self, players, options, table_for(players, options["side"]))

    def parse_action(self, text: str) -> CatboxAction:
        return parse_action(text)

    def redact(self, actor: int, action: Any, viewer: int | None) -> str:
        return redact(actor, action, viewer)

    def read_view(self, view: Mapping[str, Any]) -> CatboxView:
        return read_view(view)

    def determinize(self, view: Mapping[str, Any], rng: random.Random) -> CatboxState:
        return determinizer(self, view).sample(rng)


GAME = CatboxGame()
