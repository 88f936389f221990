"""Every play any Catopomp table can offer, as flat arrays for the compiled kernel (kernel.py).

The *universal catalog* is what `encoding.all_plays` yields for the richest table the options allow
(numbers 1–20 eight times, four Mdm Mitches, four Cat-letons, four-card plays): every table's plays
are a subset of it, in the same order (`hell`, `strength`, `text`), so a table's action id of a play
is the table's first play id plus how many of the table's plays come before it in the catalog.

Each play also gets its *rank*: where `combos.generate` emits it. The generator walks fixed loops
(size, kind, number, dice, swap, …) and a position only removes plays from the walk, so ranks from
the universal walks (one per own spare face, hand and hell apart, merged in one order) sort the
legal list of every position the way the engine does; the kernel's differential tests check it.

Plain Python and numpy: built once per process (a fraction of a second). The kernel compiles these
arrays in as constants; numba's cache notices a change to this file or `combos.py` through
`engine/kernel_cache.py`, which stamps a game's compiled code with all of the game's sources.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass
from functools import cache, cached_property
from heapq import heappop, heappush
from itertools import pairwise

import numpy as np

from . import actions as A
from .cards import CATLETON, MAX_NUMBER, MITCH, SLOTS
from .encoding import all_plays, play_walks
from .options import Rules

MAX_CARDS = 4
"""Cards a play takes at most (the dice card is not a card)."""


def _universal_rules() -> Rules:
    deck = [0] + [8] * MAX_NUMBER + [4, 4]
    return Rules(
        players=4,
        max_size=4,
        hand_size=5,
        deck=tuple(deck),
        pool=(),
        dice=8,
        gems=1,
        casual=False,
        max_value=MAX_NUMBER,
        has_mitch=True,
        has_catleton=True,
    )


def spec_table() -> list[tuple[int, int, int]]:
    """Dice cards as (first central face, second central face, own spare face), 0 for none;
    index 0 is no dice card."""
    specs = [(0, 0, 0)]
    for f in range(1, 7):
        for g in range(f, 7):
            specs.append((f, g, 0))
        specs.append((f, 0, 0))
    for s in range(1, 7):
        specs.append((0, 0, s))
        for f in range(1, 7):
            specs.append((f, 0, s))
    return specs


SPECS = spec_table()
SPEC_INDEX = {spec: i for i, spec in enumerate(SPECS)}


def _spec_of(play: A.Play) -> int:
    dice = play.dice
    first = dice[0] if dice else 0
    second = dice[1] if len(dice) > 1 else 0
    return SPEC_INDEX[(first, second, play.spare)]


def _ranks(walks: list[tuple[bool, list[A.Play]]], plays: list[A.Play]) -> dict[str, int]:
    """Engine order of every play: the generator's walks on the universal deck, merged."""
    order: dict[str, int] = {}
    for hell in (False, True):
        texts = [[p.text for p in walk] for source, walk in walks if source == hell]
        # Kahn's algorithm over "comes right after" in some walk; ties by first appearance
        first: dict[str, tuple[int, int]] = {}
        after: dict[str, set[str]] = {}
        before: dict[str, int] = {}
        for w, walk in enumerate(texts):
            for i, text in enumerate(walk):
                first.setdefault(text, (i, w))
                after.setdefault(text, set())
                before.setdefault(text, 0)
            for x, y in pairwise(walk):
                if y not in after[x]:
                    after[x].add(y)
                    before[y] += 1
        heap = [(first[t], t) for t, n in before.items() if n == 0]
        heap.sort()
        placed = 0
        while heap:
            _, text = heappop(heap)
            order[text] = len(order)
            placed += 1
            for y in after[text]:
                before[y] -= 1
                if before[y] == 0:
                    heappush(heap, (first[y], y))
        if placed != len(before):  # the walks disagree: no order fits every position
            raise RuntimeError("catopomp catalog: the generator's walks have no common order")
    missing = [p.text for p in plays if p.text not in order]
    if missing:
        raise RuntimeError(f"catopomp catalog: plays without a rank: {missing[:3]}")
    return order


ARRAYS = (
    "hell",
    "size",
    "strength",
    "ncards",
    "card",
    "count",
    "swap",
    "spec",
    "ntable",
    "table",
    "rank_to_play",
    "need",
    "bucket_start",
    "bucket_items",
    "spec_f1",
    "spec_f2",
    "spec_s",
)
"""The catalog's arrays (the kernel's constants), as kept on disk."""


@dataclass(frozen=True)
class Catalog:
    texts: tuple[str, ...]  # universal index → the play's text (its identity: `all_plays` keys by it)
    hell: np.ndarray
    size: np.ndarray  # values in the combination (the dice card included)
    strength: np.ndarray
    ncards: np.ndarray  # distinct cards leaving the source
    card: np.ndarray  # [u, MAX_CARDS] those cards
    count: np.ndarray  # [u, MAX_CARDS] how many of each
    swap: np.ndarray
    spec: np.ndarray  # SPECS index
    ntable: np.ndarray  # cards left on the table
    table: np.ndarray  # [u, MAX_CARDS] the table's cards (with repeats)
    rank_to_play: np.ndarray  # engine order → universal index
    need: np.ndarray  # bit c set: the play takes card c from its source
    bucket_start: np.ndarray  # [4 * len(SPECS) + 1] CSR over (swap?, hell, spec), strongest first
    bucket_items: np.ndarray
    spec_f1: np.ndarray
    spec_f2: np.ndarray
    spec_s: np.ndarray

    @cached_property
    def index(self) -> dict[str, int]:
        """Play text → universal index."""
        return {text: u for u, text in enumerate(self.texts)}

    @cached_property
    def plays(self) -> tuple[A.Play, ...]:
        """Universal index → play (built by the generator on first use: the kernel's rules need
        only the arrays, and a table's plays are its encoding's)."""
        plays = tuple(all_plays(_universal_rules()))
        assert tuple(p.text for p in plays) == self.texts, "catopomp catalog: the cached copy is stale"
        return plays


