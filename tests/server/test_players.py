"""Player pages' data over real HTTP: ratings with their history, recent games with every seat's
place, win rates, look-alike names and unknown names."""

from __future__ import annotations

import random

import pytest
from server_harness import ServerProcess, clients, play_out

pytestmark = pytest.mark.xdist_group("server")


def _play_shutbox(alice, bob, rng: random.Random) -> int:
    table = alice.create("shutbox", 2)
    bob.ok(bob.post(f"/api/tables/{table['id']}/join"))
    alice.ok(alice.post(f"/api/tables/{table['id']}/start"))
    socks = [alice.socket(table["id"]), bob.socket(table["id"])]
    try:
        play_out(socks, rng)
    finally:
        for sock in socks:
            sock.close()
    return table["id"]


def test_a_player_page_has_rating_history_recent_games_and_win_rates(server: ServerProcess) -> None:
    rng = random.Random(13)
    with clients(server, 2) as (alice, bob):
        alice.signup("Alice")
        bob.signup("bob")
        played = [_play_shutbox(alice, bob, rng) for _ in range(2)]

        page = alice.ok(alice.get("/api/players/alice"))  # names are found as at login: case folded
        assert page["user"]["name"] == "Alice" and page["user"]["guest"] is False
        [rating] = page["ratings"]
        assert rating["game"] == "shutbox" and rating["games"] == 2 and rating["start"] == 1500.0
        assert [h["table"] for h in rating["history"]] == played
        assert rating["history"][-1]["rating"] == rating["rating"]

        results = alice.ok(alice.get(f"/api/tables/{played[-1]}/results"))
        recent = page["recent"]
        assert [g["table"] for g in recent] == played[::-1]  # newest first
        assert [s["place"] for s in recent[0]["seats"]] == results["places"]
        assert recent[0]["won"] == (0 in results["winners"])
        assert {s["user"]["name"] for s in recent[0]["seats"]} == {"Alice", "bob"}

        [rate] = page["win_rates"]
        wins = sum(g["won"] for g in recent)
        assert rate == {"game": "shutbox", "played": 2, "won": wins, "rate": round(wins / 2, 3)}

        # both pages agree: one seat of each table won (or both shared it)
        other = bob.ok(bob.get("/api/players/BOB"))
        assert other["win_rates"][0]["played"] == 2

        for name in ("nobody", "x" * 300):
            response = alice.get(f"/api/players/{name}")
            assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_a_guest_has_a_page_without_ratings(server: ServerProcess) -> None:
    with clients(server, 1) as (mika,):
        mika.guest("Mika")
        page = mika.ok(mika.get("/api/players/Mika"))
        assert page["user"]["guest"] is True and page["ratings"] == [] and page["recent"] == []
