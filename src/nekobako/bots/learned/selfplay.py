"""Self-play data for the `learned` level: positions of games that the teacher plays at every
seat, each with the seat's observation (the game's encoding of its view), its legal ids and the
teacher's preference over them.

Teachers: the compiled `ismcts` for the card games (the target is the root's visit counts, the
search's own policy), the exact solver (`optimal`) for Shut the Box (the target is its move); or,
asked for by name, `greedy` (the target is its move: imitation, a start for fine-tuning).
Positions with one legal action teach nothing and are skipped. Everything is seeded: the same
seed and game count give the same shard, byte for byte (with `ismcts` on iterations, not time).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...engine import CHANCE, get_game
from ...engine.encoding import encoding_for


@dataclass
class Shard:
    """Positions in flat arrays: `obs[i]`, and the legal ids and target weights of position i in
    `ids[start[i]:start[i + 1]]`, `weights[…]` (weights sum to 1 per position)."""

    obs: list[np.ndarray] = field(default_factory=list)
    ids: list[int] = field(default_factory=list)
    weights: list[float] = field(default_factory=list)
    start: list[int] = field(default_factory=lambda: [0])

    def add(self, obs: np.ndarray, ids: list[int], weights: list[float]) -> None:
        total = float(sum(weights))
        self.obs.append(obs)
        self.ids.extend(ids)
        self.weights.extend(w / total for w in weights)
        self.start.append(len(self.ids))

    def arrays(self) -> dict[str, np.ndarray]:
        return {
            "obs": np.stack(self.obs).astype(np.float32),
            "ids": np.asarray(self.ids, np.int32),
            "weights": np.asarray(self.weights, np.float32),
            "start": np.asarray(self.start, np.int64),
        }


def teacher(game: str, iterations: int, name: str = "ismcts") -> Any:
    from ..registry import make_bot

    if name == "greedy":
        return make_bot("greedy", game)
    if game == "shutbox":
        return make_bot("optimal", game)
    return make_bot("ismcts", game, iterations=iterations)


def targets(game: str, bot: Any, view: Any, legal: list[Any], chosen: Any, enc: Any) -> list[float]:
    """The teacher's weight on each legal action: root visits for `ismcts`, its choice otherwise."""
    tree = getattr(bot, "last_tree", None)
    if tree is not None and game != "shutbox":
        from ..ismcts_kernel import EMPTY

        seen = bot.game.read_view(view)
        keymap = bot._keymaps[(bot._kernel(seen), seen.me)]
        visits = []
        for action in legal:
            child = tree.find(0, int(keymap[seen.me, enc.action_id(action)]))
            visits.append(0.0 if child == EMPTY else float(tree.visits[child]))
        if sum(visits) > 0:
            return visits
    return [1.0 if a == chosen else 0.0 for a in legal]


def play(
    game_name: str,
    players: int,
    games: int,
    seed: int,
    iterations: int = 1000,
    explore: float = 0.0,
    teacher_name: str = "ismcts",
) -> Shard:
    """`games` self-play games of the teacher; with `explore` > 0 a seat plays a uniformly random
    legal action that often instead (still recording the teacher's target), to widen the positions.
    `teacher_name` "greedy" plays `greedy` instead of the game's default teacher."""
    game = get_game(game_name)
    options = game.options({}, players)
    enc = encoding_for(game_name, players, options)
    bot = teacher(game_name, iterations, teacher_name)
    rng = random.Random(seed)
    shard = Shard()
    out = np.empty(enc.size, np.float32)
    for _ in range(games):
        state = game.new_initial_state(players, options)
        while not state.is_over():
            seat = state.to_move[0]
            if seat == CHANCE:
                state.apply(CHANCE, state.sample_chance(rng))
                continue
            legal = state.legal_actions(seat)
            if len(legal) == 1:
                state.apply(seat, legal[0])
                continue
            view = state.view(seat)
            chosen = bot.choose(view, legal, rng)
            enc.observe(state, seat, out)
            ids = [enc.ids[str(a)] for a in legal]
            shard.add(out.copy(), ids, targets(game_name, bot, view, legal, chosen, enc))
            if explore and rng.random() < explore:
                chosen = legal[rng.randrange(len(legal))]
            state.apply(seat, chosen)
    return shard
