"""`GAME`: Cat in the Box on the engine contract (options, notation, words, determinization)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ...engine import Event, Game, InvalidOptions, Options, OptionSpec, SearchHints, seat_name
from .actions import CatboxAction, parse_action
from .board import table_for
from .determinize import determinizer
from .layouts import COLOURS, COLOURS_JA, SETUPS
from .state import CatboxState
from .view import CatboxView, read_view, redact


def _default_side(players: int) -> str:
    setup = SETUPS.get(players)
    return setup.sides[0] if setup else "white"


SIDE = OptionSpec(
    name="side",
    default=_default_side,
    choices=("white", "purple"),
    help_en="Research board side: white (simple rows, easier bonus) or purple (offset rows, for experts). "
    "White only at 2 players, purple only at 5.",
    help_ja="研究ボードの面：白（並びが単純でボーナスを狙いやすい）または紫（数字がずれた上級者向け）。"
    "2人では白のみ、5人では紫のみ。",
    labels={"white": ("White", "白"), "purple": ("Purple", "紫")},
)


class CatboxGame(Game[CatboxAction, CatboxState]):
    name = "catbox"
    title: ClassVar[Mapping[str, str]] = {"en": "Cat in the Box", "ja": "キャット・イン・ザ・ボックス"}
    min_players = 2
    max_players = 5
    option_specs = (SIDE,)
    search: ClassVar[SearchHints] = SearchHints(scale=4.0)  # a margin of ~4 points per round matters
    messages: ClassVar[Mapping[str, tuple[str, str]]] = {
        "round_started": ("Round {round}: {who} is the start player", "第{round}ラウンド：スタートプレイヤーは{who}"),
        "discards_done": ("Everyone has discarded a card face down", "全員がカードを1枚伏せました"),
        "red_broken": ("{who} played red: red is broken", "{who}が赤を出しました：赤が解禁されました"),
        "x_lost": ("{who} did not follow {colour}: their {colour} X is uncovered", "{who}は{colour}を✕にしました"),
        "trick_won": (
            "{who} wins trick {trick} with {colour} {number}",
            "{who}が{colour}の{number}でトリック{trick}を獲得",
        ),
        "paradox": (
            "Paradox! {who} has no legal play and shows their hand ({hand}); trick {trick} goes to nobody "
            "and the round ends",
            "パラドックス！{who}は出せるカードがありません（手札：{hand}）。トリック{trick}は無効、ラウンド終了",
        ),
        "discards_revealed": ("Discards revealed: {discards}", "捨て札の公開：{discards}"),
        "round_scored": (
            "{who} scores {points} in round {round} (tricks won: {tricks}, prediction: {prediction}, bonus: {bonus})",
            "{who}：第{round}ラウンド {points}点（{tricks}トリック、予測{prediction}、ボーナス{bonus}）",
        ),
        "game_over": ("Game over: {winners} won", "ゲーム終了：勝者 {winners}"),
        # what to do now (`prompt` in views) and how to win (`goal`): rules §3–§7 in one line each
        "do_discard": (
            "Discard one card face down; every discard is revealed when the round ends",
            "手札を1枚伏せて捨ててください。捨て札はラウンド終了時に公開されます",
        ),
        "wait_discard": (
            "Waiting for the others to discard a card face down",
            "ほかのプレイヤーが1枚伏せるのを待っています",
        ),
        "do_predict": (
            "Predict how many tricks you will win: exactly that many earns your largest group as a bonus",
            "勝つトリックの数を予測してください。ぴったり当たると、つながった自分のトークンの最大のかたまりの数がボーナスになります",
        ),
        "wait_predict": ("{who} is predicting their tricks", "{who}が勝利予測をしています"),
        "do_lead": (
            "Lead a card and declare its colour (red only once red is broken, or if nothing else is legal)",
            "カードを1枚出して色を宣言してください（赤は解禁後か、ほかに出せない場合のみ）",
        ),
        "do_lead_red": ("Lead a card and declare its colour", "カードを1枚出して色を宣言してください"),
        "do_follow": (
            "Play a card and declare a colour: any colour but {colour} uncovers your {colour} X; red wins over all",
            "カードを出して色を宣言してください。{colour}以外を宣言すると{colour}は✕になります。赤は切り札です",
        ),
        "wait_play": ("{who} is playing a card", "{who}がカードを出しています"),
        "goal": (
            "{rounds} rounds, most points wins: 1 point per trick, plus your largest group of tokens "
            "when your prediction is exact; a paradox scores −1 per trick",
            "全{rounds}ラウンドで得点の最も多い人の勝ち。1トリック1点、予測が当たれば最大のかたまりの数がボーナス、"
            "パラドックスを起こすと1トリック−1点",
        ),
        "goal_two": (
            "{rounds} rounds, most points wins: 1 point per trick, plus your largest group of tokens "
            "with 4 or fewer tricks; a paradox scores −1 per trick",
            "全{rounds}ラウンドで得点の最も多い人の勝ち。1トリック1点、4トリック以下なら最大のかたまりの数がボーナス、"
            "パラドックスを起こすと1トリック−1点",
        ),
    }

    def check_options(self, options: Options, players: int) -> None:
        side = options["side"]
        if side not in SETUPS[players].sides:
            if players == 2:
                raise InvalidOptions(
                    "The purple side cannot be used at 2 players: the 2-player rules use the white board. "
                    "/ 2人プレイでは紫の面は使えません（白の面を使います）。"
                )
            raise InvalidOptions(
                "The white side cannot be used at 5 players: 5 players always use the purple board. "
                "/ 5人プレイでは白の面は使えません（紫の面を使います）。"
            )

    def new_initial_state(self, players: int, options: Options) -> CatboxState:
        return CatboxState(self, players, options, table_for(players, options["side"]))

    def parse_action(self, text: str) -> CatboxAction:
        return parse_action(text)

    def redact(self, actor: int, action: Any, viewer: int | None) -> str:
        return redact(actor, action, viewer)

    def describe(self, event: Event, lang: str = "en", names: Sequence[str] | None = None) -> str:
        templates = self.messages.get(event.kind)
        if templates is None:
            return event.kind
        ja = lang == "ja"
        data = dict(event.data)
        if ja and data.get("colour") in COLOURS:
            data["colour"] = COLOURS_JA[COLOURS.index(data["colour"])]
        if "prediction" in data and data["prediction"] is None:
            data["prediction"] = "なし" if ja else "none"
        if "hand" in data:
            data["hand"] = " ".join(map(str, data["hand"])) or ("なし" if ja else "none")
        if "discards" in data:
            data["discards"] = ("、" if ja else ", ").join(
                f"{seat_name(int(s), lang, names)}{'：' if ja else ': '}{n}" for s, n in data["discards"].items()
            )
        if "winners" in data:
            data["winners"] = ("、" if ja else " and ").join(seat_name(s, lang, names) for s in data["winners"])
        who = seat_name(event.seat, lang, names) if event.seat is not None else ""
        return (templates[1] if ja else templates[0]).format(who=who, **data)

    def read_view(self, view: Mapping[str, Any]) -> CatboxView:
        return read_view(view)

    def determinize(self, view: Mapping[str, Any], rng: random.Random) -> CatboxState:
        return determinizer(self, view).sample(rng)


GAME = CatboxGame()
