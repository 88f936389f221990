"""Reviews of finished games: each decision of a seat rated from that seat's view (docs/review.md)."""

from .labels import LABELS, THRESHOLDS, label, move_accuracy
from .review import DEFAULT_ITERATIONS, Decision, Review, ReviewError, check_iterations, check_seat, review_record

__all__ = [
    "DEFAULT_ITERATIONS",
    "LABELS",
    "THRESHOLDS",
    "Decision",
    "Review",
    "ReviewError",
    "check_iterations",
    "check_seat",
    "label",
    "move_accuracy",
    "review_record",
]
