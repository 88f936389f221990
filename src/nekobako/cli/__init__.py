"""The `nekobako` command. Each sub-command lives in its own module and registers itself here."""

from __future__ import annotations

import typer

from . import bench, play, replay, rules, serve, simulate, solve

app = typer.Typer(
    name="nekobako",
    help="Cat in the Box, Catopomp and Shut the Box: serve, play, rules, replay, solve, simulate, bench.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

for module in (serve, play, rules, replay, solve, simulate, bench):
    module.register(app)


def main() -> None:
    app()
