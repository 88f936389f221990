"""Acceptance audit of the server: hostile requests and frames, the login limit under a burst,
the OpenAPI document's parameters, notices in Japanese. Each test failed before the fix it
accompanies (except the guard that successful logins stay unlimited)."""

from __future__ import annotations

import asyncio
import json
import random

import httpx
from server_harness import clients, closed, play_out


def test_deeply_nested_json_is_refused_not_a_crash(sqlite_server) -> None:
    nested = "[" * 30000 + "]" * 30000  # under 64 KiB, deeper than Python's recursion limit
    with clients(sqlite_server, 1) as (client,):
        client.guest("nester")
        answer = client.http.post("/api/tables", content=nested, headers={"Content-Type": "application/json"})
        assert answer.status_code == 400, answer.text
        assert answer.json()["code"] == "bad_request"
        table = client.create("shutbox", 1)
        seat = client.socket(table["id"])
        try:
            seat.wait_state()
            seat.send("[" * 2000 + "]" * 2000)  # under the 4096-character limit
            refused = seat.wait_for(lambda m: m["type"] == "refused")
            assert refused["code"] == "malformed"
            seat.send({"type": "ping"})  # the connection is still there
            assert seat.wait_for(lambda m: m["type"] != "state")["type"] == "pong"
        finally:
            seat.close()


def test_table_ids_beyond_the_database_are_not_found(server) -> None:
    huge = 2**31  # one past PostgreSQL's integer column; SQLite overflows at 2**63
    with clients(server, 1) as (client,):
        client.guest("counter")
        for number in (huge, 10**20, "9" * 5000):
            for answer in (client.get(f"/api/tables/{number}"), client.post(f"/api/tables/{number}/join", {})):
                assert answer.status_code == 404, answer.text
                assert answer.json()["code"] == "not_found"
        for number in (huge, 10**20, "9" * 5000):
            seat = client.socket(number)
            try:
                assert closed(seat) == 4404
            finally:
                seat.close()


def test_a_burst_of_parallel_login_guesses_is_limited(sqlite_server) -> None:
    with clients(sqlite_server, 1) as (client,):
        client.signup("burst", "the right password")

    async def guess(i: int) -> int:
        async with httpx.AsyncClient(base_url=sqlite_server.base, timeout=60) as http:
            answer = await http.post("/api/auth/login", json={"name": "burst", "password": f"guess number {i}"})
            return answer.status_code

    async def burst() -> list[int]:
        return await asyncio.gather(*(guess(i) for i in range(20)))

    codes = asyncio.run(burst())
    assert codes.count(401) <= 5, codes  # at most 5 guesses were checked
    assert codes.count(429) >= 15, codes


def test_a_successful_login_does_not_count_against_the_limit(sqlite_server) -> None:
    with clients(sqlite_server, 1) as (client,):
        client.signup("regular", "the right password")
        for _ in range(8):
            answer = client.post("/api/auth/login", {"name": "regular", "password": "the right password"})
            assert answer.status_code == 200, answer.text


def test_openapi_describes_the_query_parameters(sqlite_server) -> None:
    with clients(sqlite_server, 1) as (client,):
        paths = client.ok(client.get("/api/openapi.json"))["paths"]

    def query(path: str) -> set[str]:
        return {p["name"] for p in paths[path]["get"].get("parameters", []) if p["in"] == "query"}

    assert query("/api/tables") == {"status", "game", "seats_free", "limit", "before"}
    assert query("/api/tables/{table_id}/replay") == {"step"}
    assert query("/api/ratings") == {"game"}
    assert json.dumps(paths)  # still plain JSON


def test_replay_step_refuses_digits_int_cannot_read(sqlite_server) -> None:
    with clients(sqlite_server, 1) as (client,):
        client.guest("stepper")
        table = client.create("shutbox", 1)
        client.ok(client.post(f"/api/tables/{table['id']}/start"))
        seat = client.socket(table["id"])
        try:
            play_out([seat], random.Random(3), timeout=60)
        finally:
            seat.close()
        for step in ("²", "-1", "1.5"):
            answer = client.get(f"/api/tables/{table['id']}/replay", step=step)
            assert answer.status_code == 400, (step[:5], answer.text[:200])
        answer = client.get(f"/api/tables/{table['id']}/replay", step="9" * 5000)  # a step past the end
        assert answer.status_code == 409 and len(answer.text) < 300
        assert client.ok(client.get(f"/api/tables/{table['id']}/replay", step="0"))["step"] == 0


def test_replacement_notice_names_the_bot_in_japanese(sqlite_server) -> None:
    with clients(sqlite_server, 2) as (host, guest):
        host.guest("host")
        guest.guest("leaver")
        table = host.create("shutbox", 2)
        guest.ok(guest.post(f"/api/tables/{table['id']}/join"))
        host.ok(host.post(f"/api/tables/{table['id']}/start"))
        guest.http.headers["Accept-Language"] = "ja,en;q=0.5"
        detail = guest.ok(guest.post(f"/api/tables/{table['id']}/leave"))
        notice = next(n for n in detail["notices"] if n["kind"] == "replaced")
        assert notice["data"]["bot"] == "greedy"
        assert notice["key"] == "notice.replaced.left"
        assert notice["params"] == {"seat": 1, "name": "leaver", "bot": {"key": "bot.greedy", "params": {}}}
        assert notice["text"] == "席1（leaver）が退席したため、貪欲ボットが代わりに打ちます。"
        english = host.ok(host.get(f"/api/tables/{table['id']}"))["notices"]  # no Accept-Language: English
        assert [n["text"] for n in english] == [
            "The game has started.",
            "Seat 1 (leaver) left; the greedy bot plays for them.",
        ]
