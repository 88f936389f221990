"""Catopomp as a `Game`: shape, options, notation, event words, redaction, determinization.

A climbing / shedding card game for 2–4 players (nekobako/rules/en/catopomp.md). Hidden information: the
hands, the undealt cards, and spare-die faces while their owners are still choosing. Chance:
the first start player, the deal (sampled; too many to list) and the central dice (listed as
sorted face multisets with their probabilities).

Frankly: this is Python. Random playouts reach tens of thousands of actions per second (see
docs/catopomp.md for measured figures) thanks to interned actions and cached legal lists; that
is enough for ISMCTS with a few thousand determinizations per move, not for brute force.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ...engine import Game, Options, SearchHints
from . import actions as A
from .determinize import determinize
from .options import OPTION_SPECS, check_options, rules_for
from .state import CatopompState
from .view import CatopompView, read_view


class CatopompGame(Game[A.Action, CatopompState]):
    name = "catopomp"
    min_players = 2
    max_players = 4
    option_specs = OPTION_SPECS
    search = SearchHints(scale=1.0)  # one soul gem is a large margin

    def check_options(self, options: Options, players: int) -> None:
        check_options(options, players)

    def new_initial_state(self, players: int, options: Options) -> CatopompState:
        return CatopompState(self, players, options, rules_for(options, players))

    def parse_action(self, text: str) -> A.Action:
        return A.parse_action(text)

    def redact(self, actor: int, action: Any, viewer: int | None) -> str:
        """Deals show only the viewer's own hand; spare faces of others read `spare ?` (the state's
        view shows them again once every spare die is set)."""
        kind = getattr(action, "kind", None)
        if kind == A.DEAL:
            hands = action.text[5:].split(" | ")
            return "deal " + " | ".join(h if s == viewer else "?" for s, h in enumerate(hands))
        if kind == A.SPARE and actor != viewer:
            return "spare ?"
        return str(action)

    def read_view(self, view: Mapping[str, Any]) -> CatopompView:
        return read_view(view)

    def determinize(self, view: Mapping[str, Any], rng: random.Random) -> CatopompState:
        return determinize(self, view, rng)


GAME = CatopompGame()
