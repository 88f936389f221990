"""Shut the Box rules: one position and how actions change it.

The hot path (`legal_actions`, `apply`, `sample_chance`, `clone`) is table-driven: legal actions
are precomputed tuples of interned actions, looked up by board bitmask and dice total, so a
random playout costs a few list lookups per action. The rarer steps (end of a turn, of a round,
of the game) are plain readable methods.

Rule decisions the rules file leaves open (see docs/shutbox.md):
* When a box is shut, the game ends at once, in turn order and in simultaneous mode alike (the
  seed: the player wins at once): the shutter wins alone; the unfinished round is scored with the
  penalties of the turns already finished (0 for seats that did not finish theirs), and nobody is
  eliminated by it.
* Eliminated players score 0 in later rounds; their boards are shown full.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ...engine import CHANCE, Event, IllegalAction, MalformedAction, NekobakoError, Options, State, ViewLog
from ...i18n import Message
from .actions import Action, Dice, Roll, Shut, Start
from .options import ELIMINATION_AT, ROUND_LIMIT
from .tables import (
    ONE_DIE,
    ONE_DIE_OUTCOMES,
    TOTAL_BITS,
    TWO_DICE,
    TWO_DICE_OUTCOMES,
    mask_tiles,
    penalty_table,
    tables,
)

if TYPE_CHECKING:
    from .game import ShutTheBox

PHASE_NAMES = ("play", "over")  # the view's `phase`: rounds of turns until the game ends
CHANCE_ONLY = (CHANCE,)
NOBODY: tuple[int, ...] = ()


def _message(kind: str, **data: Any) -> dict[str, Any]:
    return {"kind": kind, "seat": None, "data": data}


class RoundEnd(NamedTuple):
    """A finished round's boards and penalties, as the state keeps them until the next round ends."""

    round: int
    open: list[int]  # bitmask of open tiles per seat
    dice: list[Dice | None]
    penalty: list[int | None]
    shut: list[bool]
    row: tuple[int, ...]  # penalties added to the totals
    eliminated: tuple[int, ...]  # seats eliminated by this round
    finish: str | None  # why the game ended after this round ("shut", "rounds", ...), if it did


