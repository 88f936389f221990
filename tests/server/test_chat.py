"""Table chat over real sockets: the players' channel and the spectators' own, who reads which,
limits (length, rate, empty, anonymous), stored with the game and readable after it."""

from __future__ import annotations

import random

import pytest
from server_harness import ServerProcess, clients, play_out, started_shutbox

pytestmark = pytest.mark.xdist_group("server")


def chats(seat) -> list[str]:
    seat.drain(0.05)
    return [m["message"]["text"] for m in seat.messages if m["type"] == "chat"]


def test_players_and_spectators_each_have_a_channel(server: ServerProcess) -> None:
    with clients(server, 4) as (alice, bob, carol, anon):
        table_id, (a, b) = started_shutbox(alice, bob)
        carol.guest("carol")
        c = carol.socket(table_id)
        watcher = anon.socket(table_id)
        for sock in (a, b, c, watcher):
            sock.wait_for(lambda m: m["type"] == "chat_history")

        a.send({"type": "chat", "text": "  good luck\n<b>bob</b>  "})
        message = b.wait_for(lambda m: m["type"] == "chat")["message"]
        assert message["text"] == "good luck <b>bob</b>"  # control characters are spaces; HTML is text
        assert message["channel"] == "players" and message["seat"] == 0 and message["user"]["name"] == "alice"
        c.wait_for(lambda m: m["type"] == "chat")  # spectators read the players
        watcher.wait_for(lambda m: m["type"] == "chat")

        c.send({"type": "chat", "text": "bob will win"})
        spectator = watcher.wait_for(lambda m: m["type"] == "chat" and m["message"]["channel"] == "spectators")
        assert spectator["message"]["text"] == "bob will win" and spectator["message"]["seat"] is None
        assert "bob will win" not in chats(a) + chats(b)  # players do not read the gallery

        watcher.send({"type": "chat", "text": "hello"})
        assert watcher.wait_for(lambda m: m["type"] == "refused")["code"] == "chat_anonymous"

        # REST: the same rules and limits
        assert [m["text"] for m in bob.ok(bob.get(f"/api/tables/{table_id}/chat"))["messages"]] == [
            "good luck <b>bob</b>"
        ]
        texts = [m["text"] for m in anon.ok(anon.get(f"/api/tables/{table_id}/chat"))["messages"]]
        assert texts == ["good luck <b>bob</b>", "bob will win"]
        for text, code in (("   ", "chat_invalid"), ("x" * 501, "chat_invalid"), (None, "chat_invalid")):
            response = bob.post(f"/api/tables/{table_id}/chat", {"text": text})
            assert response.status_code == 400 and response.json()["code"] == code
        assert bob.post(f"/api/tables/{table_id}/chat", {"text": "x" * 500}).status_code == 201

        # after the game, everyone reads both channels, and the messages stay with the table
        play_out([a, b], random.Random(3))
        texts = [m["text"] for m in alice.ok(alice.get(f"/api/tables/{table_id}/chat"))["messages"]]
        assert texts == ["good luck <b>bob</b>", "bob will win", "x" * 500]


def test_the_rate_limit_refuses_and_stores_nothing(server: ServerProcess) -> None:
    with clients(server, 2) as (alice, bob):
        table_id, (a, _) = started_shutbox(alice, bob)
        for i in range(5):
            assert alice.post(f"/api/tables/{table_id}/chat", {"text": f"m{i}"}).status_code == 201
        a.send({"type": "chat", "text": "one too many"})
        refusal = a.wait_for(lambda m: m["type"] == "refused")
        assert refusal["code"] == "chat_rate" and "wait" in refusal["reason"]
        response = alice.post(f"/api/tables/{table_id}/chat", {"text": "again"})
        assert response.status_code == 429
        assert len(bob.ok(bob.get(f"/api/tables/{table_id}/chat"))["messages"]) == 5
