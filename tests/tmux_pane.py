"""tmux for the terminal tests: one private tmux server per test process (`-L`), so a session
killed by one test (the last one on a server makes it exit) never takes down a session another
worker or another checkout on the machine is just opening on the shared default server."""

from __future__ import annotations

import os
import subprocess

SOCKET = f"nekobako-test-{os.getpid()}"


def tmux(*args: str) -> str:
    done = subprocess.run(["tmux", "-L", SOCKET, *args], capture_output=True, text=True)
    if done.returncode:
        raise AssertionError(f"tmux {' '.join(args[:1])} failed ({done.returncode}): {done.stderr.strip()}")
    return done.stdout


def kill_session(session: str) -> None:
    subprocess.run(["tmux", "-L", SOCKET, "kill-session", "-t", session], capture_output=True)
