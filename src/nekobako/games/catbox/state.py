"""The rules of Cat in the Box as one mutable state (rules §2–§8).

Hot-path layout (random playouts must reach 150k actions/s): hands are packed counts per number
(`board.pack`) plus a bitmask of the numbers held; the board is one bitmask of taken numbers per
colour for legality and one physical bitmask per seat for the bonus; legal plays are four table
look-ups (`PLAYS_BY_MASK`) concatenated. Everything is small ints and flat lists, so `clone` is a
handful of list copies.

Phases: `start` chance → per round: `deal` chance → simultaneous `discard` → `predict` (3–5
players) → `play` → scoring → next round or over. Paradox is never an action: after every play
the next seat to move is checked, and if it has no legal play the round ends at once.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ...engine import CHANCE, Event, FrozenData, IllegalAction, MalformedAction, Options, Record, State, ViewLog
from ...i18n import Message
from .actions import DISCARDS, CatboxAction, Deal, Discard, Play, Predict, Start
from .board import DISCARDS_BY_MASK, NIBBLE, PLAYS_BY_MASK, Table, unpack
from .layouts import COLOURS, RED
from .phases import DEAL, DISCARD, OVER, PHASE_NAMES, PLAY, PREDICT, START, trick_strength
from .scoring import final_winners, score_round
from .view import LastTrick, RoundEnd, Shown, private_view, reveal

if TYPE_CHECKING:
    from .game import CatboxGame

ALL_X = 0b1111  # the four X spaces, covered (bit per colour)

_CHANCE_TO_MOVE = (CHANCE,)
_SEAT = tuple((s,) for s in range(5))
_RED_PLAYS, _BLUE_PLAYS, _YELLOW_PLAYS, _GREEN_PLAYS = PLAYS_BY_MASK


def _illegal(key: str, **params: Any) -> IllegalAction:
    """A refusal worded in messages.po (`catbox.refusal.*`), addressed to the seat that tried."""
    return IllegalAction(Message(f"catbox.refusal.{key}", **params))


def _colour(colour: int) -> Message:
    return Message(f"catbox.colour.{COLOURS[colour]}")


class CatboxState(State[CatboxAction]):
    """One position. Mutated by `apply`; `clone` copies it for search."""

    __slots__ = (
        "best_key",
        "best_play",
        "best_seat",
        "blocked",
        "current",
        "discards",
        "events",
        "game",
        "hands",
        "held",
        "hidden",
        "history",
        "last_round",
        "last_trick",
        "leader",
        "led",
        "options",
        "owned",
        "paradox",
        "phase",
        "players",
        "predictions",
        "red_broken",
        "revealed",
        "round",
        "scores_by_round",
        "start",
        "table",
        "taken",
        "to_move_",
        "totals",
        "trick",
        "tricks",
        "tricks_done",
        "view_log",
        "winners_",
        "xs",
    )

    def __init__(self, game: CatboxGame, players: int, options: Options, table: Table):
        self.game = game
        self.players = players
        self.options = options
        self.table = table
        self.history: list[tuple[int, CatboxAction]] = []
        self.events: list[Event] = []
        self.view_log: ViewLog = {}
        self.phase = START
        self.round = 1
        self.start = 0
        self.current = -1  # seat to predict or play; -1 otherwise
        self.leader = -1
        self.to_move_: tuple[int, ...] = _CHANCE_TO_MOVE
        self.totals = [0] * players
        self.scores_by_round: list[list[int]] = []
        self.winners_: list[int] = []
        self.last_round: RoundEnd | Shown | None = None  # kept until the next round ends
        self._clear_round()

    def _clear_round(self) -> None:
        n, table = self.players, self.table
        self.hands = [0] * n  # packed counts per number
        self.held = [0] * n  # bitmask of numbers in hand
        self.discards = [0] * n  # discarded number, 0 = not yet
        self.taken = [table.observed_numbers] * 4  # per colour: numbers whose cell is not empty
        self.owned = [0] * n  # per seat: physical mask of own tokens
        self.blocked = 0  # physical mask of 2-player blockers
        self.xs = [ALL_X] * n  # per seat: bit per colour, set = X still covered
        self.red_broken = False
        self.predictions = [0] * n
        self.tricks = [0] * n
        self.tricks_done = 0
        self.trick: list[tuple[int, Play]] = []
        self.led = -1
        self.best_seat = -1
        self.best_key = -1
        self.best_play: Play | None = None
        self.paradox = -1
        self.revealed: tuple[int, ...] = ()
        self.hidden: tuple[int, ...] = ()
        self.last_trick: LastTrick | Shown | None = None  # the round's latest completed trick

    # -- who moves -----------------------------------------------------------------------------
    @property
    def to_move(self) -> tuple[int, ...]:
        return self.to_move_

    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def phase_name(self) -> str:
        """ "deal" (chance), "discard", "predict", "play" or "over"."""
        return PHASE_NAMES[self.phase]

    def legal_actions(self, seat: int) -> tuple[CatboxAction, ...]:
        if type(seat) is not int:  # 0.0 or False would pass for seat 0 below
            return ()
        phase = self.phase
        if phase == PLAY:
            return self._legal_plays(seat) if seat == self.current else ()
        if phase == DISCARD:
            return DISCARDS_BY_MASK[self.held[seat]] if seat in self.to_move_ else ()
        if phase == PREDICT:
            return self.table.predicts if seat == self.current else ()
        if phase == START and seat == CHANCE:
            return tuple(Start(s) for s in range(self.players))
        return ()

    def _legal_plays(self, seat: int) -> tuple[Play, ...]:
        held, xs, taken = self.held[seat], self.xs[seat], self.taken
        red = held & ~taken[0] if xs & 1 else 0
        blue = held & ~taken[1] if xs & 2 else 0
        yellow = held & ~taken[2] if xs & 4 else 0
        green = held & ~taken[3] if xs & 8 else 0
        if red and not self.trick and not self.red_broken and (blue or yellow or green):
            red = 0  # §4.3: no red lead before red is broken, unless nothing else is legal
        return _RED_PLAYS[red] + _BLUE_PLAYS[blue] + _YELLOW_PLAYS[yellow] + _GREEN_PLAYS[green]

    def _can_play(self, seat: int) -> bool:
        held, xs, taken = self.held[seat], self.xs[seat], self.taken
        return bool(
            (xs & 1 and held & ~taken[0])
            or (xs & 2 and held & ~taken[1])
            or (xs & 4 and held & ~taken[2])
            or (xs & 8 and held & ~taken[3])
        )

    def _non_red_play(self, seat: int) -> bool:
        held, xs, taken = self.held[seat], self.xs[seat], self.taken
        return bool((xs & 2 and held & ~taken[1]) or (xs & 4 and held & ~taken[2]) or (xs & 8 and held & ~taken[3]))

    def chance_outcomes(self) -> list[tuple[CatboxAction, float]] | None:
        """The first start player is a small chance step; deals are too many to list (None), but
        for a research setup's small deck (`Table.deals`)."""
        if self.phase == START:
            return [(Start(s), 1 / self.players) for s in range(self.players)]
        if self.phase == DEAL and self.table.deals:
            return list(self.table.deals)
        return None

    def sample_chance(self, rng: random.Random) -> CatboxAction:
        if self.phase == START:
            return Start(rng.randrange(self.players))
        if self.phase != DEAL:
            raise IllegalAction(Message("engine.refusal.chance_not_to_move"))
        setup = self.table.setup
        deck = list(self.table.deck_cards)
        rng.shuffle(deck)
        k = setup.dealt
        hands = tuple(tuple(deck[i * k : (i + 1) * k]) for i in range(self.players))
        rest = deck[self.players * k :]
        return Deal(hands, tuple(rest[: setup.reveal]), tuple(rest[setup.reveal :]))

    # -- applying actions ------------------------------------------------------------------------
    def _apply(self, seat: int, action: CatboxAction) -> None:
        kind = action.__class__
        if kind is Play:
            self._play(seat, action)  # type: ignore[arg-type]
        elif kind is Discard:
            self._discard(seat, action)  # type: ignore[arg-type]
        elif kind is Predict:
            self._predict(seat, action)  # type: ignore[arg-type]
        elif kind is Deal:
            self._deal(seat, action)  # type: ignore[arg-type]
        elif kind is Start:
            self._start(seat, action)  # type: ignore[arg-type]
        else:
            raise MalformedAction.not_an_action("catbox", action)

    def _event(self, kind: str, seat: int | None = None, **data: Any) -> None:
        self.events.append(Event(kind, seat, data, len(self.history)))

    def _start(self, seat: int, action: Start) -> None:
        if seat != CHANCE or self.phase != START:
            raise _illegal("start_once")
        if not 0 <= action.seat < self.players:
            raise IllegalAction(Message("engine.refusal.start_seat", last=self.players - 1))
        self.start = action.seat
        self.phase = DEAL
        self.history.append((CHANCE, action))

    def _deal(self, seat: int, deal: Deal) -> None:
        if seat != CHANCE or self.phase != DEAL:
            raise _illegal("deal_now")
        table = self.table
        _check_deal(table, self.players, deal)
        self._clear_round()
        for s, cards in enumerate(deal.hands):
            packed = held = 0
            for n in cards:
                packed += 1 << (NIBBLE * n)
                held |= 1 << n
            self.hands[s] = packed
            self.held[s] = held
        self.revealed, self.hidden = deal.reveal, deal.hidden
        for row, n in table.blockers(deal.reveal):
            self.taken[row] |= 1 << n
            self.blocked |= table.cell_bit[row][n]
        self.phase = DISCARD
        self.current = self.leader = -1
        self.to_move_ = tuple(range(self.players))
        self.history.append((CHANCE, deal))
        self._event("round_started", self.start, round=self.round)

    def _discard(self, seat: int, action: Discard) -> None:
        if self.phase != DISCARD or seat not in self.to_move_:
            raise _illegal("no_discard")
        n = action.number
        shift = NIBBLE * n
        hand = self.hands[seat]
        if not hand >> shift & 15:
            raise _illegal("not_in_hand", number=n)
        hand -= 1 << shift
        self.hands[seat] = hand
        if not hand >> shift & 15:
            self.held[seat] &= ~(1 << n)
        self.discards[seat] = n
        self.to_move_ = tuple(s for s in self.to_move_ if s != seat)
        if self.to_move_:
            return  # the choice stays hidden until every seat has chosen
        self.history.extend((s, DISCARDS[d]) for s, d in enumerate(self.discards))
        self._event("discards_done")
        if self.table.predicts:
            self.phase = PREDICT
            self.current = self.start
            self.to_move_ = _SEAT[self.start]
        else:
            self._begin_tricks()

    def _predict(self, seat: int, action: Predict) -> None:
        if self.phase != PREDICT or seat != self.current:
            raise _illegal("not_your_prediction")
        if action not in self.table.predicts:
            raise _illegal("predict_one_of", values=[p.value for p in self.table.predicts])
        self.predictions[seat] = action.value
        self.history.append((seat, action))
        nxt = (seat + 1) % self.players
        if nxt == self.start:
            self._begin_tricks()
        else:
            self.current = nxt
            self.to_move_ = _SEAT[nxt]

    def _begin_tricks(self) -> None:
        self.phase = PLAY
        self.leader = self.current = self.start
        self.to_move_ = _SEAT[self.start]
        if not self._can_play(self.start):
            self._end_round(self.start)

    def _play(self, seat: int, action: Play) -> None:
        if self.phase != PLAY or seat != self.current:
            raise _illegal("not_your_play")
        n, colour = action.number, action.colour
        shift = NIBBLE * n
        hand = self.hands[seat]
        if not hand >> shift & 15:
            raise _illegal("not_in_hand", number=n)
        taken = self.taken
        if taken[colour] >> n & 1:
            raise _illegal("cell_taken", colour=_colour(colour), number=n)
        xs = self.xs[seat]
        if not xs >> colour & 1:
            raise _illegal("x_uncovered", colour=_colour(colour))
        trick = self.trick
        if colour == RED and not trick and not self.red_broken and self._non_red_play(seat):
            raise _illegal("red_not_broken")
        # The play is legal: commit it.
        hand -= 1 << shift
        self.hands[seat] = hand
        if not hand >> shift & 15:
            self.held[seat] &= ~(1 << n)
        taken[colour] |= 1 << n
        self.owned[seat] |= self.table.cell_bit[colour][n]
        self.history.append((seat, action))
        if colour == RED and not self.red_broken:
            self.red_broken = True
            self._event("red_broken", seat, number=n)
        if trick:
            led = self.led
            key = trick_strength(n, colour, led)
            if colour != led and xs >> led & 1:
                self.xs[seat] = xs & ~(1 << led)
                self.events.append(Event("x_lost", seat, {"colour": COLOURS[led]}, len(self.history)))
            if key > self.best_key:
                self.best_seat, self.best_key, self.best_play = seat, key, action
        else:
            self.led = colour
            self.best_seat, self.best_key, self.best_play = seat, trick_strength(n, colour, colour), action
        trick.append((seat, action))
        if len(trick) == self.players:
            self._finish_trick()
            return
        nxt = seat + 1
        if nxt == self.players:
            nxt = 0
        self.current = nxt
        self.to_move_ = _SEAT[nxt]
        if not self._can_play(nxt):
            self._end_round(nxt)

    def _finish_trick(self) -> None:
        winner, play = self.best_seat, self.best_play
        assert play is not None
        self.tricks[winner] += 1
        self.tricks_done += 1
        self._event("trick_won", winner, trick=self.tricks_done, number=play.number, colour=COLOURS[play.colour])
        self.last_trick = (self.tricks_done, self.trick, winner, -1)  # a new list replaces it
        self.trick = []
        self.led = self.best_seat = self.best_key = -1
        self.best_play = None
        if self.tricks_done == self.table.setup.tricks:
            self._end_round(-1)
            return
        self.leader = self.current = winner
        self.to_move_ = _SEAT[winner]
        if not self._can_play(winner):
            self._end_round(winner)

    def _end_round(self, paradox: int) -> None:
        """Score the round; `paradox` is the seat that could not play, or -1 (§6, §7)."""
        if paradox >= 0:  # the paradox player shows their hand (the seed)
            self.paradox = paradox
            self._event("paradox", paradox, trick=self.tricks_done + 1, hand=tuple(unpack(self.hands[paradox])))
            self.last_trick = (self.tricks_done + 1, self.trick, -1, paradox)
        # every discard is revealed once the round is over (§3.2); JSON keys are text
        self._event("discards_revealed", discards=FrozenData({str(s): d for s, d in enumerate(self.discards)}))
        self.trick = []
        self.led = self.best_seat = self.best_key = -1
        self.best_play = None
        self.current = self.leader = -1
        scored = score_round(self.table, self.tricks, self.predictions, self.owned, paradox)
        points = [p for p, _ in scored]
        self.scores_by_round.append(points)
        for s, (p, bonus) in enumerate(scored):
            self.totals[s] += p
            prediction = self.predictions[s] or None
            self._event(
                "round_scored", s, round=self.round, tricks=self.tricks[s], prediction=prediction, bonus=bonus, points=p
            )
        # the round's lists are replaced, never changed, by the next deal: keeping them is free
        self.last_round = RoundEnd(
            self.round,
            self.owned,
            self.blocked,
            self.xs,
            self.predictions,
            self.tricks,
            self.discards,
            paradox,
            unpack(self.hands[paradox]) if paradox >= 0 else [],
            self.revealed,
            scored,
            tuple(self.totals),
            self.last_trick,
        )
        if self.round == self.table.setup.rounds:
            self.phase = OVER
            self.to_move_ = ()
            self.winners_ = final_winners(self.totals, points)
            self._event("game_over", None, winners=tuple(self.winners_), scores=tuple(self.totals))
        else:
            self.round += 1
            self.start = (self.start + 1) % self.players  # the start-player card passes left
            self.phase = DEAL
            self.to_move_ = _CHANCE_TO_MOVE

    # -- copies and results ---------------------------------------------------------------------
    def clone(self) -> CatboxState:
        new = CatboxState.__new__(CatboxState)
        new.game, new.players, new.options, new.table = self.game, self.players, self.options, self.table
        new.history, new.events = self.history[:], self.events[:]
        new.view_log = self.view_log
        new.phase, new.round, new.start = self.phase, self.round, self.start
        new.current, new.leader, new.to_move_ = self.current, self.leader, self.to_move_
        new.hands, new.held, new.discards = self.hands[:], self.held[:], self.discards[:]
        new.taken, new.owned, new.blocked = self.taken[:], self.owned[:], self.blocked
        new.xs, new.red_broken = self.xs[:], self.red_broken
        new.predictions, new.tricks, new.tricks_done = self.predictions[:], self.tricks[:], self.tricks_done
        new.trick, new.led = self.trick[:], self.led
        new.best_seat, new.best_key, new.best_play = self.best_seat, self.best_key, self.best_play
        new.paradox, new.revealed, new.hidden = self.paradox, self.revealed, self.hidden
        new.last_trick, new.last_round = self.last_trick, self.last_round
        new.totals, new.scores_by_round, new.winners_ = self.totals[:], self.scores_by_round[:], self.winners_[:]
        return new

    def record(self, seed: int | None = None) -> Record:
        """The history, plus any discards still pending (hidden from views, but part of the truth)."""
        rec = super().record(seed)
        if self.phase == DISCARD:
            rec.actions += [f"{s}: {DISCARDS[d]}" for s, d in enumerate(self.discards) if d]
        return rec

    def scores(self) -> list[float]:
        return list(self.totals)

    def round_scores(self) -> list[list[float]]:
        return [list(r) for r in self.scores_by_round]

    def winners(self) -> list[int]:
        return list(self.winners_)

    # -- views (see view.py) --------------------------------------------------------------------
    def private_view(self, seat: int | None) -> dict[str, Any]:
        return private_view(self, seat)

    def reveal(self) -> dict[str, Any]:
        return reveal(self)


def _check_deal(table: Table, players: int, deal: Deal) -> None:
    """A forced deal must be one the deck could produce (§1 counts, §8 centre)."""
    setup = table.setup
    if len(deal.hands) != players:
        raise _illegal("deal_hands", players=players, n=len(deal.hands))
    for s, cards in enumerate(deal.hands):
        if len(cards) != setup.dealt:
            raise _illegal("deal_hand_size", hand=s, n=len(cards), dealt=setup.dealt)
    if len(deal.reveal) != setup.reveal or len(deal.hidden) != setup.centre - setup.reveal:
        if setup.centre:
            raise _illegal("deal_centre")
        raise _illegal("deal_no_centre", players=players)
    every = [n for hand in deal.hands for n in hand] + list(deal.reveal) + list(deal.hidden)
    if any(n > setup.numbers for n in every):
        raise _illegal("deal_numbers", players=players, high=setup.numbers)
    wrong = [n for n in range(1, setup.numbers + 1) if every.count(n) != setup.copies]
    if wrong:
        raise _illegal("deal_counts", copies=setup.copies, wrong=wrong)
