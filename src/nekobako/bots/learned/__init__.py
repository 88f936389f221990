"""The `learned` level: a small network trained by self-play for each game (docs/bots.md,
*The learned level*), run with NumPy alone: no deep-learning library is imported to play.

Like every bot it reads only its seat's view: the observation is the game's encoding of the view
(`Encoding.observe_view`, the reference the fast encoders are tested against), the scores come
from `network.Policy` and the bot plays the best-scoring legal action (ties: the first legal one),
so the same view always gives the same action. The weights ship inside the package, one file per
table (`weights/<game>-<players>p.npz`); `weights=PATH` plays another file (one written by
`python -m nekobako.bots.learned.train`). A file that does not fit the table is refused with
`bots.learned.*` messages, before the first game where the table is known (`check_table`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from ...engine import Action, InvalidOptions, Options, get_game
from ...engine.encoding import Encoding, encoding_for
from ...i18n import Message
from ..base import only_choice
from .network import Policy

WEIGHTS_DIR = "weights"


def weights_name(game: str, players: int) -> str:
    return f"{game}-{players}p.npz"


def shipped_tables(game: str) -> list[int]:
    """Player counts of `game` with shipped weights, ascending."""
    folder = resources.files(__package__).joinpath(WEIGHTS_DIR)
    prefix = f"{game}-"
    found = []
    for entry in folder.iterdir() if folder.is_dir() else ():
        name = entry.name
        if name.startswith(prefix) and name.endswith("p.npz") and name[len(prefix) : -5].isdigit():
            found.append(int(name[len(prefix) : -5]))
    return sorted(found)


@cache
def _shipped(game: str, players: int) -> Policy | None:
    path = resources.files(__package__).joinpath(WEIGHTS_DIR, weights_name(game, players))
    if not path.is_file():
        return None
    with resources.as_file(path) as real:
        return Policy.load(real, source=f"nekobako/bots/learned/{WEIGHTS_DIR}/{weights_name(game, players)}")


class LearnedBot:
    """The shipped policy of each table of `game`, or the one policy in `weights`."""

    name = "learned"

    def __init__(self, game: str, weights: str | Path | None = None) -> None:
        self.game = get_game(game)
        self.weights = None if weights is None else Policy.load(Path(weights))
        if self.weights is not None and self.weights.game != self.game.name:
            raise InvalidOptions(
                Message(
                    "bots.learned.other_game",
                    path=str(weights),
                    game=Message(f"game.{self.game.name}"),
                    trained=Message(f"game.{self.weights.game}"),
                )
            )
        self._ready: dict[Encoding, Policy] = {}

    @classmethod
    def from_params(cls, game: str, **params: Any) -> LearnedBot:
        unknown = sorted(set(params) - {"weights"})
        if unknown:
            raise InvalidOptions(Message("bots.learned.no_param", name=unknown[0], params="weights"))
        weights = params.get("weights")
        return cls(game, None if weights is None else str(weights))

    def __repr__(self) -> str:
        where = "" if self.weights is None else f", weights={self.weights.source!r}"
        return f"LearnedBot({self.game.name!r}{where})"

    def check_table(self, players: int, options: Options | Mapping[str, Any] | None = None) -> None:
        """Raise `InvalidOptions` unless a policy fits `players` seats with `options`."""
        opts = options if isinstance(options, Options) else self.game.options(dict(options or {}), players)
        self._policy(encoding_for(self.game.name, players, opts))

    def _policy(self, enc: Encoding) -> Policy:
        ready = self._ready.get(enc)
        if ready is not None:
            return ready
        policy = self.weights or _shipped(self.game.name, enc.players)
        if policy is None:
            tables = ", ".join(str(n) for n in shipped_tables(self.game.name))
            raise InvalidOptions(
                Message(
                    "bots.learned.no_weights",
                    game=Message(f"game.{self.game.name}"),
                    players=enc.players,
                    tables=tables,
                )
            )
        policy.check(enc)
        policy = Policy(policy.game, policy.players, policy.fingerprint, dict(policy.arrays), policy.source)
        policy.prepare(enc)
        self._ready[enc] = policy
        return policy

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        if (only := only_choice(legal)) is not None:
            return only
        players = int(view["players"])
        enc = encoding_for(self.game.name, players, self.game.options(dict(view["options"]), players))
        policy = self._policy(enc)
        ids = np.fromiter((enc.action_id(a) for a in legal), np.int64, len(legal))
        scores = policy.logits(np.asarray(enc.observe_view(view), np.float32), ids)
        return legal[int(np.argmax(scores))]
