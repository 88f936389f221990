"""The REST API fuzzed from its own OpenAPI document (Schemathesis, every phase: examples,
coverage, fuzzing and stateful, following the links from `POST /api/tables` to the table routes).
It must find nothing: no 500, no response outside the document, and no request the document
allows that the server refuses (or the reverse). The session survives the fuzzer's `logout`
calls (`fuzz_hooks.py` makes a fresh guest on a 401). Bounded: a few examples per operation
and a time budget."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from server_harness import running

HERE = Path(__file__).resolve().parent
UNLIMITED = [
    f"--limit={name}=100000"
    for name in ("open_tables", "guests_per_hour", "signups_per_hour", "strong_bot_tables", "server_strong_bot_tables")
]


def test_the_api_holds_to_its_document(sqlite_url, tmp_path) -> None:
    with running(sqlite_url, tmp_path, *UNLIMITED) as server:
        env = dict(os.environ, NEKOBAKO_FUZZ_BASE=server.base, SCHEMATHESIS_HOOKS="fuzz_hooks")
        env["PYTHONPATH"] = os.pathsep.join([str(HERE), env.get("PYTHONPATH", "")])
        run = subprocess.run(
            [
                *(sys.executable, "-m", "schemathesis.cli", "run", f"{server.base}/api/openapi.json"),
                *("--checks", "all", "--max-examples", "8", "--max-time", "100", "--seed", "18"),
                *("--generation-codec", "utf-8", "--request-timeout", "20", "--no-color"),
            ],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=240,
        )
        report = run.stdout[-6000:] + run.stderr[-2000:]
        assert run.returncode == 0, report
        # warnings (operations the fuzzer could not reach with data) are allowed; failures are not
        assert re.search(r"\d+ (failures?|errors?)\b", report) is None, report
        assert "Scenarios:" in report and " passed" in report
        assert "Traceback" not in server.log_path.read_text()
