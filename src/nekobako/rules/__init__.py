"""The rules of every game in the project's own words, in English and Japanese.

One Markdown source per game and language (`en/catbox.md`, `ja/catbox.md`) ships inside the
package. Headings carry stable anchors written `## Discard {#discard}`, the same in both languages;
every phase a game's view can name (`view["phase"]`) has a section with that anchor, so a front end
opens "the section of the current phase" without knowing any rule. Pictures are text diagrams in
fenced code blocks: the same source reads the same in a terminal (Rich) and a browser (`html.py`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from ..engine import NekobakoError, UnknownGame, check_game_name
from ..i18n import LANGS, Message

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
_ANCHOR = re.compile(r"\s*\{#([a-z0-9-]+)\}$")
_FENCE = re.compile(r"^(```|~~~)")


class RulesNotFound(NekobakoError, ValueError):
    """An unknown game, language or section; the message says what exists."""


@dataclass(frozen=True, slots=True)
class Section:
    """One heading and its text, up to the next heading of the same or a higher level."""

    anchor: str | None
    level: int
    title: str
    markdown: str  # the heading line (anchor removed) and its body, sub-sections included


@dataclass(frozen=True, slots=True)
class Rulebook:
    game: str
    lang: str
    title: str  # the first heading
    markdown: str  # the whole text, anchors removed (what a reader sees)
    sections: tuple[Section, ...]

    def anchors(self) -> list[str]:
        return [s.anchor for s in self.sections if s.anchor]

    def section(self, anchor: str) -> Section:
        for section in self.sections:
            if section.anchor == anchor:
                return section
        raise RulesNotFound(
            Message(
                "rules.no_section", anchor=anchor, game=Message(f"game.{self.game}"), sections=", ".join(self.anchors())
            )
        )


def load(game: str, lang: str = "en") -> Rulebook:
    """The rules of `game` in `lang`; bad names raise `RulesNotFound` with the choices."""
    try:
        check_game_name(game)
    except UnknownGame as exc:
        raise RulesNotFound(exc.message) from None
    if lang not in LANGS:
        raise RulesNotFound(Message("rules.no_lang", lang=lang, langs=", ".join(LANGS)))
    return _load(game, lang)


@cache
def _load(game: str, lang: str) -> Rulebook:
    source = resources.files(__package__).joinpath(lang, f"{game}.md").read_text(encoding="utf-8")
    return parse(game, lang, source)


def parse(game: str, lang: str, source: str) -> Rulebook:
    """Split a rules source into sections; headings inside code blocks are not headings."""
    lines = source.splitlines()
    heads: list[tuple[int, int, str, str | None]] = []  # line, level, title, anchor
    fenced = False
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        match = None if fenced else _HEADING.match(line)
        if match:
            title, anchor = strip_anchor(match.group(2))
            heads.append((i, len(match.group(1)), title, anchor))
            lines[i] = f"{match.group(1)} {title}"
    sections = []
    for k, (start, level, title, anchor) in enumerate(heads):
        end = next((h[0] for h in heads[k + 1 :] if h[1] <= level), len(lines))
        sections.append(Section(anchor, level, title, "\n".join(lines[start:end]).strip() + "\n"))
    return Rulebook(
        game=game,
        lang=lang,
        title=heads[0][2] if heads else game,
        markdown="\n".join(lines).strip() + "\n",
        sections=tuple(sections),
    )


def strip_anchor(title: str) -> tuple[str, str | None]:
    """`"Discard {#discard}"` → `("Discard", "discard")`."""
    match = _ANCHOR.search(title)
    if not match:
        return title, None
    return title[: match.start()].rstrip(), match.group(1)


def phase_section(view: dict[str, Any]) -> str:
    """The anchor of the section that explains what happens now at a table with this view."""
    return str(view.get("phase") or "overview")  # every game's view names its phase (web/rules.js agrees)
