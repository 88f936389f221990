"""The `nekobako` command. Each sub-command lives in its own module and registers itself here."""

from __future__ import annotations

import sys

import typer
from rich.console import Console
from typer._click import exceptions as click_errors

from .. import __version__
from ..i18n import text
from . import bench, ladder, play, replay, reports, review, rules, serve, simulate, solve, tutorial
from .common import argv_lang, lang_option
from .help import voice_help
from .usage import print_usage_error

HELP_OPTIONS = ["-h", "--help"]
app = typer.Typer(
    name="nekobako",
    help="cli.help.nekobako",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": HELP_OPTIONS},  # every sub-command inherits -h
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"nekobako {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", "-V", callback=_version, is_eager=True, help="cli.help.version"),
    lang: str = lang_option(),
) -> None:
    """Options given before any sub-command (`--version`; `--lang`, which `main` reads itself)."""


for module in (serve, reports, play, tutorial, rules, replay, review, solve, simulate, ladder, bench):
    module.register(app)


def main() -> None:
    """Entry point. The help pages (`help.py`) and a mistake on the command line (exit 2, see
    `usage.py`) are worded in `--lang`'s language; Ctrl-C ends any command with exit status 130 (Typer maps it so)."""
    args = sys.argv[1:]
    lang = argv_lang(args)
    try:
        command = typer.main.get_command(app)
        voice_help(command, lang, HELP_OPTIONS)
        status = command(args=args, prog_name="nekobako", standalone_mode=False)
    except click_errors.NoArgsIsHelpError:
        status = 2  # `nekobako` alone: the help is printed already
    except click_errors.UsageError as exc:
        print_usage_error(exc, lang)
        status = exc.exit_code
    except click_errors.ClickException as exc:
        Console(stderr=True, highlight=False).print(exc.format_message(), markup=False)
        status = exc.exit_code
    except typer.Abort:
        Console(stderr=True).print(text("cli.aborted", lang))
        status = 1
    sys.exit(status if isinstance(status, int) else 0)
