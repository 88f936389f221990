"""A real server starts its bot search processes with itself, each loading the compiled search
(bots/warm.py) before any move, and says so in its log (issue 28, point 6); a search bot then
plays from that warm process. Not timed: the log line proves the warm-up ran, the game that the
bot moves in proves the warm process serves searches."""

from __future__ import annotations

import random
import re
import time

from server_harness import clients, running

WARM = re.compile(r"bot search processes warm: 1 \((\d+)\) in [\d.]+ s; compiled search loaded for (.*)")


def test_search_processes_are_warm_before_the_first_bot_move(sqlite_url, tmp_path) -> None:
    with running(sqlite_url, tmp_path, "--log-level", "info", "--warm-bots") as server, clients(server, 1) as (alice,):
        deadline = time.monotonic() + 600  # a cold numba cache compiles the search first (minutes)
        while not (found := WARM.search(server.log_path.read_text())) and time.monotonic() < deadline:
            assert server.proc is not None and server.proc.poll() is None
            time.sleep(0.2)
        assert found, server.log_path.read_text()[-2000:]
        from nekobako.engine.kernel import pure_reason

        expected = "catbox, catopomp, shutbox" if pure_reason() is None else f"none: {pure_reason()}"
        assert found.group(2).strip() == expected
        alice.guest("alice")
        table = alice.create("shutbox", 2)
        alice.ok(alice.post(f"/api/tables/{table['id']}/bots", {"level": "ismcts", "seat": 1}))
        alice.ok(alice.post(f"/api/tables/{table['id']}/start"))
        seat = alice.socket(table["id"])
        rng = random.Random(1)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            seat.drain()
            history = seat.view["history"] if seat.view else []
            if any(who == 1 for who, _ in history):
                break
            seat.act_if_asked(rng)
        else:
            raise AssertionError("the search bot never moved")
    assert "Traceback" not in server.log_path.read_text()
