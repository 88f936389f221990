"""Shut the Box's observation tensor, compiled over the kernel's array (kernel.py), for the batched
environments of `nekobako.rl.vector` (docs/research.md, *Batched environments*).

`observe(a, seat, out)` writes exactly what `ShutboxEncoding.observe` writes for the same position
(tests/rl/test_vector.py unpacks the array and compares at every step of random batched games);
nothing is hidden, so it is the whole position in the encoding's field order, the offsets following
from the header (players, tiles). `winners(a)` is the mask of winning seats of a finished game (the
rewards: `State.returns`).

Imported only where numba is (`engine.kernel.pure_reason`).
"""

from __future__ import annotations

import numpy as np

from ...engine.kernel_cache import njit
from .kernel import (
    ACTIVE,
    CHANCE_DUE,
    DIE1,
    DIE2,
    ELIMINATED,
    HEADER,
    KIND,
    KIND_ROLL,
    OPEN,
    ORDER,
    ORDER_LEN,
    OVER,
    PENALTY,
    PLAYERS,
    ROLL_N,
    ROLLER,
    ROUND,
    SHUT,
    SIM,
    START,
    TILES,
    TOTAL,
    TURN,
    WINNER,
    _one_die,
)


@njit(cache=True)
def observe(a: np.ndarray, seat: int, out: np.ndarray) -> None:
    """The tensor of `seat` (encoding.py's layout, field by field in its order) into `out`."""
    n = a[PLAYERS]
    t = a[TILES]
    chance = a[CHANCE_DUE] != 0
    over = a[OVER] != 0
    order_len = a[ORDER_LEN]
    out[:] = 0
    at = 0
    out[at + seat] = 1  # you
    at += n
    moving = not chance and not over  # to_move: the active seats (none once over)
    if moving:
        for s in range(n):
            if a[HEADER + ACTIVE * n + s]:
                out[at + s] = 1
    at += n
    out[at] = chance
    out[at + 1] = over
    out[at + 2] = a[ROUND]
    at += 3
    if a[START] >= 0:  # start_player
        out[at + a[START]] = 1
    at += n
    for place in range(order_len):  # order
        out[at + a[HEADER + ORDER * n + place] * n + place] = 1
    at += n * n
    if not a[SIM] and order_len and not over:  # current
        out[at + a[HEADER + ORDER * n + a[TURN]]] = 1
    at += n
    if not over:  # active
        for s in range(n):
            if a[HEADER + ACTIVE * n + s]:
                out[at + s] = 1
    at += n
    if chance and a[ROLL_N]:  # rolling
        out[at + a[ROLLER]] = 1
    at += n
    for s in range(n):  # boards
        mask = a[HEADER + OPEN * n + s]
        for i in range(t):
            out[at + s * t + i] = mask >> i & 1
    at += n * t
    for s in range(n):  # dice
        die = a[HEADER + DIE1 * n + s]
        if die:
            out[at + s * 6 + die - 1] += 1
        die = a[HEADER + DIE2 * n + s]
        if die:
            out[at + s * 6 + die - 1] += 1
    at += n * 6
    for s in range(n):  # eliminated, shut, turn_over, penalty, one_die, scores, winners
        out[at + s] = a[HEADER + ELIMINATED * n + s]
        out[at + n + s] = a[HEADER + SHUT * n + s]
        penalty = a[HEADER + PENALTY * n + s]
        if penalty >= 0:
            out[at + 2 * n + s] = 1
            out[at + 3 * n + s] = penalty
        if (
            moving
            and a[HEADER + ACTIVE * n + s]
            and a[HEADER + KIND * n + s] == KIND_ROLL
            and _one_die(a, a[HEADER + OPEN * n + s])
        ):
            out[at + 4 * n + s] = 1
        out[at + 5 * n + s] = a[HEADER + TOTAL * n + s]
        out[at + 6 * n + s] = a[HEADER + WINNER * n + s]


@njit(cache=True)
def winners(a: np.ndarray) -> int:
    """The winning seats of a finished game, as a mask (bit `s` for seat `s`)."""
    n = a[PLAYERS]
    won = 0
    for s in range(n):
        if a[HEADER + WINNER * n + s]:
            won |= 1 << s
    return won
