"""The `nekobako` command. Each sub-command lives in its own module and registers itself here."""

from __future__ import annotations

import typer

from .. import __version__
from . import bench, play, replay, rules, serve, simulate, solve

app = typer.Typer(
    name="nekobako",
    help="Cat in the Box, Catopomp and Shut the Box: serve, play, rules, replay, solve, simulate, bench.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},  # every sub-command inherits -h
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"nekobako {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", "-V", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Options given before any sub-command (`--version`)."""


for module in (serve, play, rules, replay, solve, simulate, bench):
    module.register(app)


def main() -> None:
    """Entry point. Ctrl-C ends any command with exit status 130 (typer ≥ 0.15 maps it so)."""
    app(prog_name="nekobako")
