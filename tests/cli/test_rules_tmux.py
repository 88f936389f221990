"""`rules` / `?` inside `nekobako play`, typed in a real tmux pane: the section follows the phase."""

from __future__ import annotations

import shlex
import shutil
import sys
import time
import uuid

import pytest

from tmux_pane import kill_session, tmux

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (apt-get install tmux)")


def wait_for(session: str, text: str, deadline: float) -> str:
    screen = ""
    while time.monotonic() < deadline:
        screen = tmux("capture-pane", "-p", "-J", "-t", session, "-S", "-200")
        if text in screen:
            return screen
        time.sleep(0.2)
    raise AssertionError(f"{text!r} never appeared:\n{screen}")


def test_rules_in_play_follow_the_phase(tmp_path):
    session = f"nekobako-rules-{uuid.uuid4().hex[:8]}"
    play = [sys.executable, "-c", "from nekobako.cli import main; main()", "play", "catbox", "-p", "3"]
    play += ["--seed", "4", "--bots", "random", "--record", str(tmp_path / "r.json")]
    tmux("new-session", "-d", "-s", session, "-x", "120", "-y", "50", " ".join(map(shlex.quote, play)) + "; sleep 30")
    try:
        deadline = time.monotonic() + 150
        wait_for(session, "Your legal actions", deadline)
        tmux("send-keys", "-t", session, "?", "Enter")
        screen = wait_for(session, "every discard is revealed", deadline)  # the Discard section
        assert "Predict" not in screen.split("Discard")[-1]  # only that section, not the whole rules
        tmux("send-keys", "-t", session, "1", "Enter")  # discard; bots discard and maybe predict
        wait_for(session, "predict 1", deadline)
        tmux("send-keys", "-t", session, "clear-history-marker", "Enter")  # a line to split the screen at
        tmux("send-keys", "-t", session, "rules", "Enter")
        screen = wait_for(session, "openly predicts how many tricks", deadline)
        later = screen.split("clear-history-marker")[-1]
        assert "Predict" in later and "every discard is revealed" not in later
        tmux("send-keys", "-t", session, "help", "Enter")
        wait_for(session, "'board' redraws the board", deadline)
        tmux("send-keys", "-t", session, "quit", "Enter")
        wait_for(session, "Record saved", deadline)
    finally:
        kill_session(session)
