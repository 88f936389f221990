"""The dice: which dice cards a player can make (§5, §6) and the odds of a central roll."""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement
from math import factorial

from .actions import Roll, roll

DiceSpecs = dict[int, tuple[tuple[tuple[int, ...], int], ...]]
"""Dice card value → the ways to make it: (central faces ascending, own spare face or 0)."""


@cache
def dice_specs(centre: tuple[int, ...], spare: int) -> DiceSpecs:
    """Dice cards a player may add, from the central face counts (index 1–6) and their spare die."""
    by_value: dict[int, list[tuple[tuple[int, ...], int]]] = {}
    faces = [f for f in range(1, 7) if centre[f]]
    for i, f in enumerate(faces):
        by_value.setdefault(f, []).append(((f,), 0))
        if centre[f] >= 2:
            by_value.setdefault(2 * f, []).append(((f, f), 0))
        for g in faces[i + 1 :]:
            by_value.setdefault(f + g, []).append(((f, g), 0))
    if spare:
        by_value.setdefault(spare, []).append(((), spare))
        for f in faces:
            by_value.setdefault(spare + f, []).append(((f,), spare))
    return {v: tuple(specs) for v, specs in by_value.items()}


@cache
def roll_outcomes(n: int) -> tuple[tuple[Roll, float], ...]:
    """Sorted face multisets of `n` dice with their probabilities (the chance outcomes of a roll)."""
    outcomes = []
    for faces in combinations_with_replacement(range(1, 7), n):
        ways = factorial(n)
        for face in set(faces):
            ways //= factorial(faces.count(face))
        outcomes.append((roll(faces), ways / 6**n))
    return tuple(outcomes)
