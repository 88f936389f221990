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

from ...engine import Game, Options, SearchHints
from . import actions as A
from .determinize import determinize
from .options import OPTION_SPECS, check_options, rules_for
from .state import CatopompState
from .view import CatopompView, read_view

MESSAGES: dict[str, tuple[str, str]] = {
    "round_start": ("Round {round}: {who} starts", "第{round}ラウンド: {who}がスタートプレイヤー"),
    "spares_set": ("Spare dice are set", "予備ダイスの出目が決まりました"),
    "trick_cleared": ("Everyone passed: the table is cleared, {who} leads", "全員パス: 場が流れ、{who}が次に出します"),
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
    # what to do now (`prompt` in views) and what the gems mean (`goal`)
    "do_spare": (
        "Choose the face of your spare die (hidden until everyone has chosen)",
        "予備ダイスの目を選んでください（全員が選ぶまで非公開）",
    ),
    "wait_spare": (
        "Players with one gem left are choosing their spare die",
        "ソウルジェムが残り1個のプレイヤーが予備ダイスの目を選んでいます",
    ),
    "do_lead": (
        "Lead a combination: a single card, a run or a set (hell cards: 2 or more while your hand is not empty)",
        "組み合わせを出してください：シングル、連番、同じ数字（地獄カードは手札がある間は2枚以上）",
    ),
    "do_beat": (
        "Play a stronger combination than the table (dice may boost it once a round), or pass",
        "場より強い組み合わせを出すか（ダイスブーストは1ラウンド1回）、パスしてください",
    ),
    "wait_play": ("{who} is playing", "{who}の番です"),
    "do_bury": ("Bury one card from your hand in your hell", "手札を1枚、自分の地獄エリアに置いてください"),
    "wait_bury": ("{who} is burying a card in their hell", "{who}が地獄エリアにカードを置いています"),
    "do_give": (
        "{who} passed: give them one of your hell cards, or keep them all",
        "{who}がパスしました：地獄カードを1枚移すか、移さずに残してください",
    ),
    "do_give_must": (
        "{who} passed: you hold 3 or more hell cards, so give them one",
        "{who}がパスしました：地獄カードが3枚以上あるので1枚移してください",
    ),
    "do_discard_hell": (
        "{who} passed: discard one of your hell cards, or keep them all (casual mode)",
        "{who}がパスしました：地獄カードを1枚捨て札にするか、残してください（カジュアルモード）",
    ),
    "wait_give_me": (
        "You passed: {who} may give you one hell card",
        "あなたがパスしました：{who}から地獄カードを1枚移されるかもしれません",
    ),
    "wait_give": (
        "{who} may give a hell card to the player who passed",
        "{who}がパスしたプレイヤーに地獄カードを移すかどうか選んでいます",
    ),
    "goal": (
        "Each round, the last player still holding cards loses a soul gem. A player who loses their last gem "
        "loses the game and everyone else wins. With one gem left, you get a spare die.",
        "各ラウンドで最後までカードが残ったプレイヤーはソウルジェムを1個失います。最後のソウルジェムを失ったプレイヤーの負けで、"
        "ほかの全員の勝ち。ソウルジェムが残り1個になると予備ダイスがもらえます。",
    ),
}


class CatopompGame(Game[A.Action, CatopompState]):
    name = "catopomp"
    title: ClassVar[Mapping[str, str]] = {"en": "Catopomp", "ja": "キャットポンプ"}
    min_players = 2
    max_players = 4
    option_specs = OPTION_SPECS
    messages = MESSAGES
    search = SearchHints(scale=1.0)  # one soul gem is a large margin

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

    def read_view(self, view: Mapping[str, Any]) -> CatopompView:
        return read_view(view)

    def determinize(self, view: Mapping[str, Any], rng: random.Random) -> CatopompState:
        return determinize(self, view, rng)


GAME = CatopompGame()
