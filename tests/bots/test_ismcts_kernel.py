"""The compiled ISMCTS (bots/ismcts_kernel.py): a legal choice, the same choice and tree from the
same view and rng, a sound tree (every iteration backs up through one root child; availability ≥
visits), worlds of the compiled `determinize` that agree with the view, and the pure search where
the kernels are off (`NEKOBAKO_PURE=1`), with the results of `kernel=false`.

The no-peek test (test_no_peeking.py) runs the compiled search too: `ismcts` is compiled by default
for Cat in the Box."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest

from nekobako.bots import make_bot
from nekobako.bots.ismcts import ISMCTSBot
from nekobako.engine import InvalidOptions
from nekobako.engine.kernel import pure_reason

if (_reason := pure_reason()) is not None:
    pytest.skip(f"the kernels are off: {_reason}", allow_module_level=True)

from nekobako.bots import ismcts_kernel
from nekobako.engine.kernel import kernel_for
from nekobako.engine.kernel_rng import new_rng
from nekobako.games.catbox import GAME
from nekobako.games.catbox.determinize import determinizer
from nekobako.games.catbox.kernel import determinize


def decision(players: int, rng: random.Random, position):
    """A Cat in the Box position with a real choice (two legal actions or more)."""
    while True:
        state, seat = position("catbox", players, rng)
        legal = state.legal_actions(seat)
        if len(legal) >= 2:
            return state, seat, legal


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_legal_choice_from_the_compiled_search(players: int, position) -> None:
    rng = random.Random(f"legal{players}")
    bot = make_bot("ismcts", game="catbox", iterations=200)
    for trial in range(6):
        state, seat, legal = decision(players, rng, position)
        action = bot.choose(state.view(seat), legal, random.Random(trial))
        assert action in legal
        assert bot.last_tree is not None and bot.last_iterations == 200  # the compiled path ran


def test_same_view_and_rng_give_the_same_choice_and_tree(position) -> None:
    rng = random.Random("same")
    for trial in range(4):
        state, seat, legal = decision(4, rng, position)
        view = state.view(seat)
        runs = []
        for _ in range(2):
            bot = ISMCTSBot("catbox", iterations=300)
            action = bot.choose(view, legal, random.Random(trial))
            kernel = kernel_for("catbox", 4, state.options)
            keymap = ismcts_kernel.key_map(GAME, kernel, seat)
            runs.append((str(action), dict(ismcts_kernel.root_visits(bot.last_tree, keymap, kernel, seat))))
        assert runs[0] == runs[1]


@pytest.mark.parametrize("players", [2, 4])
def test_every_iteration_passes_one_root_child(players: int, position) -> None:
    """Each iteration starts at a decision of the searching seat, so it backs up through exactly one
    child of the root; and a node was available at least as often as it was chosen."""
    rng = random.Random(f"tree{players}")
    for trial in range(4):
        state, seat, legal = decision(players, rng, position)
        bot = ISMCTSBot("catbox", iterations=500)
        bot.choose(state.view(seat), legal, random.Random(trial))
        tree = bot.last_tree
        kernel = kernel_for("catbox", players, state.options)
        visits = ismcts_kernel.root_visits(tree, ismcts_kernel.key_map(GAME, kernel, seat), kernel, seat)
        assert sum(visits.values()) == 500
        assert set(visits) <= set(kernel.encoding.legal_ids(state, seat))
        used = int(tree.used[0])
        assert (tree.avail[1:used] >= tree.visits[1:used]).all()


def test_a_tree_that_outgrows_its_arrays_gives_the_same_search(position) -> None:
    """Growing the tree (a seconds budget starts small) keeps every node: the same iterations give
    the same choice and root statistics from a tree grown several times."""
    state, seat, legal = decision(4, random.Random("grow"), position)
    view = state.view(seat)
    kernel = kernel_for("catbox", 4, state.options)
    keymap = ismcts_kernel.key_map(GAME, kernel, seat)
    small = ismcts_kernel.Tree(ismcts_kernel.MAX_DEPTH + 8)
    while small.capacity < 3000:
        small = small.grown()
    assert small.find(0, 0) == ismcts_kernel.EMPTY
    bot = ISMCTSBot("catbox", iterations=4000)
    bot.choose(view, legal, random.Random(1))
    grown = bot.last_tree.grown().grown()
    before = ismcts_kernel.root_visits(bot.last_tree, keymap, kernel, seat)
    assert ismcts_kernel.root_visits(grown, keymap, kernel, seat) == before
    assert int(grown.used[0]) == int(bot.last_tree.used[0])


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_compiled_worlds_agree_with_the_view(players: int, position) -> None:
    """A world of the compiled `determinize` is the view's template with the unknown cards placed:
    the same position where the seat sees, the others' hands of the sizes the view shows, every
    unknown card placed once, and the seat to play able to play."""
    rng = random.Random(f"worlds{players}")
    kernel = kernel_for("catbox", players, GAME.options(None, players))
    for trial in range(15):
        state, seat, _ = decision(players, rng, position)
        view = state.view(seat)
        template, spec = kernel.sampler(view)
        d = determinizer(GAME, view)
        generator = new_rng(trial)
        out = np.empty_like(template)
        for _ in range(5):
            determinize(template, spec, generator, out)
            world = kernel.unpack(out)
            for s, cards, discarded in d.slots:
                assert sum(world.hands[s] >> (4 * n) & 15 for n in range(10)) == cards
                assert bool(world.discards[s]) == bool(discarded)
            placed: Counter[int] = Counter()
            for s, _, _ in d.slots:
                placed.update({n: world.hands[s] >> (4 * n) & 15 for n in range(10)})
                placed[world.discards[s]] += 1
            placed.update(world.hidden)
            del placed[0]
            assert +placed == Counter(d.pool)
            assert world.hands[seat] == state.hands[seat] and world.discards[seat] == state.discards[seat]
            assert world.taken == state.taken and world.owned == state.owned and world.phase == state.phase
            assert world.legal_actions(seat) == state.legal_actions(seat)
            if d.check >= 0:
                assert world._can_play(d.check)
            assert not out[-45:].any()  # the scratch is left 0


def test_seconds_budget_reads_the_injected_clock_between_chunks(position) -> None:
    """The compiled search runs in chunks of ~10 ms by the measured rate and reads the clock after
    each: with a clock that ticks 10 ms a read, 50 chunks of the first chunk's 16 iterations."""
    ticks = iter(range(1_000_000))
    bot = ISMCTSBot("catbox", seconds=0.5, clock=lambda: next(ticks) * 0.01)
    state, seat, legal = decision(4, random.Random(3), position)
    bot.choose(state.view(seat), legal, random.Random(0))
    assert bot.last_iterations == 50 * 16


