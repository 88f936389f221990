"""Cat in the Box as a compiled kernel (engine/kernel.py is the contract; docs/engine.md, *Kernels*).

The position is one flat `int64` array of `SIZE` slots at every table (seat blocks always have room
for 5 seats; unused slots stay 0), so every offset below is a compile-time constant:

| slots | what |
|---|---|
| `H_PLAYERS`, `H_SIDE` | player count, board side (0 white, 1 purple) |
| `H_NUMBERS`, `H_DEALT`, `H_TRICKS` | highest card, cards dealt, tricks per round (§1) |
| `H_COLUMNS`, `H_DECK` | board width, cards in the deck |
| `H_OBSERVED` | numbers whose four cells hold observed tokens (mask of numbers) |
| `H_NPRED`, `H_PRED` … +3 | how many prediction values, and the values (§3) |
| `H_BONUS_AT_MOST` | 2 players: bonus at this many tricks or fewer; -1 elsewhere (§8) |
| `H_REVEAL`, `H_CENTRE` | 2 players: centre cards revealed, and all centre cards |
| `H_PREDICT_BASE`, `H_PLAY_BASE` | the first `predict` and `play` action ids (encoding.py) |
| `H_NOT_FIRST`, `H_NOT_LAST` | physical masks without the first / last board column (bonus groups) |
| `H_CELL` … +40 | physical bit of cell (colour, number) at `H_CELL + 10 * colour + number` |
| `PHASE`, `ROUND`, `START`, `CURRENT`, `LEADER` | as in state.py (phases.py's numbers) |
| `RED_BROKEN`, `TRICKS_DONE`, `PARADOX` | as in state.py (0/1, count, seat or -1) |
| `LED`, `BEST_SEAT`, `BEST_KEY` | the trick's led colour, best seat and its phases.trick_strength |
| `BLOCKED`, `WINNERS`, `TRICK_LEN` | blocker cells (physical mask), winners (mask of seats), cards in the trick |
| `REVEALED`, `HIDDEN` | 2 players: the centre cards (packed counts, board.pack) |
| `TAKEN` … +4 | per colour: numbers whose cell is not empty |
| `HANDS`, `HELD`, `DISCARDS`, `OWNED` | per seat (5 slots): packed counts, numbers held, discard, own tokens |
| `XS`, `PREDICTIONS`, `TRICKS`, `TOTALS` | per seat: covered X spaces (bit per colour), prediction, tricks, total |
| `TRICK` … +5 | the trick's plays in order from the leader, `4 * number + colour` |
| `ROUND_SCORES` … +25 | points per finished round (row of 5) per seat |
| `DECK` … +45 | scratch: the deck while `chance` and `playout` deal it (0 at rest, so no allocation) |

Seats to move are not stored: they follow from the phase (everyone who has not discarded, the
current seat, or chance). `last_round` and `last_trick` hold what views show about finished
rounds and tricks, so they are `NOT_PACKED`; `best_play` is the trick's entry of the best seat.

Chance codes: `start` is one code, the seat; a deal is the shuffled deck, card by card (the
encoding's `deal_from` order: hands in seat order, then the revealed and hidden centre cards).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from ...engine import CHANCE, Options
from ...engine.encoding import Encoding
from ...engine.kernel import OVER, Kernel
from ...engine.kernel_cache import njit
from .actions import PLAYS, CatboxAction, Deal, Start
from .board import pack as pack_cards
from .board import table_for
from .board import unpack as unpack_cards
from .determinize import MAX_TRIES, determinizer
from .game import GAME
from .layouts import BLOCKER_ROWS, SETUPS
from .phases import DEAL, DISCARD, PLAY, PREDICT, START
from .phases import OVER as PHASE_OVER
from .state import CatboxState

SEATS = 5


def _offsets(*blocks: tuple[str, int]) -> dict[str, int]:
    out, at = {}, 0
    for name, size in blocks:
        out[name] = at
        at += size
    out["SIZE"] = at
    return out


_AT = _offsets(
    *((name, 1) for name in ("H_PLAYERS", "H_SIDE", "H_NUMBERS", "H_DEALT", "H_TRICKS", "H_COLUMNS", "H_DECK")),
    ("H_OBSERVED", 1),
    ("H_NPRED", 1),
    ("H_PRED", 3),
    *((name, 1) for name in ("H_BONUS_AT_MOST", "H_REVEAL", "H_CENTRE", "H_PREDICT_BASE", "H_PLAY_BASE")),
    ("H_NOT_FIRST", 1),
    ("H_NOT_LAST", 1),
    ("H_CELL", 40),
    *(
        (name, 1)
        for name in (
            "PHASE",
            "ROUND",
            "START",
            "CURRENT",
            "LEADER",
            "RED_BROKEN",
            "TRICKS_DONE",
            "LED",
            "BEST_SEAT",
            "BEST_KEY",
            "PARADOX",
            "BLOCKED",
            "WINNERS",
            "TRICK_LEN",
            "REVEALED",
            "HIDDEN",
        )
    ),
    ("TAKEN", 4),
    *((name, SEATS) for name in ("HANDS", "HELD", "DISCARDS", "OWNED", "XS", "PREDICTIONS", "TRICKS", "TOTALS")),
    ("TRICK", SEATS),
    ("ROUND_SCORES", SEATS * SEATS),
    ("DECK", 45),
)
# numba reads module globals as constants: plain names, not dict look-ups, in the compiled code
H_PLAYERS, H_SIDE, H_NUMBERS, H_DEALT, H_TRICKS = (
    _AT[k] for k in ("H_PLAYERS", "H_SIDE", "H_NUMBERS", "H_DEALT", "H_TRICKS")
)
H_COLUMNS, H_DECK, H_OBSERVED, H_NPRED, H_PRED = (
    _AT[k] for k in ("H_COLUMNS", "H_DECK", "H_OBSERVED", "H_NPRED", "H_PRED")
)
H_BONUS_AT_MOST, H_REVEAL, H_CENTRE = _AT["H_BONUS_AT_MOST"], _AT["H_REVEAL"], _AT["H_CENTRE"]
H_PREDICT_BASE, H_PLAY_BASE = _AT["H_PREDICT_BASE"], _AT["H_PLAY_BASE"]
H_NOT_FIRST, H_NOT_LAST, H_CELL = _AT["H_NOT_FIRST"], _AT["H_NOT_LAST"], _AT["H_CELL"]
PHASE, ROUND, START_SEAT, CURRENT, LEADER = (_AT[k] for k in ("PHASE", "ROUND", "START", "CURRENT", "LEADER"))
RED_BROKEN, TRICKS_DONE, LED, BEST_SEAT, BEST_KEY = (
    _AT[k] for k in ("RED_BROKEN", "TRICKS_DONE", "LED", "BEST_SEAT", "BEST_KEY")
)
PARADOX, BLOCKED, WINNERS, TRICK_LEN = (_AT[k] for k in ("PARADOX", "BLOCKED", "WINNERS", "TRICK_LEN"))
REVEALED, HIDDEN, TAKEN = _AT["REVEALED"], _AT["HIDDEN"], _AT["TAKEN"]
HANDS, HELD, DISCARDS, OWNED = (_AT[k] for k in ("HANDS", "HELD", "DISCARDS", "OWNED"))
XS, PREDICTIONS, TRICKS, TOTALS = (_AT[k] for k in ("XS", "PREDICTIONS", "TRICKS", "TOTALS"))
TRICK, ROUND_SCORES, DECK, SIZE = _AT["TRICK"], _AT["ROUND_SCORES"], _AT["DECK"], _AT["SIZE"]

_B0, _B1, _B2 = BLOCKER_ROWS
(_COPIES,) = {setup.copies for setup in SETUPS.values()}  # the full games only (5 of each)


# -- bit helpers: one machine instruction each --------------------------------------------------
def _type_popcount(typingctx: Any, x: Any) -> Any:
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


def _type_low_bit(typingctx: Any, x: Any) -> Any:
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.cttz(args[0], cgutils.true_bit)  # zero input undefined: never asked

    return types.int64(types.int64), codegen


_popcount: Any = intrinsic(_type_popcount)
"""Set bits of an int64 (LLVM `ctpop`)."""
_low_bit: Any = intrinsic(_type_low_bit)
"""Index of the lowest set bit of a non-zero int64 (LLVM `cttz`)."""


@njit(cache=True, inline="always")
def _nth_bit(mask: int, k: int) -> int:
    """Index of the `k`-th lowest set bit of `mask` (0-based)."""
    for _ in range(k):
        mask &= mask - 1
    return _low_bit(mask)


@njit(cache=True, inline="always")
def _next(s0: np.uint64, s1: np.uint64) -> tuple[np.uint64, np.uint64, np.uint64]:
    """kernel_rng.next_u64 on a state held in locals: 64 random bits and the new state."""
    result = s0 + s1
    s1 ^= s0
    return (
        result,
        ((s0 << np.uint64(24)) | (s0 >> np.uint64(40))) ^ s1 ^ (s1 << np.uint64(16)),
        ((s1 << np.uint64(37)) | (s1 >> np.uint64(27))),
    )


@njit(cache=True, inline="always")
def _scale(bits: np.uint64, n: int) -> int:
    """kernel_rng.below's integer in `0 … n-1` from 64 random bits."""
    return int((bits >> np.uint64(11)) * (1.0 / 9007199254740992.0) * n)