@cache
def catalog() -> Catalog:
    """The universal catalog: from this game's cache file when its sources have not changed since
    it was written (`_cached`), else built (about 0.3 s) and written there."""
    path = _cache_path()
    if path is not None:
        try:
            with np.load(path, allow_pickle=False) as data:
                return Catalog(texts=tuple(str(t) for t in data["texts"]), **{k: data[k] for k in ARRAYS})
        except (OSError, KeyError, ValueError):
            pass
    built = _build()
    if path is not None:
        _write(path, built)
    return built


CACHE_PREFIX = "catopomp-catalog-"


def _cache_path() -> str | None:
    """Where the catalog built from the current sources is kept: `__pycache__` beside this file,
    named by a digest of this game's Python files (a change to any of them names a new file)."""
    folder = os.path.dirname(os.path.abspath(__file__))
    digest = hashlib.sha256()
    try:
        for name in sorted(os.listdir(folder)):
            if name.endswith(".py"):
                with open(os.path.join(folder, name), "rb") as f:
                    digest.update(name.encode() + b"\0" + f.read())
    except OSError:
        return None
    return os.path.join(folder, "__pycache__", f"{CACHE_PREFIX}{digest.hexdigest()[:16]}.npz")


def _write(path: str, built: Catalog) -> None:
    """Keep `built` at `path` (atomically; older copies removed); a read-only install keeps none."""
    folder = os.path.dirname(path)
    try:
        os.makedirs(folder, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, suffix=".npz", delete=False) as f:
            np.savez(f, texts=np.array(built.texts), **{k: getattr(built, k) for k in ARRAYS})
        os.replace(f.name, path)
        for name in os.listdir(folder):
            if name.startswith(CACHE_PREFIX) and os.path.join(folder, name) != path:
                os.remove(os.path.join(folder, name))
    except OSError:
        pass


def _build() -> Catalog:
    walks = play_walks(_universal_rules())
    plays = all_plays(_universal_rules(), walks)
    ranks = _ranks(walks, plays)
    n = len(plays)
    hell = np.zeros(n, np.int64)
    size = np.zeros(n, np.int64)
    strength = np.zeros(n, np.int64)
    ncards = np.zeros(n, np.int64)
    card = np.zeros((n, MAX_CARDS), np.int64)
    count = np.zeros((n, MAX_CARDS), np.int64)
    swap = np.zeros(n, np.int64)
    spec = np.zeros(n, np.int64)
    ntable = np.zeros(n, np.int64)
    table = np.zeros((n, MAX_CARDS), np.int64)
    rank_to_play = np.zeros(n, np.int64)
    for u, p in enumerate(plays):
        hell[u] = p.hell
        size[u] = p.size
        strength[u] = p.strength
        distinct = sorted(set(p.cards))
        ncards[u] = len(distinct)
        for i, c in enumerate(distinct):
            card[u, i] = c
            count[u, i] = p.cards.count(c)
        swap[u] = p.swap
        spec[u] = _spec_of(p)
        ntable[u] = len(p.table_cards)
        for i, c in enumerate(p.table_cards):
            table[u, i] = c
        rank = ranks[p.text] + (0 if not p.hell else n)  # every hand play before every hell play
        rank_to_play[u] = rank
    order = np.argsort(rank_to_play, kind="stable")
    rank_to_play = order.astype(np.int64)
    need = np.zeros(n, np.int64)
    for u in range(n):
        for i in range(ncards[u]):
            need[u] |= 1 << int(card[u, i])
    buckets: list[list[int]] = [[] for _ in range(4 * len(SPECS))]
    for u in range(n):
        buckets[(2 * (swap[u] > 0) + hell[u]) * len(SPECS) + spec[u]].append(u)
    bucket_start = np.zeros(len(buckets) + 1, np.int64)
    items: list[int] = []
    for b, members in enumerate(buckets):
        members.sort(key=lambda u: -strength[u])
        items.extend(members)
        bucket_start[b + 1] = len(items)
    bucket_items = np.array(items, np.int64)
    spec_f1 = np.array([s[0] for s in SPECS], np.int64)
    spec_f2 = np.array([s[1] for s in SPECS], np.int64)
    spec_s = np.array([s[2] for s in SPECS], np.int64)
    assert MITCH < CATLETON < SLOTS
    return Catalog(
        texts=tuple(p.text for p in plays),
        hell=hell,
        size=size,
        strength=strength,
        ncards=ncards,
        card=card,
        count=count,
        swap=swap,
        spec=spec,
        ntable=ntable,
        table=table,
        rank_to_play=rank_to_play,
        need=need,
        bucket_start=bucket_start,
        bucket_items=bucket_items,
        spec_f1=spec_f1,
        spec_f2=spec_f2,
        spec_s=spec_s,
    )
