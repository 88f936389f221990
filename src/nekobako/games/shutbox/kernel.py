"""Shut the Box as a compiled kernel (the contract: `engine/kernel.py`, docs/engine.md *Kernels*).

The position is one flat `int64` array: a header of `HEADER` slots, then `SEAT_FIELDS` blocks of
`players` slots each (block `k` of seat `s` at `HEADER + k * players + s`).

Header (options first, so one compiled function serves every table):

| slot | holds |
|---|---|
| `PLAYERS` | player count 1–12 |
| `TILES` | 9, 10 or 12 |
| `SCORING` | 0 total, 1 count, 2 digits |
| `LENGTH` | 0 short, 1 long |
| `SIM`, `QUICK` | the two switches, 0/1 |
| `MAX_CLOSE` | 3, 2, or 12 for `any` |
| `ONE_DIE` | 0 max6, 1 sum6, 2 never |
| `CONFIG` | row of the id tables: `TILE_COUNTS` index × 3 + `MAX_CLOSE` index |
| `THRESHOLD`, `LIMIT` | elimination total and round limit of the scoring and length, -1 if none |
| `CHANCE_DUE` | 1 while chance moves (`_to_move is CHANCE_ONLY`) |
| `ROLL_N` | the state's `_roll_n`: 0 until the start player is drawn, then the dice last rolled (1/2) |
| `ROLLER`, `START`, `ROUND`, `TURN`, `OVER` | `_roller`, `_start`, `_round`, `_turn`, `_over` |
| `ORDER_LEN` | seats in this round's turn order |

Per-seat blocks: `ORDER` (this round's turn order, `ORDER_LEN` used), `ACTIVE` (1 if in `_active`:
the seats to move are the active ones in turn order), `KIND` (what `_legal[seat]` holds: 0 nothing,
1 the roll actions of the board, 2 the shuts fitting the seat's dice), `OPEN` (board bitmask),
`DIE1`, `DIE2` (the seat's last roll, faces ascending; `DIE2` 0 for one die, both 0 for none),
`PENALTY` (this round's, -1 while the turn is not over), `SHUT`, `TOTAL`, `ELIMINATED`, `WINNER`.

Chance codes: the start seat (one code), or the faces 1–6 of the dice rolled (one code per die).
Action ids are `ShutboxEncoding`'s: `roll` 0, `roll 1` 1, then the shuts by ascending tile mask;
the module-level tables below map them to masks for every tile count and `max_close`.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, ClassVar

import numpy as np

from ...engine import CHANCE, Options
from ...engine.encoding import Encoding
from ...engine.kernel import OVER as OVER_CODE
from ...engine.kernel import Kernel
from ...engine.kernel_cache import njit
from ...engine.kernel_rng import below
from ...engine.registry import get_game
from .actions import Dice, Shut, Start
from .options import ELIMINATION_AT, MAX_CLOSE, ONE_DIE_RULES, ROUND_LIMIT, SCORINGS, TILE_COUNTS
from .state import CHANCE_ONLY, NOBODY, ShutState
from .tables import TOTAL_BITS, max_tiles, tables

PLAYERS, TILES, SCORING, LENGTH, SIM, QUICK, MAX_CLOSE_SLOT, ONE_DIE, CONFIG, THRESHOLD, LIMIT = range(11)
CHANCE_DUE, ROLL_N, ROLLER, START, ROUND, TURN, OVER, ORDER_LEN = range(11, 19)
HEADER = 19
ORDER, ACTIVE, KIND, OPEN, DIE1, DIE2, PENALTY, SHUT, TOTAL, ELIMINATED, WINNER = range(11)
SEAT_FIELDS = 11
KIND_NONE, KIND_ROLL, KIND_SHUT = 0, 1, 2
SCRATCH = 32
"""Room for any legal list (15 shuts at most: 12 as distinct parts) or chance codes."""


def _id_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every shut a roll can ask for (tiles 1–12, sum ≤ 12), grouped by total in the engine's order
    (fewest tiles first, then ascending: `tables.Tables`), with its id per configuration (-1 where
    the table has no such shut), and per configuration the mask of each id."""
    combos: list[tuple[int, int]] = []  # (total, mask) in the engine's order within a total
    starts = np.zeros(14, dtype=np.int64)
    for total in range(1, 13):
        starts[total] = len(combos)
        for size in range(1, 13):
            for combo in combinations(range(1, 13), size):
                if sum(combo) == total:
                    combos.append((total, sum(1 << (t - 1) for t in combo)))
    starts[13] = len(combos)
    masks = np.array([m for _, m in combos], dtype=np.int64)
    ids = np.full((len(TILE_COUNTS) * len(MAX_CLOSE), len(combos)), -1, dtype=np.int64)
    mask_of = np.zeros((len(TILE_COUNTS) * len(MAX_CLOSE), 2 + len(combos)), dtype=np.int64)
    for ti, tiles in enumerate(TILE_COUNTS):
        for ki, most in enumerate(MAX_CLOSE):
            row = ti * len(MAX_CLOSE) + ki
            most_tiles = 12 if most == "any" else int(most)  # type: ignore[call-overload]
            valid = sorted(m for m in masks.tolist() if m >> tiles == 0 and m.bit_count() <= most_tiles)
            rank = {m: 2 + i for i, m in enumerate(valid)}
            for j, m in enumerate(masks.tolist()):
                if m in rank:
                    ids[row, j] = rank[m]
                    mask_of[row, rank[m]] = m
    return masks, starts, ids, mask_of


