"""Catopomp as a `Game`: shape, options, notation, event words, redaction, determinization.

A climbing / shedding card game for 2–4 players (nekobako/rules/en/catopomp.md). Hidden information: the
hands, the undealt cards, and spare-die faces while their owners are still choosing. Chance:
the first start player, the deal (sampled; too many to list) and the central dice (listed as
sorted face multisets with their probabilities).

Frankly: this is Python. Random playouts reach tens of thousands of actions per second (see
docs/catopomp.md for measured figures) thanks to interned actions and cached legal lists; that
is enough for ISMCTS with a few thousand determinizations per move, not for brute force.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from ...engine import Game, Options
from . import actions as A
from .options import OPTION_SPECS, check_options, rules_for
from .state import CatopompState
from .view import determinize

MESSAGES: dict[str, tuple[str, str]] = {
    "round_start": ("Round {round}: {who} starts", "第{round}ラウンド: {who}がスタートプレイヤー"),
    "spares_set": ("Spare dice are set", "予備ダイスの出目が決まりました"),
    "trick_cleared": ("Everyone passed: the table is cleared, {who} leads", "全員パス: 場が流れ、{who}が親"),
    "hell_given": ("{who} moves hell card {card} to seat {to}", "{who}が地獄カード{card}を席{to}へ移しました"),
    "hell_discarded": ("{who} discards hell card {card}", "{who}が地獄カード{card}を捨て札にしました"),
    "spare_moved": (
        "{who} boosted without the spare die: it moves to the centre showing {face}",
        "{who}が予備ダイスを使わずにブースト: 予備ダイス（{face}）は中央へ",
    ),
    "catleton_swap": (
        "{who} swaps Cat-leton for hell card {card}; Cat-leton leaves the game",
        "{who}がキャットルトンを地獄カード{card}と入れ替え、キャットルトンは捨て札に",
    ),
    "player_out": ("{who} has no cards left this round", "{who}はこのラウンドのカードを出し切りました"),
    "gem_lost": (
        "{who} still holds cards and loses a soul gem ({gems} left)",
        "{who}が最後まで残り、ソウルジェムを1個失いました（残り{gems}）",
    ),
    "round_over": ("Round {round} is over", "第{round}ラウンド終了"),
    "game_over": (
        "Game over: {who} has lost all soul gems; everyone else wins",
        "ゲーム終了: {who}がソウルジェムをすべて失い、ほかの全員の勝利",
    ),
}


class CatopompGame(Game):
    name = "catopomp"
    title: ClassVar[Mapping[str, str]] = {"en": "Catopomp", "ja": "キャットポンプ"}
    min_players = 2
    max_players = 4
    option_specs = OPTION_SPECS
    messages = MESSAGES

    def check_options(self, options: Options, players: int) -> None:
        check_options(options, players)

    def new_initial_state(self, players: int, options: Options) -> CatopompState:
        return CatopompState(self, players, options, rules_for(options, players))

    def parse_action(self, text: str) -> A.Action:
        return A.parse_action(text)

    def redact(self, actor: int, action: Any, viewer: int | None) -> str:
        """Deals show only the viewer's own hand; spare faces of others read `spare ?` (the state's
        view shows them again once every spare die is set)."""
        kind = getattr(action, "kind", None)
        if kind == A.DEAL:
            hands = action.text[5:].split(" | ")
            return "deal " + " | ".join(h if s == viewer else "?" for s, h in enumerate(hands))
        if kind == A.SPARE and actor != viewer:
            return "spare ?"
        return str(action)

    def determinize(self, view: Mapping[str, Any], rng: random.Random) -> CatopompState:
        return determinize(self, view, rng)


GAME = CatopompGame()
