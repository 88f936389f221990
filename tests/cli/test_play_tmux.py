"""`nekobako play` inside a real tmux pane: the board is drawn and keys typed there drive the game."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tmux_pane import kill_session, tmux

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (apt-get install tmux)")


def until(probe: Callable[[], Any], deadline: float) -> Any:
    """Poll `probe` until it returns something true (then return it), failing at `deadline`."""
    while time.monotonic() < deadline:
        found = probe()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError("the condition never held")


def read_json(path: Path) -> Any:
    """The file's JSON, or None while it is missing or only partly written."""
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


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
        saved = until(lambda: read_json(record), deadline)  # the file may still be being written
        assert saved["game"] == "shutbox"
        screen = tmux("capture-pane", "-p", "-t", session, "-S", "-50")
        assert "Record saved" in screen or "nekobako replay" in screen, screen
    finally:
        kill_session(session)


def plain(log) -> str:
    """What a pane showed, without the terminal's colour codes."""
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", log.read_text(errors="replace")) if log.exists() else ""


def test_the_round_summary_comes_before_the_next_deal_in_tmux(tmp_path):
    """Cat in the Box, 2 players: when round 1 ends, its final board and each seat's breakdown are
    on screen before round 2 is dealt; the prompt says what to do now."""
    session = f"nekobako-test-{uuid.uuid4().hex[:8]}"
    record = tmp_path / "summary.json"
    log = tmp_path / "pane.txt"
    args = [sys.executable, "-c", "from nekobako.cli import main; main()", "play", "catbox", "--players", "2"]
    args += ["--seed", "3", "--bots", "random", "--record", str(record)]
    command = " ".join(shlex.quote(part) for part in args)
    tmux("new-session", "-d", "-s", session, "-x", "130", "-y", "60", f"{command}; sleep 30")
    tmux("pipe-pane", "-t", session, f"cat >> {shlex.quote(str(log))}")  # everything ever shown
    try:
        deadline = time.monotonic() + 150
        text = ""
        while time.monotonic() < deadline and "Round 1 is over" not in text:
            tmux("send-keys", "-t", session, "1", "Enter")
            time.sleep(0.4)
            text = plain(log)
        assert "Discard one card face down" in text, text[-3000:]  # the instruction of the phase
        assert "Round 1 is over" in text, text[-3000:]
        text = until(lambda: (t := plain(log)).count("chance: deal") >= 2 and t, deadline)  # round 2 dealt
        summary = text.index("Round 1 is over")
        assert "Final board of round 1" in text[: summary + 2000]
        for heading in ("tricks", "largest group", "bonus", "points", "discards"):
            assert heading in text[summary : summary + 2000]
        second_deal = text.index("chance: deal", text.index("chance: deal") + 1)
        assert summary < second_deal  # the summary is shown before round 2 is dealt
    finally:
        kill_session(session)
