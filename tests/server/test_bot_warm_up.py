"""A real server starts its bot search processes with itself, each loading the compiled search
(bots/warm.py) before any move, and its health endpoint says so (issue 28, point 6); a search bot
then plays from that warm process. Not timed: the health field proves the warm-up ran, the game
the bot moves in proves the warm process serves searches."""

from __future__ import annotations

import random
import time

from server_harness import clients, running

from nekobako.engine.kernel import pure_reason


def test_search_processes_are_warm_before_the_first_bot_move(sqlite_url, tmp_path) -> None:
    with running(sqlite_url, tmp_path, "--log-level", "info", "--warm-bots") as server, clients(server, 1) as (alice,):
        deadline = time.monotonic() + 600  # a cold numba cache compiles the search first (minutes)
        while (warm := alice.get("/api/health").json()["bot_warm_up"]) is None and time.monotonic() < deadline:
            assert server.proc is not None and server.proc.poll() is None
            time.sleep(0.5)
        assert warm is not None, server.log_path.read_text()[-2000:]
        assert warm["processes"] == 1
        assert warm["games"] == ([] if pure_reason() else ["catbox", "catopomp", "shutbox"])
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
