"""Catopomp for learning code: action ids, action features and the observation tensor
(docs/research.md).

Ids: `pass`, `keep`, `spare 1…6`, `bury c`, `give c`, `discard c` for every card in this deck,
then every play the game's own generator (`combos.generate`) can produce at this table: it is run
once with the whole deck as the source, every dice card any central roll and spare die can make,
every swap, and an empty table, from the hand and from the hell area. That is an exact superset
of every play any position can offer, with each play once. The space is large (1,746 ids at the
default 4-player table, 4,872 with both extra cards), so `action_features` describes each action
by card counts, as DouZero does for Dou Dizhu, for networks that score actions rather than ids.

Chance ids: `start 0 … P-1`, then every roll of 1 … `dice` central dice (sorted faces); a deal
is dealt card by card (`deck`, `deal_from`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, cast

import numpy as np

from ...engine import Game, Options
from ...engine.encoding import COMMON_ELSEWHERE, Encoding, Layout
from . import actions as A
from .cards import CATLETON, MAX_NUMBER, MITCH, SLOTS, card_from_json
from .combos import generate
from .dice import dice_specs, roll_outcomes
from .options import rules_for
from .phases import BURY, PHASE_NAMES, PLAY, SPARE
from .state import CatopompState

CARDS = SLOTS - 1
"""Card slots in every count vector: numbers 1–20, then M, then C."""
KINDS = ("play", "hell", "pass", "keep", "spare", "bury", "give", "discard")
COMBOS = (A.SINGLE, A.RUN, A.SET)

FEATURES = Layout(
    [
        ("kind", len(KINDS), "one-hot: " + ", ".join(KINDS)),
        ("cards", CARDS, "cards leaving the hand or hell area (plays), or the card named (bury, give, discard)"),
        ("table_cards", CARDS, "cards the play leaves on the table (a swapped Cat-leton shows as its hell card)"),
        ("values", MAX_NUMBER + 1, "the combination's values 0…20, counted"),
        ("combo", len(COMBOS), "one-hot: single, run, set"),
        ("size", 1, "cards in the combination"),
        ("rank", 1, "the combination's (highest) number"),
        ("dice", 6, "central dice used, counted by face"),
        ("spare", 6, "one-hot: own spare die used (plays) or face chosen (spare)"),
        ("mitch_as", 1, "Mitches counted as the dice number"),
        ("swap", CARDS, "one-hot: hell card a Cat-leton is swapped for (1–20, M, C)"),
    ]
)


class CatopompEncoding(Encoding):
    def __init__(self, game: Game, players: int, options: Options):
        self.rules = rules_for(options, players)
        super().__init__(game, players, options)
        n = players
        self.layout = Layout(
            [
                ("you", n, "one-hot: the observing seat"),
                ("to_move", n, "seats to move now (several while choosing spare faces)"),
                ("phase", len(PHASE_NAMES), "one-hot: " + ", ".join(PHASE_NAMES)),
                ("round", 1, "round number"),
                ("start_player", n, "one-hot"),
                ("current", n, "one-hot: seat to play or bury"),
                ("hand", CARDS, "own cards, counted per card (1–20, M, C)"),
                ("hand_counts", n, "cards in each hand"),
                ("hell", n * CARDS, "per seat: its public hell cards, counted"),
                ("table", 1, "1 while a play is on the table"),
                ("table_owner", n, "one-hot"),
                ("table_cards", CARDS, "cards on the table, counted"),
                ("table_dice", 1, "the dice card's number (0: none)"),
                ("table_combo", len(COMBOS), "one-hot: single, run, set"),
                ("table_size", 1, "cards in the table's combination"),
                ("table_rank", 1, "its (highest) number"),
                ("table_hell", 1, "1 if it was played from a hell area"),
                ("centre", 6, "central dice, counted by face"),
                ("used", n * 6, "per seat: dice it used for its boost, counted by face"),
                ("spare", n * 6, "per seat: one-hot of its spare die's face, where the view shows it"),
                ("spare_holders", n, "seats holding a spare die this round"),
                ("boost_used", n, "per seat"),
                ("gems", n, "soul gems per seat"),
                ("out", n, "per seat: no cards left this round"),
                ("passed", n, "seats that passed since the last play"),
                ("transfer_to", n, "one-hot: the passer who may receive a hell card"),
                ("removed", CARDS, "cards out of the game this round, counted"),
                ("winners", n, "per seat, once the game is over"),
            ]
        )
        self._features = np.zeros((self.num_actions, FEATURES.size), np.float32)
        for i, action in enumerate(self.actions):
            self._features[i] = _features(cast(A.Action, action))

    # -- action ids and features ---------------------------------------------------------------
    def enumerate_actions(self) -> Iterable[A.Action]:
        deck = self.rules.deck
        cards = [c for c in range(1, SLOTS) if deck[c]]
        yield A.PASS_ACTION
        yield A.KEEP_ACTION
        yield from (A.SPARES[f] for f in range(1, 7))
        yield from (A.BURIES[c] for c in cards)
        yield from (A.GIVES[c] for c in cards)
        yield from (A.DISCARDS[c] for c in cards)
        yield from all_plays(self.rules)

    def enumerate_chance(self) -> Iterable[A.Action]:
        yield from (A.STARTS[s] for s in range(self.players))
        for k in range(1, self.rules.dice + 1):
            yield from (roll for roll, _ in roll_outcomes(k))

    def legal_ids(self, state: CatopompState, seat: int) -> list[int]:  # type: ignore[override]
        ids = self.ids
        return [ids[a.text] for a in state.legal_actions(seat)]

    def action_features(self, action_id: int) -> list[float]:
        return self._features[action_id].tolist()

    def features(self, action_ids: Sequence[int]) -> np.ndarray:
        """Feature rows of several actions at once (one row per id), for action-scoring networks."""
        return self._features[list(action_ids)]

    # -- observations ------------------------------------------------------------------------------
    def observe(self, state: CatopompState, seat: int, out: Any) -> None:  # type: ignore[override]
        at, n = self.layout.at, self.players
        v = bytearray(self.layout.size)  # every value fits a byte: one numpy conversion at the end
        v[at["you"] + seat] = 1
        for s in state.to_move:
            if s >= 0:
                v[at["to_move"] + s] = 1
        phase = state.phase
        v[at["phase"] + phase] = 1
        v[at["round"]] = state.round
        v[at["start_player"] + state.start_player] = 1
        if phase in (PLAY, BURY):
            v[at["current"] + state.current] = 1
        base = at["hand"]
        v[base : base + CARDS] = bytes(state.hands[seat][1:])
        v[at["hand_counts"] : at["hand_counts"] + n] = bytes(state.hand_n)
        base = at["hell"]
        for s, hell in enumerate(state.hells):
            if state.hell_n[s]:
                v[base + s * CARDS : base + s * CARDS + CARDS] = bytes(hell[1:])
        table = state.table
        if table is not None:
            v[at["table"]] = 1
            v[at["table_owner"] + state.table_owner] = 1
            base = at["table_cards"] - 1
            for c in table.table_cards:
                v[base + c] += 1
            v[at["table_dice"]] = table.dice_value
            v[at["table_combo"] + _COMBO_INDEX[_combo(table)]] = 1
            v[at["table_size"]] = table.size
            v[at["table_rank"]] = table.rank
            v[at["table_hell"]] = table.hell
        v[at["centre"] : at["centre"] + 6] = bytes(state.centre[1:])
        spare_open = phase == SPARE
        for s in range(n):
            for face in state.used[s]:
                v[at["used"] + s * 6 + face - 1] += 1
            face = state.spare[s]
            if face and not (spare_open and s != seat):
                v[at["spare"] + s * 6 + face - 1] = 1
            if state.used[s]:
                v[at["boost_used"] + s] = 1
            if phase > SPARE and not (state.hand_n[s] + state.hell_n[s]):
                v[at["out"] + s] = 1
            if state.passed >> s & 1:
                v[at["passed"] + s] = 1
        for s in state.spare_holders:
            v[at["spare_holders"] + s] = 1
        v[at["gems"] : at["gems"] + n] = bytes(state.gems)
        if state.transfer_to >= 0:
            v[at["transfer_to"] + state.transfer_to] = 1
        v[at["removed"] : at["removed"] + CARDS] = bytes(state.removed[1:])
        for s in state.winners():
            v[at["winners"] + s] = 1
        out[:] = np.frombuffer(v, np.uint8)

    def observe_view(self, view: Mapping[str, Any]) -> list[float]:
        at, n = self.layout.at, self.players
        out = [0.0] * self.size

        def count(name: str, cards: Iterable[Any], offset: int = 0) -> None:
            for c in cards:
                out[at[name] + offset + card_from_json(c) - 1] += 1

        out[at["you"] + view["seat"]] = 1
        if view["to_move"] != "chance":
            for s in view["to_move"]:
                out[at["to_move"] + s] = 1
        out[at["phase"] + PHASE_NAMES.index(view["phase"])] = 1
        out[at["round"]] = view["round"]
        out[at["start_player"] + view["start_player"]] = 1
        if view["current"] is not None:
            out[at["current"] + view["current"]] = 1
        count("hand", view["hand"])
        for s in range(n):
            out[at["hand_counts"] + s] = view["hand_counts"][s]
            count("hell", view["hell"][s], s * CARDS)
            for face in view["dice"]["used"][s]:
                out[at["used"] + s * 6 + face - 1] += 1
            if view["dice"]["spare"][s]:
                out[at["spare"] + s * 6 + view["dice"]["spare"][s] - 1] = 1
            out[at["boost_used"] + s] = float(view["boost_used"][s])
            out[at["gems"] + s] = view["gems"][s]
            out[at["out"] + s] = float(view["out"][s])
        table = view["table"]
        if table is not None:
            out[at["table"]] = 1
            out[at["table_owner"] + table["owner"]] = 1
            count("table_cards", table["cards"])
            out[at["table_dice"]] = table["dice"] or 0
            out[at["table_combo"] + COMBOS.index(table["kind"])] = 1
            out[at["table_size"]] = table["size"]
            out[at["table_rank"]] = table["rank"]
            out[at["table_hell"]] = float(table["from"] == "hell")
        for face in view["dice"]["centre"]:
            out[at["centre"] + face - 1] += 1
        for s in view["spare_holders"]:
            out[at["spare_holders"] + s] = 1
        for s in view["passed"]:
            out[at["passed"] + s] = 1
        if view["transfer_to"] is not None:
            out[at["transfer_to"] + view["transfer_to"]] = 1
        count("removed", view["removed"])
        for s in view["winners"]:
            out[at["winners"] + s] = 1
        return out

    # -- chance ----------------------------------------------------------------------------------
    def deck(self, state: CatopompState) -> tuple[tuple[int, ...], int] | None:  # type: ignore[override]
        return (self.rules.pool, self.players * self.rules.hand_size) if state.phase == 1 else None

    card_ids = SLOTS
    elsewhere: ClassVar[Mapping[str, str]] = {
        **COMMON_ELSEWHERE,
        "over": "the phase field (its last value)",
        "scores": "the gems field (scores are the gems left)",
        "round_scores": "the information state (and the gems field)",
        "last_round": "the information state",
    }

    def max_length(self) -> int:
        """Rounds end with a lost gem; between two plays each other seat passes at most once and
        may be given a hell card, and every play or bury moves a card towards the table."""
        n, rules = self.players, self.rules
        rounds = n * (rules.gems - 1) + 1
        cards = n * rules.hand_size
        return 1 + rounds * (cards + 1 + n + cards * (2 + 2 * n))

    def deal_from(self, state: CatopompState, cards: Sequence[int]) -> A.Deal:  # type: ignore[override]
        size = self.rules.hand_size
        return A.Deal(tuple(tuple(cards[i * size : (i + 1) * size]) for i in range(self.players)))


_COMBO_INDEX = {combo: i for i, combo in enumerate(COMBOS)}


def play_walks(rules: Any) -> list[tuple[bool, list[A.Play]]]:
    """The generator's walks from a whole deck (every dice card any central roll can make, every
    swap, an empty table): per source (hand, then hell area) one walk per own spare face (0: none),
    each in the order `combos.generate` emits it. The plays of a table (`all_plays`) and the
    kernel's catalog with its engine order (`catalog.py`) are both read from these walks."""
    deck = list(rules.deck)
    swaps = tuple(v for v in range(1, SLOTS) if deck[v]) if deck[CATLETON] else ()  # Mitch, Cat-leton too
    centre = (0,) + (min(2, rules.dice),) * 6  # two of a face is the most one dice card uses
    walks: list[tuple[bool, list[A.Play]]] = []
    for hell in (False, True):
        for spare in range(7):
            out: list[A.Action] = []
            generate(
                out,
                hell,
                deck,
                1,
                rules.max_size,
                -1,
                dice_specs(centre, spare),
                () if hell else swaps,
                rules.max_value,
            )
            walks.append((hell, [play for play in out if isinstance(play, A.Play)]))  # `generate` writes plays only
    return walks


