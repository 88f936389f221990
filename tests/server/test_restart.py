"""Killing the server (SIGKILL, no shutdown code runs) mid-game and starting it again loses no
accepted action: every state any client was sent is a prefix of the finished game's record."""

from __future__ import annotations

import random

from server_harness import clients, play_out
from views_check import check_views


def test_kill_mid_game_and_continue(server) -> None:
    rng = random.Random(11)
    with clients(server, 3) as (alice, bob, watcher):
        alice.signup("alice")
        bob.signup("bob")
        table = alice.create("catbox", 3)
        table_id = table["id"]
        bob.ok(bob.post(f"/api/tables/{table_id}/join"))
        alice.ok(alice.post(f"/api/tables/{table_id}/bots", {"level": "random", "fill": True}))
        alice.ok(alice.post(f"/api/tables/{table_id}/start"))
        first = [alice.socket(table_id), bob.socket(table_id), watcher.socket(table_id)]
        for sock in first:
            sock.wait_state(lambda m: m["view"] is not None)
        play_out(first[:2], rng, stop_at=25)
        # one more action in flight while the process dies
        for sock in first[:2]:
            sock.drain()
            sock.act_if_asked(rng)
        server.kill()
        seen = max(m["seq"] for sock in first for m in sock.states)

        server.start(same_port=True)
        detail = alice.table(table_id)
        assert detail["status"] == "running" and detail["seq"] >= seen
        second = [alice.socket(table_id), bob.socket(table_id), watcher.socket(table_id)]
        for old, new in zip(first, second, strict=True):
            message = new.wait_state()
            assert message["seat"] == old.last["seat"]
            assert message["seq"] >= old.last["seq"]
            if message["seq"] == old.last["seq"]:
                assert message["view"] == old.last["view"]
        play_out(second[:2], rng, timeout=90)
        for sock in second:
            sock.wait_state(lambda m: m["view"]["over"])
        record = alice.ok(alice.get(f"/api/tables/{table_id}/record"))
        # every view sent before the crash and after it is the engine's view of that prefix
        assert check_views(record, first + second) > 50
        for sock in first + second:
            sock.close()
