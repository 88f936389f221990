"""Sub-command under construction."""

import typer


def register(app: typer.Typer) -> None:
    """Adds nothing yet."""
