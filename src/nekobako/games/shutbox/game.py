"""Shut the Box as a `Game`: the static description (players, options, notation, words).

Nothing is hidden in Shut the Box, so determinization is exact: the state is rebuilt by
replaying the history every view carries.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ...engine import CHANCE, BadRecord, Event, Game, NekobakoError, Options, OptionSpec, SearchHints, seat_name
from .actions import Action, parse_action
from .options import OPTION_SPECS
from .state import ShutState
from .view import ShutView, read_view

MESSAGES: dict[str, tuple[str, str]] = {
    "start": ("{who} starts.", "{who}がスタートプレイヤーです。"),
    "turn_over": (
        "{who} cannot use {total}: turn over with a penalty of {penalty}.",
        "{who}は{total}を使えず手番終了：減点{penalty}。",
    ),
    "box_shut": ("{who} shut the box!", "{who}がシャット・ザ・ボックス！"),
    "round_scored": ("Round {round} scored.", "第{round}ラウンドの減点を記録。"),
    "eliminated": ("{who} is eliminated with {total} penalty points.", "{who}は減点{total}で脱落。"),
    "game_over": ("Game over — winner(s): {winners}.", "ゲーム終了 — 勝者：{winners}。"),
    # what to do now (`prompt` in views) and how to win (`goal`)
    "do_roll": ("Roll the dice.", "ダイスを振ってください。"),
    "do_roll_one": ("Roll two dice, or just one die.", "ダイスを2個、または1個だけ振ってください。"),
    "do_shut": (
        "Close open tiles that add up to {total} (at most {most} tiles).",
        "合計が{total}になるように残っているタイルを倒してください（最大{most}枚）。",
    ),
    "do_shut_any": (
        "Close open tiles that add up to {total}.",
        "合計が{total}になるように残っているタイルを倒してください。",
    ),
    "wait_turn": ("{who} is playing.", "{who}がプレイしています。"),
    "wait_others": (
        "Your turn is over; the others are still playing.",
        "あなたの手番は終わりました。ほかのプレイヤーを待っています。",
    ),
    "goal_elimination": (
        "Lowest total penalty wins. A total of {limit} or more at the end of a round eliminates a player. "
        "Shutting the box (closing every tile) wins the game.",
        "合計減点の最も少ない人の勝ち。ラウンド終了時に合計{limit}以上で脱落。"
        "すべてのタイルを倒す（シャット・ザ・ボックス）と勝利。",
    ),
    "goal_quick": (
        "Lowest total penalty wins; the game ends when a total reaches {limit} at the end of a round. "
        "Shutting the box (closing every tile) wins the game.",
        "合計減点の最も少ない人の勝ち。ラウンド終了時に誰かの合計が{limit}以上になるとゲーム終了。"
        "すべてのタイルを倒す（シャット・ザ・ボックス）と勝利。",
    ),
    "goal_rounds": (
        "Lowest total penalty after {rounds} rounds wins. Shutting the box (closing every tile) wins the game.",
        "{rounds}ラウンド後に合計減点の最も少ない人の勝ち。すべてのタイルを倒す（シャット・ザ・ボックス）と勝利。",
    ),
}
"""Event kind → (English, Japanese) template; `{who}` is the event's seat."""


class ShutTheBox(Game[Action, ShutState]):
    """Shut the Box, Board Game Arena rules, 1–12 players."""

    name: ClassVar[str] = "shutbox"
    title: ClassVar[Mapping[str, str]] = {"en": "Shut the Box", "ja": "シャット・ザ・ボックス"}
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 12
    option_specs: ClassVar[tuple[OptionSpec, ...]] = OPTION_SPECS
    messages: ClassVar[Mapping[str, tuple[str, str]]] = MESSAGES
    # penalties; a margin of ~20 points is decisive; whole games are short; nothing is hidden
    search: ClassVar[SearchHints] = SearchHints(
        lower_is_better=True, scale=20.0, horizon="game", perfect_information=True
    )

    def new_initial_state(self, players: int, options: Options) -> ShutState:
        return ShutState(self, players, options)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def read_view(self, view: Mapping[str, Any]) -> ShutView:
        return read_view(view)

    def determinize(self, view: Mapping[str, Any], rng: random.Random) -> ShutState:
        """Exact: nothing is hidden, so replay the view's history (rng is not needed)."""
        seen = read_view(view)
        state = self.new_game(seen.players, seen.options)
        for index, (seat, text) in enumerate(seen.history):
            try:
                state.apply(CHANCE if seat == CHANCE else seat, self.parse_action(text))
            except NekobakoError as exc:
                raise BadRecord(f"view history entry {index} {text!r}: {exc}", index, text) from None
        return state

    def describe(self, event: Event, lang: str = "en", names: Sequence[str] | None = None) -> str:
        if event.kind != "game_over":
            return super().describe(event, lang, names)
        ja = lang == "ja"
        winners = event.data.get("winners", [])
        who = [seat_name(s, lang, names) for s in winners]
        text = "、".join(who) if ja else ", ".join(who)
        template = MESSAGES["game_over"][1 if ja else 0]
        return template.format(winners=text or ("なし" if ja else "nobody"))


GAME = ShutTheBox()