COMBO_MASK, TOTAL_START, COMBO_ID, ID_MASK = _id_tables()


# -- the compiled rules -------------------------------------------------------------------------------
@njit(cache=True)
def _at(a: np.ndarray, field: int, seat: int) -> int:
    return HEADER + field * a[PLAYERS] + seat


@njit(cache=True)
def _penalty(a: np.ndarray, mask: int) -> int:
    scoring = a[SCORING]
    value = 0
    for t in range(12):
        if mask >> t & 1:
            if scoring == 0:
                value += t + 1
            elif scoring == 1:
                value += 1
            else:
                value = value * (100 if t >= 9 else 10) + t + 1
    return value


@njit(cache=True)
def _one_die(a: np.ndarray, mask: int) -> bool:
    rule = a[ONE_DIE]
    if mask == 0 or rule == 2:
        return False
    if rule == 0:
        return mask >> 6 == 0
    total = 0
    for t in range(12):
        if mask >> t & 1:
            total += t + 1
    return total <= 6


@njit(cache=True)
def _shuts(a: np.ndarray, mask: int, total: int, out: np.ndarray, n: int) -> int:
    """The ids of the shuts fitting `total` on board `mask`, appended to `out` from `n`."""
    row = a[CONFIG]
    for j in range(TOTAL_START[total], TOTAL_START[total + 1]):
        c = COMBO_MASK[j]
        ident = COMBO_ID[row, j]
        if ident >= 0 and c & mask == c:
            out[n] = ident
            n += 1
    return n


@njit(cache=True)
def _fits(a: np.ndarray, mask: int, total: int) -> bool:
    row = a[CONFIG]
    for j in range(TOTAL_START[total], TOTAL_START[total + 1]):
        c = COMBO_MASK[j]
        if COMBO_ID[row, j] >= 0 and c & mask == c:
            return True
    return False


@njit(cache=True)
def first_to_move(a: np.ndarray) -> int:
    if a[OVER]:
        return OVER_CODE
    if a[CHANCE_DUE]:
        return CHANCE
    p = a[PLAYERS]
    for i in range(a[ORDER_LEN]):
        s = a[HEADER + ORDER * p + i]
        if a[HEADER + ACTIVE * p + s]:
            return s
    return OVER_CODE


@njit(cache=True)
def to_move(a: np.ndarray, out: np.ndarray) -> int:
    if a[OVER]:
        return 0
    if a[CHANCE_DUE]:
        out[0] = CHANCE
        return 1
    p = a[PLAYERS]
    n = 0
    for i in range(a[ORDER_LEN]):
        s = a[HEADER + ORDER * p + i]
        if a[HEADER + ACTIVE * p + s]:
            out[n] = s
            n += 1
    return n


@njit(cache=True)
def legal(a: np.ndarray, seat: int, out: np.ndarray) -> int:
    if a[CHANCE_DUE] or seat < 0 or seat >= a[PLAYERS]:
        return 0
    kind = a[_at(a, KIND, seat)]
    mask = a[_at(a, OPEN, seat)]
    if kind == KIND_ROLL:
        out[0] = 0
        if _one_die(a, mask):
            out[1] = 1
            return 2
        return 1
    if kind == KIND_SHUT:
        return _shuts(a, mask, a[_at(a, DIE1, seat)] + a[_at(a, DIE2, seat)], out, 0)
    return 0


