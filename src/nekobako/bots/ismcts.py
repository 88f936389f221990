"""The `ismcts` level: single-observer information-set Monte-Carlo tree search (Cowling, Powley
and Whitehouse, 2012), generic over every game.

Each iteration samples a fresh world from the bot's own view with `Game.determinize(view, rng)`
(never the true state), then walks one shared tree whose nodes are information sets *of the
searching seat*: a child is keyed by the action's text as the searching seat would read it
(`Game.redact`), so an opponent's hidden discard is one node however many worlds disagree on it.
When a step reveals what was hidden (Catopomp's spare faces once every spare die is set, as the
view then shows them), the walk goes on through a node keyed by what was revealed (`_revealed`).
Selection is UCB1 with availability counts (an action legal in only some worlds is judged by the
worlds where it was available). Small chance steps (dice) are sampled and keyed by their public
text; a large one (a deal) ends the tree, and the rest is a random rollout.

Rollouts stop at a *horizon*: the end of the current round for the card games (a full game of
Cat in the Box is ~170 actions, too long for thousands of iterations per second), the end of the
game for Shut the Box. A finished game is valued by `State.returns()`; a round end by the seat's
score margin over the best other seat, squashed into [0, 1] (`_margin_values`).

Budgets: `iterations` (deterministic: the same view and rng state give the same action) or
`seconds` (wall time from an injected `clock`, `time.perf_counter` by default; then the number
of iterations, and so the action, depends on machine speed). Python is slow for MCTS: the loop
below avoids building views, re-parsing text and allocating per action where it can.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..engine import CHANCE, Action, Game, InvalidOptions, SearchHints, State, get_game
from ..i18n import Message
from .base import only_choice


class Node:
    """Statistics of one information-set edge: reward is summed for the seat that acted into it."""

    __slots__ = ("avail", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.avail = 0


class ISMCTSBot:
    """SO-ISMCTS with UCB1 over information sets; see the module docstring."""

    name = "ismcts"

    def __init__(
        self,
        game: str,
        iterations: int | None = None,
        seconds: float | None = None,
        exploration: float = 0.7,
        horizon: str | None = None,
        clock: Callable[[], float] = time.perf_counter,
        max_rollout: int = 10_000,
        kernel: bool = True,
    ) -> None:
        if iterations is None and seconds is None:
            iterations = 1000
        if iterations is not None and (not isinstance(iterations, int) or iterations < 1):
            raise InvalidOptions(Message("bots.ismcts.iterations", value=repr(iterations)))
        if seconds is not None and not (isinstance(seconds, (int, float)) and seconds > 0):
            raise InvalidOptions(Message("bots.ismcts.seconds", value=repr(seconds)))
        if not (isinstance(exploration, (int, float)) and exploration >= 0):
            raise InvalidOptions(Message("bots.ismcts.exploration", value=repr(exploration)))
        self.game: Game[Any, Any] = get_game(game)
        hints = self.game.search
        horizon = horizon or hints.horizon
        if horizon not in ("round", "game"):
            raise InvalidOptions(Message("bots.ismcts.horizon", value=repr(horizon)))
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = float(exploration)
        self.horizon = horizon
        self.hints = hints
        self.clock = clock
        self.max_rollout = max_rollout
        self.kernel = bool(kernel)  # search in the game's compiled kernel where it has one
        self.last_iterations = 0  # iterations run by the last `choose` (for benchmarks)
        self.last_root: Node | None = None  # the last search tree (for tests and analysis)
        self._keys: dict[tuple[int, int], dict[Action, Any]] = {}  # (actor, viewer) → action → key
        self._keymaps: dict[tuple[Any, int], Any] = {}  # (kernel, seat) → ismcts_kernel.key_map
        self.last_tree: Any = None  # the last compiled search's ismcts_kernel.Tree (kernel path)

    @classmethod
    def from_params(cls, game: str, **params: Any) -> ISMCTSBot:
        """Build from `make_bot` keyword parameters (text values from the command line accepted)."""
        allowed: dict[str, Callable[[Any], Any]] = {
            "iterations": int,
            "seconds": float,
            "exploration": float,
            "horizon": str,
            "kernel": _flag,
        }
        kwargs: dict[str, Any] = {}
        for key, value in params.items():
            if key not in allowed:
                raise InvalidOptions(Message("bots.ismcts.no_param", name=key, params=", ".join(allowed)))
            if value is None:
                continue
            try:
                kwargs[key] = allowed[key](value)
            except (TypeError, ValueError, KeyError):
                raise InvalidOptions(Message("bots.ismcts.bad_value", name=key, value=repr(value))) from None
        return cls(game, **kwargs)

    def __repr__(self) -> str:
        budget = f"iterations={self.iterations}" if self.seconds is None else f"seconds={self.seconds}"
        kernel = "" if self.kernel else ", kernel=False"
        return f"ISMCTSBot({self.game.name!r}, {budget}, exploration={self.exploration}{kernel})"

    # -- the search ----------------------------------------------------------------------------
    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        if (only := only_choice(legal)) is not None:
            self.last_iterations = 0
            return only
        seen = self.game.read_view(view)
        if self.kernel and (kernel := self._kernel(seen)) is not None and _compiled_search(kernel.game_name):
            return self._choose_compiled(kernel, view, seen, legal, rng)
        self.last_tree = None
        root_seat = seen.me
        root = Node()
        rounds = len(seen.round_scores)
        determinize: Callable[[Mapping[str, Any], random.Random], State[Any]] = self.game.determinize
        if self.hints.perfect_information:
            world = determinize(view, rng)

            def same_world(_view: Mapping[str, Any], _rng: random.Random) -> State[Any]:
                return world.clone()

            determinize = same_world

        done = 0
        if self.seconds is None:
            assert self.iterations is not None
            for _ in range(self.iterations):
                self._iterate(determinize(view, rng), root, root_seat, rounds, rng)
            done = self.iterations
        else:
            deadline = self.clock() + self.seconds
            limit = self.iterations
            while limit is None or done < limit:
                self._iterate(determinize(view, rng), root, root_seat, rounds, rng)
                done += 1
                if self.clock() >= deadline:
                    break
        self.last_iterations = done
        self.last_root = root
        best, best_visits = legal[0], -1
        for action in legal:  # most visited; ties go to the first legal action
            child = root.children.get(self._key(root_seat, root_seat, action))
            if child is not None and child.visits > best_visits:
                best, best_visits = action, child.visits
        return best

    def _kernel(self, seen: Any) -> Any:
        """The table's kernel (engine/kernel.py), or None: no numba, NEKOBAKO_PURE, or none for the game."""
        from ..engine.kernel import kernel_for

        # the view's options were checked when its game began: a research game's may be research values
        return kernel_for(self.game.name, seen.players, self.game.options(seen.options, seen.players, research=True))

    def _choose_compiled(
        self, kernel: Any, view: Mapping[str, Any], seen: Any, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        """The same search with the iterations in compiled code (ismcts_kernel): worlds from the
        game's compiled `determinize` where it has one, else packed from `Game.determinize`."""
        import numpy as np

        from ..engine.kernel_rng import new_rng
        from . import ismcts_kernel as ik

        me = seen.me
        keymap = self._keymaps.get((kernel, me))
        if keymap is None:
            keymap = self._keymaps[(kernel, me)] = ik.key_map(self.game, kernel, me)
        generator = new_rng(rng.getrandbits(64))
        spec = np.zeros(0, dtype=np.int64)
        worlds: Any = None
        if self.hints.perfect_information:
            worlds = kernel.pack(self.game.determinize(view, rng))[None, :]
        elif kernel.determinize is not None:
            template, spec = kernel.sampler(view)
            worlds = template[None, :]
        tree = ik.Tree(1 + (self.iterations if self.seconds is None and self.iterations else 1 << 14) + ik.MAX_DEPTH)
        hints = self.hints
        fixed = (
            len(seen.round_scores),
            self.horizon == "round",
            self.exploration,
            -1.0 if hints.lower_is_better else 1.0,
            float(hints.scale),
            self.max_rollout,
            generator,
            ik.GAMES[kernel.game_name],
        )

        def run(count: int) -> int:
            nonlocal tree
            batch = worlds
            if batch is None:  # one packed world of `Game.determinize` per iteration
                batch = np.stack([kernel.pack(self.game.determinize(view, rng)) for _ in range(count)])
            t = tree
            done: int = ik.search(
                t.visits, t.reward, t.avail, t.parent, t.key, t.child, t.used, count, batch[0], spec, batch, keymap, me,
                *fixed,
            )  # fmt: skip
            if done < count:
                tree = tree.grown()
            return done

        total = 0
        if self.seconds is None:
            assert self.iterations is not None
            while total < self.iterations:
                total += run(self.iterations - total)
        else:
            start = self.clock()
            deadline = start + self.seconds
            limit = self.iterations
            chunk = 16
            while limit is None or total < limit:
                total += run(chunk if limit is None else min(chunk, limit - total))
                now = self.clock()
                if now >= deadline:
                    break
                rate = total / max(now - start, 1e-9)  # chunks of ~10 ms, fewer near the deadline
                chunk = max(1, min(round(rate * min(0.01, deadline - now)), 1 << 16))
        self.last_iterations = total
        self.last_root = None
        self.last_tree = tree
        return ik.most_visited(tree, keymap, kernel, me, legal)

    def _key(self, actor: int, viewer: int, action: Action) -> Any:
        """The action's text as `viewer` reads it (cached: actions are immutable values)."""
        return self._keys_of(actor, viewer).get(action) or self._new_key(actor, viewer, action)

    def _keys_of(self, actor: int, viewer: int) -> dict[Action, Any]:
        table = self._keys.get((actor, viewer))
        if table is None or len(table) > 50_000:
            table = self._keys[(actor, viewer)] = {}
        return table

    def _new_key(self, actor: int, viewer: int, action: Action) -> Any:
        key = self._keys_of(actor, viewer)[action] = self.game.redact(actor, action, viewer)
        return key

    def _iterate(self, state: State, root: Node, me: int, rounds: int, rng: random.Random) -> None:
        node = root
        path: list[tuple[Node, int]] = []
        c = self.exploration
        log, sqrt = math.log, math.sqrt
        keys_of = self._keys_of
        new_key = self._new_key
        # Selection and expansion: stay in the tree until one new node is added.
        while True:
            to_move = state.to_move
            if not to_move:
                break
            seat = to_move[0]
            if seat == CHANCE:
                outcomes = state.chance_outcomes()
                if outcomes is None:  # a deal: too many outcomes to key, leave the tree here
                    break
                action = _sample(outcomes, rng)
                state.apply(CHANCE, action)
                key = keys_of(CHANCE, me).get(action) or new_key(CHANCE, me, action)
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = Node()
                node = child
                continue
            if me in to_move:
                seat = me  # simultaneous decisions: the searching seat decides first
            legal = state.legal_actions(seat)
            children = node.children
            table = keys_of(seat, me)
            get = table.get
            keys = [get(a) or new_key(seat, me, a) for a in legal]
            distinct = dict.fromkeys(keys)  # in legal order: set order varies between processes
            fresh = [k for k in distinct if k not in children]
            if fresh:
                key = fresh[int(rng.random() * len(fresh))]
                children[key] = Node()
                for k in distinct:
                    ch = children.get(k)
                    if ch is not None:
                        ch.avail += 1
            else:
                best_score = -1.0
                key = None
                for k in distinct:
                    ch = children[k]
                    ch.avail += 1
                    visits = ch.visits
                    score = ch.reward / visits + c * sqrt(log(ch.avail) / visits)
                    if score > best_score:
                        best_score, key = score, k
            child = children[key]
            if len(distinct) == len(keys):
                action = legal[keys.index(key)]
            else:  # several hidden actions read the same to us: pick one of them at random
                group = [a for a, k in zip(legal, keys, strict=True) if k == key]
                action = group[int(rng.random() * len(group))]
            open_from = state.settled()
            hidden = open_from < len(state.history) or key != str(action)
            state.apply(seat, action)
            path.append((child, seat))
            node = child
            if fresh:
                break
            if hidden:
                node = _revealed(state, node, open_from, me)
        values = self._rollout(state, rounds, self.horizon == "round", rng)
        for child, seat in path:
            child.visits += 1
            child.reward += values[seat]

    def _rollout(self, state: State, rounds: int, stop_at_round: bool, rng: random.Random) -> list[float]:
        """Random play to the horizon; values per seat in [0, 1]."""
        # hot loop; seats come from `to_move`, so the seat check of `apply` is skipped
        apply, legal_actions, draw = state._apply, state.legal_actions, rng.random
        for _ in range(self.max_rollout):
            to_move = state.to_move
            if not to_move:
                break
            seat = to_move[0]
            if seat == CHANCE:
                if stop_at_round and len(state.round_scores()) > rounds:
                    break
                apply(CHANCE, state.sample_chance(rng))
            else:
                legal = legal_actions(seat)
                apply(seat, legal[int(draw() * len(legal))])
        if state.is_over():
            return state.returns()
        return _margin_values(state.scores(), self.hints)


def _revealed(state: State, node: Node, start: int, me: int) -> Node:
    """The node below `node` for what the step just made revealed to `me`: entries from `start`
    that read more now than `Game.redact` showed (Catopomp's spare faces once the spare phase
    closes), as `me`'s view reads them. Worlds that disagree on them are then different
    information sets from here on, as they are to the seat; with nothing revealed, `node`."""
    settled = state.settled()
    if settled <= start:
        return node
    history, redact = state.history, state.game.redact
    texts = state.history_texts(me, start)[: settled - start]
    shown = tuple(
        (history[i][0], text) for i, text in enumerate(texts, start) if text != redact(history[i][0], history[i][1], me)
    )
    if not shown:
        return node
    below = node.children.get(shown)
    if below is None:
        below = node.children[shown] = Node()
    return below


def _compiled_search(game: str) -> bool:
    """Does the compiled search (ismcts_kernel.GAMES) know this game's kernel?"""
    from . import ismcts_kernel

    return game in ismcts_kernel.GAMES


def _flag(value: Any) -> bool:
    """A yes/no parameter, as a bool or as command-line text (true/false, yes/no, 1/0)."""
    if isinstance(value, bool):
        return value
    return {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}[str(value).strip().lower()]


def _sample(outcomes: Sequence[tuple[Action, float]], rng: random.Random) -> Action:
    """One outcome by its probability (one rng draw, no allocation)."""
    x = rng.random()
    for action, p in outcomes:
        x -= p
        if x < 0:
            return action
    return outcomes[-1][0]


def _margin_values(scores: Sequence[float], hints: SearchHints) -> list[float]:
    """Each seat's margin over the best other seat, squashed into [0, 1] (0.5 = level)."""
    sign = -1.0 if hints.lower_is_better else 1.0
    values = []
    for seat, mine in enumerate(scores):
        best_other = max((sign * s for i, s in enumerate(scores) if i != seat), default=0.0)
        values.append(0.5 + 0.5 * math.tanh((sign * mine - best_other) / hints.scale))
    return values
