"""One Catopomp position and its rules (§2–§7 of the rules file).

The state is a handful of count lists (hands, hell areas, undealt and removed cards, central
dice) plus the table; `apply` mutates it in place and `clone` copies the lists. Legal actions
are generated once per position and cached until the next `apply`, which accepts an action only
if it is in that list, so there is one implementation of legality.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...engine import CHANCE, Event, IllegalAction, MalformedAction, State, ViewLog
from ...i18n import Message
from . import actions as A
from .cards import CATLETON, SLOTS, card_json, card_text
from .combos import generate
from .dice import dice_specs, roll_outcomes
from .options import Rules
from .phases import BURY, DEAL, DICE, OVER, PLAY, SPARE, START, TRANSFER
from .view import RoundEnd, private_view, reveal

if TYPE_CHECKING:
    from .game import CatopompGame

NO_HIDDEN_SPARES = 1 << 60

_SPARE_ACTIONS: tuple[A.Action, ...] = tuple(A.SPARES[f] for f in range(1, 7))


class CatopompState(State[A.Action]):
    __slots__ = (
        "_legal",
        "_legal_seat",
        "centre",
        "current",
        "events",
        "game",
        "gems",
        "hand_n",
        "hands",
        "hell_n",
        "hells",
        "history",
        "last_round",
        "options",
        "passed",
        "phase",
        "players",
        "removed",
        "round",
        "round_losses",
        "rules",
        "spare",
        "spare_hidden_from",
        "spare_holders",
        "spare_pending",
        "start_player",
        "table",
        "table_owner",
        "threshold",
        "transfer_to",
        "undealt",
        "used",
        "view_log",
    )

    def __init__(self, game: CatopompGame, players: int, options: Any, rules: Rules):
        self.game = game
        self.players = players
        self.options = options
        self.rules = rules
        self.history: list[tuple[int, A.Action]] = []
        self.events: list[Event] = []
        self.view_log: ViewLog = {}
        self.phase = START
        self.round = 1
        self.start_player = 0
        self.gems = [rules.gems] * players
        self.round_losses: list[list[int]] = []
        self.spare_holders: tuple[int, ...] = ()
        self.spare_hidden_from = NO_HIDDEN_SPARES
        self.last_round: Any = None  # RoundEnd (or view.Shown from a view): the last finished round
        self._reset_round()

    def _reset_round(self) -> None:
        players = self.players
        self.hands = [[0] * SLOTS for _ in range(players)]
        self.hells = [[0] * SLOTS for _ in range(players)]
        self.hand_n = [0] * players
        self.hell_n = [0] * players
        self.undealt = list(self.rules.deck)
        self.removed = [0] * SLOTS
        self.table: A.Play | None = None
        self.table_owner = -1
        self.threshold = -1
        self.passed = 0
        self.current = -1
        self.transfer_to = -1
        self.centre = [0] * 7
        self.used: list[tuple[int, ...]] = [()] * players
        self.spare = [0] * players
        self.spare_pending: tuple[int, ...] = ()
        self._legal: tuple[A.Action, ...] | None = None
        self._legal_seat = -2

    # -- who moves ---------------------------------------------------------------------------------
    @property
    def to_move(self) -> tuple[int, ...]:
        phase = self.phase
        if phase in (PLAY, BURY):
            return (self.current,)
        if phase == TRANSFER:
            return (self.table_owner,)
        if phase <= DICE:
            return (CHANCE,)
        if phase == SPARE:
            return self.spare_pending
        return ()

    def is_over(self) -> bool:
        return self.phase == OVER

    def central_dice_count(self) -> int:
        return self.rules.dice - len(self.spare_holders)

    # -- legal actions -------------------------------------------------------------------------------
    def legal_actions(self, seat: int) -> tuple[A.Action, ...]:
        """Cached until the next `apply`; a tuple, so no caller can change the cache."""
        if self._legal_seat == seat and self._legal is not None:
            return self._legal
        legal = tuple(self._generate(seat))
        self._legal = legal
        self._legal_seat = seat
        return legal

    def _generate(self, seat: int) -> list[A.Action]:
        phase = self.phase
        if phase == PLAY:
            return self._plays(seat) if seat == self.current else []
        if phase == BURY:
            if seat != self.current:
                return []
            hand = self.hands[seat]
            return [A.BURIES[c] for c in range(1, SLOTS) if hand[c]]
        if phase == TRANSFER:
            if seat != self.table_owner:
                return []
            hell = self.hells[seat]
            cards = [c for c in range(1, SLOTS) if hell[c]]
            if self.rules.casual:
                return [A.KEEP_ACTION, *(A.DISCARDS[c] for c in cards)]
            gives: list[A.Action] = [A.GIVES[c] for c in cards]
            return gives if self.hell_n[seat] >= 3 else [A.KEEP_ACTION, *gives]
        if phase == SPARE:
            return list(_SPARE_ACTIONS) if seat in self.spare_pending else []
        if seat == CHANCE:
            outcomes = self.chance_outcomes()
            return [] if outcomes is None else [a for a, _ in outcomes]
        return []

    def _plays(self, seat: int) -> list[A.Action]:
        rules = self.rules
        out: list[A.Action] = [] if self.table is None else [A.PASS_ACTION]
        specs = None
        if not self.used[seat]:
            specs = dice_specs(tuple(self.centre), self.spare[seat])
        hand = self.hands[seat]
        hell = self.hells[seat]
        threshold = self.threshold
        if self.hand_n[seat]:
            swaps: tuple[int, ...] = ()
            if hand[CATLETON] and self.hell_n[seat]:
                swaps = tuple(c for c in range(1, SLOTS) if hell[c])  # numbers, Mdm Mitch, Cat-leton
            generate(out, False, hand, 1, rules.max_size, threshold, specs, swaps, rules.max_value)
            if self.hell_n[seat]:
                generate(out, True, hell, 2, rules.max_size, threshold, specs, (), rules.max_value)
        else:
            generate(out, True, hell, 1, rules.max_size, threshold, specs, (), rules.max_value)
        return out

    # -- chance ----------------------------------------------------------------------------------------
    def chance_outcomes(self) -> Sequence[tuple[A.Action, float]] | None:
        if self.phase == START:
            p = 1.0 / self.players
            return [(A.STARTS[s], p) for s in range(self.players)]
        if self.phase == DICE:
            return roll_outcomes(self.central_dice_count())
        return None

    def sample_chance(self, rng: random.Random) -> A.Action:
        phase = self.phase
        if phase == START:
            return A.STARTS[int(rng.random() * self.players)]
        if phase == DEAL:
            pool = list(self.rules.pool)
            rng.shuffle(pool)
            size = self.rules.hand_size
            return A.Deal(tuple(tuple(pool[i * size : (i + 1) * size]) for i in range(self.players)))
        if phase == DICE:
            return A.roll(tuple(sorted(int(rng.random() * 6) + 1 for _ in range(self.central_dice_count()))))
        raise IllegalAction(Message("engine.refusal.chance_not_to_move"))

    # -- apply -------------------------------------------------------------------------------------------
    def _apply(self, seat: int, action: A.Action) -> None:
        if not isinstance(action, A.Action):
            raise MalformedAction.not_an_action("catopomp", action)
        phase = self.phase
        if phase <= DICE:
            if seat != CHANCE:
                raise IllegalAction(Message("catopomp.refusal.chance_to_move"))
            self._apply_chance(action)
        else:
            if seat == CHANCE:
                raise IllegalAction(Message("engine.refusal.no_chance_pending"))
            legal = self.legal_actions(seat)
            if action not in legal:
                raise IllegalAction(self._why_illegal(seat, action))
            kind = action.kind
            if kind == A.PLAY:
                self._play(seat, action)  # type: ignore[arg-type]
            elif kind == A.BURY:
                self._bury(seat, action.arg)  # type: ignore[attr-defined]
            elif kind == A.PASS:
                self._pass(seat)
            elif kind == A.SPARE:
                self._spare(seat, action.arg)  # type: ignore[attr-defined]
            else:
                self._transfer(seat, action)
        self.history.append((seat, action))
        if action.kind == A.SPARE and not self.spare_pending:
            # simultaneous choices enter the record in seat order, whatever order they came in
            holders = len(self.spare_holders)
            self.history[-holders:] = sorted(self.history[-holders:], key=lambda entry: entry[0])
        self._legal = None
        self._legal_seat = -2

    def _apply_chance(self, action: A.Action) -> None:
        phase = self.phase
        if phase == START:
            if action.kind != A.START:
                raise IllegalAction(Message("catopomp.refusal.start_first"))
            if not 0 <= action.arg < self.players:  # type: ignore[attr-defined]
                raise IllegalAction(Message("engine.refusal.start_seat", last=self.players - 1))
            self.start_player = action.arg  # type: ignore[attr-defined]
            self.phase = DEAL
            self._event("round_start", self.start_player, round=self.round)
        elif phase == DEAL:
            if action.kind != A.DEAL:
                raise IllegalAction(Message("catopomp.refusal.deal_now"))
            self._deal(action)  # type: ignore[arg-type]
        else:
            if action.kind != A.ROLL:
                raise IllegalAction(Message("catopomp.refusal.dice_now"))
            faces = action.faces  # type: ignore[attr-defined]
            need = self.central_dice_count()
            if len(faces) != need:
                raise IllegalAction(Message("catopomp.refusal.dice_count", n=need, faces=len(faces)))
            if not all(isinstance(f, int) and 1 <= f <= 6 for f in faces):
                raise IllegalAction(Message("catopomp.notation.face", word=str(faces)))
            for face in faces:
                self.centre[face] += 1
            if self.spare_holders:
                self.phase = SPARE
                self.spare_pending = self.spare_holders
                self.spare_hidden_from = len(self.history) + 1
            else:
                self._begin_play()

    def _deal(self, deal: A.Deal) -> None:
        rules = self.rules
        if len(deal.hands) != self.players:
            raise IllegalAction(Message("catopomp.refusal.deal_hands", players=self.players, n=len(deal.hands)))
        left = list(rules.deck)
        for seat, hand in enumerate(deal.hands):
            if len(hand) != rules.hand_size:
                raise IllegalAction(
                    Message("catopomp.refusal.deal_hand_size", hand=seat, n=len(hand), size=rules.hand_size)
                )
            for card in hand:
                left[card] -= 1
                if left[card] < 0:
                    raise IllegalAction(
                        Message("catopomp.refusal.deal_copies", n=rules.deck[card], card=card_text(card))
                    )
        for seat, hand in enumerate(deal.hands):
            counts = self.hands[seat]
            for card in hand:
                counts[card] += 1
            self.hand_n[seat] = len(hand)
        self.undealt = left
        # spare dice (§6): players with exactly one gem, from round 2, in turn order while dice remain
        holders: list[int] = []
        if self.round >= 2:
            for i in range(self.players):
                seat = (self.start_player + i) % self.players
                if self.gems[seat] == 1 and len(holders) < rules.dice:
                    holders.append(seat)
        self.spare_holders = tuple(sorted(holders))
        self.phase = DICE

    def _begin_play(self) -> None:
        self.phase = PLAY
        self.current = self.start_player

    def _spare(self, seat: int, face: int) -> None:
        self.spare[seat] = face
        self.spare_pending = tuple(s for s in self.spare_pending if s != seat)
        if not self.spare_pending:
            self.spare_hidden_from = NO_HIDDEN_SPARES
            self._event("spares_set", None, faces={str(s): self.spare[s] for s in self.spare_holders})
            self._begin_play()

    def _play(self, seat: int, action: A.Play) -> None:
        source = self.hells[seat] if action.hell else self.hands[seat]
        for card in action.cards:
            source[card] -= 1
        count = len(action.cards)
        removed = self.removed
        if action.hell:
            self.hell_n[seat] -= count
        else:
            self.hand_n[seat] -= count
        if action.swap:
            self.hells[seat][action.swap] -= 1
            self.hell_n[seat] -= 1
            removed[CATLETON] += 1
            self._event("catleton_swap", seat, card=card_json(action.swap))
        old = self.table
        if old is not None:
            for card in old.table_cards:
                removed[card] += 1
        self.table = action
        self.table_owner = seat
        self.threshold = action.strength
        self.passed = 0
        if action.dice_value:
            centre = self.centre
            for face in action.dice:
                centre[face] -= 1
            spare = self.spare[seat]
            if action.spare:
                self.used[seat] = (*action.dice, action.spare)
                self.spare[seat] = 0
            else:
                self.used[seat] = action.dice
                if spare:
                    centre[spare] += 1
                    self.spare[seat] = 0
                    self._event("spare_moved", seat, face=spare)
        if not action.hell and self.hand_n[seat]:
            self.phase = BURY
            return
        self._after_play(seat)

    def _bury(self, seat: int, card: int) -> None:
        self.hands[seat][card] -= 1
        self.hand_n[seat] -= 1
        self.hells[seat][card] += 1
        self.hell_n[seat] += 1
        self.phase = PLAY
        self._after_play(seat)

    def _after_play(self, seat: int) -> None:
        if self.hand_n[seat] + self.hell_n[seat] == 0:
            self._event("player_out", seat)
        if self._round_over():
            return
        self.phase = PLAY
        self.current = self._next_in(seat)

    def _pass(self, seat: int) -> None:
        self.passed |= 1 << seat
        owner = self.table_owner
        if self.hell_n[owner]:
            self.phase = TRANSFER
            self.transfer_to = seat
            return
        self._after_pass(seat)

    def _transfer(self, owner: int, action: A.Action) -> None:
        passer = self.transfer_to
        card = action.arg  # type: ignore[attr-defined]
        if action.kind == A.GIVE:
            self.hells[owner][card] -= 1
            self.hell_n[owner] -= 1
            self.hells[passer][card] += 1
            self.hell_n[passer] += 1
            self._event("hell_given", owner, card=card_json(card), to=passer)
        elif action.kind == A.DISCARD:
            self.hells[owner][card] -= 1
            self.hell_n[owner] -= 1
            self.removed[card] += 1
            self._event("hell_discarded", owner, card=card_json(card))
        self.transfer_to = -1
        self.phase = PLAY
        if action.kind != A.KEEP and self.hand_n[owner] + self.hell_n[owner] == 0:
            self._event("player_out", owner)
            if self._round_over():
                return
        self._after_pass(passer)

    def _after_pass(self, passer: int) -> None:
        owner = self.table_owner
        passed = self.passed
        for s in range(self.players):
            if s != owner and not passed >> s & 1 and self.hand_n[s] + self.hell_n[s]:
                self.current = self._next_in(passer)
                return
        # everyone else still in has passed: clear the table (§4)
        for card in self.table.table_cards:  # type: ignore[union-attr]
            self.removed[card] += 1
        self.table = None
        self.threshold = -1
        self.passed = 0
        leader = owner if self.hand_n[owner] + self.hell_n[owner] else self._next_in(owner)
        self.current = leader
        self._event("trick_cleared", leader)

    def _next_in(self, seat: int) -> int:
        players = self.players
        for i in range(1, players + 1):
            s = (seat + i) % players
            if self.hand_n[s] + self.hell_n[s]:
                return s
        return seat

    def _round_over(self) -> bool:
        holders = [s for s in range(self.players) if self.hand_n[s] + self.hell_n[s]]
        if len(holders) > 1:
            return False
        loser = holders[0]
        self.gems[loser] -= 1
        self.last_round = RoundEnd(
            self.round,
            loser,
            self.table,
            self.table_owner,
            self.hand_n,
            self.hells,
            tuple(self.gems),
            self.centre,
            self.used,
            self.spare,
            self.removed,
        )
        self.round_losses.append([-1 if s == loser else 0 for s in range(self.players)])
        self._event("gem_lost", loser, gems=self.gems[loser], round=self.round)
        if self.gems[loser] == 0:
            self.phase = OVER
            self._event("game_over", loser)
            return True
        self._event("round_over", loser, round=self.round)
        self.round += 1
        self.start_player = loser
        self.spare_holders = ()
        self._reset_round()
        self.phase = DEAL
        self._event("round_start", loser, round=self.round)
        return True

    def _event(self, kind: str, seat: int | None, **data: Any) -> None:
        """Events come out of `apply` before it records the action: `at` counts that action in,
        so a log shows the action before its consequences."""
        self.events.append(Event(kind, seat, data, len(self.history) + 1))

    def _why_illegal(self, seat: int, action: A.Action) -> Message:
        """Why `action` is not in the legal list, to the seat that tried (slow path only; the
        words are `catopomp.refusal.*` in messages.po)."""
        phase = self.phase
        if seat not in self.to_move:
            return Message("engine.refusal.not_your_turn")
        if phase == SPARE:
            return _why("choose_spare")
        if phase == BURY:
            if action.kind == A.BURY:
                return _why("nothing_to_bury", card=card_text(action.arg))  # type: ignore[attr-defined]
            return _why("bury_first")
        if phase == TRANSFER:
            if action.kind == A.GIVE and self.rules.casual:
                return _why("casual_no_give")
            if action.kind == A.DISCARD and not self.rules.casual:
                return _why("discard_casual_only")
            if action.kind == A.KEEP:
                return _why("must_give")
            if action.kind in (A.GIVE, A.DISCARD):
                return _why("no_hell_card", card=card_text(action.arg))  # type: ignore[attr-defined]
            return _why("give_or_keep", who=Message("words.seat", n=self.transfer_to))
        if action.kind == A.PASS:
            return _why("leader_must_play")
        if action.kind != A.PLAY:
            return _why("not_now", action=str(action))
        return self._why_play_illegal(seat, action)  # type: ignore[arg-type]

    def _why_play_illegal(self, seat: int, play: A.Play) -> Message:
        if play.problem:
            return play.problem
        source = self.hells[seat] if play.hell else self.hands[seat]
        need = [0] * SLOTS
        for card in play.cards:
            need[card] += 1
        for card in range(1, SLOTS):
            if need[card] > source[card]:
                where = "hell_lacks" if play.hell else "hand_lacks"
                return _why(where, n=need[card], card=card_text(card))
        if play.size > self.rules.max_size:
            return _why("max_size", players=self.players, n=self.rules.max_size)
        if play.hell and self.hand_n[seat] and play.size < 2:
            return _why("hell_pairs")
        if play.swap and not self.hells[seat][play.swap]:
            return _why("no_swap_card", card=card_text(play.swap))
        if play.dice_value:
            if self.used[seat]:
                return _why("boost_used")
            if play.spare and self.spare[seat] != play.spare:
                return _why("no_spare", face=play.spare)
            centre = list(self.centre)
            for face in play.dice:
                centre[face] -= 1
                if centre[face] < 0:
                    return _why("no_centre_die", face=face)
        if self.threshold >= play.strength:
            return _why("not_stronger", play=str(play), table=str(self.table))
        return _why("not_now", action=str(play))

    # -- copies and results ------------------------------------------------------------------------------
    def clone(self) -> CatopompState:
        new = object.__new__(CatopompState)
        new.game = self.game
        new.players = self.players
        new.options = self.options
        new.rules = self.rules
        new.history = self.history.copy()
        new.events = self.events.copy()
        new.view_log = self.view_log
        new.phase = self.phase
        new.round = self.round
        new.start_player = self.start_player
        new.gems = self.gems.copy()
        new.round_losses = self.round_losses.copy()
        new.hands = [h.copy() for h in self.hands]
        new.hells = [h.copy() for h in self.hells]
        new.hand_n = self.hand_n.copy()
        new.hell_n = self.hell_n.copy()
        new.undealt = self.undealt.copy()
        new.removed = self.removed.copy()
        new.table = self.table
        new.table_owner = self.table_owner
        new.threshold = self.threshold
        new.passed = self.passed
        new.current = self.current
        new.transfer_to = self.transfer_to
        new.centre = self.centre.copy()
        new.used = self.used.copy()
        new.spare = self.spare.copy()
        new.spare_holders = self.spare_holders
        new.spare_pending = self.spare_pending
        new.spare_hidden_from = self.spare_hidden_from
        new.last_round = self.last_round
        new._legal = self._legal
        new._legal_seat = self._legal_seat
        return new

    def scores(self) -> list[float]:
        """Soul gems left per seat: whole numbers (`int`), as everywhere they are shown."""
        return [gems for gems in self.gems]

    def round_scores(self) -> list[list[float]]:
        """Per finished round: -1 for the seat that lost a gem, 0 for the others."""
        return [[loss for loss in row] for row in self.round_losses]

    def winners(self) -> list[int]:
        if self.phase != OVER:
            return []
        return [s for s in range(self.players) if self.gems[s] > 0]

    # -- views ---------------------------------------------------------------------------------------------
    def settled(self) -> int:
        """Spare faces chosen by others are hidden only while the spare phase that made them is
        open: the entries from its first choice on may still change."""
        return min(self.spare_hidden_from, len(self.history))

    def settled_text(self, actor: int, action: A.Action, viewer: int | None) -> str:
        return str(action) if action.kind == A.SPARE else self.game.redact(actor, action, viewer)

    def private_view(self, seat: int | None) -> dict[str, Any]:
        return private_view(self, seat)

    def reveal(self) -> dict[str, Any]:
        return reveal(self)


def _why(name: str, **params: Any) -> Message:
    return Message(f"catopomp.refusal.{name}", **params)
