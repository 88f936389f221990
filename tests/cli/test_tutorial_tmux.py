"""`nekobako tutorial` inside a real tmux pane: each tutorial is played to its end by keys typed
there, a wrong move answered with why on the way."""

from __future__ import annotations

import re
import shlex
import shutil
import sys
import time
import uuid
from pathlib import Path

import pytest

from nekobako.i18n import text
from nekobako.tutorial import load, tutorial_games
from tmux_pane import kill_session, tmux

from .conftest import SOURCE

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (apt-get install tmux)")


def shown(log: Path) -> str:
    """Everything the pane showed, without colour codes or line breaks (Rich wraps long lines)."""
    raw = log.read_text(errors="replace") if log.exists() else ""
    return re.sub(r"\s+", " ", re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", raw))


def wait_for(log: Path, words: str, count: int, deadline: float) -> str:
    while time.monotonic() < deadline:
        seen = shown(log)
        if seen.count(words) >= count:
            return seen
        time.sleep(0.1)
    raise AssertionError(f"never shown {count}×: {words!r}\n{shown(log)[-3000:]}")


@pytest.mark.parametrize("game", tutorial_games())
def test_a_tutorial_in_tmux(game: str, tmp_path: Path) -> None:
    session = f"nekobako-test-{uuid.uuid4().hex[:8]}"
    log = tmp_path / "pane.txt"
    args = [sys.executable, "-c", "from nekobako.cli import main; main()", "tutorial", game]
    command = f"env PYTHONPATH={shlex.quote(SOURCE)} " + " ".join(
        shlex.quote(a) for a in [*args, "--save", str(tmp_path) + "/"]
    )
    tmux("new-session", "-d", "-s", session, "-x", "120", "-y", "50", f"{command}; sleep 30")
    tmux("pipe-pane", "-t", session, f"cat >> {shlex.quote(str(log))}")
    prompt = text("cli.play.prompt", "en").strip()
    try:
        deadline = time.monotonic() + 150
        wait_for(log, prompt, 1, deadline)
        tmux("send-keys", "-t", session, "nonsense", "Enter")
        wait_for(log, "Not this:", 1, deadline)
        script = load(game)
        for i, step in enumerate(script.steps):
            tmux("send-keys", "-t", session, step.move or "", "Enter")
            wait_for(log, f"Step {min(i + 2, len(script.steps))} of {len(script.steps)}", 1, deadline)
        wait_for(log, text(script.finish.text, "en")[:40], 1, deadline)
    finally:
        kill_session(session)