def test_kernel_parameter_from_the_command_line() -> None:
    assert make_bot("ismcts", game="catbox", kernel="false").kernel is False  # type: ignore[attr-defined]
    assert make_bot("ismcts", game="catbox", kernel="yes").kernel is True  # type: ignore[attr-defined]
    with pytest.raises(InvalidOptions):
        make_bot("ismcts", game="catbox", kernel="maybe")


def test_no_kernels_runs_the_pure_search_with_its_results(position, monkeypatch) -> None:
    """With the kernels off, `ismcts` is the pure search: the same actions as `kernel=false`."""
    rng = random.Random("pure")
    cases = [decision(players, rng, position) for players in (3, 4)]
    monkeypatch.setenv("NEKOBAKO_PURE", "1")
    pure_reason.cache_clear()
    kernel_for.cache_clear()
    try:
        assert kernel_for("catbox", 4, GAME.options(None, 4)) is None
        for trial, (state, seat, legal) in enumerate(cases):
            default = ISMCTSBot("catbox", iterations=120)
            old = ISMCTSBot("catbox", iterations=120, kernel=False)
            view = state.view(seat)
            assert default.choose(view, legal, random.Random(trial)) == old.choose(view, legal, random.Random(trial))
            assert default.last_tree is None and default.last_root is not None
    finally:
        monkeypatch.delenv("NEKOBAKO_PURE")
        pure_reason.cache_clear()
        kernel_for.cache_clear()


SCRIPT = """
import random, sys
sys.path.insert(0, {tests!r})
from conftest import random_position
from nekobako.bots import make_bot
rng = random.Random("pure-process")
out = []
for trial in range(3):
    state, seat = random_position("catbox", 4, rng)
    for kernel in (True, False):
        bot = make_bot("ismcts", game="catbox", iterations=100, kernel=kernel)
        out.append(str(bot.choose(state.view(seat), state.legal_actions(seat), random.Random(trial))))
print("|".join(out))
"""


def test_nekobako_pure_in_a_process_gives_the_pure_results() -> None:
    """`NEKOBAKO_PURE=1` in a fresh process: `ismcts` decides as `kernel=false` does."""
    env = dict(os.environ, NEKOBAKO_PURE="1", PYTHONHASHSEED="0")
    code = SCRIPT.format(tests=os.path.dirname(__file__))
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    out = done.stdout.strip().split("|")
    assert len(out) == 6 and out[0::2] == out[1::2]
