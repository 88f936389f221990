"""Cat in the Box's observation tensor, compiled over the kernel's array (kernel.py), for the batched
environments of `nekobako.rl.vector` (docs/research.md, *Batched environments*).

`observe(a, seat, out)` writes exactly what `CatboxEncoding.observe` writes for the same position
(tests/rl/test_vector.py unpacks the array and compares at every step of random batched games);
the field offsets follow from the header (players, numbers, prediction values, board width), so one
compiled function serves every table. `winners(a)` is the mask of winning seats of a finished game
(the rewards: `State.returns`).

Imported only where numba is (`engine.kernel.pure_reason`).
"""

from __future__ import annotations

import numpy as np

from ...engine.kernel_cache import njit
from .kernel import (
    BLOCKED,
    CURRENT,
    DISCARDS,
    H_CELL,
    H_COLUMNS,
    H_DEALT,
    H_NPRED,
    H_NUMBERS,
    H_OBSERVED,
    H_PLAYERS,
    H_PRED,
    HANDS,
    LEADER,
    OWNED,
    PARADOX,
    PHASE,
    PREDICTIONS,
    RED_BROKEN,
    REVEALED,
    ROUND,
    ROUND_SCORES,
    SEATS,
    START_SEAT,
    TOTALS,
    TRICK,
    TRICK_LEN,
    TRICKS,
    WINNERS,
    XS,
    _low_bit,
    _popcount,
)
from .phases import DISCARD, OVER, PLAY, PREDICT


@njit(cache=True)
def observe(a: np.ndarray, seat: int, out: np.ndarray) -> None:
    """The tensor of `seat` (encoding.py's layout, field by field in its order) into `out`."""
    n = a[H_PLAYERS]
    k = a[H_NUMBERS]
    nv = a[H_NPRED]
    columns = a[H_COLUMNS]
    phase = a[PHASE]
    out[:] = 0
    at = 0
    out[at + seat] = 1  # you
    at += n
    if phase == DISCARD:  # to_move
        for s in range(n):
            if a[DISCARDS + s] == 0:
                out[at + s] = 1
    elif phase in (PREDICT, PLAY):
        out[at + a[CURRENT]] = 1
    at += n
    out[at + (phase - 1 if phase > 0 else 0)] = 1  # phase: start and deal are both "deal"
    at += 5
    out[at + a[ROUND] - 1] = 1
    at += n
    out[at + a[START_SEAT]] = 1
    at += n
    hand = a[HANDS + seat] >> 4  # hand: packed counts, a nibble per number from 1
    for i in range(k):
        out[at + i] = (hand >> (4 * i)) & 15
    at += k
    if a[DISCARDS + seat]:
        out[at + a[DISCARDS + seat] - 1] = 1
    at += k
    width = 2 + n  # board: per physical cell, observed, blocker, then a plane per seat
    observed = 0
    numbers = a[H_OBSERVED]
    for colour in range(4):
        for number in range(1, 10):
            if numbers >> number & 1:
                observed |= a[H_CELL + 10 * colour + number]
    for plane in range(2 + n):
        mask = observed if plane == 0 else a[BLOCKED] if plane == 1 else a[OWNED + plane - 2]
        while mask:
            out[at + plane + _low_bit(mask) * width] = 1
            mask &= mask - 1
    at += 4 * columns * width
    for s in range(n):  # x_tokens
        xs = a[XS + s]
        for c in range(4):
            out[at + 4 * s + c] = xs >> c & 1
    at += 4 * n
    for s in range(n):  # predictions
        p = a[PREDICTIONS + s]
        if p:
            for i in range(nv):
                if a[H_PRED + i] == p:
                    out[at + s * nv + i] = 1
    at += n * nv
    tricks_at = at
    at += n
    leader = a[LEADER]
    for i in range(a[TRICK_LEN]):  # trick: seats from the leader
        s = (leader + i) % n
        code = a[TRICK + i]
        out[at + s * (k + 4) + (code >> 2) - 1] = 1
        out[at + s * (k + 4) + k + (code & 3)] = 1
    at += n * (k + 4)
    if phase == PLAY:
        out[at + leader] = 1
    at += n
    out[at] = a[RED_BROKEN]
    at += 1
    dealt = a[H_DEALT]
    for s in range(n):  # discarded, hand_counts
        discarded = a[DISCARDS + s] != 0
        if discarded:
            out[at + s] = 1
        if a[HANDS + s]:
            out[at + n + s] = dealt - discarded - _popcount(a[OWNED + s])
    at += 2 * n
    if a[PARADOX] >= 0:
        out[at + a[PARADOX]] = 1
    at += n
    revealed = a[REVEALED]  # centre: packed counts
    for i in range(k):
        out[at + i] = (revealed >> (4 * (i + 1))) & 15
    at += k
    for s in range(n):
        out[tricks_at + s] = a[TRICKS + s]
        out[at + s] = a[TOTALS + s]  # scores
    at += n
    done = a[ROUND] if phase == OVER else a[ROUND] - 1
    for r in range(done):  # round_scores
        for s in range(n):
            out[at + r * n + s] = a[ROUND_SCORES + SEATS * r + s]
    at += n * n
    won = a[WINNERS]
    for s in range(n):
        if won >> s & 1:
            out[at + s] = 1


@njit(cache=True)
def winners(a: np.ndarray) -> int:
    """The winning seats of a finished game, as a mask (bit `s` for seat `s`)."""
    return a[WINNERS]