@njit(cache=True, inline="always")
def _below(rng: np.ndarray, n: int) -> int:
    """kernel_rng.below, written out here so the hot loop inlines it (same bits, same result)."""
    bits, rng[0], rng[1] = _next(rng[0], rng[1])
    return _scale(bits, n)


# -- rules helpers ------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _can_play(a: np.ndarray, seat: int) -> bool:
    held = a[HELD + seat]
    xs = a[XS + seat]
    return bool(
        (xs & 1 and held & ~a[TAKEN])
        or (xs & 2 and held & ~a[TAKEN + 1])
        or (xs & 4 and held & ~a[TAKEN + 2])
        or (xs & 8 and held & ~a[TAKEN + 3])
    )


@njit(cache=True, inline="always")
def _play_masks(a: np.ndarray, seat: int) -> tuple[int, int, int, int]:
    """Per colour, the numbers `seat` may play in it (§4)."""
    held = a[HELD + seat]
    xs = a[XS + seat]
    red = held & ~a[TAKEN] if xs & 1 else 0
    blue = held & ~a[TAKEN + 1] if xs & 2 else 0
    yellow = held & ~a[TAKEN + 2] if xs & 4 else 0
    green = held & ~a[TAKEN + 3] if xs & 8 else 0
    if red and a[TRICK_LEN] == 0 and a[RED_BROKEN] == 0 and (blue | yellow | green):
        red = 0  # §4.3: no red lead before red is broken, unless nothing else is legal
    return red, blue, yellow, green


