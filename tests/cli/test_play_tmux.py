"""`nekobako play` inside a real tmux pane: the board is drawn and keys typed there drive the game."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
import time
import uuid

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (apt-get install tmux)")


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=True).stdout


def test_a_game_in_tmux(tmp_path):
    session = f"nekobako-test-{uuid.uuid4().hex[:8]}"
    record = tmp_path / "tmux.json"
    command = " ".join(
        shlex.quote(part)
        for part in (
            sys.executable,
            "-c",
            "from nekobako.cli import main; main()",
            "play",
            "shutbox",
            "--players",
            "2",
            "--seed",
            "2",
            "--bots",
            "random",
            "--record",
            str(record),
        )
    )
    # Keep the pane open after the command ends so its last screen can be read.
    tmux("new-session", "-d", "-s", session, "-x", "120", "-y", "50", f"{command}; sleep 30")
    try:
        screen = ""
        deadline = time.monotonic() + 150  # generous: CI machines can be busy
        while time.monotonic() < deadline and "tiles 1–9" not in screen:
            time.sleep(0.2)
            screen = tmux("capture-pane", "-p", "-t", session)
        assert "tiles 1–9" in screen, screen  # the board is drawn in the pane
        assert "Your legal actions" in screen
        tmux("send-keys", "-t", session, "nonsense", "Enter")
        while time.monotonic() < deadline and "Not understood" not in screen:
            time.sleep(0.2)
            screen = tmux("capture-pane", "-p", "-t", session)
        assert "Not understood" in screen, screen
        while time.monotonic() < deadline and not record.exists():
            tmux("send-keys", "-t", session, "1", "Enter")
            time.sleep(0.3)
        assert record.exists(), tmux("capture-pane", "-p", "-t", session)
        time.sleep(0.3)
        assert json.loads(record.read_text())["game"] == "shutbox"
        screen = tmux("capture-pane", "-p", "-t", session, "-S", "-50")
        assert "Record saved" in screen or "nekobako replay" in screen, screen
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
