"""Bot moves take a few turns at a time (server/bot_turns.py): with many tables of bots only,
moving with no delay, the process works on at most `LIMIT` bot moves at once, the others wait for
a turn, and every game still ends."""

from __future__ import annotations

import time

from server_harness import clients, running

from nekobako.server.bot_turns import LIMIT

TABLES = 3 * LIMIT


def test_bot_tables_take_turns_and_all_finish(sqlite_url, tmp_path) -> None:
    with running(sqlite_url, tmp_path, f"--limit=open_tables={TABLES}") as server, clients(server, 1) as [host]:
        host.guest("host")
        ids = []
        for _ in range(TABLES):
            table = host.create("catbox", 3)
            host.ok(host.post(f"/api/tables/{table['id']}/bots", {"level": "greedy", "fill": True}))
            host.ok(host.post(f"/api/tables/{table['id']}/start"))
            host.ok(host.post(f"/api/tables/{table['id']}/leave"))  # a bot takes the host's seat
            ids.append(table["id"])
        deadline = time.monotonic() + 120
        while any(host.table(i)["status"] != "finished" for i in ids):
            assert time.monotonic() < deadline, "the bots' games did not all end"
            time.sleep(0.5)
        turns = host.ok(host.get("/api/health"))["bot_turns"]
        # every turn was taken at once at some point, never more; some bots waited for one
        assert turns["limit"] == LIMIT and turns["most_at_once"] == LIMIT
        assert turns["busy"] == turns["waiting"] == 0 and turns["wait_ms"]["max"] > 0
