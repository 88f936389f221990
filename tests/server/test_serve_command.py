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


MODULE = [sys.executable, "-m", "nekobako.server"]


def test_module_refuses_a_port_out_of_range(tmp_path) -> None:
    """`python -m nekobako.server --port 70000` once served on 4464 (uvicorn wraps it round):
    now one line in `--lang`'s language, exit 2, no traceback, nothing started or created."""
    database = tmp_path / "never.db"
    cases = [("70000", "en", "--port is a whole number from 1 to 65535, not '70000'."), ("0", "ja", "「0」は不可")]
    cases.append(("eighty", "en", "not 'eighty'"))
    for value, lang, words in cases:
        out = subprocess.run(
            [*MODULE, "--lang", lang, "--port", value, "--database-url", f"sqlite:///{database}"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert out.returncode == 2, out.stderr
        assert words in out.stderr
        assert "Traceback" not in out.stderr and "Uvicorn running" not in out.stderr
        assert ("エラー：" if lang == "ja" else "error: ") in out.stderr
    assert not database.exists()
