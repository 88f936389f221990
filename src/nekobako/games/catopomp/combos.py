"""Legal play generation: every combination stronger than the table, each exactly once.

Plays are built from counts per card, grouped by size, kind and number, and only where the
strength can beat the table (rules §3), so no combination is produced and then thrown away.
For each value a combination needs, the ways to supply it are: a card of that number, an extra
card counted as 0, the dice card (at most one per play), Mitch counted as the dice number, or a
Cat-leton swapped for a hell card (hand plays only, at most one per play): a numbered hell card
supplies its number; a hell Mdm Mitch or Cat-leton supplies 0 where the hand's Cat-leton stood
(the same combination from other cards), and a hell Mitch in a boosted set the dice number.
Distinct ways give distinct notation, so the output has no duplicates by construction (tests
check it anyway).
"""

from __future__ import annotations

from .actions import PLAYS_BY_KEY, Action, Play, play
from .cards import CATLETON, MAX_NUMBER, MITCH
from .dice import DiceSpecs


def _add(out: list[Action], key: tuple) -> None:
    found = PLAYS_BY_KEY.get(key)
    out.append(found if found is not None else play(*key))


_SIMPLE: tuple[dict[tuple[int, ...], Play], dict[tuple[int, ...], Play]] = ({}, {})
"""Plays without dice or swap, by cards, for hand (0) and hell (1): the common case, one lookup."""


def _simple(out: list[Action], hell: bool, cards: tuple[int, ...]) -> None:
    table = _SIMPLE[hell]
    found = table.get(cards)
    if found is None:
        found = table[cards] = play(hell, cards)
    out.append(found)


def generate(
    out: list[Action],
    hell: bool,
    cnt: list[int],
    min_size: int,
    max_size: int,
    threshold: int,
    specs: DiceSpecs | None,
    swaps: tuple[int, ...],
    max_value: int,
) -> None:
    """Append to `out` every play from the source counts `cnt` stronger than `threshold`.

    `min_size` is 2 for hell plays while the hand is not empty; `specs` is None (or empty) once
    the player's boost is used; `swaps` lists the hell cards (numbers, MITCH, CATLETON) a hand
    Cat-leton may be swapped for. Windows of values are tested as bit masks before any tuple is built.
    """
    catletons = cnt[CATLETON]
    if not catletons or not swaps:
        _generate(out, hell, cnt, min_size, max_size, threshold, specs, set(), False, max_value)
        return
    start = len(out)
    swappable = {v for v in swaps if v <= MAX_NUMBER}
    _generate(out, hell, cnt, min_size, max_size, threshold, specs, swappable, MITCH in swaps, max_value)
    zero_swaps = [c for c in (MITCH, CATLETON) if c in swaps]
    if zero_swaps:  # where a hand Cat-leton counts as 0, a hell Mitch or Cat-leton may take its place as 0
        for found in out[start:]:
            if isinstance(found, Play) and not found.swap and CATLETON in found.cards:
                for card in zero_swaps:
                    _add(out, (hell, found.cards, found.mitch_as, found.dice, found.spare, card))


def _generate(
    out: list[Action],
    hell: bool,
    cnt: list[int],
    min_size: int,
    max_size: int,
    threshold: int,
    specs: DiceSpecs | None,
    swappable: set[int],
    hell_mitch: bool,
    max_value: int,
) -> None:
    """`generate` without the swaps for 0: `swappable` numbers; `hell_mitch` may count as the dice."""
    mitches = cnt[MITCH]
    catletons = cnt[CATLETON]
    present = [v for v in range(1, MAX_NUMBER + 1) if cnt[v]]
    have = 1 if mitches or catletons else 0
    for v in present:
        have |= 1 << v
    if not specs and not swappable:
        _plain(out, hell, cnt, present, have, min_size, max_size, threshold)
        return
    specs = specs or {}
    cover = 0
    for v in specs:
        cover |= 1 << v
    for v in swappable:
        cover |= 1 << v
    candidates = sorted(set(present).union(specs, swappable))
    for n in range(max(min_size, 1), max_size + 1):
        base = n * 64
        if base + 63 <= threshold:
            continue
        if n == 1:
            _singles(out, hell, cnt, threshold, swappable, max_value)
            continue
        set_base = base + 32
        if set_base > threshold:
            _zero_sets(out, hell, n, mitches, catletons)
        for v in candidates:
            if set_base + v <= threshold:
                continue
            dice_here = specs.get(v, ())
            swap_here = v in swappable
            mitch_here = hell_mitch and bool(dice_here)
            if cnt[v] + (swap_here or mitch_here) + (1 + mitches if dice_here else 0) < n:
                continue
            _sets(out, hell, n, v, cnt[v], mitches, dice_here, swap_here, mitch_here)
        mask = (1 << n) - 1
        for hi in range(max(n - 1, threshold - base + 1), max_value + 1):
            window = mask << (hi - n + 1)
            missing = window & ~have
            if missing & ~cover:
                continue
            _runs(out, hell, cnt, n, hi - n + 1, specs, swappable, mitches, catletons)