def all_plays(rules: Any, walks: list[tuple[bool, list[A.Play]]] | None = None) -> list[A.Play]:
    """Every play the generator can offer at a table with these rules (from `play_walks`), each
    once, in a fixed order."""
    plays: dict[str, A.Play] = {}
    for _, walk in walks if walks is not None else play_walks(rules):
        for play in walk:
            plays.setdefault(play.text, play)
    return sorted(plays.values(), key=lambda p: (p.hell, p.strength, p.text))


def _combo(play: A.Play) -> str:
    """The combination of a play that can be legal (one with a `problem` never is)."""
    assert play.combo is not None, play
    return play.combo


def _features(action: A.Action) -> np.ndarray:
    row = np.zeros(FEATURES.size, np.float32)
    at = FEATURES.at
    if isinstance(action, A.Play):
        row[at["kind"] + (1 if action.hell else 0)] = 1
        for c in action.cards:
            row[at["cards"] + c - 1] += 1
        for c in action.table_cards:
            row[at["table_cards"] + c - 1] += 1
        for v in action.values:
            row[at["values"] + v] += 1
        row[at["combo"] + _COMBO_INDEX[_combo(action)]] = 1
        row[at["size"]] = action.size
        row[at["rank"]] = action.rank
        for face in action.dice:
            row[at["dice"] + face - 1] += 1
        if action.spare:
            row[at["spare"] + action.spare - 1] = 1
        row[at["mitch_as"]] = action.mitch_as
        if action.swap:
            row[at["swap"] + action.swap - 1] = 1
        return row
    kind = {A.PASS: 2, A.KEEP: 3, A.SPARE: 4, A.BURY: 5, A.GIVE: 6, A.DISCARD: 7}[action.kind]
    row[at["kind"] + kind] = 1
    if action.kind == A.SPARE:
        row[at["spare"] + action.arg - 1] = 1  # type: ignore[attr-defined]
    elif kind >= 5:
        row[at["cards"] + action.arg - 1] = 1  # type: ignore[attr-defined]
    return row


ENCODING = CatopompEncoding
assert MITCH == MAX_NUMBER + 1 and CATLETON == MAX_NUMBER + 2 and SLOTS == CARDS + 1
