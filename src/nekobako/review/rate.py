"""How one decision is rated, from the seat's view and its legal actions only.

* Shut the Box: exactly, by the solver (`bots.optimal.action_values`, the objective the `optimal`
  bot plays for at that view: shut the box solo, least expected penalty, or beat a penalty
  already scored this round).
* The card games: an ISMCTS search from the view (`bots.ismcts`, on the compiled kernel where the
  game has one), with more exploration than the bot plays with so that every legal move is
  visited often enough to be estimated; a move's value is its mean reward at the root, in [0, 1].

Both return a `Rating`: per legal action its value on the review's common scale (higher is
better, a whole game or turn worth 1), the best action, and for a search each action's visits,
from which the review draws its confidence interval.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine import Action, Game

REVIEW_EXPLORATION = 1.5
"""UCB's constant in a review's search (the bot plays with 0.7): a weak move is visited roughly
(c / 0.7)² ≈ 4.6 times as often, so its value is known well enough to be compared."""

Z95 = 1.96
"""Half-width of a 95 % normal interval, in standard errors."""


@dataclass(frozen=True)
class Rating:
    """Every legal action's value at one decision (same order as the legal actions)."""

    objective: str  # shut | score | target (Shut the Box) | search (card games)
    values: tuple[float, ...]  # on the common scale, higher is better
    raw: tuple[float, ...]  # in the objective's own unit (probability, expected penalty, value)
    best: int  # index of the best action
    visits: tuple[int, ...] | None = None  # a search's visits per action; None when exact

    def margin(self, chosen: int) -> float:
        """95 % half-width of `values[best] - values[chosen]` (0 when exact). Rewards lie in
        [0, 1], so a mean m's variance is at most m(1 - m): the interval is conservative."""
        if self.visits is None or chosen == self.best:
            return 0.0
        b, c = self.best, chosen
        if not self.visits[c] or not self.visits[b]:
            return 1.0  # never tried: nothing can be said
        var = sum(_bernoulli(self.values[i]) / self.visits[i] for i in (b, c))
        return Z95 * math.sqrt(var)


def _bernoulli(mean: float) -> float:
    m = min(1.0, max(0.0, mean))
    return max(m * (1 - m), 1e-4)


def rate_shutbox(view: Mapping[str, Any], legal: Sequence[Action]) -> Rating:
    """Exact values by the solver; an expected penalty is scaled by the full board's penalty."""
    from ..bots.optimal import action_values
    from ..games.shutbox.tables import penalty_table

    objective, values = action_values(view, legal)
    best = max(range(len(values)), key=lambda i: (values[i], -i))  # ties: first legal, as the bot
    if objective == "score":
        options = view["options"]
        full = penalty_table(options["tiles"], options["scoring"])[-1] or 1
        raw = tuple(-v for v in values)
        scaled = tuple(1.0 - p / full for p in raw)
        return Rating(objective, scaled, raw, best)
    return Rating(objective, tuple(values), tuple(values), best)


class SearchRater:
    """ISMCTS from a seat's view, reading the root's statistics after the search."""

    def __init__(self, game: Game[Any, Any], iterations: int):
        from ..bots.ismcts import ISMCTSBot

        self.game = game
        self.bot = ISMCTSBot(game.name, iterations=iterations, exploration=REVIEW_EXPLORATION)
        self._keymaps: dict[Any, Any] = {}

    def rate(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Rating:
        bot = self.bot
        bot.choose(view, legal, rng)
        stats = self._compiled_stats(view, legal) if bot.last_tree is not None else self._pure_stats(view, legal)
        visits = tuple(v for v, _ in stats)
        means = tuple(r / v if v else 0.0 for v, r in stats)
        best = max(range(len(legal)), key=lambda i: (visits[i], -i))  # most visited, as the bot plays
        return Rating("search", means, means, best, visits)

    def _pure_stats(self, view: Mapping[str, Any], legal: Sequence[Action]) -> list[tuple[int, float]]:
        bot = self.bot
        me = view["seat"]
        root = bot.last_root
        assert root is not None
        out = []
        for action in legal:
            child = root.children.get(bot._key(me, me, action))
            out.append((child.visits, child.reward) if child is not None else (0, 0.0))
        return out

    def _compiled_stats(self, view: Mapping[str, Any], legal: Sequence[Action]) -> list[tuple[int, float]]:
        from ..bots import ismcts_kernel as ik
        from ..engine.kernel import kernel_for

        seen = self.game.read_view(view)
        me = seen.me
        options = self.game.options(seen.options, seen.players)
        found = self._keymaps.get((me, seen.players, options))
        if found is None:
            kernel = kernel_for(self.game.name, seen.players, options)
            assert kernel is not None
            found = self._keymaps[(me, seen.players, options)] = (kernel, ik.key_map(self.game, kernel, me))
        kernel, keymap = found
        tree = self.bot.last_tree
        out = []
        for action in legal:
            child = tree.find(0, int(keymap[me, kernel.encoding.action_id(action)]))
            out.append((int(tree.visits[child]), float(tree.reward[child])) if child != ik.EMPTY else (0, 0.0))
        return out


_searchers: dict[tuple[str, int], SearchRater] = {}


def searcher(game: str, iterations: int) -> SearchRater:
    """One rater per game and budget in a process (its bot keeps caches between decisions)."""
    from ..engine import get_game

    found = _searchers.get((game, iterations))
    if found is None:
        found = _searchers[(game, iterations)] = SearchRater(get_game(game), iterations)
    return found
