"""A full game of each game between people (WebSocket clients) and bots, watched by spectators;
everything each connection received is checked against the engine afterwards."""

from __future__ import annotations

import json
import random

import pytest
from server_harness import clients, play_out
from views_check import chance_deals, check_views, hidden_entries, plain

from nekobako.engine import replay

GAMES = [
    # game, seats, options, bot level for the remaining seats (two people always play)
    ("shutbox", 3, {"scoring": "count"}, "optimal"),
    ("shutbox", 2, {"simultaneous": True}, None),
    ("catbox", 3, {}, "greedy"),
    ("catbox", 2, {}, None),
    ("catopomp", 3, {}, "greedy"),
]


@pytest.mark.parametrize(("game", "seats", "options", "level"), GAMES, ids=lambda v: str(v))
def test_full_game_between_people_and_bots(server, game: str, seats: int, options: dict, level: str | None) -> None:
    with clients(server, 4) as (alice, bob, watcher, anonymous):
        alice.signup("alice")
        bob.signup("bob")
        watcher.guest("Neko")
        table = alice.create(game, seats, options)
        table_id = table["id"]
        table = bob.ok(bob.post(f"/api/tables/{table_id}/join"))
        assert table["you"] == 1 and table["seats"][1]["user"]["name"] == "bob"
        if seats > 2:
            alice.ok(alice.post(f"/api/tables/{table_id}/bots", {"level": level, "fill": True}))
        sockets = [alice.socket(table_id), bob.socket(table_id), watcher.socket(table_id), anonymous.socket(table_id)]
        first = sockets[0].wait_state()
        assert first["view"] is None and first["table"]["status"] == "open" and first["seat"] == 0
        alice.ok(alice.post(f"/api/tables/{table_id}/start"))
        for sock in sockets:
            sock.wait_state(lambda m: m["view"] is not None)
        play_out(sockets[:2], random.Random(f"{game}{seats}"), timeout=90)
        for sock in sockets:
            sock.wait_state(lambda m: m["view"]["over"])
            # simultaneous Shut the Box ends at once on a shut box (rules: "in simultaneous mode
            # too"), so the other player's action in flight may arrive after the end: that one
            # refusal, and only it, is right
            raced = [r for r in sock.refusals if options.get("simultaneous") and r["code"] == "not_running"]
            assert len(raced) <= 1 and [r for r in sock.refusals if r not in raced] == [], sock.refusals

        results = alice.ok(alice.get(f"/api/tables/{table_id}/results"))
        record = anonymous.ok(anonymous.get(f"/api/tables/{table_id}/record"))
        final = replay(record)
        assert final.is_over()
        assert results["scores"] == plain(final.scores()) == sockets[3].view["scores"]
        assert results["round_scores"] == plain(final.round_scores()) and results["round_scores"]
        assert results["winners"] == final.winners()
        assert record["final"] == plain(final.full_view())
        assert record["names"][:2] == ["alice", "bob"]
        # replay steps: the full view after N entries, as the engine rebuilds it
        steps = len(record["actions"])
        for step in (0, steps // 2, steps):
            answer = watcher.ok(watcher.get(f"/api/tables/{table_id}/replay", step=step))
            prefix = replay({**record, "actions": record["actions"][:step]})
            assert answer["steps"] == steps and answer["view"] == plain(prefix.full_view())
        assert watcher.get(f"/api/tables/{table_id}/replay", step=steps + 1).status_code == 409
        assert any(n["kind"] == "finished" for n in sockets[2].last["table"]["notices"])

        # exactly the engine's view, for players and spectators, at every step
        assert check_views(record, sockets) >= 4 * 3
        assert [s.states[-1]["seat"] for s in sockets] == [0, 1, None, None]
        for sock in sockets[2:]:
            assert all("hand" not in m["view"] for m in sock.states if m["view"])
        # hidden actions reach other seats only in the engine's redacted form
        masked = hidden_entries(record)
        if game != "shutbox":
            assert masked, "a card game has hidden entries"
        # no deal reached anyone as written (a seat sees its own hand only)
        deals = chance_deals(record)
        assert bool(deals) == (game != "shutbox")
        for sock in sockets:
            text = json.dumps(sock.messages, ensure_ascii=False)
            for deal in deals:
                assert deal not in text
        # events arrive once each, in order, and add up to the view's log
        for sock in sockets:
            events = [e for m in sock.states for e in m["events"]]
            assert events == sock.last["view"]["events"]

        # ratings: both registered players rated, zero-sum between them, by placement
        ratings = {r["user"]["name"]: r for r in alice.ok(alice.get("/api/ratings", game=game))["ratings"]}
        assert set(ratings) == {"alice", "bob"} and all(r["games"] == 1 for r in ratings.values())
        assert ratings["alice"]["rating"] + ratings["bob"]["rating"] == pytest.approx(3000, abs=0.2)
        places = results["places"]
        if places[0] < places[1]:
            assert ratings["alice"]["rating"] > ratings["bob"]["rating"]
        elif places[0] > places[1]:
            assert ratings["alice"]["rating"] < ratings["bob"]["rating"]
        else:
            assert ratings["alice"]["rating"] == ratings["bob"]["rating"]
        for sock in sockets:
            sock.close()


def test_record_replays_with_the_cli(sqlite_server, tmp_path) -> None:
    """The record endpoint's JSON is what `nekobako replay` reads."""
    import subprocess
    import sys

    with clients(sqlite_server, 1) as (alice,):
        alice.guest("solo")
        table = alice.create("shutbox", 1)
        alice.ok(alice.post(f"/api/tables/{table['id']}/start"))
        sock = alice.socket(table["id"])
        sock.wait_state(lambda m: m["view"] is not None)
        play_out([sock], random.Random(3))
        path = tmp_path / "record.json"
        path.write_text(alice.get(f"/api/tables/{table['id']}/record").text, encoding="utf-8")
        out = subprocess.run(
            [sys.executable, "-c", "from nekobako.cli import main; main()", "replay", "--json", str(path)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert out.returncode == 0, out.stderr
        summary = json.loads(out.stdout)
        assert summary["over"] and summary["scores"] == sock.view["scores"]
        sock.close()
