"""Boards drawn with Rich from a seat's view (the dict `State.view(seat)` returns), one function
per game. They read the view only, so they show exactly what that seat may know; a view that lacks
a key the drawing expects falls back to a plain listing rather than failing the game."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ..i18n import has
from ..i18n import text as say

DIE_FACES = "⚀⚁⚂⚃⚄⚅"
COLOURS = {"red": "red", "blue": "blue", "yellow": "yellow", "green": "green"}
COLOUR_NAMES = {
    "en": {"red": "red", "blue": "blue", "yellow": "yellow", "green": "green"},
    "ja": {"red": "赤", "blue": "青", "yellow": "黄", "green": "緑"},
}
SEAT_STYLES = ("bold cyan", "bold magenta", "bold green", "bold yellow", "bold red", "bold blue")

WORDS = {
    "en": {
        "seat": "seat",
        "player": "player",
        "score": "score",
        "round": "round",
        "tiles": "tiles",
        "dice": "dice",
        "penalty": "penalty",
        "state": "state",
        "eliminated": "eliminated",
        "shut": "shut the box!",
        "playing": "to move",
        "waiting": "",
        "prediction": "prediction",
        "tricks": "tricks",
        "x": "colours (X)",
        "cards": "cards",
        "discarded": "discarded",
        "trick": "current trick",
        "hand": "your hand",
        "phase": "phase",
        "leader": "leader",
        "red_broken": "red broken",
        "paradox": "paradox",
        "centre": "centre (revealed)",
        "hell": "hell",
        "gems": "gems",
        "used": "used dice",
        "spare": "spare die",
        "boost": "boost used",
        "out": "out",
        "passed": "passed",
        "table": "table",
        "empty": "empty",
        "removed": "removed",
        "yes": "yes",
        "no": "no",
        "board": "research board",
        "legend": "●n token of seat n · ◆ observed · ■ blocker · × colour declared void",
        "summary": "Round {round} is over",
        "final_board": "final board of round {round}",
        "group": "group",
        "bonus": "bonus",
        "points": "points",
        "total": "total",
        "discards": "discards",
        "paradox_hand": "{name} caused the paradox, holding: {cards}",
        "last_trick": "last trick",
        "won_by": "won by",
        "no_trick": "no card played",
        "lost_gem": "lost a gem",
        "cards_left": "cards left",
        "loser": "{name} still held cards and lost a soul gem",
        "finish": {
            "shut": "The box was shut: the game is won.",
            "rounds": "That was the last round: lowest total penalty wins.",
            "eliminated": "Eliminations end the game: lowest total penalty wins.",
            "quick": "An elimination ends the game (quick game): lowest total penalty wins.",
        },
        "from_hand": "from your hand",
        "from_hell": "from your hell",
        "with_dice": "with dice",
        "other": "other moves",
    },
    "ja": {
        "seat": "席",
        "player": "プレイヤー",
        "score": "得点",
        "round": "ラウンド",
        "tiles": "タイル",
        "dice": "ダイス",
        "penalty": "減点",
        "state": "状態",
        "eliminated": "脱落",
        "shut": "シャット！",
        "playing": "手番",
        "waiting": "",
        "prediction": "予測",
        "tricks": "トリック",
        "x": "色 (X)",
        "cards": "枚数",
        "discarded": "捨て札済",
        "trick": "現在のトリック",
        "hand": "あなたの手札",
        "phase": "フェイズ",
        "leader": "リード",
        "red_broken": "赤解禁",
        "paradox": "パラドックス",
        "centre": "中央 (公開)",
        "hell": "地獄",
        "gems": "ソウルジェム",
        "used": "使用済ダイス",
        "spare": "予備ダイス",
        "boost": "ブースト使用",
        "out": "上がり",
        "passed": "パス",
        "table": "場",
        "empty": "なし",
        "removed": "除外",
        "yes": "はい",
        "no": "いいえ",
        "board": "研究ボード",
        "legend": "●n 席nのトークン · ◆ 調査済トークン · ■ ブロック · × ✕が見えている色（宣言できない）",
        "summary": "第{round}ラウンド終了",
        "final_board": "第{round}ラウンドの最終盤面",
        "group": "かたまり",
        "bonus": "ボーナス",
        "points": "得点",
        "total": "合計",
        "discards": "捨て札",
        "paradox_hand": "パラドックスを起こした{name}の手札: {cards}",
        "last_trick": "最後のトリック",
        "won_by": "勝者",
        "no_trick": "カードなし",
        "lost_gem": "ソウルジェム喪失",
        "cards_left": "残りカード",
        "loser": "{name}が最後までカードを持っていたのでソウルジェムを1個失いました",
        "finish": {
            "shut": "シャット・ザ・ボックス：ゲームの勝者が決まりました。",
            "rounds": "最終ラウンドでした：合計減点の最も少ない人の勝ち。",
            "eliminated": "脱落によりゲーム終了：合計減点の最も少ない人の勝ち。",
            "quick": "脱落者が出たのでゲーム終了（クイックモード）：合計減点の最も少ない人の勝ち。",
        },
        "from_hand": "手札から",
        "from_hell": "地獄から",
        "with_dice": "ダイス付き",
        "other": "その他",
    },
}


def _term(prefix: str, value: Any, lang: str) -> str:
    """A phase or a board side in the reader's words (`catbox.phase.discard` → 伏せる), from the
    catalogue the browser uses too; the raw value if the catalogue has none."""
    key = f"{prefix}.{value}"
    return say(key, lang) if has(key) else str(value)


def words(lang: str) -> Mapping[str, Any]:
    return WORDS["ja" if lang == "ja" else "en"]


def die(face: Any) -> str:
    if isinstance(face, int) and 1 <= face <= 6:
        return f"{DIE_FACES[face - 1]} {face}"
    return str(face)


def seat_text(seat: Any, names: Sequence[str]) -> Text:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return Text(names[seat], style=SEAT_STYLES[seat % len(SEAT_STYLES)])
    return Text("—" if seat is None else str(seat))


def _to_move(view: Mapping[str, Any]) -> list[int]:
    to_move = view.get("to_move")
    return to_move if isinstance(to_move, list) else []


def _per_seat(view: Mapping[str, Any], key: str, players: int, default: Any = None) -> list[Any]:
    values = view.get(key)
    if isinstance(values, list) and len(values) == players:
        return values
    return [default] * players


def number_text(value: Any) -> str:
    """A score as a person reads it: `3`, not `3.0`; a dash for a missing value."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "—" if value is None else str(value)