@njit(cache=True)
def _begin_round(a: np.ndarray) -> None:
    p = a[PLAYERS]
    a[ROUND] += 1
    full = (1 << a[TILES]) - 1
    n = 0
    for i in range(p):
        s = (a[START] + i) % p
        if not a[HEADER + ELIMINATED * p + s]:
            a[HEADER + ORDER * p + n] = s
            n += 1
    for i in range(n, p):
        a[HEADER + ORDER * p + i] = 0
    a[ORDER_LEN] = n
    for s in range(p):
        a[HEADER + OPEN * p + s] = full
        a[HEADER + PENALTY * p + s] = -1
        a[HEADER + SHUT * p + s] = 0
        a[HEADER + DIE1 * p + s] = 0
        a[HEADER + DIE2 * p + s] = 0
        a[HEADER + KIND * p + s] = KIND_NONE
        a[HEADER + ACTIVE * p + s] = 0
    if a[SIM]:
        for i in range(n):
            s = a[HEADER + ORDER * p + i]
            a[HEADER + ACTIVE * p + s] = 1
            a[HEADER + KIND * p + s] = KIND_ROLL
    else:
        a[TURN] = 0
        s = a[HEADER + ORDER * p]
        a[HEADER + ACTIVE * p + s] = 1
        a[HEADER + KIND * p + s] = KIND_ROLL
    a[CHANCE_DUE] = 0


@njit(cache=True)
def _lowest(a: np.ndarray, seats: int) -> None:
    """The seats of bitmask `seats` with the lowest total win."""
    p = a[PLAYERS]
    best = -1
    for s in range(p):
        if seats >> s & 1:
            total = a[HEADER + TOTAL * p + s]
            if best < 0 or total < best:
                best = total
    for s in range(p):
        if seats >> s & 1 and a[HEADER + TOTAL * p + s] == best:
            a[HEADER + WINNER * p + s] = 1


@njit(cache=True)
def _finish(a: np.ndarray) -> None:
    p = a[PLAYERS]
    a[OVER] = 1
    a[CHANCE_DUE] = 0
    for s in range(p):
        a[HEADER + ACTIVE * p + s] = 0
        a[HEADER + KIND * p + s] = KIND_NONE


@njit(cache=True)
def _end_round(a: np.ndarray) -> None:
    """Score the round, then eliminations and the end of the game (`ShutState._decide`)."""
    p = a[PLAYERS]
    shutters = 0
    for s in range(p):
        penalty = a[HEADER + PENALTY * p + s]
        if penalty > 0:
            a[HEADER + TOTAL * p + s] += penalty
        if a[HEADER + SHUT * p + s]:
            shutters |= 1 << s
    if shutters:
        for s in range(p):
            if shutters >> s & 1:
                a[HEADER + WINNER * p + s] = 1
        _finish(a)
        return
    newly = 0
    threshold = a[THRESHOLD]
    if threshold >= 0:
        for i in range(a[ORDER_LEN]):
            s = a[HEADER + ORDER * p + i]
            if a[HEADER + TOTAL * p + s] >= threshold:
                a[HEADER + ELIMINATED * p + s] = 1
                newly |= 1 << s
    still = 0
    left = 0
    for s in range(p):
        if not a[HEADER + ELIMINATED * p + s]:
            still |= 1 << s
            left += 1
    limit = a[LIMIT]
    at_limit = limit >= 0 and a[ROUND] >= limit
    if p == 1:
        if newly:
            _finish(a)
        elif at_limit:
            _lowest(a, still)  # one seat: it wins
            _finish(a)
        else:
            _begin_round(a)
        return
    if newly and (a[QUICK] or left <= 1):
        _lowest(a, still if still else newly)
        _finish(a)
    elif at_limit:
        _lowest(a, still)
        _finish(a)
    else:
        _begin_round(a)


