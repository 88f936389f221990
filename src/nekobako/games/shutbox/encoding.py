"""Shut the Box for learning code: action ids and the observation tensor (docs/research.md).

Ids: `roll` (0), `roll 1` (1), then every `shut …` a roll could ask for at this table (tiles on
the board, at most `max_close` of them, adding up to 1–12), by ascending tile mask. Nothing is
hidden, so the observation is the whole position; seats are absolute, with `you` marking the
observer. Chance ids: `start 0 … N-1`, then the 6 one-die and 21 two-dice outcomes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

import numpy as np

from ...engine import Game, Options
from ...engine.encoding import COMMON_ELSEWHERE, Encoding, Layout
from .actions import ROLL, ROLL_ONE, Action, Dice, Shut, Start
from .options import ELIMINATION_AT, RESEARCH_TILES, ROUND_LIMIT, TILE_COUNTS
from .state import CHANCE_ONLY, ShutState
from .tables import max_tiles


class ShutboxEncoding(Encoding):
    def __init__(self, game: Game, players: int, options: Options):
        self.tiles = options.tiles
        self.max_close = max_tiles(options.max_close)
        super().__init__(game, players, options)
        n, t = players, self.tiles
        self.layout = Layout(
            [
                ("you", n, "one-hot: the observing seat"),
                ("to_move", n, "seats to move now (several in simultaneous mode)"),
                ("chance", 1, "1 while dice or the start player are drawn"),
                ("over", 1, "1 once the game is over"),
                ("round", 1, "round number (1-based; 0 before the start player is drawn)"),
                ("start_player", n, "one-hot"),
                ("order", n * n, "per seat: one-hot of its place in this round's turn order"),
                ("current", n, "one-hot: whose turn it is (turn-order mode)"),
                ("active", n, "seats still playing this round"),
                ("rolling", n, "one-hot: the seat whose dice are about to be rolled"),
                ("boards", n * t, "per seat, per tile 1…N: 1 if open"),
                ("dice", n * 6, "per seat: how many of its last roll's dice show face 1…6"),
                ("eliminated", n, "per seat"),
                ("shut", n, "per seat: shut the box this round"),
                ("turn_over", n, "per seat: its turn of this round is over"),
                ("penalty", n, "per seat: this round's penalty once its turn is over"),
                ("one_die", n, "per seat: may roll one die now"),
                ("scores", n, "total penalties per seat"),
                ("winners", n, "per seat, once the game is over"),
            ]
        )

    def enumerate_actions(self) -> Iterable[Action]:
        yield ROLL
        yield ROLL_ONE
        for mask in range(1, 1 << self.tiles):
            tiles = [t + 1 for t in range(self.tiles) if mask >> t & 1]
            if len(tiles) <= self.max_close and sum(tiles) <= 12:
                yield Shut.of_mask(mask)

    def enumerate_chance(self) -> Iterable[Action]:
        yield from (Start(s) for s in range(self.players))
        yield from (Dice(a) for a in range(1, 7))
        yield from (Dice(a, b) for a in range(1, 7) for b in range(a, 7))

    def legal_ids(self, state: ShutState, seat: int) -> list[int]:  # type: ignore[override]
        ids = self.ids
        return [ids[a._text] for a in state.legal_actions(seat)]

    elsewhere: ClassVar[Mapping[str, str]] = {
        **COMMON_ELSEWHERE,
        "tiles": "the encoding's table (the boards field has one slot per tile)",
        "elimination_at": "the encoding's table (options)",
        "round_limit": "the encoding's table (options)",
        "phase": "the over field",
        "round_scores": "the information state (and the scores field)",
        "last_round": "the information state",
    }

    def max_length(self) -> int:
        """Every round but the last costs each seat at least 1 penalty point (or the game ends)."""
        limit = ROUND_LIMIT.get((self.options.scoring, self.options.length))
        rounds = limit or ELIMINATION_AT[(self.options.scoring, self.options.length)]
        return 1 + rounds * self.players * (3 * self.tiles + 2)

    def observe(self, state: ShutState, seat: int, out: Any) -> None:  # type: ignore[override]
        at, n, t = self.layout.at, self.players, self.tiles
        out.fill(0)
        out[at["you"] + seat] = 1
        to_move = state._to_move
        if to_move is CHANCE_ONLY:
            out[at["chance"]] = 1
        else:
            for s in to_move:
                out[at["to_move"] + s] = 1
        over = state._over
        out[at["over"]] = over
        out[at["round"]] = state._round
        if state._start >= 0:
            out[at["start_player"] + state._start] = 1
        base = at["order"]
        for place, s in enumerate(state._order):
            out[base + s * n + place] = 1
        if not state._sim and state._order and not over:
            out[at["current"] + state._order[state._turn]] = 1
        for s in state._active:
            out[at["active"] + s] = 1
        if to_move is CHANCE_ONLY and state._roll_n:
            out[at["rolling"] + state._roller] = 1
        base = at["boards"]
        for s, mask in enumerate(state._open):
            out[base + s * t : base + s * t + t] = _BITS[t][mask]
        base = at["dice"]
        for s, dice in enumerate(state._dice):
            if dice is not None:
                for face in dice.faces:
                    out[base + s * 6 + face - 1] += 1
        out[at["eliminated"] : at["eliminated"] + n] = state._eliminated
        out[at["shut"] : at["shut"] + n] = state._shut
        for s, penalty in enumerate(state._penalty):
            if penalty is not None:
                out[at["turn_over"] + s] = 1
                out[at["penalty"] + s] = penalty
        if to_move is not CHANCE_ONLY:
            for s in to_move:
                legal = state._legal[s]
                if len(legal) == 2 and type(legal[0]) is type(ROLL):
                    out[at["one_die"] + s] = 1
        out[at["scores"] : at["scores"] + n] = state._totals
        for s in state._winners:
            out[at["winners"] + s] = 1

    def observe_view(self, view: Mapping[str, Any]) -> list[float]:
        at, n, t = self.layout.at, self.players, self.tiles
        out = [0.0] * self.size
        out[at["you"] + view["seat"]] = 1
        if view["to_move"] == "chance":
            out[at["chance"]] = 1
        else:
            for s in view["to_move"]:
                out[at["to_move"] + s] = 1
        out[at["over"]] = float(view["over"])
        out[at["round"]] = view["round"]
        if view["start_player"] is not None:
            out[at["start_player"] + view["start_player"]] = 1
        for place, s in enumerate(view["order"]):
            out[at["order"] + s * n + place] = 1
        if view["current"] is not None:
            out[at["current"] + view["current"]] = 1
        for s in view["active"]:
            out[at["active"] + s] = 1
        if view["rolling"] is not None:
            out[at["rolling"] + view["rolling"]] = 1
        for s in range(n):
            for tile in view["boards"][s]:
                out[at["boards"] + s * t + tile - 1] = 1
            for face in view["dice"][s]:
                out[at["dice"] + s * 6 + face - 1] += 1
            out[at["eliminated"] + s] = float(view["eliminated"][s])
            out[at["shut"] + s] = float(view["shut"][s])
            if view["penalty"][s] is not None:
                out[at["turn_over"] + s] = 1
                out[at["penalty"] + s] = view["penalty"][s]
            out[at["one_die"] + s] = float(view["one_die"][s])
            out[at["scores"] + s] = view["scores"][s]
        for s in view["winners"]:
            out[at["winners"] + s] = 1
        return out


def _bits_table(width: int) -> np.ndarray:
    masks = np.arange(1 << width, dtype=np.int64)
    return ((masks[:, None] >> np.arange(width)) & 1).astype(np.float32)


_BITS = {t: _bits_table(t) for t in (*RESEARCH_TILES, *TILE_COUNTS)}
"""`_BITS[tiles][mask]`: the board as one 0/1 row per mask (the hot path copies a row)."""

ENCODING = ShutboxEncoding