# -- Shut the Box ---------------------------------------------------------------------------------
def render_shutbox(view: Mapping[str, Any], lang: str, names: Sequence[str]) -> RenderableType:
    w = words(lang)
    players = view["players"]
    tiles = int(view.get("tiles") or view["options"].get("tiles", 9))
    boards = view["boards"]
    dice = _per_seat(view, "dice", players, [])
    eliminated = _per_seat(view, "eliminated", players, False)
    shut = _per_seat(view, "shut", players, False)
    penalty = _per_seat(view, "penalty", players)
    scores = view.get("scores") or [0] * players
    current = view.get("current")
    active = set(view.get("active") or [])
    table = Table(title=f"{w['round']} {view.get('round', '?')}", show_lines=False)
    table.add_column(w["player"])
    table.add_column(w["tiles"] + f" 1–{tiles}")
    table.add_column(w["dice"])
    table.add_column(w["penalty"], justify="right")
    table.add_column(w["score"], justify="right")
    table.add_column(w["state"])
    for seat in range(players):
        open_tiles = set(boards[seat])
        row = Text()
        width = len(str(tiles))
        for n in range(1, tiles + 1):
            if n > 1:
                row.append(" ")
            if n in open_tiles:
                row.append(f"{n:>{width}}", style="bold reverse")
            else:
                row.append(f"{'·':>{width}}", style="dim")
        state = ""
        if shut[seat]:
            state = w["shut"]
        elif eliminated[seat]:
            state = w["eliminated"]
        elif seat == current or (current is None and seat in active and seat in _to_move(view)):
            state = "▶ " + w["playing"]
        name = seat_text(seat, names)
        if seat == current:
            name.append(" ◀")
        table.add_row(
            name,
            row,
            "  ".join(die(f) for f in dice[seat]) if dice[seat] else "",
            number_text(penalty[seat]),
            number_text(scores[seat]),
            state,
        )
    return table