@njit(cache=True)
def _end_turn(a: np.ndarray, seat: int) -> None:
    """`seat` cannot go on: its board is shut, or no tiles fit its dice (`ShutState._end_turn`)."""
    p = a[PLAYERS]
    mask = a[HEADER + OPEN * p + seat]
    a[HEADER + PENALTY * p + seat] = _penalty(a, mask)
    a[HEADER + KIND * p + seat] = KIND_NONE
    a[CHANCE_DUE] = 0
    if mask == 0:
        a[HEADER + SHUT * p + seat] = 1
        _end_round(a)
    elif a[SIM]:
        a[HEADER + ACTIVE * p + seat] = 0
        for s in range(p):
            if a[HEADER + ACTIVE * p + s]:
                return
        _end_round(a)
    else:
        a[TURN] += 1
        if a[TURN] < a[ORDER_LEN]:
            nxt = a[HEADER + ORDER * p + a[TURN]]
            a[HEADER + ACTIVE * p + seat] = 0
            a[HEADER + ACTIVE * p + nxt] = 1
            a[HEADER + KIND * p + nxt] = KIND_ROLL
        else:
            _end_round(a)


@njit(cache=True)
def apply(a: np.ndarray, seat: int, action: int) -> None:
    if action < 2:  # roll (two dice) or roll 1: chance rolls for this seat next
        a[ROLLER] = seat
        a[ROLL_N] = 2 - action
        a[CHANCE_DUE] = 1
        return
    at = _at(a, OPEN, seat)
    mask = a[at] ^ ID_MASK[a[CONFIG], action]
    a[at] = mask
    if mask:
        a[_at(a, KIND, seat)] = KIND_ROLL
    else:
        _end_turn(a, seat)


@njit(cache=True)
def draw_chance(a: np.ndarray, rng: np.ndarray, out: np.ndarray) -> int:
    n = a[ROLL_N]
    if n == 0:
        out[0] = below(rng, a[PLAYERS])
        return 1
    for i in range(n):
        out[i] = 1 + below(rng, 6)
    return n


@njit(cache=True)
def apply_chance(a: np.ndarray, out: np.ndarray, n: int) -> None:
    if a[ROLL_N] == 0:
        a[START] = out[0]
        _begin_round(a)
        return
    seat = a[ROLLER]
    low = out[0]
    high = 0
    if n == 2:
        high = out[1]
        if high < low:
            low, high = high, low
    a[_at(a, DIE1, seat)] = low
    a[_at(a, DIE2, seat)] = high
    if _fits(a, a[_at(a, OPEN, seat)], low + high):
        a[_at(a, KIND, seat)] = KIND_SHUT
        a[CHANCE_DUE] = 0
    else:
        _end_turn(a, seat)


@njit(cache=True)
def chance(a: np.ndarray, rng: np.ndarray) -> None:
    codes = np.empty(2, dtype=np.int64)
    n = draw_chance(a, rng, codes)
    apply_chance(a, codes, n)


@njit(cache=True)
def scores(a: np.ndarray, out: np.ndarray) -> None:
    p = a[PLAYERS]
    for s in range(p):
        out[s] = a[HEADER + TOTAL * p + s]


@njit(cache=True)
def rounds_done(a: np.ndarray) -> int:
    if a[OVER]:
        return a[ROUND]
    return max(a[ROUND] - 1, 0)


@njit(cache=True)
def playout(a: np.ndarray, rng: np.ndarray, max_actions: int) -> int:
    """Uniformly random play to the end, as `engine.random_playout` (the first seat to move acts)."""
    out = np.empty(SCRATCH, dtype=np.int64)
    count = 0
    while count < max_actions:
        seat = first_to_move(a)
        if seat == OVER_CODE:
            break
        if seat == CHANCE:
            apply_chance(a, out, draw_chance(a, rng, out))
        else:
            n = legal(a, seat, out)
            apply(a, seat, out[below(rng, n)])
        count += 1
    return count


