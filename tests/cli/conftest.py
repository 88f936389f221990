"""Helpers for driving the `nekobako` command as a person or a script would: a real process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import nekobako

CLI = [sys.executable, "-c", "from nekobako.cli import main; main()"]
SOURCE = str(Path(nekobako.__file__).resolve().parents[1])
"""The package the tests import (a worktree's `src` under PYTHONPATH=src): the processes run it too."""


def run_cli(*args: str, input: str = "", cwd: Path | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*CLI, *args],
        input=input,
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=timeout,
        env={"COLUMNS": "120", "PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8", "PYTHONPATH": SOURCE},
    )


@pytest.fixture
def cli():
    return run_cli