# -- Cat in the Box --------------------------------------------------------------------------------
def _cell(number: Any, content: Any) -> Text:
    """A research-board cell, 4 characters wide whatever it holds (readable without colour)."""
    if content is None:
        return Text(f"{number:>2}  ", style="dim")
    if content == "observed":
        return Text(f"{number:>2}◆ ", style="bold white")
    if content == "blocker":
        return Text(f"{number:>2}■ ", style="bold white")
    if isinstance(content, int):
        return Text(f"{number:>2}●{content}", style=SEAT_STYLES[content % len(SEAT_STYLES)])
    return Text(f"{number:>2}?{str(content)[:1]}")


def render_catbox(view: Mapping[str, Any], lang: str, names: Sequence[str]) -> RenderableType:
    w = words(lang)
    colour_names = COLOUR_NAMES["ja" if lang == "ja" else "en"]
    players = view["players"]
    layout = view["layout"]
    rows = layout["rows"]
    side = _term("catbox.side", layout.get("side", "?"), lang)
    grid = _catbox_grid(layout, view["board"], f"{w['board']} ({side})", lang)

    predictions = _per_seat(view, "predictions", players)
    tricks = _per_seat(view, "tricks", players, 0)
    x_tokens = _per_seat(view, "x_tokens", players, {})
    counts = _per_seat(view, "hand_counts", players)
    discarded = _per_seat(view, "discarded", players, False)
    scores = view.get("scores") or [0] * players
    to_move = set(_to_move(view))
    people = Table()
    for name in ("player", "prediction", "tricks", "x", "cards", "discarded", "score"):
        people.add_column(w[name], justify="left" if name in ("player", "x") else "right")
    for seat in range(players):
        who = seat_text(seat, names)
        if seat in to_move:
            who.append(" ◀")
        xs = Text()
        for colour in rows:
            covered = (x_tokens[seat] or {}).get(colour, True)
            label = colour_names.get(colour, colour)
            label = label if lang == "ja" else label[:1].upper()
            style = COLOURS.get(colour, "") if covered else "dim"
            xs.append((label if covered else "×" * len(label)) + " ", style=style)
        people.add_row(
            who,
            number_text(predictions[seat]),
            number_text(tricks[seat]),
            xs,
            number_text(counts[seat]),
            w["yes"] if discarded[seat] else "",
            number_text(scores[seat]),
        )

    lines: list[RenderableType] = [grid, Text(w["legend"], style="dim"), people]
    if view.get("last_trick"):
        lines.append(_last_trick(view["last_trick"], lang, names))
    lines.append(_plays(Text(w["trick"] + ": "), view.get("trick") or [], lang, names))
    status = (
        f"{w['round']} {view.get('round', '?')}/{view.get('rounds', '?')} · {w['phase']}: "
        f"{_term('catbox.phase', view.get('phase', '?'), lang)}"
        f" · {w['red_broken']}: {w['yes'] if view.get('red_broken') else w['no']}"
    )
    if view.get("paradox") is not None:
        status += f" · {w['paradox']}: {names[view['paradox']] if isinstance(view['paradox'], int) else ''}"
    lines.append(Text(status))
    centre = view.get("centre")
    if isinstance(centre, Mapping) and centre.get("revealed"):
        lines.append(Text(f"{w['centre']}: " + " ".join(str(n) for n in centre["revealed"])))
    if "hand" in view:
        hand = Text(w["hand"] + ": ", style="bold")
        hand.append("  ".join(str(n) for n in view["hand"]), style="bold reverse")
        if view.get("discard") is not None:
            hand.append(f"   ({w['discarded']}: {view['discard']})", style="dim")
        lines.append(hand)
    return Group(*lines)