@njit(cache=True)
def _largest_group(a: np.ndarray, cells: int) -> int:
    """Size of the largest orthogonally connected group of a physical mask (board.Table)."""
    best = 0
    width = a[H_COLUMNS]
    left = a[H_NOT_FIRST]
    right = a[H_NOT_LAST]
    while cells:
        group = cells & -cells
        while True:
            grown = (group | (group << 1 & left) | (group >> 1 & right) | (group << width) | (group >> width)) & cells
            if grown == group:
                break
            group = grown
        size = _popcount(group)
        if size > best:
            best = size
        cells &= ~group
    return best


@njit(cache=True)
def _end_round(a: np.ndarray, paradox: int) -> None:
    """Score the round; `paradox` is the seat that could not play, or -1 (§6, §7)."""
    players = a[H_PLAYERS]
    if paradox >= 0:
        a[PARADOX] = paradox
    for i in range(a[TRICK_LEN]):
        a[TRICK + i] = 0
    a[TRICK_LEN] = 0
    a[LED] = -1
    a[BEST_SEAT] = -1
    a[BEST_KEY] = -1
    a[CURRENT] = -1
    a[LEADER] = -1
    row = ROUND_SCORES + SEATS * (a[ROUND] - 1)
    limit = a[H_BONUS_AT_MOST]
    for s in range(players):
        won = a[TRICKS + s]
        if s == paradox:
            points = -won
        else:
            points = won
            if (won <= limit) if limit >= 0 else (won == a[PREDICTIONS + s]):
                points += _largest_group(a, a[OWNED + s])
        a[row + s] = points
        a[TOTALS + s] += points
    if a[ROUND] == players:
        a[PHASE] = PHASE_OVER
        best = a[TOTALS]
        for s in range(1, players):
            best = max(best, a[TOTALS + s])
        best_last = -(1 << 30)
        for s in range(players):
            if a[TOTALS + s] == best:
                best_last = max(best_last, a[row + s])
        winners = 0
        for s in range(players):
            if a[TOTALS + s] == best and a[row + s] == best_last:
                winners |= 1 << s
        a[WINNERS] = winners
    else:
        a[ROUND] += 1
        start = a[START_SEAT] + 1
        a[START_SEAT] = 0 if start == players else start
        a[PHASE] = DEAL


@njit(cache=True, inline="always")
def _lead(a: np.ndarray, seat: int) -> None:
    """`seat` leads a trick, or causes a paradox at once (§6)."""
    a[LEADER] = seat
    a[CURRENT] = seat
    if not _can_play(a, seat):
        _end_round(a, seat)


