"""The compiled Cat in the Box kernel against the pure engine (engine/kernel.py, the contract).

At every step of random games, at every player count and every option the game's option table
allows, both sides are asked the same questions from the same position: who moves, each seat's
legal ids (`encoding.legal_ids`), the scores, the finished rounds, and after the same action the
same successor (`pack(pure) == kernel array`). Chance goes both ways: an outcome sampled by the
pure engine is forced into the kernel, and one drawn by the kernel is turned into the engine's
action and applied to the pure state. A seeded compiled `playout` is replayed by the pure engine.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nekobako.engine import CHANCE, InvalidOptions
from nekobako.engine.kernel import OVER, pure_reason

if (_reason := pure_reason()) is not None:
    pytest.skip(f"the kernels are off: {_reason}", allow_module_level=True)

from nekobako.engine.kernel import kernel_for
from nekobako.engine.kernel_rng import below, new_rng
from nekobako.games.catbox import GAME
from nekobako.games.catbox.kernel import WINNERS, CatboxKernel
from nekobako.games.catbox.state import CatboxState


def _tables() -> list[tuple[int, dict[str, Any]]]:
    """Every player count with every option combination the game accepts (from its option table)."""
    out = []
    for players in range(GAME.min_players, GAME.max_players + 1):
        specs = [spec for spec in GAME.option_specs if spec.choices]
        for values in itertools.product(*(spec.choices for spec in specs)):
            raw = {spec.name: value for spec, value in zip(specs, values, strict=True)}
            try:
                out.append((players, GAME.options(raw, players).to_json()))
            except InvalidOptions:
                continue
    return out


TABLES = _tables()
SLOTS = [name for name in CatboxState.__slots__ if name not in CatboxKernel.NOT_PACKED]


def _kernel(players: int, options: dict[str, Any]) -> CatboxKernel:
    kernel = kernel_for("catbox", players, GAME.options(options, players))
    assert isinstance(kernel, CatboxKernel)
    return kernel


def _same_slots(a: CatboxState, b: CatboxState) -> None:
    for name in SLOTS:
        assert getattr(a, name) == getattr(b, name), name


def _check_position(kernel: CatboxKernel, state: CatboxState, array: np.ndarray) -> None:
    """Both sides agree on everything the contract asks about this position."""
    assert np.array_equal(kernel.pack(state), array)
    assert np.array_equal(kernel.pack(kernel.unpack(array)), array)
    _same_slots(kernel.unpack(kernel.pack(state)), state)
    out = np.empty(kernel.num_actions, dtype=np.int64)
    seats = np.empty(8, dtype=np.int64)
    count = kernel.to_move(array, seats)
    assert tuple(seats[:count]) == state.to_move
    first = kernel.first_to_move(array)
    assert first == (state.to_move[0] if state.to_move else OVER)
    for seat in range(state.players):
        count = kernel.legal(array, seat, out)
        assert list(out[:count]) == kernel.encoding.legal_ids(state, seat), seat
    totals = np.empty(state.players, dtype=np.float64)
    kernel.scores(array, totals)
    assert list(totals) == state.scores()
    assert kernel.rounds_done(array) == len(state.round_scores())


def _lockstep(players: int, options: dict[str, Any], seed: int) -> int:
    """One random game played on both sides at once, checked at every step; its paradoxes."""
    kernel = _kernel(players, options)
    rng = random.Random(seed)
    kernel_rng = new_rng(seed)
    codes = np.empty(64, dtype=np.int64)
    state = GAME.new_game(players, options)
    array = kernel.pack(state)
    while True:
        _check_position(kernel, state, array)
        if state.is_over():
            return sum(event.kind == "paradox" for event in state.events)
        to_move = state.to_move
        seat = to_move[rng.randrange(len(to_move))]  # simultaneous discards in any order
        if seat == CHANCE:
            if rng.random() < 0.5:
                action = state.sample_chance(rng)
                kernel.force_chance(array, action)
            else:
                count = kernel.draw_chance(array, kernel_rng, codes)
                action = kernel.chance_action(array, codes[:count])
                kernel.apply_chance(array, codes, count)
            state.apply(CHANCE, action)
        else:
            ids = kernel.encoding.legal_ids(state, seat)
            chosen = rng.choice(ids)
            state.apply(seat, kernel.encoding.action(chosen))
            kernel.apply(array, seat, chosen)


def _replayed_playout(players: int, options: dict[str, Any], seed: int) -> None:
    """`playout` from a seed ends where a stepwise loop drawing the same numbers ends, and the
    pure engine, given the same choices, reaches the same final position and scores."""
    kernel = _kernel(players, options)
    state = GAME.new_game(players, options)
    start = kernel.pack(state)
    played = start.copy()
    actions = kernel.playout(played, new_rng(seed), 1_000_000)
    array = start.copy()
    rng = new_rng(seed)
    codes = np.empty(64, dtype=np.int64)
    out = np.empty(kernel.num_actions, dtype=np.int64)
    steps = 0
    while (seat := kernel.first_to_move(array)) != OVER:
        if seat == CHANCE:
            count = kernel.draw_chance(array, rng, codes)
            state.apply(CHANCE, kernel.chance_action(array, codes[:count]))
            kernel.apply_chance(array, codes, count)
        else:
            count = kernel.legal(array, seat, out)
            chosen = int(out[below(rng, count)])
            state.apply(seat, kernel.encoding.action(chosen))
            kernel.apply(array, seat, chosen)
        steps += 1
    assert steps == actions
    assert np.array_equal(array, played)
    assert state.is_over()
    assert np.array_equal(kernel.pack(state), played)
    totals = np.empty(players, dtype=np.float64)
    kernel.scores(played, totals)
    assert list(totals) == state.scores()
    assert [s for s in range(players) if played[WINNERS] >> s & 1] == state.winners()


@pytest.mark.parametrize(("players", "options"), TABLES, ids=[f"{p}p-{o['side']}" for p, o in TABLES])
def test_every_table_in_lockstep(players: int, options: dict[str, Any]) -> None:
    paradoxes = sum(_lockstep(players, options, seed) for seed in range(4))
    assert paradoxes > 0  # random play causes them often: the paradox rule is proven too


@pytest.mark.parametrize(("players", "options"), TABLES, ids=[f"{p}p-{o['side']}" for p, o in TABLES])
def test_playout_replays_in_the_pure_engine(players: int, options: dict[str, Any]) -> None:
    for seed in range(6):
        _replayed_playout(players, options, seed)


@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**32 - 1))
@settings(max_examples=12)
def test_random_tables_in_lockstep(table: tuple[int, dict[str, Any]], seed: int) -> None:
    _lockstep(*table, seed)


@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**63), cut=st.integers(0, 200))
@settings(max_examples=20)
def test_playout_stops_and_resumes(table: tuple[int, dict[str, Any]], seed: int, cut: int) -> None:
    """`max_actions` stops a playout after that many actions; resuming with the same generator
    ends where one uninterrupted playout ends."""
    kernel = _kernel(*table)
    start = kernel.pack(GAME.new_game(*table))
    whole = start.copy()
    total = kernel.playout(whole, new_rng(seed), 1_000_000)
    parts = start.copy()
    rng = new_rng(seed)
    first = kernel.playout(parts, rng, cut)
    assert first == min(cut, total)
    assert first + kernel.playout(parts, rng, 1_000_000) == total
    assert np.array_equal(parts, whole)


@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**63))
@settings(max_examples=12)
def test_chance_is_draw_then_apply(table: tuple[int, dict[str, Any]], seed: int) -> None:
    """`chance` (dealing through the array's scratch) changes the array and the generator as
    `draw_chance` then `apply_chance` do, and leaves the scratch as `pack` writes it."""
    kernel = _kernel(*table)
    array = kernel.pack(GAME.new_game(*table))
    rng = new_rng(seed)
    codes = np.empty(64, dtype=np.int64)
    while kernel.first_to_move(array) != OVER:
        if kernel.first_to_move(array) == CHANCE:
            other, other_rng = array.copy(), rng.copy()
            kernel.chance(other, other_rng)
            count = kernel.draw_chance(array, rng, codes)
            kernel.apply_chance(array, codes, count)
            assert np.array_equal(other, array)
            assert np.array_equal(other_rng, rng)
            assert np.array_equal(kernel.pack(kernel.unpack(array)), array)
        else:
            kernel.playout(array, rng, 1)


@pytest.mark.slow
@pytest.mark.parametrize(("players", "options"), TABLES, ids=[f"{p}p-{o['side']}" for p, o in TABLES])
def test_many_games_in_lockstep(players: int, options: dict[str, Any]) -> None:
    for seed in range(100, 600):
        _lockstep(players, options, seed)
        _replayed_playout(players, options, seed)
