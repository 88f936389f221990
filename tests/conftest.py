"""Settings shared by the whole suite: hypothesis runs without per-example deadlines (the
machine is shared, so timings vary) and with a bounded, reproducible number of examples."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

settings.register_profile(
    "nekobako",
    deadline=None,
    max_examples=60,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("nekobako")
