"""Limits that keep one user or one address from taking the server (issue 18 point 4), the paged
lobby, finished tables leaving memory, and old sessions and guests purged (point 11)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from server_harness import clients, closed, play_out, running
from sqlalchemy import create_engine, select, update

from nekobako.server.collector import THRESHOLDS
from nekobako.store.schema import sessions, users

SMALL = (
    "--limit=open_tables=2",
    "--limit=guests_per_hour=6",
    "--limit=signups_per_hour=1",
    "--limit=anonymous_sockets=1",
    "--limit=finished_in_memory=1",
    "--limit=strong_bot_tables=1",
)


def test_quotas_per_user_and_address(sqlite_url, tmp_path) -> None:
    with running(sqlite_url, tmp_path, *SMALL) as server, clients(server, 8) as people:
        alice, bob, *others = people
        alice.signup("alice")
        answer = bob.post("/api/auth/signup", {"name": "bob", "password": "long enough"})
        assert answer.status_code == 429 and answer.json()["code"] == "rate_limited"
        assert "Retry-After" in answer.headers
        first = alice.create("shutbox", 2)
        alice.ok(alice.post(f"/api/tables/{first['id']}/bots", {"level": "ismcts", "seat": 1}))
        second = alice.create("shutbox", 2)
        answer = alice.post(f"/api/tables/{second['id']}/bots", {"level": "ismcts", "seat": 1})
        assert answer.status_code == 429 and answer.json()["code"] == "quota"
        answer = alice.post("/api/tables", {"game": "shutbox", "seats": 2})
        assert answer.status_code == 429 and answer.json()["code"] == "quota"
        # leaving an open table gives the place back
        alice.ok(alice.post(f"/api/tables/{second['id']}/leave"))
        alice.create("shutbox", 2)
        for number, client in enumerate(others):  # six guests an hour from this address
            answer = client.post("/api/auth/guest", {"name": f"visitor {number}"})
            assert answer.status_code == (201 if number < 6 else 429), answer.text
        # one anonymous watcher per table; the next is closed with 4429
        watchers = [bob.socket(first["id"]), bob.socket(first["id"])]
        watchers[0].wait_state()
        assert closed(watchers[1]) == 4429
        for sock in watchers:
            sock.close()


def test_a_table_whose_host_leaves_goes_to_the_first_person_the_limits_let_host_it(database_url, tmp_path) -> None:
    """Two tables at most per host, one with a searching bot. The host of an open table leaves:
    bob, next in seat order, already hosts two tables, so carol inherits it. The host of a table
    with a searching bot leaves: frank, the only one left, already hosts a table with one, so
    nobody may host it and it closes (as when the last person leaves), nobody over a limit."""
    limits = ("--limit=open_tables=2", "--limit=strong_bot_tables=1")
    with running(database_url, tmp_path, *limits) as server, clients(server, 5) as people:
        alice, bob, carol, erin, frank = people
        for client, name in zip(people, ("alice", "bob", "carol", "erin", "frank"), strict=True):
            client.guest(name)
        bob.create("shutbox", 2)
        bob.create("shutbox", 2)
        table_id = alice.create("shutbox", 3)["id"]
        bob.ok(bob.post(f"/api/tables/{table_id}/join"))
        carol.ok(carol.post(f"/api/tables/{table_id}/join"))
        left = alice.ok(alice.post(f"/api/tables/{table_id}/leave"))
        assert left["status"] == "open" and left["host"]["name"] == "carol"
        carol.ok(carol.post(f"/api/tables/{table_id}/bots", {"level": "greedy", "seat": 0}))  # the host's rights
        assert bob.post(f"/api/tables/{table_id}/start").status_code == 403

        own = frank.create("shutbox", 2)["id"]
        frank.ok(frank.post(f"/api/tables/{own}/bots", {"level": "ismcts", "seat": 1}))
        strong = erin.create("shutbox", 3)["id"]
        erin.ok(erin.post(f"/api/tables/{strong}/bots", {"level": "ismcts", "seat": 2}))
        frank.ok(frank.post(f"/api/tables/{strong}/join"))
        closed_table = erin.ok(erin.post(f"/api/tables/{strong}/leave"))
        assert closed_table["status"] == "abandoned" and closed_table["host"] is None
        assert frank.post(f"/api/tables/{strong}/start").status_code in (403, 409)
        hosted = frank.ok(frank.get("/api/tables", status="open,running"))["tables"]
        assert [t["id"] for t in hosted if t["host"] and t["host"]["name"] == "frank"] == [own]


def test_the_lobby_pages_and_filters_and_finished_tables_leave_memory(sqlite_url, tmp_path) -> None:
    with running(sqlite_url, tmp_path, *SMALL) as server, clients(server, 3) as (a, b, c):
        a.guest("a")
        b.guest("b")
        solo = []
        for client in (a, b, c)[:2]:
            table = client.create("shutbox", 1)
            client.ok(client.post(f"/api/tables/{table['id']}/start"))
            sock = client.socket(table["id"])
            sock.wait_state(lambda m: m["view"] is not None)
            play_out([sock], random.Random(1), timeout=60)
            sock.close()
            solo.append(table["id"])
        cat = a.create("catbox", 3)
        shut = b.create("shutbox", 2)
        page = a.ok(a.get("/api/tables", status="open,finished", limit=2))
        assert [t["id"] for t in page["tables"]] == [shut["id"], cat["id"]] and page["next"] == cat["id"]
        rest = a.ok(a.get("/api/tables", status="open,finished", limit=2, before=page["next"]))
        assert [t["id"] for t in rest["tables"]] == solo[::-1] and rest["next"] is None
        assert [t["id"] for t in a.ok(a.get("/api/tables", game="catbox"))["tables"]] == [cat["id"]]
        assert a.get("/api/tables", limit=0).status_code == 400
        # at most one finished table stays in memory; the other is read again when asked for
        health = a.ok(a.get("/api/health"))
        assert health["tables_in_memory"] <= 3 and health["loop_lag_ms"]["samples"] > 0
        commits = health["commits"]
        assert commits["changes"] >= commits["transactions"] > 0 and commits["ms"]["max"] >= commits["ms"]["p50"] > 0
        # a served process freezes what start-up made and collects young objects less often
        collector = health["collector"]
        assert collector["frozen"] > 10_000 and collector["thresholds"][0] == THRESHOLDS[0]
        assert a.table(solo[0])["status"] == "finished"


def test_expired_sessions_and_unused_guests_are_purged(sqlite_url, tmp_path) -> None:
    with running(sqlite_url, tmp_path) as server, clients(server, 3) as (old, player, fresh):
        old.guest("old guest")
        player.guest("old player")
        table = player.create("shutbox", 1)  # a guest who hosted a table keeps their name
        fresh.guest("fresh guest")
        server.stop()
        engine = create_engine(sqlite_url)
        long_ago = datetime.now(UTC) - timedelta(days=90)
        with engine.begin() as conn:
            conn.execute(update(users).where(users.c.name != "fresh guest").values(created_at=long_ago))
            conn.execute(update(sessions).where(sessions.c.user_id != fresh.user["id"]).values(expires_at=long_ago))
        server.start(same_port=True)
        assert old.get("/api/auth/me").status_code == 401
        assert fresh.ok(fresh.get("/api/auth/me"))["name"] == "fresh guest"
        with engine.connect() as conn:
            names = {row.name for row in conn.execute(select(users.c.name))}
            left = conn.execute(select(sessions.c.user_id)).all()
        engine.dispose()
        assert names == {"old player", "fresh guest"}
        assert [row.user_id for row in left] == [fresh.user["id"]]
        assert player.table(table["id"])["host"]["name"] == "old player"
