"""The compiled SO-ISMCTS loop of the `ismcts` bot (bots/ismcts.py; docs/bots.md, *ISMCTS*):
selection, expansion, rollout to the horizon and backup of many iterations in one `@njit` call
over a game's kernel (engine/kernel.py), generic over the contract: it calls only the contract's
functions, through one small branch per game (`GAMES`), so it is compiled once and cached.

The tree is flat arrays: per node `visits`, `reward` (summed for the seat that acted into it) and
`avail` (availability count); children are found through an open-addressing hash table on
(parent, key). A decision's key is the action id as the searching seat reads it: `keymap[actor,
id]`, numbered from the distinct `Game.redact` texts in Python (`key_map`), so an opponent's hidden
discards share one key, as the pure search's text keys do. A small chance outcome (dice: at most
`MAX_CHANCE_CODES` codes) is keyed by its codes (a negative key); a larger one (a deal) ends the
tree, as in the pure search.

Worlds come from the game's compiled `determinize` (template and spec built from the view in
Python once per decision), or else from `worlds`: arrays of `Game.determinize` packed in Python,
one per iteration (one for perfect information, reused). Nothing else of the game is read.

Imported only where numba is (`engine.kernel.pure_reason`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..engine import CHANCE, Action, Game
from ..engine.kernel import OVER, Kernel
from ..engine.kernel_cache import njit
from ..engine.kernel_rng import below
from ..games.catbox import kernel as catbox
from ..games.catopomp import kernel as catopomp
from ..games.shutbox import kernel as shutbox

MAX_CHANCE_CODES = 8
"""A chance outcome of more codes than this (a deal) ends the tree walk; fewer are tree nodes."""
MAX_DEPTH = 1024
"""Nodes of one walk (the tree's depth bound; a walk this deep goes on as a rollout)."""
EMPTY = -1


class Tree:
    """The search tree's arrays (node 0 is the root) and its hash table of children."""

    def __init__(self, capacity: int):
        self.visits = np.zeros(capacity, dtype=np.int64)
        self.reward = np.zeros(capacity, dtype=np.float64)
        self.avail = np.zeros(capacity, dtype=np.int64)
        size = 1 << (2 * capacity - 1).bit_length()  # at most half full
        self.parent = np.zeros(size, dtype=np.int64)
        self.key = np.zeros(size, dtype=np.int64)
        self.child = np.full(size, EMPTY, dtype=np.int64)
        self.used = np.ones(1, dtype=np.int64)  # nodes in use (the root)

    @property
    def capacity(self) -> int:
        return len(self.visits)

    def grown(self) -> Tree:
        """A tree of twice the capacity holding the same nodes."""
        bigger = Tree(2 * self.capacity)
        n = int(self.used[0])
        bigger.visits[:n] = self.visits[:n]
        bigger.reward[:n] = self.reward[:n]
        bigger.avail[:n] = self.avail[:n]
        bigger.used[0] = n
        _rehash(self.parent, self.key, self.child, bigger.parent, bigger.key, bigger.child)
        return bigger

    def find(self, parent: int, key: int) -> int:
        """The child of `parent` under `key`, or EMPTY."""
        return int(self.child[_slot(self.parent, self.key, self.child, parent, key)])


def key_map(game: Game[Any, Any], kernel: Kernel, me: int) -> np.ndarray:
    """`keymap[actor, id]`: the key of action `id` by `actor` as seat `me` reads it (equal keys for
    equal `Game.redact` texts)."""
    actions = kernel.encoding.actions
    texts: dict[str, int] = {}
    out = np.zeros((kernel.players, len(actions)), dtype=np.int64)
    for actor in range(kernel.players):
        for i, action in enumerate(actions):
            out[actor, i] = texts.setdefault(game.redact(actor, action, me), len(texts))
    return out


def most_visited(tree: Tree, keymap: np.ndarray, kernel: Kernel, me: int, legal: Sequence[Action]) -> Action:
    """The root's most visited legal action; ties go to the first legal action."""
    best, best_visits = legal[0], -1
    for action in legal:
        child = tree.find(0, int(keymap[me, kernel.encoding.action_id(action)]))
        if child != EMPTY and tree.visits[child] > best_visits:
            best, best_visits = action, int(tree.visits[child])
    return best


def root_visits(tree: Tree, keymap: np.ndarray, kernel: Kernel, me: int) -> Mapping[int, int]:
    """Visits of the root's children by action id of `me` (for tests and analysis)."""
    out = {}
    for i in range(kernel.num_actions):
        child = tree.find(0, int(keymap[me, i]))
        if child != EMPTY:
            out[i] = int(tree.visits[child])
    return out


@njit(cache=True, inline="always")
def _hash(parent: int, key: int, mask: int) -> int:
    x = np.uint64(parent) * np.uint64(0x9E3779B97F4A7C15) ^ np.uint64(key) * np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(31)
    return np.int64(x & np.uint64(mask))  # type: ignore[return-value]


@njit(cache=True)
def _slot(tparent: np.ndarray, tkey: np.ndarray, tchild: np.ndarray, parent: int, key: int) -> int:
    """The table slot of (parent, key): where it is, or the empty slot where it would go."""
    mask = len(tchild) - 1
    i = _hash(parent, key, mask)
    while tchild[i] != EMPTY and (tparent[i] != parent or tkey[i] != key):
        i = (i + 1) & mask
    return i


@njit(cache=True)
def _rehash(op: np.ndarray, ok: np.ndarray, oc: np.ndarray, np_: np.ndarray, nk: np.ndarray, nc: np.ndarray) -> None:
    for i in range(len(oc)):
        if oc[i] != EMPTY:
            j = _slot(np_, nk, nc, op[i], ok[i])
            np_[j] = op[i]
            nk[j] = ok[i]
            nc[j] = oc[i]


@njit(cache=True, inline="always")
def _child(
    tparent: np.ndarray,
    tkey: np.ndarray,
    tchild: np.ndarray,
    visits: np.ndarray,
    reward: np.ndarray,
    avail: np.ndarray,
    parent: int,
    key: int,
    n: int,
) -> tuple[int, int]:
    """The child of `parent` under `key` (a chance outcome or a reveal), added as node `n` if new;
    and the nodes in use after."""
    j = _slot(tparent, tkey, tchild, parent, key)
    if tchild[j] == EMPTY:
        tparent[j] = parent
        tkey[j] = key
        tchild[j] = n
        visits[n] = 0
        reward[n] = 0.0
        avail[n] = 0
        n += 1
    return tchild[j], n


# -- the games' compiled functions, by game number ----------------------------------------------
# Each game with a kernel has a number in `GAMES` and one branch in each function below: numba
# caches a function that calls other compiled functions by name, not one given them as arguments
# (a dispatcher argument recompiles `search` in every process). Adding a game's kernel (Catopomp,
# Shut the Box) is its import, its number and one branch per function.
GAMES: dict[str, int] = {"catbox": 0, "catopomp": 1, "shutbox": 2}
REVEALED = -(1 << 61)
"""Keys of reveal nodes are below this (chance keys are above it, decisions' keys are ≥ 0)."""


@njit(cache=True, inline="always")
def _first_to_move(game: int, a: np.ndarray) -> int:
    if game == 0:
        return catbox.first_to_move(a)
    if game == 1:
        return catopomp.first_to_move(a)
    return shutbox.first_to_move(a)


@njit(cache=True, inline="always")
def _to_move(game: int, a: np.ndarray, out: np.ndarray) -> int:
    if game == 0:
        return catbox.to_move(a, out)
    if game == 1:
        return catopomp.to_move(a, out)
    return shutbox.to_move(a, out)


@njit(cache=True, inline="always")
def _legal(game: int, a: np.ndarray, seat: int, out: np.ndarray) -> int:
    if game == 0:
        return catbox.legal(a, seat, out)
    if game == 1:
        return catopomp.legal(a, seat, out)
    return shutbox.legal(a, seat, out)


@njit(cache=True, inline="always")
def _apply(game: int, a: np.ndarray, seat: int, action: int) -> None:
    if game == 0:
        catbox.apply(a, seat, action)
    elif game == 1:
        catopomp.apply(a, seat, action)
    else:
        shutbox.apply(a, seat, action)


@njit(cache=True, inline="always")
def _draw_chance(game: int, a: np.ndarray, rng: np.ndarray, out: np.ndarray) -> int:
    if game == 0:
        return catbox.draw_chance(a, rng, out)
    if game == 1:
        return catopomp.draw_chance(a, rng, out)
    return shutbox.draw_chance(a, rng, out)


@njit(cache=True, inline="always")
def _apply_chance(game: int, a: np.ndarray, codes: np.ndarray, n: int) -> None:
    if game == 0:
        catbox.apply_chance(a, codes, n)
    elif game == 1:
        catopomp.apply_chance(a, codes, n)
    else:
        shutbox.apply_chance(a, codes, n)


@njit(cache=True, inline="always")
def _chance(game: int, a: np.ndarray, rng: np.ndarray) -> None:
    if game == 0:
        catbox.chance(a, rng)
    elif game == 1:
        catopomp.chance(a, rng)
    else:
        shutbox.chance(a, rng)


@njit(cache=True, inline="always")
def _scores(game: int, a: np.ndarray, out: np.ndarray) -> None:
    if game == 0:
        catbox.scores(a, out)
    elif game == 1:
        catopomp.scores(a, out)
    else:
        shutbox.scores(a, out)


@njit(cache=True, inline="always")
def _rounds_done(game: int, a: np.ndarray) -> int:
    if game == 0:
        return catbox.rounds_done(a)
    if game == 1:
        return catopomp.rounds_done(a)
    return shutbox.rounds_done(a)


@njit(cache=True, inline="always")
def _playout(game: int, a: np.ndarray, rng: np.ndarray, max_actions: int) -> int:
    if game == 0:
        return catbox.playout(a, rng, max_actions)
    if game == 1:
        return catopomp.playout(a, rng, max_actions)
    return shutbox.playout(a, rng, max_actions)


@njit(cache=True, inline="always")
def _determinize(game: int, template: np.ndarray, spec: np.ndarray, rng: np.ndarray, out: np.ndarray) -> None:
    """A game's compiled `determinize` (only called for a game that has one: `spec` not empty)."""
    if game == 0:
        catbox.determinize(template, spec, rng, out)
    else:
        catopomp.determinize(template, spec, rng, out)


@njit(cache=True, inline="always")
def _tree_chance(game: int, a: np.ndarray, count: int) -> bool:
    """Is the chance outcome just drawn (`count` codes) a tree node? Small ones (dice) are; a deal
    is not (too many outcomes to key), however few its cards."""
    if count > MAX_CHANCE_CODES:
        return False
    return not (game == 1 and a[catopomp.PHASE] == catopomp.DEAL)


@njit(cache=True, inline="always")
def _hidden_open(game: int, a: np.ndarray) -> bool:
    """Are others' choices being made hidden from the searching seat (Catopomp's spare faces)?"""
    return game == 1 and catopomp.spare_open(a)


@njit(cache=True, inline="always")
def _revealed(game: int, a: np.ndarray, me: int) -> int:
    """What the step that closed a hidden phase showed `me`, as a code (1: nothing)."""
    return catopomp.revealed(a, me) if game == 1 else 1


@njit(cache=True)
def search(
    visits: np.ndarray,
    reward: np.ndarray,
    avail: np.ndarray,
    tparent: np.ndarray,
    tkey: np.ndarray,
    tchild: np.ndarray,
    used: np.ndarray,
    iterations: int,
    template: np.ndarray,
    spec: np.ndarray,
    worlds: np.ndarray,
    keymap: np.ndarray,
    me: int,
    rounds: int,
    stop_at_round: bool,
    exploration: float,
    sign: float,
    scale: float,
    max_rollout: int,
    rng: np.ndarray,
    game: int,
) -> int:
    """Up to `iterations` SO-ISMCTS iterations into the tree; how many ran (fewer when the tree's
    capacity is nearly used: grow it and call again). World `i` is the game's `determinize(template, spec)`
    where `spec` is not empty, else `worlds[i % len(worlds)]`."""
    players = keymap.shape[0]
    capacity = len(visits)
    a = np.empty(worlds.shape[1], dtype=np.int64)
    seats = np.empty(players + 1, dtype=np.int64)
    ids = np.empty(keymap.shape[1], dtype=np.int64)
    keys = np.empty(keymap.shape[1], dtype=np.int64)
    distinct = np.empty(keymap.shape[1], dtype=np.int64)
    children = np.empty(keymap.shape[1], dtype=np.int64)
    stamp = np.zeros(keymap.max() + 1, dtype=np.int64)
    codes = np.empty(max(256, 2 * len(a)), dtype=np.int64)
    path_node = np.empty(MAX_DEPTH, dtype=np.int64)
    path_seat = np.empty(MAX_DEPTH, dtype=np.int64)
    points = np.empty(players, dtype=np.float64)
    values = np.empty(players, dtype=np.float64)
    mark = 0
    n = used[0]
    done = 0
    sampled = len(spec) > 0
    while done < iterations and n + MAX_DEPTH < capacity:
        if sampled:
            _determinize(game, template, spec, rng, a)
        else:
            a[:] = worlds[done % len(worlds)]
        done += 1
        node = 0
        depth = 0
        # selection and expansion: stay in the tree until one new decision node is added
        while depth < MAX_DEPTH:
            first = _first_to_move(game, a)
            if first == OVER:
                break
            if first == CHANCE:
                if stop_at_round and _rounds_done(game, a) > rounds:
                    break
                count = _draw_chance(game, a, rng, codes)
                keyed = _tree_chance(game, a, count)
                _apply_chance(game, a, codes, count)
                if not keyed:
                    break
                for i in range(1, count):  # dice in any order are one outcome: key them sorted
                    x = codes[i]
                    j = i - 1
                    while j >= 0 and codes[j] > x:
                        codes[j + 1] = codes[j]
                        j -= 1
                    codes[j + 1] = x
                key = 1
                for i in range(count):
                    key = key * 64 + (codes[i] & 63) + 1
                key = key * 64 + count  # codes ≥ 63 may share a key: one node for both, still sound
                node, n = _child(tparent, tkey, tchild, visits, reward, avail, node, -key, n)
                continue
            seat = first
            k = _to_move(game, a, seats)
            for i in range(k):
                if seats[i] == me:
                    seat = me  # simultaneous decisions: the searching seat decides first
            count = _legal(game, a, seat, ids)
            mark += 1
            m = 0
            fresh = 0
            for i in range(count):
                key = keymap[seat, ids[i]]
                keys[i] = key
                if stamp[key] != mark:
                    stamp[key] = mark
                    distinct[m] = key
                    j = _slot(tparent, tkey, tchild, node, key)
                    children[m] = tchild[j]
                    if tchild[j] == EMPTY:
                        fresh += 1
                    m += 1
            if fresh:
                pick = below(rng, fresh)
                chosen = -1
                for i in range(m):
                    if children[i] == EMPTY:
                        if pick == 0:
                            chosen = i
                            j = _slot(tparent, tkey, tchild, node, distinct[i])
                            tparent[j] = node
                            tkey[j] = distinct[i]
                            tchild[j] = n
                            visits[n] = 0
                            reward[n] = 0.0
                            avail[n] = 0
                            children[i] = n
                            n += 1
                        pick -= 1
                for i in range(m):
                    if children[i] != EMPTY:
                        avail[children[i]] += 1
            else:
                best = -1.0
                chosen = 0
                for i in range(m):
                    c = children[i]
                    avail[c] += 1
                    score = reward[c] / visits[c] + exploration * np.sqrt(np.log(avail[c]) / visits[c])
                    if score > best:
                        best = score
                        chosen = i
            key = distinct[chosen]
            if m == count:
                action = ids[chosen]
            else:  # several hidden actions read the same to us: one of them at random
                group = 0
                for i in range(count):
                    if keys[i] == key:
                        group += 1
                pick = below(rng, group)
                action = -1
                for i in range(count):
                    if keys[i] == key:
                        if pick == 0:
                            action = ids[i]
                            break
                        pick -= 1
            hidden = _hidden_open(game, a)
            _apply(game, a, seat, action)
            node = children[chosen]
            path_node[depth] = node
            path_seat[depth] = seat
            depth += 1
            if fresh:
                break
            if hidden and not _hidden_open(game, a):  # what was hidden shows: worlds part here
                shown = _revealed(game, a, me)
                if shown != 1:
                    node, n = _child(tparent, tkey, tchild, visits, reward, avail, node, REVEALED - shown, n)
        # rollout to the horizon
        if stop_at_round:
            for _ in range(max_rollout):
                first = _first_to_move(game, a)
                if first == OVER:
                    break
                if first == CHANCE:
                    if _rounds_done(game, a) > rounds:
                        break
                    _chance(game, a, rng)
                else:
                    count = _legal(game, a, first, ids)
                    _apply(game, a, first, ids[below(rng, count)])
        else:
            _playout(game, a, rng, max_rollout)
        _scores(game, a, points)
        if _first_to_move(game, a) == OVER:  # 1 split among the best totals (State.returns)
            top = sign * points[0]
            for s in range(1, players):
                top = max(top, sign * points[s])
            tied = 0
            for s in range(players):
                if sign * points[s] == top:
                    tied += 1
            for s in range(players):
                values[s] = 1.0 / tied if sign * points[s] == top else 0.0
        else:  # the margin over the best other seat, squashed (ismcts._margin_values)
            for s in range(players):
                other = -np.inf
                for t in range(players):
                    if t != s:
                        other = max(other, sign * points[t])
                if players == 1:
                    other = 0.0
                values[s] = 0.5 + 0.5 * np.tanh((sign * points[s] - other) / scale)
        for i in range(depth):
            visits[path_node[i]] += 1
            reward[path_node[i]] += values[path_seat[i]]
    used[0] = n
    return done
