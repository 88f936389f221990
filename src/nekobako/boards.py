"""Boards drawn with Rich from a seat's view (the dict `State.view(seat)` returns), one function
per game. They read the view only, so they show exactly what that seat may know; a view that lacks
a key the drawing expects falls back to a plain listing rather than failing the game.

A client of views, like the browser: it needs only `i18n`, so it sits low in the layers, below both
of its readers, the terminal (`cli/play.py`) and the learning envs' `render_mode="ansi"`
(`rl/table.py`). Not in `games/`: a game folder holds rules; drawing them is a client's job."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from .i18n import has
from .i18n import text as say
from .i18n.events import seat_name

DIE_FACES = "⚀⚁⚂⚃⚄⚅"
COLOURS = {"red": "red", "blue": "blue", "yellow": "yellow", "green": "green"}
SEAT_STYLES = ("bold cyan", "bold magenta", "bold green", "bold yellow", "bold red", "bold blue")


def _term(prefix: str, value: Any, lang: str) -> str:
    """A phase or a board side in the reader's words (`catbox.phase.discard` → 伏せる), from the
    catalogue the browser uses too; the raw value if the catalogue has none."""
    key = f"{prefix}.{value}"
    return say(key, lang) if has(key) else str(value)


def worded(key: str, lang: str, **parts: Text | str | int) -> Text:
    """A catalogue message as Rich text whose `Text` parameters keep their style (a seat's colour)."""
    template = say(key, lang, **{k: v for k, v in parts.items() if not isinstance(v, Text)})
    line = Text()
    for i, piece in enumerate(re.split(r"\{(\w+)\}", template)):  # odd pieces: placeholders left
        styled = parts.get(piece) if i % 2 else None
        if isinstance(styled, Text):
            line.append_text(styled)
        else:
            line.append(f"{{{piece}}}" if i % 2 else piece)
    return line


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


def label(words: str, lang: str) -> str:
    """`words: ` / `words：`, before what they name."""
    return say("cli.label", lang, label=words)


def w(key: str, lang: str, **params: Any) -> str:
    """A board's word in the reader's language (`cli.board.<key>`)."""
    return say(f"cli.board.{key}", lang, **params)


# -- Shut the Box ---------------------------------------------------------------------------------
def render_shutbox(view: Mapping[str, Any], lang: str, names: Sequence[str]) -> RenderableType:
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
    table = Table(title=w("round", lang, round=view.get("round", "?")), show_lines=False)
    table.add_column(w("player", lang))
    table.add_column(w("tiles", lang, first=1, last=tiles))
    table.add_column(w("dice", lang))
    table.add_column(w("penalty", lang), justify="right")
    table.add_column(w("score", lang), justify="right")
    table.add_column(w("state", lang))
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
            state = say("shutbox.shutBox", lang)
        elif eliminated[seat]:
            state = say("shutbox.eliminated", lang)
        elif seat == current or (current is None and seat in active and seat in _to_move(view)):
            state = "▶ " + w("to_move", lang)
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


def _colour(colour: str, lang: str) -> str:
    return _term("catbox.colour", colour, lang)


def render_catbox(view: Mapping[str, Any], lang: str, names: Sequence[str]) -> RenderableType:
    players = view["players"]
    layout = view["layout"]
    rows = layout["rows"]
    side = _term("catbox.side", layout.get("side", "?"), lang)
    grid = _catbox_grid(layout, view["board"], w("research_board", lang, side=side), lang)

    predictions = _per_seat(view, "predictions", players)
    tricks = _per_seat(view, "tricks", players, 0)
    x_tokens = _per_seat(view, "x_tokens", players, {})
    counts = _per_seat(view, "hand_counts", players)
    discarded = _per_seat(view, "discarded", players, False)
    scores = view.get("scores") or [0] * players
    to_move = set(_to_move(view))
    people = Table()
    for name in ("player", "prediction", "tricks", "x_tokens", "cards", "discarded", "score"):
        people.add_column(w(name, lang), justify="left" if name in ("player", "x_tokens") else "right")
    for seat in range(players):
        who = seat_text(seat, names)
        if seat in to_move:
            who.append(" ◀")
        xs = Text()
        for colour in rows:
            covered = (x_tokens[seat] or {}).get(colour, True)
            initial = _term("cli.board.colour_initial", colour, lang)
            style = COLOURS.get(colour, "") if covered else "dim"
            xs.append((initial if covered else "×" * len(initial)) + " ", style=style)
        people.add_row(
            who,
            number_text(predictions[seat]),
            number_text(tricks[seat]),
            xs,
            number_text(counts[seat]),
            w("yes", lang) if discarded[seat] else "",
            number_text(scores[seat]),
        )

    lines: list[RenderableType] = [grid, Text(w("legend", lang), style="dim"), people]
    if view.get("last_trick"):
        lines.append(_last_trick(view["last_trick"], lang, names))
    lines.append(_plays(Text(label(w("trick", lang), lang)), view.get("trick") or [], lang, names))
    phase = _term("catbox.phase", view.get("phase", "?"), lang)
    status = Text(f"{w('round_of', lang, round=view.get('round', '?'), rounds=view.get('rounds', '?'))} · ")
    status.append(f"{w('phase', lang, phase=phase)} · ")
    status.append(say("catbox.redBroken" if view.get("red_broken") else "catbox.redNotBroken", lang))
    if isinstance(view.get("paradox"), int):
        status.append(" · ").append_text(worded("cli.board.paradox_by", lang, name=seat_text(view["paradox"], names)))
    lines.append(status)
    centre = view.get("centre")
    if isinstance(centre, Mapping) and centre.get("revealed"):
        lines.append(Text(label(w("centre", lang), lang) + " ".join(str(n) for n in centre["revealed"])))
    if "hand" in view:
        hand = Text(label(w("hand", lang), lang), style="bold")
        hand.append("  ".join(str(n) for n in view["hand"]), style="bold reverse")
        if view.get("discard") is not None:
            hand.append("   " + w("your_discard", lang, card=view["discard"]), style="dim")
        lines.append(hand)
    return Group(*lines)


def _catbox_grid(layout: Mapping[str, Any], board: Sequence[Sequence[Any]], title: str, lang: str) -> Table:
    grid = Table(title=title, show_header=False, box=None, padding=(0, 1))
    grid.add_column("colour")
    for _ in layout["numbers"][0]:
        grid.add_column(justify="right")
    for r, colour in enumerate(layout["rows"]):
        grid.add_row(
            Text(_colour(colour, lang), style=COLOURS.get(colour, "")),
            *[_cell(num, board[r][c]) for c, num in enumerate(layout["numbers"][r])],
        )
    return grid


def _plays(line: Text, plays: Sequence[Mapping[str, Any]], lang: str, names: Sequence[str]) -> Text:
    for play in plays:
        colour = str(play.get("colour"))
        line.append_text(seat_text(play.get("seat"), names))
        line.append(f" {play.get('number')} {_colour(colour, lang)}   ", style=COLOURS.get(colour, ""))
    return line


def _last_trick(last: Mapping[str, Any], lang: str, names: Sequence[str]) -> Text:
    """The latest finished trick: its cards and winner, or the paradox that ended it."""
    line = _plays(
        Text(label(w("last_trick", lang, trick=last.get("trick")), lang)), last.get("plays") or [], lang, names
    )
    if not last.get("plays"):
        line.append(w("no_card", lang) + "   ", style="dim")
    if last.get("winner") is not None:
        line.append("→ ").append_text(worded("cli.board.won_by", lang, name=seat_text(last["winner"], names)))
    elif last.get("paradox") is not None:
        line.append("→ ", style="bold red")
        line.append_text(worded("cli.board.paradox_by", lang, name=seat_text(last["paradox"], names)))
    return line


def summary_catbox(view: Mapping[str, Any], lang: str, names: Sequence[str]) -> RenderableType:
    last = view["last_round"]
    lines: list[RenderableType] = [
        _catbox_grid(view["layout"], last["board"], w("final_board", lang, round=last["round"]), lang)
    ]
    if last.get("last_trick"):
        lines.append(_last_trick(last["last_trick"], lang, names))
    table = Table(title=w("summary", lang, round=last["round"]))
    predicted = any(row["prediction"] is not None for row in last["seats"])
    for key in ("player", "tricks", "prediction", "bonus", "points", "total"):
        if key != "prediction" or predicted:
            table.add_column(w(key, lang), justify="left" if key in ("player", "bonus") else "right")
    for seat, row in enumerate(last["seats"]):
        if row["paradox"]:
            bonus = Text("⚡ " + w("paradox", lang), style="bold red")
        else:
            bonus = Text(f"+{row['bonus']} ✓" if row["hit"] else "0 ✗", style="green" if row["hit"] else "dim")
            bonus.append(f" ({w('group', lang, n=row['group'])})", style="dim")
        cells: list[RenderableType] = [seat_text(seat, names), number_text(row["tricks"])]
        if predicted:
            cells.append(number_text(row["prediction"]))
        table.add_row(*cells, bonus, number_text(row["points"]), number_text(row["total"]))
    lines.append(table)
    discards = last.get("discards") or []
    if discards:
        line = Text(label(w("discards", lang), lang))
        for seat, card in enumerate(discards):
            line.append_text(seat_text(seat, names))
            line.append(f" {number_text(card)}   ")
        lines.append(line)
    if last.get("paradox") is not None:
        cards = _cards(last.get("paradox_hand")) or "—"
        lines.append(worded("cli.board.paradox_hand", lang, name=seat_text(last["paradox"], names), cards=cards))
    return Group(*lines)


def summary_shutbox(view: Mapping[str, Any], lang: str, names: Sequence[str]) -> RenderableType:
    last = view["last_round"]
    tiles = int(view.get("tiles") or 9)
    table = Table(title=w("summary", lang, round=last["round"]))
    for key in ("player", "tiles", "dice", "penalty", "total", "state"):
        table.add_column(
            w(key, lang, first=1, last=tiles), justify="left" if key in ("player", "tiles", "state") else "right"
        )
    for seat, row in enumerate(last["seats"]):
        open_tiles = " ".join(str(n) for n in last["boards"][seat]) or "—"
        state = ""
        if row["shut"] or row["eliminated"]:
            state = say("shutbox.shutBox" if row["shut"] else "shutbox.eliminated", lang)
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
        lines.append(Text(say(f"shutbox.finish.{last['finish']}", lang), style="bold"))
    return Group(*lines)


def summary_catopomp(view: Mapping[str, Any], lang: str, names: Sequence[str]) -> RenderableType:
    last = view["last_round"]
    table = Table(title=w("summary", lang, round=last["round"]))
    for key in ("player", "cards_left", "hell", "lost_gem", "gems"):
        table.add_column(w(key, lang), justify="left" if key in ("player", "hell") else "right")
    for seat, row in enumerate(last["seats"]):
        table.add_row(
            seat_text(seat, names),
            number_text(row["cards_left"]),
            _cards(last["hell"][seat]),
            "♦ −1" if row["lost_gem"] else "",
            f"{row['gems']} " + "♦" * row["gems"],
        )
    loser = worded("cli.board.loser", lang, name=seat_text(last["loser"], names))
    loser.stylize("bold")
    lines: list[RenderableType] = [table, loser]
    if last.get("table"):
        line = Text(label(w("table", lang), lang))
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
    groups: dict[str, list[int]] = {"from_hand": [], "from_hell": [], "with_dice": [], "other": []}
    for i, text in enumerate(legal):
        first = text.split(" ", 1)[0]
        if first not in ("play", "hell"):
            groups["other"].append(i)
        elif "+" in text:
            groups["with_dice"].append(i)
        else:
            groups["from_hell" if first == "hell" else "from_hand"].append(i)
    return [(w(key, lang), items) for key, items in groups.items() if items]


# -- Catopomp --------------------------------------------------------------------------------------
def _cards(cards: Any) -> str:
    if not cards:
        return ""
    return " ".join(str(c) for c in cards)


def render_catopomp(view: Mapping[str, Any], lang: str, names: Sequence[str]) -> RenderableType:
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
    people = Table(title=f"{w('round', lang, round=view.get('round', '?'))} · {w('phase', lang, phase=phase)}")
    for name in ("player", "cards", "hell", "gems", "used_dice", "spare", "boost", "state"):
        people.add_column(w(name, lang), justify="left" if name in ("player", "hell", "state") else "right")
    for seat in range(players):
        who = seat_text(seat, names)
        if seat in to_move:
            who.append(" ◀")
        state = w("out", lang) if out[seat] else (w("passed", lang) if seat in passed else "")
        people.add_row(
            who,
            number_text(counts[seat]),
            _cards(hell[seat]),
            f"{gems[seat]} " + "♦" * gems[seat] if isinstance(gems[seat], int) else number_text(gems[seat]),
            " ".join(die(f) for f in (used[seat] if seat < len(used) else []) or []),
            die(spare[seat]) if seat < len(spare) and spare[seat] is not None else "",
            w("yes", lang) if boost[seat] else "",
            state,
        )
    lines: list[RenderableType] = [people]
    table = view.get("table")
    line = Text(label(w("table", lang), lang), style="bold")
    if table:
        line.append(str(table.get("text") or _cards(table.get("cards"))), style="bold reverse")
        kind = _term("catopomp.kind", table.get("kind", "?"), lang)
        line.append(f"  ({w('combination', lang, kind=kind, size=table.get('size', '?'))}) ")
        line.append_text(seat_text(table.get("owner"), names))
    else:
        line.append(w("empty", lang), style="dim")
    lines.append(line)
    centre = dice.get("centre") or []
    lines.append(Text(label(w("dice", lang), lang) + "  ".join(die(f) for f in centre)))
    if view.get("removed"):
        lines.append(Text(label(w("removed", lang), lang) + _cards(view["removed"]), style="dim"))
    if "hand" in view:
        hand = Text(label(w("hand", lang), lang), style="bold")
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
    names = list(names) if names else [seat_name(s, lang) for s in range(view["players"])]
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
    names = list(names) if names else [seat_name(s, lang) for s in range(view["players"])]
    renderer = RENDERERS.get(view.get("game", ""), render_generic)
    try:
        return renderer(view, lang, names)
    except (KeyError, TypeError, IndexError, ValueError, AttributeError) as exc:
        # The view shape is agreed in docs/views.md; if a game drifts, still show something usable.
        return Group(Text(f"(plain view: {type(exc).__name__} {exc})", style="dim"), render_generic(view, lang, names))
