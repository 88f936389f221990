"""The `learned` level at a table (issue 30: selectable in the lobby): every game offers it in its
bot menu, and a table filled with it plays to the end."""

from __future__ import annotations

import random

import pytest
from server_harness import clients, play_out

from nekobako.bots import bot_names


def test_the_lobby_offers_the_learned_level_in_every_game(sqlite_server) -> None:
    with clients(sqlite_server, 1) as (alice,):
        games = {g["name"]: g for g in alice.ok(alice.get("/api/games"))["games"]}
        for name, entry in games.items():
            assert entry["bots"] == bot_names(name) and "learned" in entry["bots"], name


@pytest.mark.parametrize(("game", "seats"), [("catbox", 2), ("catopomp", 2)])
def test_a_table_of_learned_bots_plays_to_the_end(sqlite_server, game: str, seats: int) -> None:
    with clients(sqlite_server, 1) as (alice,):
        alice.guest("alice")
        body = {"game": game, "seats": seats, "bots": "learned", "start": True}
        table = alice.ok(alice.post("/api/tables", body), 201)
        assert [(s["kind"], s["bot"]) for s in table["seats"]] == [("human", None), ("bot", "learned")]
        seat = alice.socket(table["id"])
        try:
            seat.wait_state(lambda m: m["view"] is not None)
            play_out([seat], random.Random(5), timeout=120)
            seat.wait_state(lambda m: m["view"]["over"])
        finally:
            seat.close()
        record = alice.ok(alice.get(f"/api/tables/{table['id']}/record", lang="en"))
        assert record["final"]["over"] and record["names"][1] == "learned (trained by self-play) bot", record["names"]
