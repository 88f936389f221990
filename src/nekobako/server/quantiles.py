"""Quantiles of recent durations, as the health endpoint reports them (one rule for every figure)."""

from __future__ import annotations

from collections.abc import Iterable


def quantiles_ms(seconds: Iterable[float]) -> dict[str, float]:
    """p50, p90, p99 and the longest of `seconds`, in milliseconds (0 when there are none)."""
    values = sorted(seconds)

    def at(q: float) -> float:
        return round(values[min(len(values) - 1, int(q * len(values)))] * 1000, 2) if values else 0.0

    return {"p50": at(0.5), "p90": at(0.9), "p99": at(0.99), "max": at(1.0)}
