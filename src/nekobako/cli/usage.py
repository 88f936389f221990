"""Mistakes on the command line itself — an unknown option, a missing argument, a value of the
wrong type — worded in `--lang`'s language.

Typer raises one exception per kind of mistake, carrying what went wrong (the option, the
parameter, pydantic's verdict on a bad value); its own texts are English f-strings, not gettext
calls, so they cannot be translated where they are made. `nekobako.cli.main` therefore runs the
app with `standalone_mode=False` and words the exception here from those fields. The language is
read from the command line before it is parsed (`argv_lang`), since the mistake may come first.
"""

from __future__ import annotations

import re

from rich.console import Console
from rich.markup import escape
from typer._click import exceptions as click_errors  # typer ≥ 0.29 carries its own copy of Click

from ..i18n import Message, text
from .common import print_error

_VALUE_REASONS = (("int", "cli.usage.whole_number"), ("float", "cli.usage.number"), ("bool", "cli.usage.yes_no"))


def _bad_value(exc: click_errors.BadParameter) -> Message | str:
    """Why a value was refused: pydantic's error type (int_parsing, …) in our words, or the
    message of our own check (already worded, as `check_lang`'s)."""
    errors = getattr(exc.__cause__, "errors", None)
    if not callable(errors) or not errors():
        return exc.message
    first = errors()[0]
    key = next((key for kind, key in _VALUE_REASONS if str(first.get("type", "")).startswith(kind)), "cli.usage.value")
    return Message(key, value=first.get("input"))


def _hint(exc: click_errors.BadParameter) -> str:
    return exc.param.get_error_hint() if exc.param is not None else ""


def _commands(exc: click_errors.UsageError) -> str:
    ctx = exc.ctx
    names = ctx.command.list_commands(ctx) if ctx is not None and hasattr(ctx.command, "list_commands") else []
    return ", ".join(names)


def usage_messages(exc: click_errors.UsageError) -> list[Message]:
    """What was wrong, as catalogue messages (a suggestion may follow the first)."""
    if isinstance(exc, click_errors.NoSuchOption):
        said = [Message("cli.usage.no_such_option", option=exc.option_name)]
        if exc.possibilities:
            said.append(Message("cli.usage.did_you_mean", options=", ".join(sorted(exc.possibilities))))
        return said
    if isinstance(exc, click_errors.BadOptionUsage):
        key = "cli.usage.takes_no_value" if "does not take" in exc.message else "cli.usage.needs_value"
        return [Message(key, option=exc.option_name)]
    if isinstance(exc, click_errors.MissingParameter):
        argument = getattr(exc.param, "param_type_name", "option") == "argument"
        return [Message("cli.usage.missing_argument" if argument else "cli.usage.missing_option", name=_hint(exc))]
    if isinstance(exc, click_errors.BadParameter):
        return [Message("cli.usage.bad_value", name=_hint(exc) or "—", reason=_bad_value(exc))]
    if found := re.match(r"Got unexpected extra arguments? ?(?:\(s\))? ?\((.*)\)", exc.message):
        extra = found[1].split()
        return [Message("cli.usage.extra_arguments", n=len(extra), args=" ".join(extra))]
    if found := re.match(r"No such command '(.*)'", exc.message):
        return [Message("cli.usage.no_such_command", name=found[1], commands=_commands(exc))]
    if exc.message.startswith("Missing command"):
        return [Message("cli.usage.missing_command", commands=_commands(exc))]
    return [Message("words.text", text=exc.message)]  # a kind Typer may add later: its English


def print_usage_error(exc: click_errors.UsageError, lang: str) -> None:
    """The usage line, where to find help, and one line saying what was wrong (stderr)."""
    err = Console(stderr=True, soft_wrap=True, highlight=False)
    ctx = exc.ctx
    if ctx is not None:
        usage = " ".join([ctx.command_path, *ctx.command.collect_usage_pieces(ctx)])
        err.print(escape(text("cli.usage.usage", lang, usage=usage)))
        if ctx.command.get_help_option(ctx) is not None:
            err.print(escape(text("cli.usage.help", lang, command=ctx.command_path)), style="dim")
    print_error(err, " ".join(m.text(lang) for m in usage_messages(exc)), lang)
