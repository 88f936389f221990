"""The `-h` / `--help` pages in `--lang`'s language.

Every `help=` of the commands and their options is a catalogue key (`cli.help.…`), not words: the
language is known only once `main` has read the command line, after Typer's definitions are made.
`voice_help` then words the Click command tree Typer builds, and Typer's own headings (module-level
strings in `typer.rich_utils`, the usage prefix in Click's formatter), before the command runs.
Every command's `--lang` defaults to the one read, wherever on the line it was given.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from typer import rich_utils
from typer._click import core, formatting
from typer.core import TyperArgument, TyperOption

from ..engine import game_names
from ..i18n import join_list, text

_HEADINGS = {  # Typer's fixed strings, by the catalogue key that words them
    "ARGUMENTS_PANEL_TITLE": "cli.help.arguments",
    "OPTIONS_PANEL_TITLE": "cli.help.options_panel",
    "COMMANDS_PANEL_TITLE": "cli.help.commands",
    "DEFAULT_STRING": "cli.help.default",
    "REQUIRED_LONG_STRING": "cli.help.required",
}


class _Formatter(formatting.HelpFormatter):
    """Click's formatter with the usage line's prefix in the reader's language."""

    usage = "Usage: "

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        super().write_usage(prog, args, self.usage if prefix is None else prefix)


_rich_text = rich_utils._make_rich_text


def _folding_text(**kwargs: Any) -> Any:
    """A help text that wraps anywhere: Rich's table cells cut a line with an ellipsis where it has
    no space to wrap at, as Japanese has none."""
    made = _rich_text(**kwargs)
    if isinstance(made, Text):
        made.overflow = "fold"
    return made


def _one_text(items: list[Text]) -> Text:
    """An option's help and its `[default: …]` as one folding text (Typer lays them out as Rich
    `Columns`, which cut what does not fit)."""
    joined = Text(" ").join(items)
    joined.overflow = "fold"
    return joined


def _word(key: str | None, lang: str) -> str | None:
    return text(key, lang, games=join_list(game_names(), lang)) if key and key.startswith("cli.help.") else key


def voice_help(command: core.Command, lang: str, help_options: list[str]) -> None:
    """Word `command`, its options and sub-commands (and Typer's headings) in `lang`."""
    for name, key in _HEADINGS.items():
        setattr(rich_utils, name, text(key, lang))
    _Formatter.usage = text("cli.help.usage", lang)
    rich_utils.Columns = _one_text  # type: ignore[assignment,misc]
    rich_utils._make_rich_text = _folding_text
    core.Context.formatter_class = _Formatter
    _voice(command, lang, help_options)


def _voice(command: core.Command, lang: str, help_options: list[str]) -> None:
    command.help = _word(command.help, lang)
    help_option = command.get_help_option(core.Context(command, help_option_names=help_options))
    if help_option is not None:
        help_option.help = text("cli.help.help", lang)
    for param in command.params:
        if isinstance(param, TyperArgument | TyperOption):
            param.help = _word(param.help, lang)
        if param.name == "lang":
            param.default = lang  # so `nekobako --lang ja play` plays in Japanese: the last --lang counts
    for sub in getattr(command, "commands", {}).values():
        _voice(sub, lang, help_options)
