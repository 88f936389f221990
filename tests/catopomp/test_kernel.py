"""The compiled Catopomp kernel against the pure engine (docs/engine.md, *Kernels*): from the same
position both give the same seats to move, the same legal ids in the same order, the same successor
after the same action or chance outcome (forced from the engine, or drawn by the kernel and read
back with `chance_action`), the same scores and rounds; conversions round-trip; a seeded compiled
`playout` ends where a step-by-step replay through the pure engine ends."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from nekobako.engine import CHANCE, InvalidOptions
from nekobako.engine.kernel import OVER, kernel_for, pure_reason

if (_reason := pure_reason()) is not None:
    pytest.skip(f"the compiled kernels are off: {_reason}", allow_module_level=True)

from nekobako.engine.kernel_rng import below, new_rng
from nekobako.games.catopomp import GAME, CatopompState
from nekobako.games.catopomp.kernel import MAX_CODES, MAX_LEGAL, CatopompKernel
from nekobako.games.catopomp.options import OPTION_SPECS

SPECS = {spec.name: spec for spec in OPTION_SPECS}
DECKS = [value for _, value in SPECS["deck"].presets] + ["1-20x2", "3-9x5", "1:4,2:4,5-9x2", "1-6x8"]
EXTRAS = list(SPECS["extra_cards"].choices)


def table(i: int) -> tuple[int, Any]:
    """Game `i`'s player count and options: every value of every option comes round within
    `GAMES` games (each option by its own residue of `i`; `test_tables_cover_every_option` checks
    it). The largest hands are dealt at two players; a deck too small for the hands gives way to
    the next deck in the list."""
    sizes = SPECS["hand_size"].choices
    size = sizes[(5 * i) % len(sizes)]
    players = 2 if size >= 15 else 2 + i % 3
    raw: dict[str, Any] = {
        "hand_size": size,
        "dice": SPECS["dice"].choices[i % len(SPECS["dice"].choices)],
        "gems": SPECS["gems"].choices[(i // 2) % len(SPECS["gems"].choices)],
        "casual": bool(i // 3 % 2),
        "extra_cards": EXTRAS[(i + i // 4) % len(EXTRAS)],
        "hints": bool(i // 5 % 2),
    }
    for j in range(len(DECKS)):
        try:
            return players, GAME.options({**raw, "deck": DECKS[(i + 2 + j) % len(DECKS)]}, players)
        except InvalidOptions:
            continue
    raise AssertionError(f"no deck holds {raw}")


def kernel(players: int, options: Any) -> CatopompKernel:
    found = kernel_for("catopomp", players, options)
    assert isinstance(found, CatopompKernel)
    return found


def same_slots(k: CatopompKernel, state: CatopompState) -> None:
    back = k.unpack(k.pack(state))
    for slot in CatopompState.__slots__:
        if slot not in k.NOT_PACKED:
            assert getattr(back, slot) == getattr(state, slot), slot


def differential_game(i: int, seed: int, every_slot: bool = True) -> int:
    """One random game stepped in both; returns the steps taken."""
    players, options = table(i)
    k = kernel(players, options)
    enc = k.encoding
    rng = random.Random(seed)
    krng = new_rng(seed)
    state = GAME.new_game(players, options)
    a = k.pack(state)
    assert len(a) == k.size
    ids = np.empty(MAX_LEGAL, np.int64)
    codes = np.empty(MAX_CODES, np.int64)
    scores = np.zeros(players)
    steps = 0
    while True:
        assert np.array_equal(k.pack(state), a), f"step {steps}: slots {np.nonzero(k.pack(state) != a)[0]}"
        assert np.array_equal(k.pack(k.unpack(a)), a)
        if every_slot:
            same_slots(k, state)
        k.scores(a, scores)
        assert scores.tolist() == state.scores()
        assert k.rounds_done(a) == len(state.round_scores())
        movers = state.to_move
        n = k.to_move(a, ids)
        assert list(ids[:n]) == list(movers)
        if not movers:
            assert k.first_to_move(a) == OVER
            break
        assert k.first_to_move(a) == movers[0]
        seat = movers[rng.randrange(len(movers))]
        if seat == CHANCE:
            if rng.random() < 0.5:  # the engine's outcome, forced into the kernel
                action = state.sample_chance(rng)
                k.force_chance(a, action)
            else:  # the kernel's draw, read back as the engine's action
                n = k.draw_chance(a, krng, codes)
                action = k.chance_action(a, codes[:n])
                k.apply_chance(a, codes, n)
            state.apply(CHANCE, action)
        else:
            for other in range(players):
                n = k.legal(a, other, ids)
                assert list(ids[:n]) == enc.legal_ids(state, other), f"step {steps}, seat {other}"
            n = k.legal(a, seat, ids)
            chosen = int(ids[rng.randrange(n)])
            k.apply(a, seat, chosen)
            state.apply(seat, enc.actions[chosen])
        steps += 1
    assert state.is_over()
    return steps


GAMES = 16  # every option value and player count at least once (see `table`)


def test_tables_cover_every_option() -> None:
    seen: dict[str, set[str]] = {}
    for i in range(GAMES):
        players, options = table(i)
        seen.setdefault("players", set()).add(str(players))
        for name, value in options.to_json().items():
            seen.setdefault(name, set()).add(str(value))
    assert len(seen.pop("players")) == 3
    assert len(seen.pop("deck")) == len(DECKS)
    for name, values in seen.items():
        assert len(values) == len(SPECS[name].choices), name


@pytest.mark.parametrize("i", range(GAMES))
def test_kernel_steps_like_the_engine(i: int) -> None:
    assert differential_game(i, seed=1000 + i, every_slot=i < 6) > 0


@pytest.mark.slow
@pytest.mark.parametrize("block", range(10))
def test_kernel_steps_like_the_engine_long(block: int) -> None:
    for j in range(200):
        i = block * 200 + j
        differential_game(i, seed=i, every_slot=j % 10 == 0)


def stepwise(k: CatopompKernel, a: np.ndarray, seed: int, state: CatopompState) -> int:
    """`playout` written out in Python with the same draws, each step mirrored into `state`."""
    rng = new_rng(seed)
    ids = np.empty(MAX_LEGAL, np.int64)
    codes = np.empty(MAX_CODES, np.int64)
    count = 0
    while True:
        seat = k.first_to_move(a)
        if seat == OVER:
            return count
        if seat == CHANCE:
            n = k.draw_chance(a, rng, codes)
            state.apply(CHANCE, k.chance_action(a, codes[:n]))
            k.apply_chance(a, codes, n)
        else:
            n = k.legal(a, seat, ids)
            chosen = int(ids[below(rng, n)])
            state.apply(seat, k.encoding.actions[chosen])
            k.apply(a, seat, chosen)
        count += 1


@pytest.mark.parametrize("i", range(GAMES))
def test_playout_replays_in_the_engine(i: int) -> None:
    players, options = table(i)
    k = kernel(players, options)
    state = GAME.new_game(players, options)
    start = k.pack(state)
    compiled = start.copy()
    done = k.playout(compiled, new_rng(i), 1_000_000)
    walked = start.copy()
    assert stepwise(k, walked, i, state) == done
    assert np.array_equal(compiled, walked)
    assert np.array_equal(k.pack(state), compiled)
    scores = np.zeros(players)
    k.scores(compiled, scores)
    assert scores.tolist() == state.scores()
    assert state.is_over() and k.first_to_move(compiled) == OVER
    assert k.rounds_done(compiled) == len(state.round_scores())


def test_playout_stops_at_max_actions() -> None:
    players, options = table(2)
    k = kernel(players, options)
    a = k.pack(GAME.new_game(players, options))
    assert k.playout(a, new_rng(5), 7) == 7
    assert k.first_to_move(a) != OVER


def test_unpack_of_a_packed_mid_game_state_plays_on() -> None:
    """A state rebuilt from an array is a full engine state: it takes the same actions."""
    players, options = table(4)
    k = kernel(players, options)
    state = GAME.new_game(players, options)
    a = k.pack(state)
    k.playout(a, new_rng(3), 60)
    back = k.unpack(a)
    seat = k.first_to_move(a)
    if seat >= 0:
        legal = back.legal_actions(seat)
        assert [k.encoding.ids[x.text] for x in legal] == k.encoding.legal_ids(back, seat)
        back.apply(seat, legal[0])
    assert k.size == len(a)
