"""Reviews of finished games: each decision of a seat rated from that seat's view (docs/review.md)."""

from .labels import LABELS, THRESHOLDS, label, move_accuracy
from .review import (
    DEFAULT_ITERATIONS,
    Decision,
    Hint,
    Moment,
    Review,
    ReviewError,
    check_iterations,
    check_seat,
    decision,
    hint,
    method_of,
    moments,
    rate_moment,
    review_record,
)

__all__ = [
    "DEFAULT_ITERATIONS",
    "LABELS",
    "THRESHOLDS",
    "Decision",
    "Hint",
    "Review",
    "ReviewError",
    "Moment",
    "check_iterations",
    "check_seat",
    "decision",
    "hint",
    "method_of",
    "moments",
    "rate_moment",
    "label",
    "move_accuracy",
    "review_record",
]
