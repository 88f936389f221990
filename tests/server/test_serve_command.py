"""`nekobako serve` itself: starts on the given port and database, or fails with one clear line."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time

import httpx
from server_harness import free_port

CLI = [sys.executable, "-c", "from nekobako.cli import main; main()", "serve"]


def test_serve_runs_on_sqlite(tmp_path) -> None:
    port = free_port()
    database = tmp_path / "served.db"
    proc = subprocess.Popen(
        [*CLI, "--port", str(port), "--database-url", f"sqlite:///{database}"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                games = httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).json()["games"]
                break
            time.sleep(0.1)
        else:
            raise AssertionError("nekobako serve did not answer")
        assert {g["name"] for g in games} >= {"shutbox"}
        assert database.exists()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_serve_refuses_an_unusable_database() -> None:
    out = subprocess.run(
        [*CLI, "--port", str(free_port()), "--database-url", "postgresql://nobody@127.0.0.1:1/none"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2
    assert "cannot open database" in out.stderr
