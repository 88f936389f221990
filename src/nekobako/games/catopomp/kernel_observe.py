"""Catopomp's observation tensor, compiled over the kernel's array (kernel.py), for the batched
environments of `nekobako.rl.vector` (docs/research.md, *Batched environments*).

`observe(a, seat, out)` writes exactly what `CatopompEncoding.observe` writes for the same position
(tests/rl/test_vector.py unpacks the array and compares at every step of random batched games): the
observer's own hand, every public count, and another seat's spare face only once the spare phase
is closed, as the encoding hides it. The offsets follow from the player count in the header; what
the table's play shows (its cards, dice number, combination, size, rank) is read from per-play
tables of the kernel's catalog, built here once. `winners(a)` is the mask of winning seats of a
finished game (the seats with gems left: `State.returns`).

Imported only where numba is (`engine.kernel.pure_reason`).
"""

from __future__ import annotations

import numpy as np

from ...engine.kernel_cache import njit
from .cards import SLOTS
from .encoding import CARDS, COMBOS
from .kernel import (
    _CAT,
    CENTRE,
    CURRENT,
    GEMS,
    HAND_N,
    HANDS,
    HELL_N,
    HELLS,
    HOLDERS,
    MAXP,
    PASSED,
    PENDING,
    PHASE,
    PLAYERS,
    REMOVED,
    ROUND,
    SPARE_F,
    START_P,
    TABLE,
    TABLE_OWNER,
    TRANSFER_TO,
    USED,
    USED_N,
)
from .phases import BURY, PHASE_NAMES, PLAY, SPARE, TRANSFER
from .phases import OVER as OVER_PHASE

PHASES = len(PHASE_NAMES)


def _play_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per catalog play: what the table shows (`T_FIELDS`: dice number, combination index, size,
    rank, from hell) and its table cards (count, then the cards)."""
    plays = _CAT.plays
    width = max(len(p.table_cards) for p in plays)
    fields = np.zeros((len(plays), 5), np.int64)
    cards = np.zeros((len(plays), width), np.int64)
    counts = np.zeros(len(plays), np.int64)
    for u, p in enumerate(plays):
        fields[u] = (p.dice_value, COMBOS.index(p.combo) if p.combo in COMBOS else 0, p.size, p.rank, int(p.hell))
        counts[u] = len(p.table_cards)
        cards[u, : counts[u]] = p.table_cards
    return fields, counts, cards


T_FIELDS, T_NCARDS, T_CARDS = _play_tables()


@njit(cache=True)
def observe(a: np.ndarray, seat: int, out: np.ndarray) -> None:
    """The tensor of `seat` (encoding.py's layout, field by field in its order) into `out`."""
    n = a[PLAYERS]
    phase = a[PHASE]
    out[:] = 0
    at = 0
    out[at + seat] = 1  # you
    at += n
    if phase == SPARE:  # to_move
        for s in range(n):
            if a[PENDING] >> s & 1:
                out[at + s] = 1
    elif phase in (PLAY, BURY):
        out[at + a[CURRENT]] = 1
    elif phase == TRANSFER:
        out[at + a[TABLE_OWNER]] = 1
    at += n
    out[at + phase] = 1
    at += PHASES
    out[at] = a[ROUND]
    at += 1
    out[at + a[START_P]] = 1  # start_player
    at += n
    if phase in (PLAY, BURY):  # current
        out[at + a[CURRENT]] = 1
    at += n
    for c in range(CARDS):  # hand
        out[at + c] = a[HANDS + SLOTS * seat + 1 + c]
    at += CARDS
    for s in range(n):  # hand_counts
        out[at + s] = a[HAND_N + s]
    at += n
    for s in range(n):  # hell
        if a[HELL_N + s]:
            for c in range(CARDS):
                out[at + s * CARDS + c] = a[HELLS + SLOTS * s + 1 + c]
    at += n * CARDS
    t = a[TABLE]
    if t >= 0:  # table … table_hell
        out[at] = 1
        out[at + 1 + a[TABLE_OWNER]] = 1
        cards = at + 1 + n - 1
        for i in range(T_NCARDS[t]):
            out[cards + T_CARDS[t, i]] += 1
        base = at + 1 + n + CARDS
        out[base] = T_FIELDS[t, 0]
        out[base + 1 + T_FIELDS[t, 1]] = 1
        base += 1 + len(COMBOS)
        out[base] = T_FIELDS[t, 2]
        out[base + 1] = T_FIELDS[t, 3]
        out[base + 2] = T_FIELDS[t, 4]
    at += 1 + n + CARDS + 1 + len(COMBOS) + 3
    for f in range(6):  # centre
        out[at + f] = a[CENTRE + 1 + f]
    at += 6
    used = at
    spare = used + 6 * n
    holders = spare + 6 * n
    boost = holders + n
    gems = boost + n
    gone = gems + n
    passed = gone + n
    for s in range(n):
        for i in range(a[USED_N + s]):
            out[used + s * 6 + a[USED + 3 * s + i] - 1] += 1
        face = a[SPARE_F + s]
        if face and not (phase == SPARE and s != seat):
            out[spare + s * 6 + face - 1] = 1
        if a[HOLDERS] >> s & 1:
            out[holders + s] = 1
        if a[USED_N + s]:
            out[boost + s] = 1
        out[gems + s] = a[GEMS + s]
        if phase > SPARE and a[HAND_N + s] + a[HELL_N + s] == 0:
            out[gone + s] = 1
        if a[PASSED] >> s & 1:
            out[passed + s] = 1
    at = passed + n
    if a[TRANSFER_TO] >= 0:
        out[at + a[TRANSFER_TO]] = 1
    at += n
    for c in range(CARDS):  # removed
        out[at + c] = a[REMOVED + 1 + c]
    at += CARDS
    if phase == OVER_PHASE:  # winners
        for s in range(n):
            if a[GEMS + s] > 0:
                out[at + s] = 1


@njit(cache=True)
def winners(a: np.ndarray) -> int:
    """The winning seats of a finished game (those with gems left), as a mask (bit `s` for seat `s`)."""
    won = 0
    if a[PHASE] == OVER_PHASE:
        for s in range(min(a[PLAYERS], MAXP)):
            if a[GEMS + s] > 0:
                won |= 1 << s
    return won