# -- the conversions (Python) -------------------------------------------------------------------------
class ShutboxKernel(Kernel):
    """One Shut the Box table's kernel."""

    game_name: ClassVar[str] = "shutbox"
    NOT_PACKED: ClassVar[frozenset[str]] = Kernel.NOT_PACKED | {
        "_rounds",  # the score sheet: results and views only; the rules read the packed totals
        "_last",  # the last finished round as views show it until the next one ends
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

    def __init__(self, players: int, options: Options, encoding: Encoding):
        super().__init__(players, options, encoding)
        key = (options.scoring, options.length)
        self._header = [
            players,
            options.tiles,
            SCORINGS.index(options.scoring),
            ("short", "long").index(options.length),
            int(bool(options.simultaneous)),
            int(bool(options.quick)),
            max_tiles(options.max_close),
            ONE_DIE_RULES.index(options.one_die),
            TILE_COUNTS.index(options.tiles) * len(MAX_CLOSE) + MAX_CLOSE.index(options.max_close),
            ELIMINATION_AT.get(key, -1),
            ROUND_LIMIT.get(key, -1),
        ]

    @property
    def size(self) -> int:
        return HEADER + SEAT_FIELDS * self.players

    def _slot(self, field: int, seat: int) -> int:
        return HEADER + field * self.players + seat

    def pack(self, state: Any) -> np.ndarray:
        assert isinstance(state, ShutState)
        p = self.players
        a = np.zeros(self.size, dtype=np.int64)
        a[: len(self._header)] = self._header
        a[CHANCE_DUE] = state._to_move is CHANCE_ONLY
        a[ROLL_N] = state._roll_n
        a[ROLLER] = state._roller
        a[START] = state._start
        a[ROUND] = state._round
        a[TURN] = state._turn
        a[OVER] = state._over
        a[ORDER_LEN] = len(state._order)
        for i, s in enumerate(state._order):
            a[HEADER + ORDER * p + i] = s
        for s in state._active:
            a[self._slot(ACTIVE, s)] = 1
        for s in range(p):
            legal = state._legal[s]
            a[self._slot(KIND, s)] = KIND_NONE if not legal else KIND_SHUT if type(legal[0]) is Shut else KIND_ROLL
            a[self._slot(OPEN, s)] = state._open[s]
            dice = state._dice[s]
            if dice is not None:
                a[self._slot(DIE1, s)] = dice.faces[0]
                a[self._slot(DIE2, s)] = dice.faces[1] if dice.n == 2 else 0
            penalty = state._penalty[s]
            a[self._slot(PENALTY, s)] = -1 if penalty is None else penalty
            a[self._slot(SHUT, s)] = state._shut[s]
            a[self._slot(TOTAL, s)] = state._totals[s]
            a[self._slot(ELIMINATED, s)] = state._eliminated[s]
        for s in state._winners:
            a[self._slot(WINNER, s)] = 1
        return a

    def unpack(self, array: np.ndarray) -> ShutState:
        a = [int(v) for v in array]
        p = self.players
        state = get_game("shutbox").new_initial_state(p, self.options)
        assert isinstance(state, ShutState)
        t = tables(self.options.tiles, self.options.max_close, self.options.one_die)

        def seats(field: int) -> list[int]:
            return a[HEADER + field * p : HEADER + field * p + p]

        state._roll_n = a[ROLL_N]
        state._roller = a[ROLLER]
        state._start = a[START]
        state._round = a[ROUND]
        state._turn = a[TURN]
        state._over = bool(a[OVER])
        state._order = tuple(seats(ORDER)[: a[ORDER_LEN]])
        state._open = seats(OPEN)
        active = seats(ACTIVE)
        state._active = tuple(s for s in state._order if active[s]) if not a[OVER] else NOBODY
        if a[OVER]:
            state._to_move = NOBODY
        elif a[CHANCE_DUE]:
            state._to_move = CHANCE_ONLY
        else:
            state._to_move = state._active
        die1, die2 = seats(DIE1), seats(DIE2)
        state._dice = [None if not die1[s] else Dice(die1[s], die2[s]) if die2[s] else Dice(die1[s]) for s in range(p)]
        kinds = seats(KIND)
        state._legal = [
            t.rolls[state._open[s]]
            if kinds[s] == KIND_ROLL
            else t.shuts[state._open[s] << TOTAL_BITS | die1[s] + die2[s]]
            if kinds[s] == KIND_SHUT
            else NOBODY
            for s in range(p)
        ]
        state._penalty = [None if v < 0 else v for v in seats(PENALTY)]
        state._shut = [bool(v) for v in seats(SHUT)]
        state._totals = seats(TOTAL)
        state._eliminated = [bool(v) for v in seats(ELIMINATED)]
        state._winners = [s for s, v in enumerate(seats(WINNER)) if v]
        return state

    def chance_codes(self, array: np.ndarray, action: Any) -> np.ndarray:
        if type(action) is Start:
            return np.array([action.seat], dtype=np.int64)
        assert type(action) is Dice
        return np.array(action.faces, dtype=np.int64)

    def chance_action(self, array: np.ndarray, codes: np.ndarray) -> Any:
        n = int(array[ROLL_N])
        if n == 0:
            return Start(int(codes[0]))
        return Dice(*(int(c) for c in codes[:n]))


KERNEL = ShutboxKernel
