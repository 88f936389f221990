"""Labels and accuracy of a rated decision, as data: the thresholds live here once.

Every rating is brought to one scale before it is labelled: the *loss* of the chosen move, the
value of the best move minus the value of the chosen one, on a scale where a whole game (or turn)
is worth 1 (a probability, the search's value in [0, 1], or an expected penalty divided by the
penalty of a full board). Thresholds follow lichess's win-percentage drops, read on that scale.

A search's loss is an estimate: a label worse than `good` is given only where the loss exceeds
its own confidence interval (`margin`), so the search's noise alone never makes a mistake.
"""

from __future__ import annotations

import math

LABELS = ("best", "good", "inaccuracy", "mistake", "blunder")
"""From best to worst; the catalogue words them as `review.label.<name>`."""

EXACT = 1e-9
"""A loss at most this is the best move (the solver's values are exact up to rounding)."""

THRESHOLDS: tuple[tuple[str, float], ...] = (
    ("blunder", 0.20),
    ("mistake", 0.10),
    ("inaccuracy", 0.05),
)
"""(label, least loss) from the worst down; a smaller loss is `good` (or `best`)."""


def label(loss: float, margin: float = 0.0, chosen_is_best: bool = False) -> str:
    """The label of a move that lost `loss` against the best, known within ± `margin`."""
    if chosen_is_best or loss <= EXACT:
        return "best"
    if loss <= margin:
        return "good"  # the difference is within the search's noise
    for name, least in THRESHOLDS:
        if loss >= least:
            return name
    return "good"


def move_accuracy(loss: float) -> float:
    """A decision's accuracy in percent, lichess's curve over the loss in percentage points:
    100 for the best move, about 65 for a loss of 0.10, 0 from a loss of about 0.80."""
    if loss <= EXACT:
        return 100.0
    points = loss * 100
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * points) - 3.1669))