def _catbox_grid(layout: Mapping[str, Any], board: Sequence[Sequence[Any]], title: str, lang: str) -> Table:
    colour_names = COLOUR_NAMES["ja" if lang == "ja" else "en"]
    grid = Table(title=title, show_header=False, box=None, padding=(0, 1))
    grid.add_column("colour")
    for _ in layout["numbers"][0]:
        grid.add_column(justify="right")
    for r, colour in enumerate(layout["rows"]):
        grid.add_row(
            Text(colour_names.get(colour, colour), style=COLOURS.get(colour, "")),
            *[_cell(num, board[r][c]) for c, num in enumerate(layout["numbers"][r])],
        )
    return grid


def _plays(line: Text, plays: Sequence[Mapping[str, Any]], lang: str, names: Sequence[str]) -> Text:
    colour_names = COLOUR_NAMES["ja" if lang == "ja" else "en"]
    for play in plays:
        colour = str(play.get("colour"))
        line.append_text(seat_text(play.get("seat"), names))
        line.append(f" {play.get('number')} {colour_names.get(colour, colour)}   ", style=COLOURS.get(colour, ""))
    return line


def _last_trick(last: Mapping[str, Any], lang: str, names: Sequence[str]) -> Text:
    """The latest finished trick: its cards and winner, or the paradox that ended it."""
    w = words(lang)
    line = _plays(Text(f"{w['last_trick']} ({last.get('trick')}): "), last.get("plays") or [], lang, names)
    if not last.get("plays"):
        line.append(w["no_trick"] + "   ", style="dim")
    if last.get("winner") is not None:
        line.append(f"→ {w['won_by']} ")
        line.append_text(seat_text(last["winner"], names))
    elif last.get("paradox") is not None:
        line.append(f"→ {w['paradox']}: ", style="bold red")
        line.append_text(seat_text(last["paradox"], names))
    return line


def summary_catbox(view: Mapping[str, Any], lang: str, names: Sequence[str]) -> RenderableType:
    w = words(lang)
    last = view["last_round"]
    lines: list[RenderableType] = [
        _catbox_grid(view["layout"], last["board"], w["final_board"].format(round=last["round"]), lang)
    ]
    if last.get("last_trick"):
        lines.append(_last_trick(last["last_trick"], lang, names))
    table = Table(title=w["summary"].format(round=last["round"]))
    predicted = any(row["prediction"] is not None for row in last["seats"])
    for key in ("player", "tricks", "prediction", "bonus", "points", "total"):
        if key != "prediction" or predicted:
            table.add_column(w[key], justify="left" if key in ("player", "bonus") else "right")
    for seat, row in enumerate(last["seats"]):
        if row["paradox"]:
            bonus = Text("⚡ " + w["paradox"], style="bold red")
        else:
            bonus = Text(f"+{row['bonus']} ✓" if row["hit"] else "0 ✗", style="green" if row["hit"] else "dim")
            bonus.append(f" ({w['group']} {row['group']})", style="dim")
        cells: list[RenderableType] = [seat_text(seat, names), number_text(row["tricks"])]
        if predicted:
            cells.append(number_text(row["prediction"]))
        table.add_row(*cells, bonus, number_text(row["points"]), number_text(row["total"]))
    lines.append(table)
    discards = last.get("discards") or []
    if discards:
        line = Text(f"{w['discards']}: ")
        for seat, card in enumerate(discards):
            line.append_text(seat_text(seat, names))
            line.append(f" {number_text(card)}   ")
        lines.append(line)
    if last.get("paradox") is not None:
        name = names[last["paradox"]]
        lines.append(Text(w["paradox_hand"].format(name=name, cards=_cards(last.get("paradox_hand")) or "—")))
    return Group(*lines)


