"""The Shut the Box kernel against the pure engine (the differential proof, docs/engine.md *Kernels*).

At every step of random games (random options from the game's option table, 1–12 players) both
give the same seats to move, the same legal ids for every seat, and after the same action the same
position, totals, finished rounds and end. Chance goes both ways: an outcome the engine samples is
forced into the kernel, and an outcome the kernel draws is turned into the engine's action.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from nekobako.engine import CHANCE, get_game
from nekobako.engine.kernel import OVER, pure_reason

reason = pure_reason()
if reason is not None:
    pytest.skip(f"kernels are off: {reason}", allow_module_level=True)

import numpy as np  # noqa: E402

from nekobako.engine.kernel import kernel_for  # noqa: E402
from nekobako.engine.kernel_rng import below, new_rng  # noqa: E402
from nekobako.games.shutbox.actions import Shut  # noqa: E402
from nekobako.games.shutbox.kernel import COMBO_ID, COMBO_MASK, CONFIG, HEADER, ID_MASK, SCRATCH, WINNER  # noqa: E402
from nekobako.games.shutbox.state import CHANCE_ONLY, ShutState  # noqa: E402

GAME = get_game("shutbox")
SLOTS = [name for cls in ShutState.__mro__ for name in getattr(cls, "__slots__", ())]


def table(rng: random.Random, players: int | None = None) -> tuple[int, Any]:
    """A player count and options drawn from the game's option table."""
    players = players or rng.randint(1, 12)
    raw = {spec.name: rng.choice(spec.choices) for spec in GAME.option_specs}
    return players, GAME.options(raw, players)


def same_position(kernel: Any, state: ShutState, array: np.ndarray) -> None:
    assert np.array_equal(kernel.pack(state), array)
    back = kernel.unpack(array)
    for name in SLOTS:
        if name not in kernel.NOT_PACKED:
            assert getattr(back, name) == getattr(state, name), name
    assert (back._to_move is CHANCE_ONLY) == (state._to_move is CHANCE_ONLY)  # told apart by identity
    assert np.array_equal(kernel.pack(back), array)


def check_step(kernel: Any, state: ShutState, array: np.ndarray) -> None:
    """Seats to move, legal ids of every seat, totals, rounds and the end agree."""
    players = state.players
    out = np.empty(max(kernel.num_actions, SCRATCH), dtype=np.int64)
    n = kernel.to_move(array, out)
    assert list(out[:n]) == list(state.to_move)
    first = kernel.first_to_move(array)
    assert first == (state.to_move[0] if state.to_move else OVER)
    for seat in range(players):
        n = kernel.legal(array, seat, out)
        assert list(out[:n]) == kernel.encoding.legal_ids(state, seat), seat
    totals = np.empty(players)
    kernel.scores(array, totals)
    assert list(totals) == state.scores()
    assert kernel.rounds_done(array) == len(state.round_scores())


def play_both(seed: int, players: int | None = None) -> None:
    rng = random.Random(seed)
    players, options = table(rng, players)
    kernel = kernel_for("shutbox", players, options)
    assert kernel is not None
    state = GAME.new_game(players, options)
    array = kernel.pack(state)
    krng = new_rng(seed)
    codes = np.empty(SCRATCH, dtype=np.int64)
    ids = kernel.encoding.ids
    while True:
        same_position(kernel, state, array)
        check_step(kernel, state, array)
        if state.is_over():
            break
        seat = rng.choice(state.to_move)
        if seat == CHANCE:
            if rng.random() < 0.5:  # the engine's outcome forced into the kernel
                action = state.sample_chance(rng)
                kernel.force_chance(array, action)
            else:  # the kernel's outcome turned into the engine's action
                n = kernel.draw_chance(array, krng, codes)
                action = kernel.chance_action(array, codes[:n])
                kernel.apply_chance(array, codes, n)
            state.apply(CHANCE, action)
        else:
            action = rng.choice(list(state.legal_actions(seat)))
            kernel.apply(array, seat, ids[str(action)])
            state.apply(seat, action)
    assert kernel.first_to_move(array) == OVER
    assert [s for s in range(players) if array[HEADER + WINNER * players + s]] == state.winners()


def test_the_tables_ids_are_the_encodings() -> None:
    """The kernel's id of each shut is the encoding's, for every tile count and `max_close`."""
    for tiles in (9, 10, 12):
        for most in (3, 2, "any"):
            options = GAME.options({"tiles": tiles, "max_close": most}, 2)
            kernel = kernel_for("shutbox", 2, options)
            assert kernel is not None
            row = int(kernel.pack(GAME.new_game(2, options))[CONFIG])
            ids = kernel.encoding.ids
            shuts = {text: i for text, i in ids.items() if text.startswith("shut")}
            for text, i in shuts.items():
                assert ID_MASK[row, i] == GAME.parse_action(text).mask
            for j, mask in enumerate(COMBO_MASK):
                text = str(Shut.of_mask(int(mask)))
                assert COMBO_ID[row, j] == shuts.get(text, -1)


def test_every_player_count_and_option_step_by_step() -> None:
    rng = random.Random(28)
    for players in range(1, 13):
        play_both(rng.randrange(2**32), players)


def test_random_small_tables() -> None:
    """Options drawn again and again at 1–4 players (12-player games are long: one each above)."""
    rng = random.Random(32)
    for _ in range(40):
        play_both(rng.randrange(2**32), rng.randint(1, 4))


@pytest.mark.slow
def test_thousands_of_random_tables() -> None:
    for seed in range(1000, 2000):
        play_both(seed)


def test_a_seeded_playout_is_replayed_by_the_engine() -> None:
    """The compiled playout and a stepwise loop drawing the same random numbers end at the same
    array, and the engine, given the same choices, at the same totals and winners."""
    rng = random.Random(7)
    for seed in range(60):
        players, options = table(rng)
        kernel = kernel_for("shutbox", players, options)
        assert kernel is not None
        state = GAME.new_game(players, options)
        start = kernel.pack(state)
        compiled = start.copy()
        count = kernel.playout(compiled, new_rng(seed), 1_000_000)
        array, krng = start.copy(), new_rng(seed)
        out = np.empty(SCRATCH, dtype=np.int64)
        ids = kernel.encoding.ids
        actions = {i: text for text, i in ids.items()}
        steps = 0
        while (seat := kernel.first_to_move(array)) != OVER:
            if seat == CHANCE:
                n = kernel.draw_chance(array, krng, out)
                state.apply(CHANCE, kernel.chance_action(array, out[:n]))
                kernel.apply_chance(array, out, n)
            else:
                n = kernel.legal(array, seat, out)
                action = int(out[below(krng, n)])
                state.apply(seat, GAME.parse_action(actions[action]))
                kernel.apply(array, seat, action)
            steps += 1
        assert steps == count == len(state.history)
        assert np.array_equal(array, compiled)
        assert state.is_over()
        totals = np.empty(players)
        kernel.scores(compiled, totals)
        assert list(totals) == state.scores()
        same_position(kernel, state, compiled)


def test_a_playout_stops_at_max_actions() -> None:
    options = GAME.options({}, 3)
    kernel = kernel_for("shutbox", 3, options)
    assert kernel is not None
    array = kernel.pack(GAME.new_game(3, options))
    assert kernel.playout(array, new_rng(1), 5) == 5
    assert kernel.first_to_move(array) != OVER
