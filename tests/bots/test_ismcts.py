"""ISMCTS: finds a win that is there, honours its budgets, and decides the same in any process."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from nekobako.bots import make_bot
from nekobako.bots.ismcts import ISMCTSBot
from nekobako.engine import State, get_game, random_playout


def wins_after(state: State, seat: int, action, rng: random.Random, playouts: int = 0) -> bool:
    """Does `seat` win after `action`: at once (playouts=0), or in every one of `playouts` random
    continuations?"""
    after = state.clone()
    after.apply(seat, action)
    if not playouts:
        return after.is_over() and seat in after.winners() and len(after.winners()) < after.players
    for _ in range(playouts):
        world = after.clone()
        random_playout(world, rng)
        if seat not in world.winners() or len(world.winners()) == world.players:
            return False
    return True


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [("catbox", 3, None), ("catopomp", 2, {"gems": 1}), ("catopomp", 3, {"gems": 1})],
)
def test_finds_an_obvious_win(game: str, players: int, options, late) -> None:
    """Positions (near the end of random games) where one legal action wins the game at once in
    every world the seat's view allows, and another action can lose: ISMCTS, from the view only,
    must take a sure win."""
    rng = random.Random(f"win{game}{players}")
    model = get_game(game)
    bot = make_bot("ismcts", game=game, iterations=300)
    found = 0
    for _ in range(8000):
        state, seat = late(game, players, rng, options)
        legal = state.legal_actions(seat)
        view = state.view(seat)
        worlds = [state] + [model.determinize(view, rng) for _ in range(20)]
        wins = [a for a in legal if all(wins_after(w, seat, a, rng) for w in worlds)]
        if not wins:
            continue
        sure = [a for a in legal if a in wins or wins_after(state, seat, a, rng, playouts=30)]
        if len(sure) == len(legal):
            continue
        found += 1
        choice = bot.choose(view, legal, random.Random(found))
        assert choice in sure, (str(choice), [str(a) for a in wins], [str(a) for a in legal])
        if found >= 6:
            break
    assert found >= 3, f"only {found} positions with a decisive choice found"


def test_seconds_budget_reads_the_injected_clock(position) -> None:
    ticks = iter(range(1_000_000))
    bot = ISMCTSBot("catbox", seconds=0.5, clock=lambda: next(ticks) * 0.01, kernel=False)
    state, seat = position("catbox", 4, random.Random(3))
    while len(state.legal_actions(seat)) < 2:
        state, seat = position("catbox", 4, random.Random(len(state.history)))
    bot.choose(state.view(seat), state.legal_actions(seat), random.Random(0))
    assert bot.last_iterations == 50  # one clock read at the start, one after each iteration


def test_iterations_budget_is_exact(position) -> None:
    bot = make_bot("ismcts", game="catopomp", iterations=37)
    rng = random.Random(8)
    state, seat = position("catopomp", 3, rng)
    while len(state.legal_actions(seat)) < 2:
        state, seat = position("catopomp", 3, rng)
    bot.choose(state.view(seat), state.legal_actions(seat), random.Random(0))
    assert bot.last_iterations == 37


SCRIPT = """
import random, sys
sys.path.insert(0, {tests!r})
from conftest import random_position
from nekobako.bots import make_bot
out = []
for game, players in (("catbox", 4), ("catopomp", 3), ("shutbox", 2)):
    rng = random.Random(game)
    for trial in range(3):
        state, seat = random_position(game, players, rng)
        bot = make_bot("ismcts", game=game, iterations=150)
        out.append(str(bot.choose(state.view(seat), state.legal_actions(seat), random.Random(trial))))
print("|".join(out))
"""


def test_same_decisions_in_processes_with_different_hash_seeds() -> None:
    """String hashing differs between processes; the search must not depend on it (the simulator
    promises the same results whatever the number of workers)."""
    code = SCRIPT.format(tests=os.path.dirname(__file__))
    outputs = set()
    for hash_seed in ("1", "2", "3"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        outputs.add(done.stdout.strip())
    assert len(outputs) == 1, outputs
