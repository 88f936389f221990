"""Reviews over real HTTP: computed in the search processes, stored with the game and served
from storage after a restart; readable as the replay is (a finished game, by anyone); limited
per person and per server."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from server_harness import Client, clients, play_out, running, started_shutbox
from sqlalchemy import insert, update

from nekobako.store import open_database, reviews
from nekobako.store.database import now
from nekobako.store.schema import reviews as reviews_table
from nekobako.store.schema import tables, users

pytestmark = pytest.mark.xdist_group("server")


def wait_done(client: Client, path: str, timeout: float = 60.0) -> dict:
    deadline = time.monotonic() + timeout
    seen = []
    while time.monotonic() < deadline:
        body = client.ok(client.get(path))
        seen.append((body["done"], body["total"]))
        if body["status"] == "done":
            return body
        assert body["status"] == "running", body
        time.sleep(0.1)
    raise AssertionError(f"the review did not finish: {seen[-5:]}")


def test_a_review_is_computed_once_stored_and_read_as_the_replay_is(sqlite_url: str, tmp_path: Path) -> None:
    with running(sqlite_url, tmp_path) as server, clients(server, 3) as (alice, bob, carol):
        table_id, socks = started_shutbox(alice, bob)
        path = f"/api/tables/{table_id}/reviews/0"
        assert alice.post(path).status_code == 409  # not over: no coaching during the game
        assert alice.get(path).status_code == 409
        play_out(socks, random.Random(4))
        for sock in socks:
            sock.close()
        assert carol.post(path).status_code == 401  # computing asks for an account
        assert carol.ok(carol.get(path))["status"] == "none"
        assert alice.post(f"/api/tables/{table_id}/reviews/2").status_code == 404

        started = alice.post(path)
        assert started.status_code in (200, 202), started.text
        done = wait_done(alice, path)
        review = done["review"]
        assert review["method"] == "solver" and review["seat"] == 0 and done["done"] == done["total"]
        assert len(review["decisions"]) == done["total"]
        assert alice.post(path).status_code == 200  # stored: served, not computed again
        # the replay shows every hand of a finished game to anyone: so does the review
        assert bob.ok(bob.get(path)) == done
        assert carol.ok(carol.get(path)) == done

        server.stop()
        server.start(same_port=True)
        assert Client(server).ok(Client(server).get(path)) == done  # from storage after a restart


def test_reviews_are_limited_per_person(sqlite_url: str, tmp_path: Path) -> None:
    with running(sqlite_url, tmp_path, "--limit", "reviews=0") as server, clients(server, 2) as (alice, bob):
        table_id, socks = started_shutbox(alice, bob)
        play_out(socks, random.Random(5))
        refused = alice.post(f"/api/tables/{table_id}/reviews/1")
        assert refused.status_code == 429 and refused.json()["key"] == "error.review_quota_mine"
        assert alice.ok(alice.get(f"/api/tables/{table_id}/reviews/1"))["status"] == "none"  # nothing stored


def test_the_store_counts_running_reviews_per_person_and_per_server(sqlite_url: str) -> None:
    """The limits as every server process counts them, in the database (a stale review counts for nobody)."""
    engine = open_database(sqlite_url)
    with engine.begin() as conn:
        conn.execute(insert(users).values(id=1, name="a", guest=True, created_at=now()))
        conn.execute(insert(users).values(id=2, name="b", guest=True, created_at=now()))
        for table_id in (1, 2, 3):
            conn.execute(insert(tables).values(id=table_id, **TABLE))
    limits = {"per_user": 2, "per_server": 2}
    assert reviews.begin(engine, 1, 0, 1, **limits) is None
    assert reviews.begin(engine, 1, 0, 2, **limits)["status"] == "running"  # the same review: joined
    assert reviews.begin(engine, 2, 0, 1, **limits) is None
    with pytest.raises(reviews.ReviewsTooMany) as mine:
        reviews.begin(engine, 3, 0, 1, **limits)
    assert mine.value.mine == 2
    with pytest.raises(reviews.ReviewsTooMany) as server:
        reviews.begin(engine, 3, 0, 2, **limits)
    assert server.value.mine is None
    reviews.finish(engine, 1, 0, {"decisions": []})
    assert reviews.read(engine, 1, 0) == {"status": "done", "done": 0, "total": 0, "review": {"decisions": []}}
    assert reviews.begin(engine, 3, 0, 2, **limits) is None  # the first is done: room again
    with engine.begin() as conn:  # a process died while computing: stale, counts for nobody
        conn.execute(update(reviews_table).where(reviews_table.c.table_id == 2).values(updated_at=0.0))
    assert reviews.read(engine, 2, 0)["status"] == "stale"
    assert reviews.begin(engine, 2, 0, 2, **limits) is None  # taken over
    engine.dispose()


TABLE = {
    "game": "shutbox",
    "players": 2,
    "options": {},
    "clock": {},
    "status": "finished",
    "seed": 1,
    "deadlines": {},
    "created_at": now(),
}


def test_hints_at_a_table_with_the_option(sqlite_url: str, tmp_path: Path) -> None:
    with running(sqlite_url, tmp_path) as server, clients(server, 3) as (alice, bob, carol):
        alice.guest("alice")
        bob.guest("bob")
        carol.guest("carol")
        table = alice.create("shutbox", 2, {"hints": True})
        assert table["options"]["hints"] is True
        bob.ok(bob.post(f"/api/tables/{table['id']}/join"))
        alice.ok(alice.post(f"/api/tables/{table['id']}/start"))
        socks = [alice.socket(table["id"]), bob.socket(table["id"])]
        first = table["id"]
        view = socks[0].wait_state(lambda m: m["view"] is not None)["view"]
        mover = view["to_move"][0]  # the start player is drawn
        asker, other = (alice, bob) if mover == 0 else (bob, alice)
        legal = socks[mover].wait_state(lambda m: m["view"] is not None and m["view"]["legal"])["view"]["legal"]
        hint = asker.ok(asker.post(f"/api/tables/{first}/hint"))
        assert hint["action"] in legal and hint["objective"] == "score"
        assert other.post(f"/api/tables/{first}/hint").json()["key"] == "error.hint_not_your_turn"
        assert carol.post(f"/api/tables/{first}/hint").status_code == 403
        for sock in socks:
            sock.close()
        plain = carol.create("shutbox", 1)
        carol.ok(carol.post(f"/api/tables/{plain['id']}/start"))
        refused = carol.post(f"/api/tables/{plain['id']}/hint")
        assert refused.status_code == 409 and refused.json()["key"] == "error.hints_off"


def test_a_table_with_hints_is_never_rated(sqlite_url: str, tmp_path: Path) -> None:
    """Two registered players: the same game would be rated (test_safety_invariants); with hints, not."""
    with running(sqlite_url, tmp_path) as server, clients(server, 2) as (alice, bob):
        alice.signup("alice")
        bob.signup("bob")
        table = alice.create("shutbox", 2, {"hints": True})
        bob.ok(bob.post(f"/api/tables/{table['id']}/join"))
        alice.ok(alice.post(f"/api/tables/{table['id']}/start"))
        socks = [c.socket(table["id"]) for c in (alice, bob)]
        for sock in socks:
            sock.wait_state(lambda m: m["view"] is not None)
        play_out(socks, random.Random(6))
        assert alice.ok(alice.get(f"/api/tables/{table['id']}/results"))["ratings"] == []
        assert alice.ok(alice.get("/api/ratings"))["ratings"] == []
        for sock in socks:
            sock.close()
