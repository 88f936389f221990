"""Rematch over real HTTP and sockets: offered to everyone who played, the new table with the same
seats, options and clock starts when the last accepts; a decline ends it; outsiders and unfinished
games are refused."""

from __future__ import annotations

import random
import time
from datetime import datetime

import pytest
from server_harness import ServerProcess, clients, play_out, running

pytestmark = pytest.mark.xdist_group("server")


def test_a_rematch_accepted_by_both_starts_the_same_table_again(server: ServerProcess) -> None:
    with clients(server, 3) as (alice, bob, carol):
        alice.guest("alice")
        bob.guest("bob")
        carol.guest("carol")
        options = {"tiles": 12}
        clock = {"kind": "realtime", "bank": 120, "increment": 5, "timeouts": 2}
        table = alice.create("shutbox", 2, options, clock)
        table_id = table["id"]
        bob.ok(bob.post(f"/api/tables/{table_id}/join"))
        assert bob.post(f"/api/tables/{table_id}/rematch").status_code == 409  # not over yet
        alice.ok(alice.post(f"/api/tables/{table_id}/start"))
        a, b = alice.socket(table_id), bob.socket(table_id)
        play_out([a, b], random.Random(5))

        assert alice.ok(alice.get(f"/api/tables/{table_id}/rematch"))["rematch"] is None
        assert carol.post(f"/api/tables/{table_id}/rematch").status_code == 403  # carol did not play
        offered = bob.ok(bob.post(f"/api/tables/{table_id}/rematch"))["rematch"]
        assert offered["offered_by"]["name"] == "bob" and [u["name"] for u in offered["waiting"]] == ["alice"]
        pushed = a.wait_for(lambda m: m["type"] == "rematch")["rematch"]
        assert pushed["offered_by"]["name"] == "bob" and pushed["new_table"] is None

        done = alice.ok(alice.post(f"/api/tables/{table_id}/rematch"))["rematch"]
        assert done["waiting"] == [] and done["new_table"] is not None
        assert b.wait_for(lambda m: m["type"] == "rematch" and m["rematch"]["new_table"])["rematch"] == done
        new = alice.table(done["new_table"])
        assert new["status"] == "running" and new["host"]["name"] == "bob"
        assert [s["user"]["name"] for s in new["seats"]] == ["alice", "bob"]  # the same seats
        assert new["options"]["tiles"] == 12
        assert {k: new["clock"][k] for k in clock} == clock and not new["clock"].get("missed")
        # answering again changes nothing; nobody can decline a table that exists
        assert alice.ok(alice.post(f"/api/tables/{table_id}/rematch"))["rematch"]["new_table"] == done["new_table"]
        assert bob.ok(bob.post(f"/api/tables/{table_id}/rematch/decline"))["rematch"]["declined_by"] is None
        for sock in (a, b):
            sock.close()


def test_a_decline_ends_the_offer_and_a_game_against_bots_restarts_at_once(server: ServerProcess) -> None:
    with clients(server, 2) as (alice, bob):
        alice.guest("alice")
        bob.guest("bob")
        table = alice.create("shutbox", 2)
        bob.ok(bob.post(f"/api/tables/{table['id']}/join"))
        alice.ok(alice.post(f"/api/tables/{table['id']}/start"))
        socks = [alice.socket(table["id"]), bob.socket(table["id"])]
        play_out(socks, random.Random(8))
        alice.ok(alice.post(f"/api/tables/{table['id']}/rematch"))
        declined = bob.ok(bob.post(f"/api/tables/{table['id']}/rematch/decline"))["rematch"]
        assert declined["declined_by"]["name"] == "bob" and declined["new_table"] is None
        assert bob.ok(bob.post(f"/api/tables/{table['id']}/rematch"))["rematch"]["new_table"] is None

        solo = alice.create("shutbox", 2)
        alice.ok(alice.post(f"/api/tables/{solo['id']}/bots", {"level": "random", "fill": True}))
        alice.ok(alice.post(f"/api/tables/{solo['id']}/start"))
        sock = alice.socket(solo["id"])
        play_out([sock], random.Random(9))
        again = alice.ok(alice.post(f"/api/tables/{solo['id']}/rematch"))["rematch"]
        new = alice.table(again["new_table"])
        assert new["status"] == "running" and [s["kind"] for s in new["seats"]] == ["human", "bot"]
        assert new["seats"][1]["bot"] == "random"
        for s in (*socks, sock):
            s.close()


def test_an_offer_nobody_answers_lapses_and_may_be_made_again(database_url: str, tmp_path) -> None:
    """An offer lapses `rematch_seconds` after it was made (issue 32: offers never expired, so a
    late click could start a table hours later): then a decline changes nothing and the next
    acceptance is a new offer, which the others must accept again."""
    with running(database_url, tmp_path, "--limit", "rematch_seconds=3") as server, clients(server, 2) as (alice, bob):
        alice.guest("alice")
        bob.guest("bob")
        table = alice.create("shutbox", 2)
        path = f"/api/tables/{table['id']}/rematch"
        bob.ok(bob.post(f"/api/tables/{table['id']}/join"))
        alice.ok(alice.post(f"/api/tables/{table['id']}/start"))
        socks = [alice.socket(table["id"]), bob.socket(table["id"])]
        play_out(socks, random.Random(3))

        offered = bob.ok(bob.post(path))["rematch"]
        made, expires = (datetime.fromisoformat(offered[k]) for k in ("at", "expires_at"))
        assert (expires - made).total_seconds() == 3 and offered["expired"] is False
        time.sleep(3.5)
        lapsed = alice.ok(alice.get(path))["rematch"]
        assert lapsed["expired"] is True and lapsed["new_table"] is None
        # declining a lapsed offer records nothing; accepting it makes a new offer of one's own
        assert alice.ok(alice.post(f"{path}/decline"))["rematch"]["declined_by"] is None
        again = alice.ok(alice.post(path))["rematch"]
        assert again["offered_by"]["name"] == "alice" and again["expired"] is False
        assert again["new_table"] is None and [u["name"] for u in again["waiting"]] == ["bob"]
        done = bob.ok(bob.post(path))["rematch"]
        assert done["new_table"] is not None and alice.table(done["new_table"])["host"]["name"] == "alice"
        assert bob.ok(bob.get(path))["rematch"]["expired"] is False  # a started rematch never lapses
        for sock in socks:
            sock.close()
