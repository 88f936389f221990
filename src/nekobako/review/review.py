"""The review of a game: every decision of one seat rated from what that seat knew then.

`review_record(record, seat)` replays the record (`engine.replay` first, so a bad record is
refused before any work), then walks it again and, before each action of `seat` that had a
choice (more than one legal action), takes `state.view(seat)` and `state.legal_actions(seat)`:
nothing else of the state reaches the rating (`rate.py`). A forced move is no decision.

The server rates the same `moments` one by one in its search processes (`rate_moment`) and
builds the same `Review` from them (`decision`).

Deterministic: the solver is exact, and each search draws from its own `random.Random` seeded
from the review's seed and the decision's place in the game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ..engine import NekobakoError, Record, replay
from ..i18n import Message
from .labels import LABELS, label, move_accuracy
from .rate import Rating, rate_shutbox, searcher

DEFAULT_ITERATIONS = 2000
"""Search iterations per card-game decision (`--budget`)."""

MAX_ITERATIONS = 200_000

Progress = Callable[[int, int], None]
"""`progress(done, total)`: decisions rated so far, out of the seat's decisions."""


class ReviewError(NekobakoError, ValueError):
    """A review that cannot be made as asked (a seat the game does not have, a bad budget)."""


@dataclass(frozen=True)
class Decision:
    """One rated decision. Values are on the common scale (`labels.py`), higher is better."""

    ply: int  # the move's place in the game's history (chance steps included), from 0
    round: int  # rounds finished before it
    chosen: str
    best: str
    value: float  # the best move's value: what the position was worth to the seat
    chosen_value: float
    loss: float  # value - chosen_value, at least 0
    margin: float  # 95 % half-width of the loss (0 when exact)
    label: str
    objective: str  # shut | score | target | search
    raw_value: float  # the best move's value in the objective's own unit
    raw_chosen: float
    visits: int | None = None  # the chosen move's visits in the search
    accuracy: float = 100.0


@dataclass
class Review:
    game: str
    seat: int
    players: int
    method: str  # solver | search
    iterations: int | None
    seed: int
    decisions: list[Decision] = field(default_factory=list)

    @property
    def accuracy(self) -> float | None:
        """Mean accuracy over the decisions (lichess's per-move curve), None without decisions."""
        if not self.decisions:
            return None
        return sum(d.accuracy for d in self.decisions) / len(self.decisions)

    def counts(self) -> dict[str, int]:
        out = dict.fromkeys(LABELS, 0)
        for d in self.decisions:
            out[d.label] += 1
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seat": self.seat,
            "players": self.players,
            "method": self.method,
            "iterations": self.iterations,
            "seed": self.seed,
            "accuracy": self.accuracy,
            "counts": self.counts(),
            "decisions": [asdict(d) for d in self.decisions],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Review:
        decisions = [Decision(**d) for d in data["decisions"]]
        return cls(
            data["game"], data["seat"], data["players"], data["method"], data["iterations"], data["seed"], decisions
        )


def check_seat(seat: Any, players: int) -> int:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
        raise ReviewError(Message("review.bad_seat", seat=str(seat), last=players - 1))
    return seat


def check_iterations(iterations: Any) -> int:
    if not isinstance(iterations, int) or isinstance(iterations, bool) or not 1 <= iterations <= MAX_ITERATIONS:
        raise ReviewError(Message("review.bad_budget", value=str(iterations), most=MAX_ITERATIONS))
    return iterations


@dataclass(frozen=True)
class Moment:
    """A decision to rate: what the seat saw and could do, and what it chose."""

    ply: int
    round: int
    view: Mapping[str, Any]
    legal: tuple[Any, ...]
    chosen: int  # index in `legal`


def moments(record: Record | Mapping[str, Any] | str, seat: int) -> tuple[str, int, list[Moment]]:
    """`(game, players, moments)`: every decision of `seat` in `record`, from its own view.
    Raises `BadRecord` for a record that does not replay, `ReviewError` for a bad seat."""
    if not isinstance(record, Record):
        record = Record.from_json(record)
    final = replay(record)
    check_seat(seat, final.players)
    game = final.game
    state = game.new_game(record.players, record.options)
    found = []
    for ply, (actor, action) in enumerate(final.history):
        if actor == seat:
            legal = tuple(state.legal_actions(seat))
            if len(legal) > 1:
                chosen = next(i for i, a in enumerate(legal) if str(a) == str(action))
                found.append(Moment(ply, len(state.round_scores()), state.view(seat), legal, chosen))
        state.apply(actor, action)
    return game.name, final.players, found


def rate_moment(game: str, moment: Moment, iterations: int, seed: int) -> Rating:
    """One decision's rating (what a search process runs for the server)."""
    if game == "shutbox":
        return rate_shutbox(moment.view, moment.legal)
    rng = random.Random(seed * 1_000_003 + moment.ply)
    return searcher(game, iterations).rate(moment.view, moment.legal, rng)


def method_of(game: str) -> str:
    return "solver" if game == "shutbox" else "search"


def review_record(
    record: Record | Mapping[str, Any] | str,
    seat: int,
    iterations: int = DEFAULT_ITERATIONS,
    seed: int = 0,
    progress: Progress | None = None,
) -> Review:
    """Rate every decision of `seat` in `record` (finished or not). Raises `BadRecord` for a
    record that does not replay, `ReviewError` for a bad seat or budget."""
    check_iterations(iterations)
    game, players, found = moments(record, seat)
    exact = method_of(game) == "solver"
    review = Review(game, seat, players, method_of(game), None if exact else iterations, seed)
    if progress:
        progress(0, len(found))
    for done, moment in enumerate(found, 1):
        review.decisions.append(decision(moment, rate_moment(game, moment, iterations, seed)))
        if progress:
            progress(done, len(found))
    return review


def decision(moment: Moment, rating: Rating) -> Decision:
    """A rated moment, labelled (`labels.py`)."""
    legal, chosen, ply, rounds = moment.legal, moment.chosen, moment.ply, moment.round
    best = rating.best
    loss = max(0.0, rating.values[best] - rating.values[chosen])
    margin = rating.margin(chosen)
    name = label(loss, margin, chosen_is_best=chosen == best)
    return Decision(
        ply=ply,
        round=rounds,
        chosen=str(legal[chosen]),
        best=str(legal[best]),
        value=rating.values[best],
        chosen_value=rating.values[chosen],
        loss=loss,
        margin=margin,
        label=name,
        objective=rating.objective,
        raw_value=rating.raw[best],
        raw_chosen=rating.raw[chosen],
        visits=None if rating.visits is None else rating.visits[chosen],
        accuracy=100.0 if name == "best" else move_accuracy(loss - margin),  # the loss noise cannot explain
    )


@dataclass(frozen=True)
class Hint:
    """The best move at a seat's turn, from the review's own rating (`rate_moment`)."""

    action: str
    value: float  # on the review's common scale (docs/review.md)
    objective: str


def hint(
    game: str, view: Mapping[str, Any], legal: Sequence[Any], iterations: int = DEFAULT_ITERATIONS, seed: int = 0
) -> Hint:
    """The best of `legal` for the seat whose `view` this is (a table with the `hints` option):
    the solver for Shut the Box, the review's search for the card games (deterministic given `seed`)."""
    check_iterations(iterations)
    if len(legal) == 1:
        return Hint(str(legal[0]), float("nan"), "forced")
    moment = Moment(len(view.get("history", ())), 0, view, tuple(legal), 0)
    rating = rate_moment(game, moment, iterations, seed)
    return Hint(str(legal[rating.best]), rating.values[rating.best], rating.objective)