def _plain(
    out: list[Action],
    hell: bool,
    cnt: list[int],
    present: list[int],
    have: int,
    min_size: int,
    max_size: int,
    threshold: int,
) -> None:
    """No dice and no swap: cards only, so every value must be held."""
    table = _SIMPLE[hell]
    get = table.get
    zero = ((MITCH,) if cnt[MITCH] else ()) + ((CATLETON,) if cnt[CATLETON] else ())
    for n in range(max(min_size, 1), max_size + 1):
        base = n * 64
        if base + 63 <= threshold:
            continue
        if n == 1:
            if threshold < 64:
                for z in zero:
                    _simple(out, hell, (z,))
            for v in present:
                if 64 + v > threshold:
                    cards: tuple[int, ...] = (v,)
                    found = get(cards)
                    out.append(found if found is not None else _new_simple(hell, cards))
            continue
        set_base = base + 32
        if set_base > threshold and zero:
            _zero_sets(out, hell, n, cnt[MITCH], cnt[CATLETON])
        for v in present:
            if cnt[v] >= n and set_base + v > threshold:
                cards = (v,) * n
                found = get(cards)
                out.append(found if found is not None else _new_simple(hell, cards))
        mask = (1 << n) - 1
        low = threshold - base
        for hi in present:
            if hi < n - 1 or hi <= low:
                continue
            lo = hi - n + 1
            window = mask << lo
            if have & window != window:
                continue
            if lo:
                cards = tuple(range(lo, hi + 1))
                found = get(cards)
                out.append(found if found is not None else _new_simple(hell, cards))
            else:
                for z in zero:
                    cards = (*range(1, hi + 1), z)
                    found = get(cards)
                    out.append(found if found is not None else _new_simple(hell, cards))


def _new_simple(hell: bool, cards: tuple[int, ...]) -> Play:
    found = _SIMPLE[hell][cards] = play(hell, cards)
    return found


def _sets(
    out: list[Action],
    hell: bool,
    n: int,
    v: int,
    have: int,
    mitches: int,
    dice_here: tuple[tuple[tuple[int, ...], int], ...],
    swap_here: bool,
    mitch_here: bool,
) -> None:
    """Sets of n cards counting v: held v cards, the dice card, Mitches as the dice number, a swap
    (for a hell v, or with the dice card for a hell Mitch counted as v)."""
    swaps: tuple[int, ...] = (0, v) if swap_here else (0,)
    if mitch_here:
        swaps += (MITCH,)
    for d in (0, 1) if dice_here else (0,):
        for sw in swaps:
            if sw == MITCH and not d:
                continue
            s = 1 if sw else 0
            rest = n - d - s
            if rest < 0:
                continue
            for ma in range(min(mitches, rest) + 1 if d else 1):
                a = rest - ma
                if a > have:
                    continue
                cards = (v,) * a + (MITCH,) * ma + ((CATLETON,) if s else ())
                if not cards:
                    continue
                if d:
                    for faces, spare in dice_here:
                        _add(out, (hell, cards, ma + (sw == MITCH), faces, spare, sw))
                else:
                    _add(out, (hell, cards, 0, (), 0, sw))


def _singles(
    out: list[Action], hell: bool, cnt: list[int], threshold: int, swappable: set[int], max_value: int
) -> None:
    if threshold < 64:
        if cnt[MITCH]:
            _add(out, (hell, (MITCH,), 0, (), 0, 0))
        if cnt[CATLETON]:
            _add(out, (hell, (CATLETON,), 0, (), 0, 0))
    for v in range(max(1, threshold - 64 + 1), max_value + 1):
        if cnt[v]:
            _add(out, (hell, (v,), 0, (), 0, 0))
        if v in swappable:
            _add(out, (hell, (CATLETON,), 0, (), 0, v))


def _zero_sets(out: list[Action], hell: bool, n: int, mitches: int, catletons: int) -> None:
    """Sets of 0s made of Mitches and Cat-letons counted as 0."""
    for i in range(max(0, n - catletons), min(mitches, n) + 1):
        _add(out, (hell, (MITCH,) * i + (CATLETON,) * (n - i), 0, (), 0, 0))


def _runs(
    out: list[Action],
    hell: bool,
    cnt: list[int],
    n: int,
    lo: int,
    specs: DiceSpecs,
    swappable: set[int],
    mitches: int,
    catletons: int,
) -> None:
    """Runs lo..lo+n-1: at most one position from the dice, one from a swap; 0 from M or C."""
    values = range(lo, lo + n)
    missing = [x for x in values if x > 0 and not cnt[x]]
    if len(missing) > 2:
        return
    zero_tokens: tuple[int, ...] = ()
    if lo == 0:
        zero_tokens = ((MITCH,) if mitches else ()) + ((CATLETON,) if catletons else ())
        if not zero_tokens:
            return
    numbered = [x for x in values if x > 0]
    # choose the dice position (None or a value) and the swap position (None or a value)
    dice_choices: list[int] = [0]
    swap_choices: list[int] = [0]
    for x in numbered:
        if x in specs:
            dice_choices.append(x)
        if x in swappable:
            swap_choices.append(x)
    for dx in dice_choices:
        for sx in swap_choices:
            if sx and sx == dx:
                continue
            if any(x != dx and x != sx for x in missing):
                continue
            cards_num = tuple(x for x in numbered if x != dx and x != sx)
            for z in zero_tokens or (0,):
                if z == CATLETON and sx and catletons < 2:
                    continue
                tail: tuple[int, ...] = ()
                if z == MITCH:
                    tail = (MITCH,)
                elif z == CATLETON:
                    tail = (CATLETON,)
                if sx:
                    tail = (*tail, CATLETON)
                cards = cards_num + tail
                if dx:
                    for faces, spare in specs[dx]:
                        _add(out, (hell, cards, 0, faces, spare, sx))
                else:
                    _add(out, (hell, cards, 0, (), 0, sx))