@njit(cache=True, inline="always")
def _discard(a: np.ndarray, seat: int, n: int) -> None:
    shift = 4 * n
    hand = a[HANDS + seat] - (1 << shift)
    a[HANDS + seat] = hand
    if not (hand >> shift) & 15:
        a[HELD + seat] &= ~(1 << n)
    a[DISCARDS + seat] = n
    for s in range(a[H_PLAYERS]):
        if a[DISCARDS + s] == 0:
            return  # the others still choose
    if a[H_NPRED]:
        a[PHASE] = PREDICT
        a[CURRENT] = a[START_SEAT]
    else:
        a[PHASE] = PLAY
        _lead(a, a[START_SEAT])


@njit(cache=True, inline="always")
def _predict(a: np.ndarray, seat: int, value: int) -> None:
    a[PREDICTIONS + seat] = value
    nxt = seat + 1
    if nxt == a[H_PLAYERS]:
        nxt = 0
    if nxt == a[START_SEAT]:
        a[PHASE] = PLAY
        _lead(a, nxt)
    else:
        a[CURRENT] = nxt


@njit(cache=True, inline="always")
def _play(a: np.ndarray, seat: int, n: int, colour: int) -> None:
    """A legal play of card `n` declared as `colour` (§4, §5), and what follows it."""
    shift = 4 * n
    hand = a[HANDS + seat] - (1 << shift)
    a[HANDS + seat] = hand
    if not (hand >> shift) & 15:
        a[HELD + seat] &= ~(1 << n)
    a[TAKEN + colour] |= 1 << n
    a[OWNED + seat] |= a[H_CELL + 10 * colour + n]
    if colour == 0:
        a[RED_BROKEN] = 1
    length = a[TRICK_LEN]
    if length:
        led = a[LED]
        key = 32 + n if colour == 0 else 16 + n if colour == led else 0
        xs = a[XS + seat]
        if colour != led and (xs >> led) & 1:
            a[XS + seat] = xs & ~(1 << led)
        if key > a[BEST_KEY]:
            a[BEST_SEAT] = seat
            a[BEST_KEY] = key
    else:
        a[LED] = colour
        a[BEST_SEAT] = seat
        a[BEST_KEY] = 32 + n if colour == 0 else 16 + n
    a[TRICK + length] = 4 * n + colour
    length += 1
    players = a[H_PLAYERS]
    if length < players:
        a[TRICK_LEN] = length
        nxt = seat + 1
        if nxt == players:
            nxt = 0
        a[CURRENT] = nxt
        if not _can_play(a, nxt):
            _end_round(a, nxt)
        return
    # the trick is complete (§5)
    winner = a[BEST_SEAT]
    a[TRICKS + winner] += 1
    done = a[TRICKS_DONE] + 1
    a[TRICKS_DONE] = done
    for i in range(length):
        a[TRICK + i] = 0
    a[TRICK_LEN] = 0
    a[LED] = -1
    a[BEST_SEAT] = -1
    a[BEST_KEY] = -1
    if done == a[H_TRICKS]:
        _end_round(a, -1)
    else:
        _lead(a, winner)


@njit(cache=True, inline="always")
def _shuffle(a: np.ndarray, s0: np.uint64, s1: np.uint64, out: np.ndarray, at: int) -> tuple[np.uint64, np.uint64]:
    """The deck in use, shuffled into `out[at:]` (Fisher–Yates from the end) by the generator
    state (s0, s1) held in locals, so the card stores cannot be taken for changes to it; the new
    state."""
    i = at
    for n in range(1, a[H_NUMBERS] + 1):
        for _ in range(_COPIES):
            out[i] = n
            i += 1
    for i in range(a[H_DECK] - 1, 0, -1):
        bits, s0, s1 = _next(s0, s1)
        j = at + _scale(bits, i + 1)
        card = out[at + i]
        out[at + i] = out[j]
        out[j] = card
    return s0, s1


