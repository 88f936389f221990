"""Catopomp's compiled rules kernel (engine/kernel.py is the contract; docs/engine.md, *Kernels*).

One position is one flat `int64` array of `SIZE` slots (the same length at every table; seats past
the player count stay 0). Card slots are the engine's (`cards.py`: 1–20, MITCH 21, CATLETON 22), a
play is its index `u` in the universal catalog (`catalog.py`), phases are `phases.py`'s.

Header (written by `pack`, never changed by the rules):

* `PLAYERS`, `HAND_SIZE`, `DICE_N`, `GEMS0`, `CASUAL`, `EXTRA`: the player count and the options
  (`EXTRA`: 0 none, 1 mitch, 2 catleton, 3 both; the deck is `DECK`);
* `MAX_SIZE`, `MAX_VALUE`, `NCARDS`, `POOL`, `PLAY_BASE`: derived: values per play, the highest
  value, card kinds in the deck, cards in it, the first play id;
* `DECK + c`: copies of card `c` (extras included);
* `CARD_ID + c`, `CARD_AT + i`: card `c`'s index among the deck's kinds (-1: none); the `i`-th kind;
* `MEMBER + w`, `MEMBER_BELOW + w`: bit `u` set where catalog play `u` exists at this table; the
  set bits in the words before `w`.

Position (`pack` / `unpack` convert; the rules write only these and the scratch):

* `PHASE`, `ROUND`, `START_P`, `CURRENT`, `TRANSFER_TO`: as the state's slots (-1: none);
* `TABLE`, `TABLE_OWNER`, `THRESHOLD`, `PASSED`: the table's play (catalog index, -1: none), its
  owner and strength, the seats that passed since (bits);
* `HOLDERS`, `PENDING`, `NLOSSES`: spare-die holders and those still choosing (bits); rounds done;
* `GEMS`, `HAND_N`, `HELL_N`, `SPARE_F`, `USED_N` `+ seat`: per seat;
* `USED + 3 * seat + i`: the dice of its boost in the state's order (central faces, its spare's face);
* `HANDS`, `HELLS` `+ SLOTS * seat + c`; `UNDEALT + c`, `REMOVED + c`, `CENTRE + face`: counts;
* `LOSSES + r`: the seat that lost a gem in round `r + 1`.

Scratch (`RANKS + w`, zero between calls): the legal plays of one `legal` call as bits in engine
order, so the list comes out sorted without sorting.

Action ids are the encoding's: `pass`, `keep`, `spare 1…6`, then `bury`, `give`, `discard` per
deck card, then the table's plays in catalog order (`PLAY_BASE +` the set `MEMBER` bits below `u`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, cast

import numpy as np

from ...engine.kernel import CHANCE, OVER, Kernel
from ...engine.kernel_cache import njit
from ...engine.kernel_rng import below
from . import actions as A
from .cards import CATLETON, MAX_NUMBER, MITCH, SLOTS
from .catalog import MAX_CARDS, SPECS, catalog
from .options import rules_for
from .phases import BURY, DEAL, DICE, PLAY, SPARE, START, TRANSFER
from .phases import OVER as OVER_PHASE
from .state import NO_HIDDEN_SPARES, CatopompState

MAXP = 4
MAX_ROUNDS = MAXP * 4 + 1  # rounds end with a lost gem: at most players * (gems - 1) + 1
_CAT = catalog()
NPLAYS = len(_CAT.texts)
WORDS = (NPLAYS + 63) // 64
NSPECS = len(SPECS)
MAX_CODES = MAX_NUMBER * 8 + MAXP
"""Codes `draw_chance` may write: the largest deck (a deal's codes are the shuffled deck)."""
MAX_LEGAL = 8 + 3 * (SLOTS - 1) + NPLAYS
"""An upper bound of the legal ids of any position (for `legal`'s `out`)."""

# header
PLAYERS, HAND_SIZE, DICE_N, GEMS0, CASUAL, EXTRA, MAX_SIZE, MAX_VALUE, NCARDS, POOL, PLAY_BASE = range(11)
DECK = 11
CARD_ID = DECK + SLOTS
CARD_AT = CARD_ID + SLOTS
MEMBER = CARD_AT + SLOTS
MEMBER_BELOW = MEMBER + WORDS
# position
POSITION = MEMBER_BELOW + WORDS
PHASE = POSITION
ROUND = POSITION + 1
START_P = POSITION + 2
CURRENT = POSITION + 3
TRANSFER_TO = POSITION + 4
TABLE = POSITION + 5
TABLE_OWNER = POSITION + 6
THRESHOLD = POSITION + 7
PASSED = POSITION + 8
HOLDERS = POSITION + 9
PENDING = POSITION + 10
NLOSSES = POSITION + 11
GEMS = POSITION + 12
HAND_N = GEMS + MAXP
HELL_N = HAND_N + MAXP
SPARE_F = HELL_N + MAXP
USED_N = SPARE_F + MAXP
USED = USED_N + MAXP
HANDS = USED + 3 * MAXP
HELLS = HANDS + SLOTS * MAXP
UNDEALT = HELLS + SLOTS * MAXP
REMOVED = UNDEALT + SLOTS
CENTRE = REMOVED + SLOTS
LOSSES = CENTRE + 7
RANKS = LOSSES + MAX_ROUNDS
SIZE = RANKS + WORDS

ID_PASS = 0
ID_KEEP = 1
ID_SPARE = 1  # + face
ID_CARDS = 8  # bury, then give, then discard, NCARDS each

EXTRAS = ("none", "mitch", "catleton", "both")

# the catalog, frozen into the compiled code (engine/kernel_cache.py recompiles it when the sources change)
P_HELL = _CAT.hell
P_SIZE = _CAT.size
P_STRENGTH = _CAT.strength
P_NCARDS = _CAT.ncards
P_CARD = _CAT.card
P_COUNT = _CAT.count
P_SWAP = _CAT.swap
P_SPEC = _CAT.spec
P_NTABLE = _CAT.ntable
P_TABLE = _CAT.table
RANK_TO_PLAY = _CAT.rank_to_play
P_NEED = _CAT.need
B_START = _CAT.bucket_start
B_ITEMS = _CAT.bucket_items
S_F1 = _CAT.spec_f1
S_F2 = _CAT.spec_f2
S_S = _CAT.spec_s
_RANK_OF = np.empty(NPLAYS, np.int64)
_RANK_OF[RANK_TO_PLAY] = np.arange(NPLAYS, dtype=np.int64)


# -- bits --------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _popcount(x: int) -> int:
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56


@njit(cache=True, inline="always")
def _low_bit_index(x: int) -> int:
    return _popcount((x & -x) - 1)


@njit(cache=True)
def _play_id(a: np.ndarray, u: int) -> int:
    w = u >> 6
    below_bits = a[MEMBER + w] & ((1 << (u & 63)) - 1) if u & 63 else 0
    return a[PLAY_BASE] + a[MEMBER_BELOW + w] + _popcount(below_bits)


@njit(cache=True)
def _play_of_id(a: np.ndarray, action: int) -> int:
    k = action - a[PLAY_BASE]
    lo = 0
    hi = WORDS - 1
    while lo < hi:  # the last word whose count below is <= k
        mid = (lo + hi + 1) >> 1
        if a[MEMBER_BELOW + mid] <= k:
            lo = mid
        else:
            hi = mid - 1
    k -= a[MEMBER_BELOW + lo]
    word = a[MEMBER + lo]
    base = lo << 6
    for shift in range(0, 64, 8):  # the byte holding the k-th set bit, then the bit
        byte = (word >> shift) & 0xFF
        count = _popcount(byte)
        if k < count:
            while k:
                byte &= byte - 1
                k -= 1
            return base + shift + _low_bit_index(byte)
        k -= count
    return -1


# -- who moves -----------------------------------------------------------------------------------------
@njit(cache=True)
def first_to_move(a: np.ndarray) -> int:
    phase = a[PHASE]
    if phase in (PLAY, BURY):
        return a[CURRENT]
    if phase == TRANSFER:
        return a[TABLE_OWNER]
    if phase <= DICE:
        return CHANCE
    if phase == SPARE:
        return _low_bit_index(a[PENDING])
    return OVER


@njit(cache=True)
def to_move(a: np.ndarray, out: np.ndarray) -> int:
    phase = a[PHASE]
    if phase == SPARE:
        n = 0
        for s in range(a[PLAYERS]):
            if a[PENDING] >> s & 1:
                out[n] = s
                n += 1
        return n
    if phase == OVER_PHASE:
        return 0
    out[0] = first_to_move(a)
    return 1


@njit(cache=True, inline="always")
def _out_of_cards(a: np.ndarray, s: int) -> bool:
    return a[HAND_N + s] + a[HELL_N + s] == 0


# -- legal ---------------------------------------------------------------------------------------------
@njit(cache=True)
def _mark_bucket(a: np.ndarray, b: int, seat: int, source: int, have: int, min_size: int, swaps: bool) -> None:
    """Set the rank bits of the bucket's plays this source can make (strongest first: stop at
    the table's strength)."""
    threshold = a[THRESHOLD]
    max_size = a[MAX_SIZE]
    hell_base = HELLS + SLOTS * seat
    for i in range(B_START[b], B_START[b + 1]):
        u = B_ITEMS[i]
        if P_STRENGTH[u] <= threshold:
            break
        if P_NEED[u] & ~have:
            continue
        size = P_SIZE[u]
        if size > max_size or size < min_size:
            continue
        ok = True
        for k in range(P_NCARDS[u]):
            if a[source + P_CARD[u, k]] < P_COUNT[u, k]:
                ok = False
                break
        if not ok:
            continue
        if swaps and a[hell_base + P_SWAP[u]] < 1:
            continue
        r = _RANK_OF[u]
        a[RANKS + (r >> 6)] |= 1 << (r & 63)


@njit(cache=True)
def _mark_plays(a: np.ndarray, seat: int, hell: int, min_size: int, boost: bool, swaps: bool) -> None:
    source = (HELLS if hell else HANDS) + SLOTS * seat
    have = 0
    for c in range(1, SLOTS):
        if a[source + c]:
            have |= 1 << c
    spare = a[SPARE_F + seat]
    for spec in range(NSPECS):
        if spec:
            if not boost:
                break
            f1 = S_F1[spec]
            f2 = S_F2[spec]
            s = S_S[spec]
            if s and s != spare:
                continue
            if f1:
                need = 2 if f2 == f1 else 1
                if a[CENTRE + f1] < need:
                    continue
            if f2 and f2 != f1 and a[CENTRE + f2] < 1:
                continue
        _mark_bucket(a, hell * NSPECS + spec, seat, source, have, min_size, False)
        if swaps:
            _mark_bucket(a, (2 + hell) * NSPECS + spec, seat, source, have, min_size, True)


@njit(cache=True)
def _emit_ranks(a: np.ndarray, out: np.ndarray, n: int) -> int:
    for w in range(WORDS):
        word = a[RANKS + w]
        if word:
            a[RANKS + w] = 0
            while word:
                r = (w << 6) + _low_bit_index(word)
                word &= word - 1
                out[n] = _play_id(a, RANK_TO_PLAY[r])
                n += 1
    return n


@njit(cache=True)
def legal(a: np.ndarray, seat: int, out: np.ndarray) -> int:
    phase = a[PHASE]
    n = 0
    if phase == PLAY:
        if seat != a[CURRENT]:
            return 0
        if a[TABLE] >= 0:
            out[0] = ID_PASS
            n = 1
        boost = a[USED_N + seat] == 0
        if a[HAND_N + seat]:
            swaps = a[HANDS + SLOTS * seat + CATLETON] > 0 and a[HELL_N + seat] > 0
            _mark_plays(a, seat, 0, 1, boost, swaps)
            if a[HELL_N + seat]:
                _mark_plays(a, seat, 1, 2, boost, False)
        else:
            _mark_plays(a, seat, 1, 1, boost, False)
        return _emit_ranks(a, out, n)
    if phase == BURY:
        if seat != a[CURRENT]:
            return 0
        base = HANDS + SLOTS * seat
        for c in range(1, SLOTS):
            if a[base + c]:
                out[n] = ID_CARDS + a[CARD_ID + c]
                n += 1
        return n
    if phase == TRANSFER:
        if seat != a[TABLE_OWNER]:
            return 0
        base = HELLS + SLOTS * seat
        if a[CASUAL]:
            out[0] = ID_KEEP
            n = 1
            first = ID_CARDS + 2 * a[NCARDS]
        else:
            if a[HELL_N + seat] < 3:
                out[0] = ID_KEEP
                n = 1
            first = ID_CARDS + a[NCARDS]
        for c in range(1, SLOTS):
            if a[base + c]:
                out[n] = first + a[CARD_ID + c]
                n += 1
        return n
    if phase == SPARE:
        if not a[PENDING] >> seat & 1:
            return 0
        for face in range(1, 7):
            out[face - 1] = ID_SPARE + face
        return 6
    return 0


# -- apply ---------------------------------------------------------------------------------------------
@njit(cache=True)
def _next_in(a: np.ndarray, seat: int) -> int:
    players = a[PLAYERS]
    for i in range(1, players + 1):
        s = (seat + i) % players
        if not _out_of_cards(a, s):
            return s
    return seat


@njit(cache=True)
def _reset_round(a: np.ndarray) -> None:
    for i in range(HAND_N, HELL_N + MAXP):
        a[i] = 0
    for i in range(SPARE_F, UNDEALT):
        a[i] = 0
    for c in range(SLOTS):
        a[UNDEALT + c] = a[DECK + c]
        a[REMOVED + c] = 0
    for f in range(7):
        a[CENTRE + f] = 0
    a[TABLE] = -1
    a[TABLE_OWNER] = -1
    a[THRESHOLD] = -1
    a[PASSED] = 0
    a[CURRENT] = -1
    a[TRANSFER_TO] = -1
    a[PENDING] = 0


@njit(cache=True)
def _round_over(a: np.ndarray) -> bool:
    loser = -1
    for s in range(a[PLAYERS]):
        if not _out_of_cards(a, s):
            if loser >= 0:
                return False
            loser = s
    a[GEMS + loser] -= 1
    a[LOSSES + a[NLOSSES]] = loser
    a[NLOSSES] += 1
    if a[GEMS + loser] == 0:
        a[PHASE] = OVER_PHASE
        return True
    a[ROUND] += 1
    a[START_P] = loser
    a[HOLDERS] = 0
    _reset_round(a)
    a[PHASE] = DEAL
    return True


@njit(cache=True)
def _after_play(a: np.ndarray, seat: int) -> None:
    if _round_over(a):
        return
    a[PHASE] = PLAY
    a[CURRENT] = _next_in(a, seat)


@njit(cache=True)
def _clear_table(a: np.ndarray) -> None:
    t = a[TABLE]
    for i in range(P_NTABLE[t]):
        a[REMOVED + P_TABLE[t, i]] += 1


@njit(cache=True)
def _after_pass(a: np.ndarray, passer: int) -> None:
    owner = a[TABLE_OWNER]
    passed = a[PASSED]
    for s in range(a[PLAYERS]):
        if s != owner and not passed >> s & 1 and not _out_of_cards(a, s):
            a[CURRENT] = _next_in(a, passer)
            return
    _clear_table(a)
    a[TABLE] = -1
    a[THRESHOLD] = -1
    a[PASSED] = 0
    a[CURRENT] = _next_in(a, owner) if _out_of_cards(a, owner) else owner


@njit(cache=True)
def _play(a: np.ndarray, seat: int, u: int) -> None:
    hell = P_HELL[u]
    source = (HELLS if hell else HANDS) + SLOTS * seat
    moved = 0
    for k in range(P_NCARDS[u]):
        a[source + P_CARD[u, k]] -= P_COUNT[u, k]
        moved += P_COUNT[u, k]
    if hell:
        a[HELL_N + seat] -= moved
    else:
        a[HAND_N + seat] -= moved
    sw = P_SWAP[u]
    if sw:
        a[HELLS + SLOTS * seat + sw] -= 1
        a[HELL_N + seat] -= 1
        a[REMOVED + CATLETON] += 1
    if a[TABLE] >= 0:
        _clear_table(a)
    a[TABLE] = u
    a[TABLE_OWNER] = seat
    a[THRESHOLD] = P_STRENGTH[u]
    a[PASSED] = 0
    spec = P_SPEC[u]
    if spec:
        f1 = S_F1[spec]
        f2 = S_F2[spec]
        s = S_S[spec]
        used = USED + 3 * seat
        n = 0
        if f1:
            a[CENTRE + f1] -= 1
            a[used] = f1
            n = 1
        if f2:
            a[CENTRE + f2] -= 1
            a[used + 1] = f2
            n = 2
        own = a[SPARE_F + seat]
        if s:
            a[used + n] = s
            n += 1
            a[SPARE_F + seat] = 0
        elif own:
            a[CENTRE + own] += 1
            a[SPARE_F + seat] = 0
        a[USED_N + seat] = n
    if not hell and a[HAND_N + seat]:
        a[PHASE] = BURY
        return
    _after_play(a, seat)


@njit(cache=True)
def apply(a: np.ndarray, seat: int, action: int) -> None:
    if action >= a[PLAY_BASE]:
        _play(a, seat, _play_of_id(a, action))
        return
    if action == ID_PASS:
        a[PASSED] |= 1 << seat
        if a[HELL_N + a[TABLE_OWNER]]:
            a[PHASE] = TRANSFER
            a[TRANSFER_TO] = seat
            return
        _after_pass(a, seat)
        return
    if action < ID_CARDS:
        if action == ID_KEEP:
            _transfer(a, seat, 0, 0)
            return
        a[SPARE_F + seat] = action - ID_SPARE
        a[PENDING] &= ~(1 << seat)
        if a[PENDING] == 0:
            a[PHASE] = PLAY
            a[CURRENT] = a[START_P]
        return
    k = action - ID_CARDS
    kind = k // a[NCARDS]
    card = a[CARD_AT + k % a[NCARDS]]
    if kind == 0:
        a[HANDS + SLOTS * seat + card] -= 1
        a[HAND_N + seat] -= 1
        a[HELLS + SLOTS * seat + card] += 1
        a[HELL_N + seat] += 1
        a[PHASE] = PLAY
        _after_play(a, seat)
        return
    _transfer(a, seat, kind, card)


@njit(cache=True)
def _transfer(a: np.ndarray, owner: int, kind: int, card: int) -> None:
    """kind 0 keep, 1 give, 2 discard."""
    passer = a[TRANSFER_TO]
    if kind:
        a[HELLS + SLOTS * owner + card] -= 1
        a[HELL_N + owner] -= 1
        if kind == 1:
            a[HELLS + SLOTS * passer + card] += 1
            a[HELL_N + passer] += 1
        else:
            a[REMOVED + card] += 1
    a[TRANSFER_TO] = -1
    a[PHASE] = PLAY
    if kind and _out_of_cards(a, owner) and _round_over(a):
        return
    _after_pass(a, passer)


# -- chance --------------------------------------------------------------------------------------------
@njit(cache=True)
def _central_dice(a: np.ndarray) -> int:
    return a[DICE_N] - _popcount(a[HOLDERS])


@njit(cache=True)
def draw_chance(a: np.ndarray, rng: np.ndarray, out: np.ndarray) -> int:
    phase = a[PHASE]
    if phase == START:
        out[0] = below(rng, a[PLAYERS])
        return 1
    if phase == DEAL:
        n = 0
        for c in range(1, SLOTS):
            for _ in range(a[DECK + c]):
                out[n] = c
                n += 1
        k = a[PLAYERS] * a[HAND_SIZE]
        for i in range(k):  # the first k of a Fisher–Yates shuffle
            j = i + below(rng, n - i)
            x = out[i]
            out[i] = out[j]
            out[j] = x
        return k
    if phase == DICE:
        k = _central_dice(a)
        for i in range(k):
            out[i] = below(rng, 6) + 1
        return k
    return 0


@njit(cache=True)
def apply_chance(a: np.ndarray, codes: np.ndarray, n: int) -> None:
    phase = a[PHASE]
    if phase == START:
        a[START_P] = codes[0]
        a[PHASE] = DEAL
        return
    if phase == DEAL:
        players = a[PLAYERS]
        size = a[HAND_SIZE]
        for s in range(players):
            base = HANDS + SLOTS * s
            for i in range(s * size, (s + 1) * size):
                a[base + codes[i]] += 1
                a[UNDEALT + codes[i]] -= 1
            a[HAND_N + s] = size
        holders = 0
        count = 0
        if a[ROUND] >= 2:
            for i in range(players):
                s = (a[START_P] + i) % players
                if a[GEMS + s] == 1 and count < a[DICE_N]:
                    holders |= 1 << s
                    count += 1
        a[HOLDERS] = holders
        a[PHASE] = DICE
        return
    for i in range(n):
        a[CENTRE + codes[i]] += 1
    if a[HOLDERS]:
        a[PHASE] = SPARE
        a[PENDING] = a[HOLDERS]
    else:
        a[PHASE] = PLAY
        a[CURRENT] = a[START_P]


@njit(cache=True)
def chance(a: np.ndarray, rng: np.ndarray) -> None:
    codes = np.empty(MAX_CODES, np.int64)
    n = draw_chance(a, rng, codes)
    apply_chance(a, codes, n)


@njit(cache=True)
def scores(a: np.ndarray, out: np.ndarray) -> None:
    for s in range(a[PLAYERS]):
        out[s] = float(a[GEMS + s])


@njit(cache=True)
def rounds_done(a: np.ndarray) -> int:
    return a[NLOSSES]


@njit(cache=True)
def playout(a: np.ndarray, rng: np.ndarray, max_actions: int) -> int:
    ids = np.empty(MAX_LEGAL, np.int64)
    codes = np.empty(MAX_CODES, np.int64)
    count = 0
    while count < max_actions:
        seat = first_to_move(a)
        if seat == OVER:
            break
        if seat == CHANCE:
            n = draw_chance(a, rng, codes)
            apply_chance(a, codes, n)
        else:
            n = legal(a, seat, ids)
            apply(a, seat, ids[below(rng, n)])
        count += 1
    return count


# -- worlds for a search (ismcts) ----------------------------------------------------------------------
@njit(cache=True)
def determinize(template: np.ndarray, spec: np.ndarray, rng: np.ndarray, out: np.ndarray) -> None:
    """One world into `out`, as `Game.determinize` samples it: `template` is the view's position
    with the cards the seat cannot see taken out and the spare faces it cannot see 0; `spec` is
    `[me, k, k hidden-spare seats, n, n unseen cards]`. The unseen cards are split uniformly among
    the other hands (their sizes are public) and the undealt rest; hidden faces are uniform 1–6."""
    out[:] = template
    me = spec[0]
    k = spec[1]
    for i in range(k):
        out[SPARE_F + spec[2 + i]] = below(rng, 6) + 1
    at = 2 + k
    n = spec[at]
    pool = spec[at + 1 : at + 1 + n].copy()
    i = 0
    for s in range(out[PLAYERS]):
        if s == me:
            continue
        base = HANDS + SLOTS * s
        for _ in range(out[HAND_N + s]):
            j = i + below(rng, n - i)
            card = pool[j]
            pool[j] = pool[i]
            pool[i] = card
            out[base + card] += 1
            i += 1
    for j in range(i, n):
        out[UNDEALT + pool[j]] += 1


@njit(cache=True)
def spare_open(a: np.ndarray) -> bool:
    """Spare faces are being chosen: others' choices stay hidden until the phase closes."""
    return a[PHASE] == SPARE


@njit(cache=True)
def revealed(a: np.ndarray, me: int) -> int:
    """What the closing of the spare phase showed `me`: the other holders' faces as one code
    (1: nothing, no other holder)."""
    code = 1
    for s in range(a[PLAYERS]):
        if s != me and a[HOLDERS] >> s & 1:
            code = code * 8 + a[SPARE_F + s]
    return code


# -- the Kernel object ----------------------------------------------------------------------------------
class CatopompKernel(Kernel):
    """The compiled rules of one table, with the conversions to and from the pure state."""

    game_name = "catopomp"
    NOT_PACKED = Kernel.NOT_PACKED | {
        "last_round",  # what views show of the finished round, not a rule's input
        "spare_hidden_from",  # a history index: which log entries views redact
        "_legal",  # the cache of legal actions
        "_legal_seat",
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

    def __init__(self, players: int, options: Any, encoding: Any):
        super().__init__(players, options, encoding)
        self.rules = rules_for(options, players)
        self.game = encoding.game
        self._plays = {action.text: action for action in encoding.actions if isinstance(action, A.Play)}
        self._header = self._make_header()

    @property
    def size(self) -> int:
        return SIZE

    def _make_header(self) -> np.ndarray:
        rules = self.rules
        h = np.zeros(POSITION, np.int64)
        h[PLAYERS] = self.players
        h[HAND_SIZE] = rules.hand_size
        h[DICE_N] = rules.dice
        h[GEMS0] = rules.gems
        h[CASUAL] = int(rules.casual)
        h[EXTRA] = EXTRAS.index(self.options.extra_cards)
        h[MAX_SIZE] = rules.max_size
        h[MAX_VALUE] = rules.max_value
        cards = [c for c in range(1, SLOTS) if rules.deck[c]]
        h[NCARDS] = len(cards)
        h[POOL] = len(rules.pool)
        h[PLAY_BASE] = ID_CARDS + 3 * len(cards)
        h[DECK : DECK + SLOTS] = rules.deck
        h[CARD_ID : CARD_ID + SLOTS] = -1
        for i, c in enumerate(cards):
            h[CARD_ID + c] = i
            h[CARD_AT + i] = c
        ids = self.encoding.ids
        expected = ["pass", "keep", *(f"spare {f}" for f in range(1, 7))]
        for table in (A.BURIES, A.GIVES, A.DISCARDS):
            expected += [table[c].text for c in cards]
        assert [ids[t] for t in expected] == list(range(len(expected))), "catopomp kernel: encoding ids moved"
        words = [0] * WORDS
        last = -1
        for action in self.encoding.actions[len(expected) :]:
            u = _CAT.index[cast(A.Play, action).text]
            assert u > last, "catopomp kernel: the encoding's plays are not in catalog order"
            last = u
            words[u >> 6] |= 1 << (u & 63)
        below_word = 0
        for w, word in enumerate(words):
            h[MEMBER + w] = word - (1 << 64) if word >= 1 << 63 else word
            h[MEMBER_BELOW + w] = below_word
            below_word += word.bit_count()
        return h

    # -- conversions --------------------------------------------------------------------------------
    def pack(self, state: Any) -> np.ndarray:
        s: CatopompState = state
        a = np.zeros(SIZE, np.int64)
        a[:POSITION] = self._header
        a[PHASE] = s.phase
        a[ROUND] = s.round
        a[START_P] = s.start_player
        a[CURRENT] = s.current
        a[TRANSFER_TO] = s.transfer_to
        a[TABLE] = -1 if s.table is None else _CAT.index[s.table.text]
        a[TABLE_OWNER] = s.table_owner
        a[THRESHOLD] = s.threshold
        a[PASSED] = s.passed
        a[HOLDERS] = sum(1 << seat for seat in s.spare_holders)
        a[PENDING] = sum(1 << seat for seat in s.spare_pending)
        a[NLOSSES] = len(s.round_losses)
        for r, row in enumerate(s.round_losses):
            a[LOSSES + r] = row.index(-1)
        for seat in range(s.players):
            a[GEMS + seat] = s.gems[seat]
            a[HAND_N + seat] = s.hand_n[seat]
            a[HELL_N + seat] = s.hell_n[seat]
            a[SPARE_F + seat] = s.spare[seat]
            used = s.used[seat]
            a[USED_N + seat] = len(used)
            a[USED + 3 * seat : USED + 3 * seat + len(used)] = used
            a[HANDS + SLOTS * seat : HANDS + SLOTS * (seat + 1)] = s.hands[seat]
            a[HELLS + SLOTS * seat : HELLS + SLOTS * (seat + 1)] = s.hells[seat]
        a[UNDEALT : UNDEALT + SLOTS] = s.undealt
        a[REMOVED : REMOVED + SLOTS] = s.removed
        a[CENTRE : CENTRE + 7] = s.centre
        return a

    def unpack(self, array: np.ndarray) -> CatopompState:
        a = [int(x) for x in array]
        n = self.players
        s = self.game.new_initial_state(n, self.options)
        s.phase = a[PHASE]
        s.round = a[ROUND]
        s.start_player = a[START_P]
        s.current = a[CURRENT]
        s.transfer_to = a[TRANSFER_TO]
        s.table = None if a[TABLE] < 0 else self._plays[_CAT.texts[a[TABLE]]]
        s.table_owner = a[TABLE_OWNER]
        s.threshold = a[THRESHOLD]
        s.passed = a[PASSED]
        s.spare_holders = tuple(seat for seat in range(n) if a[HOLDERS] >> seat & 1)
        s.spare_pending = tuple(seat for seat in range(n) if a[PENDING] >> seat & 1)
        s.spare_hidden_from = 0 if s.phase == SPARE else NO_HIDDEN_SPARES
        s.round_losses = [[-1 if seat == a[LOSSES + r] else 0 for seat in range(n)] for r in range(a[NLOSSES])]
        s.gems = a[GEMS : GEMS + n]
        s.hand_n = a[HAND_N : HAND_N + n]
        s.hell_n = a[HELL_N : HELL_N + n]
        s.spare = a[SPARE_F : SPARE_F + n]
        s.used = [tuple(a[USED + 3 * seat : USED + 3 * seat + a[USED_N + seat]]) for seat in range(n)]
        s.hands = [a[HANDS + SLOTS * seat : HANDS + SLOTS * (seat + 1)] for seat in range(n)]
        s.hells = [a[HELLS + SLOTS * seat : HELLS + SLOTS * (seat + 1)] for seat in range(n)]
        s.undealt = a[UNDEALT : UNDEALT + SLOTS]
        s.removed = a[REMOVED : REMOVED + SLOTS]
        s.centre = a[CENTRE : CENTRE + 7]
        return s

    def sampler(self, view: Mapping[str, Any]) -> tuple[np.ndarray, np.ndarray]:
        """The template and spec of `view` for the compiled `determinize`: one world of
        `Game.determinize` (built from the view alone) with what the seat cannot see taken out."""
        from .determinize import determinize as from_view
        from .view import read_view

        me = read_view(view).seat
        template = self.pack(from_view(self.game, view, random.Random(0)))
        hidden = []
        if template[PHASE] == SPARE:
            for s in range(self.players):
                if s != me and template[HOLDERS] >> s & 1 and not template[PENDING] >> s & 1:
                    hidden.append(s)
                    template[SPARE_F + s] = 0
        pool: list[int] = []
        parts = [HANDS + SLOTS * s for s in range(self.players) if s != me] + [UNDEALT]
        for base in parts:
            for c in range(SLOTS):
                pool += [c] * int(template[base + c])
            template[base : base + SLOTS] = 0
        spec = [-1 if me is None else me, len(hidden), *hidden, len(pool), *pool]
        return template, np.array(spec, np.int64)

    # -- chance ---------------------------------------------------------------------------------------
    def chance_codes(self, array: np.ndarray, action: Any) -> np.ndarray:
        kind = action.kind
        if kind == A.START:
            return np.array([action.arg], np.int64)
        if kind == A.DEAL:
            return np.array([c for hand in action.hands for c in hand], np.int64)
        return np.array(action.faces, np.int64)

    def chance_action(self, array: np.ndarray, codes: np.ndarray) -> Any:
        phase = int(array[PHASE])
        values = [int(c) for c in codes]
        if phase == START:
            return A.STARTS[values[0]]
        if phase == DEAL:
            size = self.rules.hand_size
            return A.Deal(tuple(tuple(values[i * size : (i + 1) * size]) for i in range(self.players)))
        return A.roll(tuple(sorted(values)))


KERNEL = CatopompKernel
assert MAX_CARDS == 4 and MITCH == MAX_NUMBER + 1
