"""The rules as an HTML page for the browser, rendered once per game and language.

markdown-it-py (CommonMark, already installed with Rich) renders with raw HTML switched off: a
`<tag>` in the Markdown comes out as text and link targets are checked, so the page carries only
what the renderer builds. Headings get their stable anchor as `id`, so `/rules/catbox?lang=ja#play`
opens at the section of the play phase.
"""

from __future__ import annotations

from functools import cache
from html import escape

from markdown_it import MarkdownIt

from ..i18n import LANGS, text
from . import Rulebook, load


def _renderer() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")


def render_body(book: Rulebook) -> str:
    """The rules as an HTML fragment: headings carry their anchors as ids."""
    game, lang = book.game, book.lang
    md = _renderer()
    tokens = md.parse(book.markdown)
    heads = [t for t in tokens if t.type == "heading_open"]
    if len(heads) != len(book.sections):  # both skip code blocks; a mismatch is a bug in parse()
        raise AssertionError(f"{game}/{lang}: {len(heads)} headings rendered, {len(book.sections)} parsed")
    for token, section in zip(heads, book.sections, strict=True):
        if section.anchor:
            token.attrSet("id", section.anchor)
    for token in tokens:  # tables scroll sideways on a phone instead of widening the page
        if token.type == "table_open":
            token.attrSet("class", "rules-table")
    # pictures in <pre> scroll sideways on a phone: keyboard users reach them too (raw HTML is off,
    # so a "<pre>" in the rules' text is escaped and never matches)
    return md.renderer.render(tokens, md.options, {}).replace("<pre>", '<pre tabindex="0">')


@cache
def render_page(game: str, lang: str) -> str:
    """A whole page: title, a link to the other language, the contents (second-level headings), the rules."""
    book = load(game, lang)
    contents_word = escape(text("rules.page.contents", lang))
    contents = "".join(
        f'<li><a href="#{escape(s.anchor)}">{escape(s.title)}</a></li>'
        for s in book.sections
        if s.level == 2 and s.anchor
    )
    other = next(other for other in LANGS if other != lang)  # the link to the rules in the other language
    return (
        "<!doctype html>\n"
        f'<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(book.title)} — {escape(text('rules.button', lang))} — nekobako</title>\n"
        '<link rel="stylesheet" href="/static/rules.css">\n</head>\n<body>\n'
        '<header class="rules-top">'
        f'<a href="/" target="_top">{escape(text("rules.page.lobby", lang))}</a>'
        f'<a href="/rules/{escape(game)}?lang={other}" hreflang="{other}" lang="{other}" data-testid="other-lang">'
        f"{escape(text('rules.page.language', other))}</a></header>\n"
        f'<nav class="rules-toc" aria-label="{contents_word}"><h2>{contents_word}</h2>'
        f"<ol>{contents}</ol></nav>\n"
        f'<main class="rules" data-game="{escape(game)}">\n{render_body(book)}</main>\n</body>\n</html>\n'
    )