@njit(cache=True, inline="always")
def _deal(a: np.ndarray, codes: np.ndarray, at: int) -> None:
    """A new round (§2): the board cleaned, the cards of `codes[at:]` dealt, blockers placed (§8)."""
    players = a[H_PLAYERS]
    observed = a[H_OBSERVED]
    for c in range(4):
        a[TAKEN + c] = observed
    dealt = a[H_DEALT]
    i = at
    for s in range(players):
        hand = 0
        held = 0
        for _ in range(dealt):
            n = codes[i]
            i += 1
            hand += 1 << (4 * n)
            held |= 1 << n
        a[HANDS + s] = hand
        a[HELD + s] = held
        a[DISCARDS + s] = 0
        a[OWNED + s] = 0
        a[XS + s] = 15
        a[PREDICTIONS + s] = 0
        a[TRICKS + s] = 0
    blocked = 0
    revealed = 0
    for _ in range(a[H_REVEAL]):
        n = codes[i]
        i += 1
        copies = (revealed >> (4 * n)) & 15  # §8: green, then yellow, then blue
        row = _B0 if copies == 0 else _B1 if copies == 1 else _B2
        a[TAKEN + row] |= 1 << n
        blocked |= a[H_CELL + 10 * row + n]
        revealed += 1 << (4 * n)
    hidden = 0
    for _ in range(a[H_CENTRE] - a[H_REVEAL]):
        hidden += 1 << (4 * codes[i])
        i += 1
    a[BLOCKED] = blocked
    a[REVEALED] = revealed
    a[HIDDEN] = hidden
    a[RED_BROKEN] = 0
    a[TRICKS_DONE] = 0
    a[PARADOX] = -1
    a[PHASE] = DISCARD
    a[CURRENT] = -1
    a[LEADER] = -1


@njit(cache=True, inline="always")
def _deal_scratch(a: np.ndarray, s0: np.uint64, s1: np.uint64) -> tuple[np.uint64, np.uint64]:
    """Shuffle and deal through the array's own scratch, left 0 again; the generator's new state."""
    s0, s1 = _shuffle(a, s0, s1, a, DECK)
    _deal(a, a, DECK)
    for i in range(a[H_DECK]):
        a[DECK + i] = 0
    return s0, s1


# -- the contract's compiled functions ----------------------------------------------------------
@njit(cache=True)
def first_to_move(a: np.ndarray) -> int:
    phase = a[PHASE]
    if phase in (PREDICT, PLAY):
        return a[CURRENT]
    if phase == DISCARD:
        for s in range(a[H_PLAYERS]):
            if a[DISCARDS + s] == 0:
                return s
    if phase == PHASE_OVER:
        return OVER
    return CHANCE


@njit(cache=True)
def to_move(a: np.ndarray, out: np.ndarray) -> int:
    phase = a[PHASE]
    if phase == DISCARD:
        count = 0
        for s in range(a[H_PLAYERS]):
            if a[DISCARDS + s] == 0:
                out[count] = s
                count += 1
        return count
    if phase == PHASE_OVER:
        return 0
    out[0] = a[CURRENT] if phase in (PREDICT, PLAY) else CHANCE
    return 1


@njit(cache=True)
def legal(a: np.ndarray, seat: int, out: np.ndarray) -> int:
    phase = a[PHASE]
    count = 0
    if phase == PLAY and seat == a[CURRENT]:
        base = a[H_PLAY_BASE] - 4
        red, blue, yellow, green = _play_masks(a, seat)
        for colour in range(4):
            mask = red if colour == 0 else blue if colour == 1 else yellow if colour == 2 else green
            while mask:
                out[count] = base + 4 * _low_bit(mask) + colour
                count += 1
                mask &= mask - 1
    elif phase == DISCARD and 0 <= seat < a[H_PLAYERS] and a[DISCARDS + seat] == 0:
        mask = a[HELD + seat]
        while mask:
            out[count] = _low_bit(mask) - 1
            count += 1
            mask &= mask - 1
    elif phase == PREDICT and seat == a[CURRENT]:
        for i in range(a[H_NPRED]):
            out[count] = a[H_PREDICT_BASE] + i
            count += 1
    return count


