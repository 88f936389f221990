"""Muting and reporting players (issue 32) over real HTTP and sockets: a muted player's lines
never reach the muter, live or in a history, at any table, until unmuted, across processes; a
report stores the chat lines the reporter saw, once per player and table, a few an hour, and the
operator lists them with `nekobako reports`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from contextlib import ExitStack

import pytest
from server_harness import Client, ServerProcess, clients, running, started_shutbox

pytestmark = pytest.mark.xdist_group("server")

REPORTS = [sys.executable, "-c", "from nekobako.cli import main; main()", "reports"]


def said(seat, text: str) -> list[dict]:
    """Wait for the chat line `text` on `seat`, returning every chat line it got before it."""
    seat.wait_for(lambda m: m["type"] == "chat" and m["message"]["text"] == text)
    return [m["message"] for m in seat.messages if m["type"] == "chat"]


def texts(client: Client, table_id: int) -> list[str]:
    return [m["text"] for m in client.ok(client.get(f"/api/tables/{table_id}/chat"))["messages"]]


def test_a_muted_player_is_not_read_anywhere_until_unmuted(server: ServerProcess) -> None:
    with clients(server, 3) as (alice, bob, anon):
        table_id, (a, b) = started_shutbox(alice, bob)
        bob_id = bob.user["id"]
        bob.ok(bob.post(f"/api/tables/{table_id}/chat", {"text": "before"}), 201)
        said(a, "before")

        assert alice.ok(alice.post("/api/mutes", {"user": bob_id}))["muted"] == [bob.user]
        assert alice.ok(alice.post("/api/mutes", {"user": bob_id}))["muted"] == [bob.user]  # twice is once
        bob.ok(bob.post(f"/api/tables/{table_id}/chat", {"text": "muted line"}), 201)
        alice.ok(alice.post(f"/api/tables/{table_id}/chat", {"text": "mine"}), 201)
        assert [m["text"] for m in said(a, "mine")] == ["before", "mine"]  # live: not delivered
        assert [m["text"] for m in said(b, "mine")] == ["before", "muted line", "mine"]  # bob is not told
        assert texts(alice, table_id) == ["mine"]  # REST history: without bob
        assert texts(anon, table_id) == ["before", "muted line", "mine"]
        fresh = alice.socket(table_id)
        history = fresh.wait_for(lambda m: m["type"] == "chat_history")["messages"]
        assert [m["text"] for m in history] == ["mine"]

        # another table, a later session: the mute is kept in the database
        again = Client(server)
        again.http.cookies.update(alice.http.cookies)
        other = bob.create("shutbox", 2)
        again.ok(again.post(f"/api/tables/{other['id']}/join"))
        bob.ok(bob.post(f"/api/tables/{other['id']}/chat", {"text": "elsewhere"}), 201)
        assert texts(again, other["id"]) == []
        assert again.ok(again.get("/api/mutes"))["muted"] == [bob.user]

        # undone: bob is read again, live and in the histories
        assert alice.ok(alice.delete(f"/api/mutes/{bob_id}"))["muted"] == []
        bob.ok(bob.post(f"/api/tables/{table_id}/chat", {"text": "after"}), 201)
        assert [m["text"] for m in said(fresh, "after")] == ["after"]
        assert texts(alice, table_id) == ["before", "muted line", "mine", "after"]
        assert texts(again, other["id"]) == ["elsewhere"]

        # refused, changing nothing
        for body, status in (({"user": alice.user["id"]}, 400), ({"user": 999999}, 404), ({"user": "bob"}, 400)):
            assert alice.post("/api/mutes", body).status_code == status
        assert anon.post("/api/mutes", {"user": bob_id}).status_code == 401
        assert anon.get("/api/mutes").status_code == 401
        assert alice.ok(alice.get("/api/mutes"))["muted"] == []
        for sock in (a, b, fresh):
            sock.close()
        again.close()


def test_a_mute_reaches_the_muters_sockets_on_another_process(postgres_url, tmp_path) -> None:
    with ExitStack() as stack:
        first = stack.enter_context(running(postgres_url, tmp_path))
        second = stack.enter_context(running(postgres_url, tmp_path))
        alice, bob = stack.enter_context(clients(first, 2))
        table_id, (_, b) = started_shutbox(alice, bob)
        elsewhere = Client(second)  # alice again, her socket on the other process
        elsewhere.http.cookies.update(alice.http.cookies)
        a2 = elsewhere.socket(table_id)
        a2.wait_for(lambda m: m["type"] == "chat_history")
        alice.ok(alice.post("/api/mutes", {"user": bob.user["id"]}))  # through the first process
        bob.ok(bob.post(f"/api/tables/{table_id}/chat", {"text": "muted"}), 201)
        alice.ok(alice.post(f"/api/tables/{table_id}/chat", {"text": "mine"}), 201)
        assert [m["text"] for m in said(a2, "mine")] == ["mine"]
        said(b, "mine")
        elsewhere.close()


def test_a_report_keeps_what_the_reporter_read_for_the_operator(server: ServerProcess) -> None:
    with clients(server, 4) as (alice, bob, carol, anon):
        table_id, (a, b) = started_shutbox(alice, bob)
        carol.guest("carol")
        bob.ok(bob.post(f"/api/tables/{table_id}/chat", {"text": "you are terrible"}), 201)
        carol.ok(carol.post(f"/api/tables/{table_id}/chat", {"text": "gallery talk"}), 201)
        path = f"/api/tables/{table_id}/reports"
        report = alice.ok(alice.post(path, {"user": bob.user["id"], "reason": "  rude\nagain "}), 201)["report"]
        assert report["table"] == table_id and report["lines"] == 1  # players do not read the gallery
        assert alice.post(path, {"user": bob.user["id"]}).json()["code"] == "conflict"  # once per table
        for body, status in (
            ({"user": carol.user["id"]}, 400),
            ({"user": 999999}, 409),
            ({"user": bob.user["id"], "reason": 5}, 400),
            ({"user": bob.user["id"], "reason": "x" * 501}, 400),
        ):
            assert carol.post(path, body).status_code == status, body
        assert anon.post(path, {"user": bob.user["id"]}).status_code == 401
        assert carol.post(f"/api/tables/{table_id + 999}/reports", {"user": bob.user["id"]}).status_code == 404
        assert carol.ok(carol.post(path, {"user": bob.user["id"], "reason": None}), 201)["report"]["lines"] == 2

        # five reports an hour per reporter, counted in the database
        targets = [bob.create("shutbox", 2)["id"] for _ in range(2)]
        for target in targets:
            for who in (bob, carol):
                alice.ok(alice.post(f"/api/tables/{target}/reports", {"user": who.user["id"]}), 201)
        refused = alice.post(path, {"user": carol.user["id"]})
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) > 3000
        assert "5 reports an hour" in refused.json()["error"]

        listed = subprocess.run(
            [*REPORTS, "--database-url", server.database_url, "--json", "--last", "100"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert listed.returncode == 0, listed.stderr
        found = json.loads(listed.stdout)["reports"]
        assert len(found) == 6 and found[-1]["id"] < found[0]["id"]  # newest first
        first = found[-1]
        assert first["reporter"]["name"] == "alice" and first["reported"]["name"] == "bob"
        assert first["reason"] == "rude again" and first["table"] == table_id
        assert [(m["user"]["name"], m["text"]) for m in first["context"]] == [("bob", "you are terrible")]
        words = subprocess.run(
            [*REPORTS, "--database-url", server.database_url, "--last", "1", "--lang", "ja"],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "COLUMNS": "200"},
        )
        assert words.returncode == 0 and "最新の通報1件" in words.stdout and "通報者" in words.stdout
        for sock in (a, b):
            sock.close()
