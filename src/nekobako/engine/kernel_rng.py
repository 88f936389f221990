"""The random generator every kernel draws chance and random play from: xoroshiro128+ over a
`uint64[2]` state the caller owns, so each table of a batch, each search and each playout has its
own reproducible stream (numba's `np.random` is one hidden stream per thread).

Imported only where numba is (`kernel.pure_reason`)."""

from __future__ import annotations

import numpy as np
from numba import uint64

from .kernel_cache import njit

_MASK = (1 << 64) - 1


def new_rng(seed: int) -> np.ndarray:
    """A generator state from any Python int, spread by splitmix64 (never all zero)."""
    out = np.empty(2, dtype=np.uint64)
    x = seed & _MASK
    for i in range(2):
        x = (x + 0x9E3779B97F4A7C15) & _MASK
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        out[i] = z ^ (z >> 31)
    if not out.any():
        out[0] = 1
    return out


@njit(cache=True, inline="always")
def _rotl(x: np.uint64, k: int) -> np.uint64:
    return (x << uint64(k)) | (x >> uint64(64 - k))


@njit(cache=True)
def next_u64(rng: np.ndarray) -> np.uint64:
    """The next 64 random bits; advances `rng`."""
    s0 = rng[0]
    s1 = rng[1]
    result = s0 + s1
    s1 ^= s0
    rng[0] = _rotl(s0, 24) ^ s1 ^ (s1 << uint64(16))
    rng[1] = _rotl(s1, 37)
    return result


@njit(cache=True)
def below(rng: np.ndarray, n: int) -> int:
    """A uniform integer in `0 … n-1` (`n` ≥ 1; the top 53 bits, so the bias is below 2⁻⁴⁰)."""
    return int((next_u64(rng) >> uint64(11)) * (1.0 / 9007199254740992.0) * n)


@njit(cache=True)
def uniform(rng: np.ndarray) -> float:
    """A uniform float in [0, 1)."""
    return (next_u64(rng) >> uint64(11)) * (1.0 / 9007199254740992.0)