@njit(cache=True)
def apply(a: np.ndarray, seat: int, action: int) -> None:
    if action >= a[H_PLAY_BASE]:
        k = action - a[H_PLAY_BASE]
        _play(a, seat, k // 4 + 1, k % 4)
    elif action >= a[H_PREDICT_BASE]:
        _predict(a, seat, a[H_PRED + action - a[H_PREDICT_BASE]])
    else:
        _discard(a, seat, action + 1)


@njit(cache=True)
def draw_chance(a: np.ndarray, rng: np.ndarray, out: np.ndarray) -> int:
    if a[PHASE] == START:
        out[0] = _below(rng, a[H_PLAYERS])
        return 1
    rng[0], rng[1] = _shuffle(a, rng[0], rng[1], out, 0)
    return a[H_DECK]


@njit(cache=True)
def apply_chance(a: np.ndarray, codes: np.ndarray, n: int) -> None:
    if a[PHASE] == START:
        a[START_SEAT] = codes[0]
        a[PHASE] = DEAL
    else:
        _deal(a, codes, 0)


@njit(cache=True)
def chance(a: np.ndarray, rng: np.ndarray) -> None:
    if a[PHASE] == START:
        a[START_SEAT] = _below(rng, a[H_PLAYERS])
        a[PHASE] = DEAL
    else:
        rng[0], rng[1] = _deal_scratch(a, rng[0], rng[1])


@njit(cache=True)
def scores(a: np.ndarray, out: np.ndarray) -> None:
    for s in range(a[H_PLAYERS]):
        out[s] = a[TOTALS + s]


@njit(cache=True)
def rounds_done(a: np.ndarray) -> int:
    return a[ROUND] if a[PHASE] == PHASE_OVER else a[ROUND] - 1


@njit(cache=True)
def playout(a: np.ndarray, rng: np.ndarray, max_actions: int) -> int:
    """Uniformly random play to the end (chance steps count as actions, as in
    `engine.random_playout`; simultaneous discards in seat order). Written as one loop over
    inlined helpers: the rules' hot path without a call per action."""
    s0 = rng[0]  # the generator in locals for the whole loop (written back at the end)
    s1 = rng[1]
    count = 0
    while count < max_actions:
        phase = a[PHASE]
        if phase == PLAY:
            seat = a[CURRENT]
            red, blue, yellow, green = _play_masks(a, seat)
            bits, s0, s1 = _next(s0, s1)
            k = _scale(bits, _popcount(red) + _popcount(blue) + _popcount(yellow) + _popcount(green))
            colour = 0
            mask = red
            size = _popcount(red)
            if k >= size:
                k -= size
                colour = 1
                mask = blue
                size = _popcount(blue)
                if k >= size:
                    k -= size
                    colour = 2
                    mask = yellow
                    size = _popcount(yellow)
                    if k >= size:
                        k -= size
                        colour = 3
                        mask = green
            _play(a, seat, _nth_bit(mask, k), colour)
        elif phase == DISCARD:
            seat = 0
            while a[DISCARDS + seat]:
                seat += 1
            held = a[HELD + seat]
            bits, s0, s1 = _next(s0, s1)
            _discard(a, seat, _nth_bit(held, _scale(bits, _popcount(held))))
        elif phase == PREDICT:
            bits, s0, s1 = _next(s0, s1)
            _predict(a, a[CURRENT], a[H_PRED + _scale(bits, a[H_NPRED])])
        elif phase == DEAL:
            s0, s1 = _deal_scratch(a, s0, s1)
        elif phase == START:
            bits, s0, s1 = _next(s0, s1)
            a[START_SEAT] = _scale(bits, a[H_PLAYERS])
            a[PHASE] = DEAL
        else:
            break
        count += 1
    rng[0] = s0
    rng[1] = s1
    return count


# -- worlds for a search (a compiled `Game.determinize`) -----------------------------------------
# A sampler spec (int64): the checked seat (-1: none), where its hand starts in the pool, the numbers
# it could play (mask), how many slots, how many pool cards, then (seat, cards, discarded) per slot,
# then the pool. determinize.Determinizer computes all of it from the view; see `sampler`.
S_CHECK, S_CHECK_AT, S_PLAYABLE, S_SLOTS, S_POOL, S_HEAD = 0, 1, 2, 3, 4, 5


@njit(cache=True, inline="always")
def _place(a: np.ndarray, spec: np.ndarray, cards: int) -> None:
    """Hands, discards and hidden centre cards of the other seats from the pool shuffled into
    `a[cards:]` (determinize.Determinizer._place)."""
    at = cards
    for i in range(spec[S_SLOTS]):
        seat = spec[S_HEAD + 3 * i]
        hand = 0
        held = 0
        for _ in range(spec[S_HEAD + 3 * i + 1]):
            n = a[at]
            at += 1
            hand += 1 << (4 * n)
            held |= 1 << n
        a[HANDS + seat] = hand
        a[HELD + seat] = held
        if spec[S_HEAD + 3 * i + 2]:
            a[DISCARDS + seat] = a[at]
            at += 1
    hidden = 0
    for i in range(at, cards + spec[S_POOL]):
        hidden += 1 << (4 * a[i])
    a[HIDDEN] = hidden


@njit(cache=True)
def determinize(template: np.ndarray, spec: np.ndarray, rng: np.ndarray, out: np.ndarray) -> None:
    """One world into `out`: `template` (the view's position, others' cards missing) with the pool
    shuffled into the slots, as `Game.determinize` samples (uniform over the deals the counts allow,
    the seat to play holding a legal play; rejection, then the same fallback). The pool is shuffled
    in `out`'s scratch, left 0 again."""
    pool = S_HEAD + 3 * spec[S_SLOTS]
    size = spec[S_POOL]
    check = spec[S_CHECK]
    for attempt in range(MAX_TRIES + 1):
        out[:] = template
        for i in range(size):
            out[DECK + i] = spec[pool + i]
        for i in range(size - 1, 0, -1):
            j = DECK + _below(rng, i + 1)
            card = out[DECK + i]
            out[DECK + i] = out[j]
            out[j] = card
        if attempt == MAX_TRIES and check >= 0:  # the first playable card of a shuffle: a uniform pick
            to = DECK + spec[S_CHECK_AT]
            for i in range(DECK, DECK + size):
                if spec[S_PLAYABLE] >> out[i] & 1:
                    card = out[i]
                    out[i] = out[to]
                    out[to] = card
                    break
        _place(out, spec, DECK)
        for i in range(size):
            out[DECK + i] = 0
        if check < 0 or _can_play(out, check):
            return


# -- the Python side ----------------------------------------------------------------------------
class CatboxKernel(Kernel):
    game_name = "catbox"
    NOT_PACKED = Kernel.NOT_PACKED | {
        "last_round",  # the finished round as views show it (its facts are in the round's slots until the deal)
        "last_trick",  # the finished trick as views show it (its cards are on the board, its winner in tricks)
    }

    first_to_move = staticmethod(first_to_move)
    to_move = staticmethod(to_move)
    legal = staticmethod(legal)
    apply = staticmethod(apply)
    draw_chance = staticmethod(draw_chance)
    apply_chance = staticmethod(apply_chance)
    chance = staticmethod(chance)
    scores = staticmethod(scores)
    rounds_done = staticmethod(rounds_done)
    playout = staticmethod(playout)
    determinize = staticmethod(determinize)

    def __init__(self, players: int, options: Options, encoding: Encoding):
        super().__init__(players, options, encoding)
        self.table = table = table_for(players, options["side"])
        setup = table.setup
        header = np.zeros(SIZE, dtype=np.int64)
        header[H_PLAYERS] = players
        header[H_SIDE] = 0 if table.side == "white" else 1
        header[H_NUMBERS] = setup.numbers
        header[H_DEALT] = setup.dealt
        header[H_TRICKS] = setup.tricks
        header[H_COLUMNS] = setup.columns
        header[H_DECK] = len(table.deck_cards)
        header[H_OBSERVED] = table.observed_numbers
        header[H_NPRED] = len(setup.predictions)
        header[H_PRED : H_PRED + len(setup.predictions)] = setup.predictions
        header[H_BONUS_AT_MOST] = -1 if setup.bonus_at_most is None else setup.bonus_at_most
        header[H_REVEAL] = setup.reveal
        header[H_CENTRE] = setup.centre
        header[H_PREDICT_BASE] = encoding.ids[f"predict {setup.predictions[0]}"] if setup.predictions else setup.numbers
        header[H_PLAY_BASE] = encoding.ids["play 1 red"]
        header[H_NOT_FIRST] = table.not_first_column
        header[H_NOT_LAST] = table.not_last_column
        for colour, bits in enumerate(table.cell_bit):
            header[H_CELL + 10 * colour : H_CELL + 10 * colour + 10] = bits
        self.header = header

    @property
    def size(self) -> int:
        return SIZE

    def pack(self, state: CatboxState) -> np.ndarray:  # type: ignore[override]
        a = self.header.copy()
        n = self.players
        a[PHASE] = state.phase
        a[ROUND] = state.round
        a[START_SEAT] = state.start
        a[CURRENT] = state.current
        a[LEADER] = state.leader
        a[RED_BROKEN] = int(state.red_broken)
        a[TRICKS_DONE] = state.tricks_done
        a[LED] = state.led
        a[BEST_SEAT] = state.best_seat
        a[BEST_KEY] = state.best_key
        a[PARADOX] = state.paradox
        a[BLOCKED] = state.blocked
        a[WINNERS] = sum(1 << s for s in state.winners_)
        a[TRICK_LEN] = len(state.trick)
        a[REVEALED] = pack_cards(state.revealed)
        a[HIDDEN] = pack_cards(state.hidden)
        a[TAKEN : TAKEN + 4] = state.taken
        for base, values in (
            (HANDS, state.hands),
            (HELD, state.held),
            (DISCARDS, state.discards),
            (OWNED, state.owned),
            (XS, state.xs),
            (PREDICTIONS, state.predictions),
            (TRICKS, state.tricks),
            (TOTALS, state.totals),
        ):
            a[base : base + n] = values
        for i, (_, play) in enumerate(state.trick):
            a[TRICK + i] = 4 * play.number + play.colour
        for r, points in enumerate(state.scores_by_round):
            a[ROUND_SCORES + SEATS * r : ROUND_SCORES + SEATS * r + n] = points
        return a

    def unpack(self, array: np.ndarray) -> CatboxState:
        a = [int(x) for x in array]
        n = self.players
        state = CatboxState(GAME, n, self.options, self.table)
        phase = a[PHASE]
        state.phase = phase
        state.round = a[ROUND]
        state.start = a[START_SEAT]
        state.current = a[CURRENT]
        state.leader = a[LEADER]
        state.red_broken = bool(a[RED_BROKEN])
        state.tricks_done = a[TRICKS_DONE]
        state.led = a[LED]
        state.best_seat = a[BEST_SEAT]
        state.best_key = a[BEST_KEY]
        state.paradox = a[PARADOX]
        state.blocked = a[BLOCKED]
        state.winners_ = [s for s in range(n) if a[WINNERS] >> s & 1]
        state.revealed = tuple(unpack_cards(a[REVEALED]))
        state.hidden = tuple(unpack_cards(a[HIDDEN]))
        state.taken = a[TAKEN : TAKEN + 4]
        state.hands = a[HANDS : HANDS + n]
        state.held = a[HELD : HELD + n]
        state.discards = a[DISCARDS : DISCARDS + n]
        state.owned = a[OWNED : OWNED + n]
        state.xs = a[XS : XS + n]
        state.predictions = a[PREDICTIONS : PREDICTIONS + n]
        state.tricks = a[TRICKS : TRICKS + n]
        state.totals = a[TOTALS : TOTALS + n]
        leader = state.leader
        state.trick = [((leader + i) % n, PLAYS[a[TRICK + i] >> 2][a[TRICK + i] & 3]) for i in range(a[TRICK_LEN])]
        state.best_play = next((play for s, play in state.trick if s == state.best_seat), None)
        done = state.round if phase == PHASE_OVER else state.round - 1
        state.scores_by_round = [a[ROUND_SCORES + SEATS * r : ROUND_SCORES + SEATS * r + n] for r in range(done)]
        if phase in (START, DEAL):
            state.to_move_ = (CHANCE,)
        elif phase == DISCARD:
            state.to_move_ = tuple(s for s in range(n) if not state.discards[s])
        elif phase == PHASE_OVER:
            state.to_move_ = ()
        else:
            state.to_move_ = (state.current,)
        return state

    def sampler(self, view: Mapping[str, Any]) -> tuple[np.ndarray, np.ndarray]:
        """The template position and sampler spec of `view` for the compiled `determinize`, from
        the same parse of the view as `Game.determinize` (determinize.Determinizer)."""
        d = determinizer(GAME, view)
        spec = [d.check, d.check_at, d.playable, len(d.slots), len(d.pool)]
        for seat, cards, discarded in d.slots:
            spec += [seat, cards, int(bool(discarded))]
        return self.pack(d.template), np.array(spec + list(d.pool), dtype=np.int64)

    def chance_codes(self, array: np.ndarray, action: CatboxAction) -> np.ndarray:  # type: ignore[override]
        if isinstance(action, Start):
            return np.array([action.seat], dtype=np.int64)
        if not isinstance(action, Deal):
            raise TypeError(f"not a chance action of Cat in the Box: {action!r}")
        cards = [c for hand in action.hands for c in hand] + list(action.reveal) + list(action.hidden)
        return np.array(cards, dtype=np.int64)

    def chance_action(self, array: np.ndarray, codes: np.ndarray) -> CatboxAction:
        if array[PHASE] == START:
            return Start(int(codes[0]))
        deck = [int(c) for c in codes[: int(array[H_DECK])]]
        deal = self.encoding.deal_from(None, deck)  # type: ignore[arg-type]
        assert isinstance(deal, Deal)
        return deal


KERNEL = CatboxKernel
