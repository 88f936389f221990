"""`nekobako rules GAME [--lang ja] [--section play]`: the rules of a game, drawn with Rich."""

from __future__ import annotations

import os
import re
from typing import ClassVar

import typer
from rich import box
from rich.console import Console, ConsoleOptions, RenderResult
from rich.markdown import Markdown, MarkdownElement, TableElement
from rich.table import Table

from ..rules import RulesNotFound, load
from .common import lang_option, print_error


def register(app: typer.Typer) -> None:
    app.command("rules", help="cli.help.rules")(rules_command)


class _FoldingTable(TableElement):
    """Rich's Markdown table, but long cells wrap (Japanese has no spaces to wrap at) instead of
    being cut with an ellipsis."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        table = Table(box=box.SIMPLE, pad_edge=False, style="markdown.table.border", collapse_padding=True)
        if self.header is not None and self.header.row is not None:
            for column in self.header.row.cells:
                heading = column.content.copy()
                heading.stylize("markdown.table.header")
                table.add_column(heading, overflow="fold")
        if self.body is not None:
            for row in self.body.rows:
                table.add_row(*[cell.content for cell in row.cells])
        yield table


class RulesMarkdown(Markdown):
    elements: ClassVar[dict[str, type[MarkdownElement]]] = {**Markdown.elements, "table_open": _FoldingTable}


_SECTION_LINK = re.compile(r"\[([^\]]+)\]\(#[a-z0-9-]+\)")


def rules_markdown(markdown: str) -> Markdown:
    """Rules text as Rich draws it: links between sections keep their words only (a terminal
    cannot follow them), code blocks (the pictures) stay plain text."""
    return RulesMarkdown(_SECTION_LINK.sub(r"\1", markdown), code_theme="ansi_light", hyperlinks=False)


def rules_command(
    game: str = typer.Argument(..., help="cli.help.rules.game"),
    lang: str = lang_option(),
    section: str | None = typer.Option(None, "--section", help="cli.help.rules.section"),
    pager: bool = typer.Option(False, "--pager", help="cli.help.rules.pager"),
) -> None:
    """Print the rules of a game: every rule and table option, with examples and pictures."""
    err = Console(stderr=True, soft_wrap=True)
    try:
        book = load(game, lang)
        text = book.section(section).markdown if section else book.markdown
    except RulesNotFound as exc:
        print_error(err, exc.text(lang), lang)
        raise typer.Exit(2) from None
    console = Console(highlight=False)
    if pager:
        os.environ.setdefault("LESS", "-R")  # less shows the styles instead of their escape codes
        with console.pager(styles=True):
            console.print(rules_markdown(text))
    else:
        console.print(rules_markdown(text))