class ShutState(State[Action]):
    """A Shut the Box table: one board per seat, rounds of turns, chance for dice and start."""

    __slots__ = (
        "_active",
        "_dice",
        "_eliminated",
        "_full",
        "_last",
        "_legal",
        "_open",
        "_order",
        "_over",
        "_pen",
        "_penalty",
        "_roll_n",
        "_roller",
        "_rolls",
        "_round",
        "_rounds",
        "_shut",
        "_shuts",
        "_sim",
        "_start",
        "_to_move",
        "_totals",
        "_turn",
        "_winners",
        "events",
        "game",
        "history",
        "options",
        "players",
        "view_log",
    )

    def __init__(self, game: ShutTheBox, players: int, options: Options):
        self.game = game
        self.players = players
        self.options = options
        self.history: list[tuple[int, Any]] = []
        self.events: list[Event] = []
        self.view_log: ViewLog = {}
        t = tables(options.tiles, options.max_close, options.one_die)
        self._shuts = t.shuts
        self._rolls = t.rolls
        self._full = t.full
        self._pen = penalty_table(options.tiles, options.scoring)
        self._sim = bool(options.simultaneous)
        self._open = [t.full] * players
        self._legal: list[tuple[Any, ...]] = [NOBODY] * players
        self._dice: list[Dice | None] = [None] * players
        self._to_move: tuple[int, ...] = CHANCE_ONLY
        self._active: tuple[int, ...] = NOBODY
        self._roller = -1
        self._roll_n = 0  # 0: the start player is drawn next; 1 or 2: dice for `_roller`
        self._order: tuple[int, ...] = NOBODY
        self._turn = 0  # index in `_order` of the seat playing (turn order mode)
        self._penalty: list[int | None] = [None] * players
        self._shut = [False] * players
        self._totals = [0] * players
        self._rounds: list[tuple[int, ...]] = []
        self._eliminated = [False] * players
        self._start = -1
        self._round = 0
        self._over = False
        self._winners: list[int] = []
        self._last: RoundEnd | None = None  # the last finished round, until the next one ends

    # -- who moves ---------------------------------------------------------------------------------
    @property
    def to_move(self) -> tuple[int, ...]:
        return self._to_move

    def is_over(self) -> bool:
        return self._over

    def legal_actions(self, seat: int) -> Sequence[Any]:
        if self._to_move is CHANCE_ONLY:
            return [a for a, _ in self.chance_outcomes()] if seat == CHANCE else NOBODY
        if type(seat) is int and 0 <= seat < self.players:
            return self._legal[seat]
        return NOBODY

    def chance_outcomes(self) -> Sequence[tuple[Any, float]]:
        if self._to_move is not CHANCE_ONLY:
            return ()
        if self._roll_n == 2:
            return TWO_DICE_OUTCOMES
        if self._roll_n == 1:
            return ONE_DIE_OUTCOMES
        return tuple((Start(s), 1 / self.players) for s in range(self.players))

    def sample_chance(self, rng: random.Random) -> Any:
        n = self._roll_n
        if n == 2:
            return TWO_DICE[int(rng.random() * 36)]
        if n == 1:
            return ONE_DIE[int(rng.random() * 6)]
        return Start(int(rng.random() * self.players))

    # -- playing -----------------------------------------------------------------------------------
    def _apply(self, seat: int, action: Any) -> None:
        if seat == CHANCE:
            if self._to_move is CHANCE_ONLY and type(action) is Dice and action.n == self._roll_n:
                seat = self._roller  # the dice of the seat that rolled: the hot chance path
                self.history.append((CHANCE, action))
                self._dice[seat] = action
                legal = self._shuts[self._open[seat] << TOTAL_BITS | action.total]
                if legal:
                    self._legal[seat] = legal
                    self._to_move = self._active
                else:
                    self._end_turn(seat, action.total)
            else:
                self._apply_start(action)
            return
        to_move = self._to_move
        legal = self._legal[seat] if to_move is not CHANCE_ONLY else ()
        if action not in legal:
            raise self._refusal(seat, action)
        self.history.append((seat, action))
        if type(action) is Shut:
            mask = self._open[seat] ^ action.mask
            self._open[seat] = mask
            if mask:
                self._legal[seat] = self._rolls[mask]
            else:
                self._end_turn(seat, 0)
        else:  # Roll: chance rolls for this seat next
            self._roller = seat
            self._roll_n = action.n
            self._to_move = CHANCE_ONLY

    def _apply_start(self, action: Any) -> None:
        """The first chance step (the start player); anything else from chance is refused here."""
        if self._to_move is not CHANCE_ONLY or self._roll_n or type(action) is not Start or action.seat >= self.players:
            raise self._refusal(CHANCE, action)
        self.history.append((CHANCE, action))
        self._start = action.seat
        self._event("start", action.seat)
        self._begin_round()

    # -- turns, rounds, the end --------------------------------------------------------------------
    def _event(self, kind: str, seat: int | None = None, **data: Any) -> None:
        self.events.append(Event(kind, seat, data, len(self.history)))

    def _begin_round(self) -> None:
        self._round += 1
        p = self.players
        start = self._start
        order = tuple(s for s in ((start + i) % p for i in range(p)) if not self._eliminated[s])
        self._order = order
        self._open = [self._full] * p
        self._penalty = [None] * p
        self._shut = [False] * p
        self._dice = [None] * p
        self._legal = [NOBODY] * p
        first = self._rolls[self._full]
        if self._sim:
            self._active = order
            for s in order:
                self._legal[s] = first
        else:
            self._turn = 0
            self._active = (order[0],)
            self._legal[order[0]] = first
        self._to_move = self._active

    def _end_turn(self, seat: int, total: int) -> None:
        """`seat` cannot go on: its board is shut, or no tiles fit the dice `total`."""
        mask = self._open[seat]
        penalty = self._pen[mask]
        self._penalty[seat] = penalty
        self._legal[seat] = NOBODY
        if mask:
            self._event("turn_over", seat, total=total, open=tuple(mask_tiles(mask)), penalty=penalty)
        else:
            self._shut[seat] = True
            self._event("box_shut", seat)
        if mask == 0:  # shutting the box wins at once; unfinished turns are not played out
            self._end_round()
        elif self._sim:
            self._active = tuple(s for s in self._active if s != seat)
            self._to_move = self._active
            if not self._active:
                self._end_round()
        else:
            self._turn += 1
            if self._turn < len(self._order):
                nxt = self._order[self._turn]
                self._active = (nxt,)
                self._legal[nxt] = self._rolls[self._full]
                self._to_move = self._active
            else:
                self._end_round()

    def _end_round(self) -> None:
        row = tuple(p or 0 for p in self._penalty)
        self._rounds.append(row)
        for s, p in enumerate(row):
            self._totals[s] += p
        self._event("round_scored", None, round=self._round, penalties=row, totals=tuple(self._totals))
        newly: list[int] = []
        finish = self._decide(newly)
        # the round's lists are replaced, never changed, by the next round: keeping them is free
        self._last = RoundEnd(self._round, self._open, self._dice, self._penalty, self._shut, row, tuple(newly), finish)
        if finish is None:
            self._begin_round()

    def _decide(self, newly: list[int]) -> str | None:
        """Eliminations (into `newly`) and the end of the game after a round: the reason it ended, if it did."""
        shutters = [s for s in self._order if self._shut[s]]
        if shutters:
            return self._finish(shutters, "shut")
        opts = self.options
        threshold = ELIMINATION_AT.get((opts.scoring, opts.length))
        if threshold is not None:
            for s in self._order:
                if self._totals[s] >= threshold:
                    self._eliminated[s] = True
                    newly.append(s)
                    self._event("eliminated", s, total=self._totals[s])
        still = [s for s in range(self.players) if not self._eliminated[s]]
        limit = ROUND_LIMIT.get((opts.scoring, opts.length))
        if self.players == 1:
            if newly:
                return self._finish([], "eliminated")
            if limit is not None and self._round >= limit:
                return self._finish(still, "rounds")
            return None
        if newly and (opts.quick or len(still) <= 1):
            reason = "quick" if opts.quick and len(still) > 1 else "eliminated"
            return self._finish(self._lowest(still or newly), reason)
        if limit is not None and self._round >= limit:
            return self._finish(self._lowest(still), "rounds")
        return None

    def _lowest(self, seats: list[int]) -> list[int]:
        best = min(self._totals[s] for s in seats)
        return [s for s in seats if self._totals[s] == best]

    def _finish(self, winners: list[int], reason: str) -> str:
        self._over = True
        self._winners = sorted(winners)
        self._to_move = NOBODY
        self._active = NOBODY
        self._legal = [NOBODY] * self.players
        self._event("game_over", None, winners=tuple(self._winners), reason=reason)
        return reason

    # -- refusals (the slow path: only when an action is not legal) --------------------------------
    # Words in messages.po (`shutbox.refusal.*`), addressed to the seat that tried.
    def _refusal(self, seat: int, action: Any) -> NekobakoError:
        if not isinstance(action, (Roll, Shut, Dice, Start)):
            return MalformedAction.not_an_action("shutbox", action)
        return IllegalAction(self._why(seat, action))

    def _why(self, seat: int, action: Action) -> Message:
        if self._over:
            return Message("engine.refusal.game_over")
        if seat == CHANCE:
            if self._to_move is not CHANCE_ONLY:
                return Message("engine.refusal.no_chance_pending")
            if self._roll_n:
                return Message("shutbox.refusal.dice_count", n=self._roll_n, action=str(action))
            return Message("engine.refusal.start_seat", last=self.players - 1)
        if not isinstance(action, (Roll, Shut)):
            return Message("engine.refusal.chance_outcome", action=str(action))
        if self._to_move is CHANCE_ONLY:
            return Message("shutbox.refusal.await_roll")
        if seat not in self._to_move:
            if self._eliminated[seat]:
                return Message("shutbox.refusal.eliminated")
            if self._penalty[seat] is not None:
                return Message("shutbox.refusal.turn_done")
            return Message("engine.refusal.not_your_turn")
        dice = self._dice[seat]
        awaiting_shut = self._legal[seat] and type(self._legal[seat][0]) is Shut
        if type(action) is Roll:
            if awaiting_shut:
                return Message("shutbox.refusal.shut_first", total=dice.total if dice else "?")
            return Message(f"shutbox.refusal.one_die_{self.options.one_die}")
        if not awaiting_shut:
            return Message("shutbox.refusal.roll_first")
        assert dice is not None and isinstance(action, Shut)
        board = self.options.tiles
        mask = self._open[seat]
        for t in action.tiles:
            if t > board:
                return Message("shutbox.refusal.no_such_tile", tile=t, tiles=board)
            if not mask >> (t - 1) & 1:
                return Message("shutbox.refusal.tile_shut", tile=t)
        if action.total != dice.total:
            return Message(
                "shutbox.refusal.wrong_total",
                tiles=" + ".join(map(str, action.tiles)),
                sum=action.total,
                total=dice.total,
            )
        return Message("shutbox.refusal.too_many_tiles", n=self.options.max_close)

    # -- copies --------------------------------------------------------------------------------------
    def __setstate__(self, state: tuple[None, dict[str, Any]]) -> None:
        """Unpickling: `CHANCE_ONLY` is told apart by identity on the hot path, so a pickled
        state (worker processes, stores) gets the marker itself back, not an equal tuple."""
        for name, value in state[1].items():
            setattr(self, name, value)
        if self._to_move == CHANCE_ONLY:
            self._to_move = CHANCE_ONLY

    def clone(self) -> ShutState:
        new = object.__new__(ShutState)
        new.game = self.game
        new.players = self.players
        new.options = self.options
        new.history = self.history.copy()
        new.events = self.events.copy()
        new.view_log = self.view_log
        new._shuts = self._shuts
        new._rolls = self._rolls
        new._full = self._full
        new._pen = self._pen
        new._sim = self._sim
        new._open = self._open.copy()
        new._legal = self._legal.copy()
        new._dice = self._dice.copy()
        new._to_move = self._to_move
        new._active = self._active
        new._roller = self._roller
        new._roll_n = self._roll_n
        new._order = self._order
        new._turn = self._turn
        new._penalty = self._penalty.copy()
        new._shut = self._shut.copy()
        new._totals = self._totals.copy()
        new._rounds = self._rounds.copy()
        new._eliminated = self._eliminated.copy()
        new._start = self._start
        new._round = self._round
        new._over = self._over
        new._winners = self._winners.copy()
        new._last = self._last
        return new

    # -- results -------------------------------------------------------------------------------------
    def scores(self) -> list[float]:
        return list(self._totals)

    def round_scores(self) -> list[list[float]]:
        return [list(r) for r in self._rounds]

    def winners(self) -> list[int]:
        return list(self._winners)

    # -- views ---------------------------------------------------------------------------------------
    def private_view(self, seat: int | None) -> dict[str, Any]:
        """Everything is public in Shut the Box: the same keys for every viewer (see docs/views.md)."""
        to_move = self._to_move
        playing = () if to_move is CHANCE_ONLY else to_move
        waiting = self._roller if to_move is CHANCE_ONLY and self._roll_n else None
        current = None
        if not self._sim and self._order and not self._over:
            current = self._order[self._turn]
        return {
            "phase": PHASE_NAMES[1] if self._over else PHASE_NAMES[0],
            "round": self._round,
            "start_player": None if self._start < 0 else self._start,
            "order": list(self._order),
            "current": current,
            "active": list(self._active),
            "rolling": waiting,
            "boards": [mask_tiles(m) for m in self._open],
            "tiles": self.options.tiles,
            "dice": [list(d.faces) if d else [] for d in self._dice],
            "eliminated": list(self._eliminated),
            "shut": list(self._shut),
            "penalty": list(self._penalty),
            "one_die": [
                s in playing and len(self._legal[s]) == 2 and type(self._legal[s][0]) is Roll
                for s in range(self.players)
            ],
            "elimination_at": ELIMINATION_AT.get((self.options.scoring, self.options.length)),
            "round_limit": ROUND_LIMIT.get((self.options.scoring, self.options.length)),
            "last_round": self._last_round_json(),
            "prompt": self._prompt(seat, current),
            "goal": self._goal(),
        }

    def _prompt(self, seat: int | None, current: int | None) -> dict[str, Any] | None:
        """What `seat` should do now, or who is playing: a message of the game's catalogue."""
        if self._over or self._to_move is CHANCE_ONLY:
            return None
        legal = self._legal[seat] if seat is not None and seat in self._to_move else ()
        if legal and type(legal[0]) is Roll:
            return _message("do_roll_one" if len(legal) == 2 else "do_roll")
        if legal:
            dice = self._dice[seat]  # type: ignore[index]
            total = dice.total if dice else 0
            most = self.options.max_close
            if most == "any":
                return _message("do_shut_any", total=total)
            return _message("do_shut", total=total, most=most)
        if self._sim:
            return _message("wait_others") if seat in self._order else None
        return {"kind": "wait_turn", "seat": current, "data": {}}

    def _goal(self) -> dict[str, Any]:
        opts = self.options
        limit = ELIMINATION_AT.get((opts.scoring, opts.length))
        if limit is None:
            return _message("goal_rounds", rounds=ROUND_LIMIT[(opts.scoring, opts.length)])
        return _message("goal_quick" if opts.quick else "goal_elimination", limit=limit)

    def _last_round_json(self) -> dict[str, Any] | None:
        """The final boards of the last finished round and each seat's part in it (`docs/views.md`)."""
        last = self._last
        if last is None:
            return None
        rounds = self._rounds[: last.round]
        totals = [sum(r[s] for r in rounds) for s in range(self.players)]
        return {
            "round": last.round,
            "boards": [mask_tiles(m) for m in last.open],
            "dice": [list(d.faces) if d else [] for d in last.dice],
            "seats": [
                {
                    "penalty": last.penalty[s],
                    "shut": last.shut[s],
                    "points": last.row[s],
                    "total": totals[s],
                    "eliminated": s in last.eliminated,
                }
                for s in range(self.players)
            ],
            "finish": last.finish,
        }
