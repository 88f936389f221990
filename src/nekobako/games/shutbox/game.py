"""Shut the Box as a `Game`: the static description (players, options, notation, words).

Nothing is hidden in Shut the Box, so determinization is exact: the state is rebuilt by
replaying the history every view carries.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from ...engine import CHANCE, BadRecord, Game, NekobakoError, Options, OptionSpec, SearchHints
from ...i18n import Message
from .actions import Action, parse_action
from .options import OPTION_SPECS
from .state import ShutState
from .view import ShutView, read_view


class ShutTheBox(Game[Action, ShutState]):
    """Shut the Box, Board Game Arena rules, 1–12 players."""

    name: ClassVar[str] = "shutbox"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 12
    option_specs: ClassVar[tuple[OptionSpec, ...]] = OPTION_SPECS
    # penalties; a margin of ~20 points is decisive; whole games are short; nothing is hidden
    search: ClassVar[SearchHints] = SearchHints(
        lower_is_better=True, scale=20.0, horizon="game", perfect_information=True
    )

    def new_initial_state(self, players: int, options: Options) -> ShutState:
        return ShutState(self, players, options)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def read_view(self, view: Mapping[str, Any]) -> ShutView:
        return read_view(view)

    def determinize(self, view: Mapping[str, Any], rng: random.Random) -> ShutState:
        """Exact: nothing is hidden, so replay the view's history (rng is not needed)."""
        seen = read_view(view)
        state = self.new_game(seen.players, seen.options)
        for index, (seat, text) in enumerate(seen.history):
            try:
                state.apply(CHANCE if seat == CHANCE else seat, self.parse_action(text))
            except NekobakoError as exc:
                raise BadRecord(
                    Message("engine.view.history_refused", index=index, entry=text, reason=exc.message), index, text
                ) from None
        return state


GAME = ShutTheBox()