def summary_shutbox(view: Mapping[str, Any], lang: str, names: Sequence[str]) -> RenderableType:
    w = words(lang)
    last = view["last_round"]
    tiles = int(view.get("tiles") or 9)
    table = Table(title=w["summary"].format(round=last["round"]))
    for key in ("player", "tiles", "dice", "penalty", "total", "state"):
        table.add_column(
            w[key] + (f" 1–{tiles}" if key == "tiles" else ""),
            justify="left" if key in ("player", "tiles", "state") else "right",
        )
    for seat, row in enumerate(last["seats"]):
        open_tiles = " ".join(str(n) for n in last["boards"][seat]) or "—"
        state = w["shut"] if row["shut"] else w["eliminated"] if row["eliminated"] else ""
        dice = last["dice"][seat]
        table.add_row(
            seat_text(seat, names),
            open_tiles,
            "  ".join(die(f) for f in dice),
            number_text(row["penalty"]),
            number_text(row["total"]),
            state,
        )
    lines: list[RenderableType] = [table]
    if last.get("finish"):
        lines.append(Text(w["finish"][last["finish"]], style="bold"))
    return Group(*lines)


def summary_catopomp(view: Mapping[str, Any], lang: str, names: Sequence[str]) -> RenderableType:
    w = words(lang)
    last = view["last_round"]
    table = Table(title=w["summary"].format(round=last["round"]))
    for key in ("player", "cards_left", "hell", "lost_gem", "gems"):
        table.add_column(w[key], justify="left" if key in ("player", "hell") else "right")
    for seat, row in enumerate(last["seats"]):
        table.add_row(
            seat_text(seat, names),
            number_text(row["cards_left"]),
            _cards(last["hell"][seat]),
            "♦ −1" if row["lost_gem"] else "",
            f"{row['gems']} " + "♦" * row["gems"],
        )
    lines: list[RenderableType] = [table, Text(w["loser"].format(name=names[last["loser"]]), style="bold")]
    if last.get("table"):
        line = Text(w["table"] + ": ")
        line.append(str(last["table"].get("text")), style="bold reverse")
        line.append(" ")
        line.append_text(seat_text(last["table"].get("owner"), names))
        lines.append(line)
    return Group(*lines)


def legal_groups(view: Mapping[str, Any], legal: Sequence[str], lang: str) -> list[tuple[str, list[int]]]:
    """Legal actions in groups a person can scan (indexes into `legal`): Catopomp's plays from the
    hand, from the hell and with dice, then the other moves; one group for the other games."""
    if view.get("game") != "catopomp":
        return [("", list(range(len(legal))))]
    w = words(lang)
    groups: dict[str, list[int]] = {"from_hand": [], "from_hell": [], "with_dice": [], "other": []}
    for i, text in enumerate(legal):
        first = text.split(" ", 1)[0]
        if first not in ("play", "hell"):
            groups["other"].append(i)
        elif "+" in text:
            groups["with_dice"].append(i)
        else:
            groups["from_hell" if first == "hell" else "from_hand"].append(i)
    return [(w[key], items) for key, items in groups.items() if items]


# -- Catopomp --------------------------------------------------------------------------------------
def _cards(cards: Any) -> str:
    if not cards:
        return ""
    return " ".join(str(c) for c in cards)


