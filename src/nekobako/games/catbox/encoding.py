"""Cat in the Box for learning code: action ids and the observation tensor (docs/research.md).

Ids: `discard 1 … N`, then `predict v` for this table's prediction values, then `play n colour`
for every card number and colour (`N` is the highest card at this player count). Chance ids:
`start 0 … P-1`; a deal is dealt card by card, one chance step per card (`deck`, `deal_from`),
but a research setup's few deals, which are listed after the starts (`Table.deals`).

The tensor holds what the seat's view holds about the position, seats absolute (`you` marks the
observer): the board by physical cell, so the bonus's adjacency is visible to a network.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ...engine import Game, Options
from ...engine.encoding import COMMON_ELSEWHERE, Encoding, Layout
from .actions import DISCARDS, PLAYS, PREDICTS, CatboxAction, Deal, Start
from .board import NIBBLE, table_for
from .layouts import COLOURS
from .state import CatboxState

PHASES = ("deal", "discard", "predict", "play", "over")
_PHASE_INDEX = (0, 0, 1, 2, 3, 4)  # state phase (start, deal, discard, predict, play, over) → PHASES
_BITS4 = tuple(bytes(m >> c & 1 for c in range(4)) for m in range(16))


class CatboxEncoding(Encoding):
    def __init__(self, game: Game, players: int, options: Options):
        self.table = table_for(players, options["side"])
        setup = self.table.setup
        self.numbers = setup.numbers
        self.values = setup.predictions
        super().__init__(game, players, options)
        n, k, v = players, setup.numbers, len(setup.predictions)
        cells = len(COLOURS) * self.table.columns
        self.layout = Layout(
            [
                ("you", n, "one-hot: the observing seat"),
                ("to_move", n, "seats to move now (everyone while discarding)"),
                ("phase", len(PHASES), "one-hot: " + ", ".join(PHASES)),
                ("round", n, "one-hot round 1…P"),
                ("start_player", n, "one-hot"),
                ("hand", k, "own cards: copies of each number 1…N"),
                ("discard", k, "one-hot: own face-down discard"),
                ("board", cells * (2 + n), "per cell (row-major, rows red/blue/yellow/green): observed, blocker, seat"),
                ("x_tokens", n * 4, "per seat, per colour: 1 while the X is covered"),
                ("predictions", n * v, "per seat: one-hot of its prediction among " + str(list(setup.predictions))),
                ("tricks", n, "tricks won this round per seat"),
                ("trick", n * (k + 4), "per seat: its card in the current trick, number one-hot then colour"),
                ("leader", n, "one-hot: who led the current trick"),
                ("red_broken", 1, "1 once red has been played this round"),
                ("discarded", n, "per seat: has discarded this round"),
                ("hand_counts", n, "cards in each hand"),
                ("paradox", n, "one-hot: the seat that caused a paradox this round"),
                ("centre", k, "2 players: revealed centre cards, copies of each number"),
                ("scores", n, "game totals per seat"),
                ("round_scores", n * n, "points per finished round (row) per seat"),
                ("winners", n, "per seat, once the game is over"),
            ]
        )

    def enumerate_actions(self) -> Iterable[CatboxAction]:
        k = self.numbers
        yield from (DISCARDS[n] for n in range(1, k + 1))
        yield from (PREDICTS[v] for v in self.values)
        yield from (PLAYS[n][c] for n in range(1, k + 1) for c in range(len(COLOURS)))

    def enumerate_chance(self) -> Iterable[CatboxAction]:
        yield from (Start(s) for s in range(self.players))
        yield from (deal for deal, _ in self.table.deals)  # a research setup's deals are listed

    def legal_ids(self, state: CatboxState, seat: int) -> list[int]:  # type: ignore[override]
        ids = self.ids
        return [ids[a.text] for a in state.legal_actions(seat)]

    # -- observations ------------------------------------------------------------------------------
    def observe(self, state: CatboxState, seat: int, out: Any) -> None:  # type: ignore[override]
        # Small values are written into a bytearray and converted in one numpy call: a bytearray
        # item costs a fraction of a numpy item, and converting a list of Python numbers costs
        # more than the writes. Scores (which may exceed a byte) are written after.
        at, n, k = self.layout.at, self.players, self.numbers
        phase = state.phase
        v = bytearray(self.layout.size)
        v[at["you"] + seat] = 1
        v[at["phase"] + _PHASE_INDEX[phase]] = 1
        v[at["round"] + state.round - 1] = 1
        v[at["start_player"] + state.start] = 1
        base = at["to_move"]
        for s in state.to_move_:
            if s >= 0:
                v[base + s] = 1
        hand = state.hands[seat] >> NIBBLE
        base = at["hand"]
        while hand:
            v[base] = hand & 15
            hand >>= NIBBLE
            base += 1
        discards = state.discards
        if discards[seat]:
            v[at["discard"] + discards[seat] - 1] = 1
        width = 2 + n
        base = at["board"]
        for plane, mask in enumerate((self.table.observed_cells, state.blocked, *state.owned), base):
            while mask:
                low = mask & -mask
                v[plane + (low.bit_length() - 1) * width] = 1
                mask ^= low
        base = at["x_tokens"]
        for xs in state.xs:
            v[base : base + 4] = _BITS4[xs]
            base += 4
        base, values = at["predictions"], self.values
        for p in state.predictions:
            if p:
                v[base + values.index(p)] = 1
            base += len(values)
        base = at["trick"]
        for s, play in state.trick:
            v[base + s * (k + 4) + play.number - 1] = 1
            v[base + s * (k + 4) + k + play.colour] = 1
        if phase == 4:  # play
            v[at["leader"] + state.leader] = 1
        if state.red_broken:
            v[at["red_broken"]] = 1
        dealt = self.table.setup.dealt
        base, counts = at["discarded"], at["hand_counts"]
        for s in range(n):
            if state.hands[s]:  # every card played left a token: no need to unpack the hand
                v[counts + s] = dealt - (discards[s] != 0) - state.owned[s].bit_count()
            if discards[s]:
                v[base + s] = 1
        if state.paradox >= 0:
            v[at["paradox"] + state.paradox] = 1
        for c in state.revealed:
            v[at["centre"] + c - 1] += 1
        base = at["tricks"]
        v[base : base + n] = bytes(state.tricks)
        base = at["winners"]
        for s in state.winners_:
            v[base + s] = 1
        out[:] = np.frombuffer(v, np.uint8)
        base = at["scores"]
        out[base : base + n] = state.totals
        base = at["round_scores"]
        for row in state.scores_by_round:
            out[base : base + n] = row
            base += n

    def observe_view(self, view: Mapping[str, Any]) -> list[float]:
        at, n, k = self.layout.at, self.players, self.numbers
        out = [0.0] * self.size
        out[at["you"] + view["seat"]] = 1
        if view["to_move"] != "chance":
            for s in view["to_move"]:
                out[at["to_move"] + s] = 1
        out[at["phase"] + PHASES.index(view["phase"])] = 1
        out[at["round"] + view["round"] - 1] = 1
        out[at["start_player"] + view["start_player"]] = 1
        for c in view["hand"]:
            out[at["hand"] + c - 1] += 1
        if view["discard"]:
            out[at["discard"] + view["discard"] - 1] = 1
        columns = self.table.columns
        for row, line in enumerate(view["board"]):
            for col, cell in enumerate(line):
                if cell is None:
                    continue
                offset = {"observed": 0, "blocker": 1}[cell] if isinstance(cell, str) else 2 + cell
                out[at["board"] + (row * columns + col) * (2 + n) + offset] = 1
        for s, xs in enumerate(view["x_tokens"]):
            for c, colour in enumerate(COLOURS):
                out[at["x_tokens"] + 4 * s + c] = float(xs[colour])
        values = view["prediction_values"]
        for s, p in enumerate(view["predictions"]):
            if p is not None:
                out[at["predictions"] + s * len(values) + values.index(p)] = 1
        for s in range(n):
            out[at["tricks"] + s] = view["tricks"][s]
            out[at["discarded"] + s] = float(view["discarded"][s])
            out[at["hand_counts"] + s] = view["hand_counts"][s]
            out[at["scores"] + s] = view["scores"][s]
        for t in view["trick"]:
            out[at["trick"] + t["seat"] * (k + 4) + t["number"] - 1] = 1
            out[at["trick"] + t["seat"] * (k + 4) + k + COLOURS.index(t["colour"])] = 1
        if view["leader"] is not None:
            out[at["leader"] + view["leader"]] = 1
        out[at["red_broken"]] = float(view["red_broken"])
        if view["paradox"] is not None:
            out[at["paradox"] + view["paradox"]] = 1
        for c in view.get("centre", {}).get("revealed", []):
            out[at["centre"] + c - 1] += 1
        for r, row in enumerate(view["round_scores"]):
            for s, points in enumerate(row):
                out[at["round_scores"] + r * n + s] = points
        for s in view["winners"]:
            out[at["winners"] + s] = 1
        return out

    # -- information states and chance -----------------------------------------------------------
    def pending(self, state: CatboxState, seat: int) -> str:  # type: ignore[override]
        """A discard chosen while others still choose enters the history only when all have."""
        if state.phase == 2 and state.discards[seat] and seat not in state.to_move_:
            return f"{seat}: {DISCARDS[state.discards[seat]]}"
        return ""

    def deck(self, state: CatboxState) -> tuple[tuple[int, ...], int] | None:  # type: ignore[override]
        cards = self.table.deck_cards
        return (cards, len(cards)) if state.phase == 1 and not self.table.deals else None

    card_ids = 10
    elsewhere: ClassVar[Mapping[str, str]] = {
        **COMMON_ELSEWHERE,
        "over": "the phase field (its last value)",
        "layout": "the encoding's table (the board field is by physical cell)",
        "rounds": "the encoding's table (the round field has one slot per round)",
        "last_trick": "the information state (its cards are on the board, its winner in tricks)",
        "last_round": "the information state",
    }

    def max_length(self) -> int:
        setup, n = self.table.setup, self.players
        return 1 + n * (len(self.table.deck_cards) + 2 * n + setup.tricks * n)

    def deal_from(self, state: CatboxState, cards: Sequence[int]) -> Deal:  # type: ignore[override]
        setup = self.table.setup
        k = setup.dealt
        hands = tuple(tuple(cards[i * k : (i + 1) * k]) for i in range(self.players))
        rest = cards[self.players * k :]
        return Deal(hands, tuple(rest[: setup.reveal]), tuple(rest[setup.reveal :]))


def _hand_count(state: CatboxState, seat: int, dealt: int, discarded: bool) -> int:
    if not state.hands[seat]:
        return 0
    return dealt - discarded - state.owned[seat].bit_count()


ENCODING = CatboxEncoding
