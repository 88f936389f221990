"""Reviews of finished games: each decision of a seat rated from that seat's view (docs/review.md)."""

from .labels import LABELS, THRESHOLDS, label, move_accuracy
from .review import (
    DEFAULT_ITERATIONS,
    Decision,
    Moment,
    Review,
    ReviewError,
    check_iterations,
    check_seat,
    decision,
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
    "Review",
    "ReviewError",
    "Moment",
    "check_iterations",
    "check_seat",
    "decision",
    "method_of",
    "moments",
    "rate_moment",
    "label",
    "move_accuracy",
    "review_record",
]