def render_catopomp(view: Mapping[str, Any], lang: str, names: Sequence[str]) -> RenderableType:
    w = words(lang)
    players = view["players"]
    counts = _per_seat(view, "hand_counts", players)
    hell = _per_seat(view, "hell", players, [])
    gems = _per_seat(view, "gems", players)
    boost = _per_seat(view, "boost_used", players, False)
    out = _per_seat(view, "out", players, False)
    dice = view.get("dice") or {}
    used: list[Any] = dice["used"] if isinstance(dice.get("used"), list) else [[]] * players
    spare: list[Any] = dice["spare"] if isinstance(dice.get("spare"), list) else [None] * players
    passed = set(view.get("passed") or [])
    to_move = set(_to_move(view))
    phase = _term("catopomp.phase", view.get("phase", "?"), lang)
    people = Table(title=f"{w['round']} {view.get('round', '?')} · {w['phase']}: {phase}")
    for name in ("player", "cards", "hell", "gems", "used", "spare", "boost", "state"):
        people.add_column(w[name], justify="left" if name in ("player", "hell", "state") else "right")
    for seat in range(players):
        who = seat_text(seat, names)
        if seat in to_move:
            who.append(" ◀")
        state = w["out"] if out[seat] else (w["passed"] if seat in passed else "")
        people.add_row(
            who,
            number_text(counts[seat]),
            _cards(hell[seat]),
            f"{gems[seat]} " + "♦" * gems[seat] if isinstance(gems[seat], int) else number_text(gems[seat]),
            " ".join(die(f) for f in (used[seat] if seat < len(used) else []) or []),
            die(spare[seat]) if seat < len(spare) and spare[seat] is not None else "",
            w["yes"] if boost[seat] else "",
            state,
        )
    lines: list[RenderableType] = [people]
    table = view.get("table")
    line = Text(w["table"] + ": ", style="bold")
    if table:
        line.append(str(table.get("text") or _cards(table.get("cards"))), style="bold reverse")
        line.append(f"  ({table.get('kind', '?')}, {table.get('size', '?')}) ")
        line.append_text(seat_text(table.get("owner"), names))
    else:
        line.append(w["empty"], style="dim")
    lines.append(line)
    centre = dice.get("centre") or []
    lines.append(Text(f"{w['dice']}: " + "  ".join(die(f) for f in centre)))
    if view.get("removed"):
        lines.append(Text(f"{w['removed']}: {_cards(view['removed'])}", style="dim"))
    if "hand" in view:
        hand = Text(w["hand"] + ": ", style="bold")
        hand.append(_cards(view["hand"]), style="bold reverse")
        lines.append(hand)
    return Group(*lines)


# -- any game --------------------------------------------------------------------------------------
ENVELOPE = {"game", "players", "options", "seat", "seq", "legal", "history", "events", "round_scores"}


def render_generic(view: Mapping[str, Any], lang: str, names: Sequence[str]) -> RenderableType:
    """Every key of the view that is not part of the common envelope, as a two-column table."""
    table = Table(show_header=False)
    table.add_column("key", style="bold")
    table.add_column("value")
    for key, value in view.items():
        if key not in ENVELOPE:
            table.add_row(key, escape(str(value)))
    return table


RENDERERS: dict[str, Callable[[Mapping[str, Any], str, Sequence[str]], RenderableType]] = {
    "shutbox": render_shutbox,
    "catbox": render_catbox,
    "catopomp": render_catopomp,
}
SUMMARIES: dict[str, Callable[[Mapping[str, Any], str, Sequence[str]], RenderableType]] = {
    "shutbox": summary_shutbox,
    "catbox": summary_catbox,
    "catopomp": summary_catopomp,
}


def render_summary(view: Mapping[str, Any], lang: str = "en", names: Sequence[str] | None = None) -> RenderableType:
    """The last finished round (`last_round` of the view): final board and each seat's breakdown."""
    names = list(names) if names else [f"seat {s}" for s in range(view["players"])]
    summary = SUMMARIES.get(view.get("game", ""))
    if summary is None or not view.get("last_round"):
        return Text("")
    try:
        return summary(view, lang, names)
    except (KeyError, TypeError, IndexError, ValueError, AttributeError) as exc:
        return Group(
            Text(f"(plain summary: {type(exc).__name__} {exc})", style="dim"), Text(escape(str(view["last_round"])))
        )


def render(view: Mapping[str, Any], lang: str = "en", names: Sequence[str] | None = None) -> RenderableType:
    """The board as `view`'s seat sees it."""
    names = list(names) if names else [f"seat {s}" for s in range(view["players"])]
    renderer = RENDERERS.get(view.get("game", ""), render_generic)
    try:
        return renderer(view, lang, names)
    except (KeyError, TypeError, IndexError, ValueError, AttributeError) as exc:
        # The view shape is agreed in docs/views.md; if a game drifts, still show something usable.
        return Group(Text(f"(plain view: {type(exc).__name__} {exc})", style="dim"), render_generic(view, lang, names))
