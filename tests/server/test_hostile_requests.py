"""Requests made to hurt the server (issue 18): option text that would cost memory, invalid
Unicode, huge path ids, cross-site posts without a body, and the headers every page carries.
Each answer is a clear 4xx (or `refused`), nothing changes, and the server keeps serving."""

from __future__ import annotations

import json
import tracemalloc

import httpx
import pytest
from server_harness import Client, clients, closed, running

from nekobako.engine import InvalidOptions, get_game


@pytest.mark.parametrize("deck", ["1-10000000x4", "1-1000000000x4", "1-12x" + "9" * 150, "9" * 5000 + "x4"])
def test_deck_option_costs_no_more_than_its_text(deck: str) -> None:
    """Bounds are checked before a range is expanded: a few KiB at most, whatever the numbers say
    (expanding `1-10000000x4` first took 1.1 GB)."""
    game = get_game("catopomp")
    game.options({"deck": "1-12x4"}, 2)  # imports and caches before measuring
    tracemalloc.start()
    try:
        with pytest.raises(InvalidOptions) as refused:
            game.options({"deck": deck}, 2)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 256 * 1024, peak
    assert len(str(refused.value)) < 300


def test_hostile_option_text_is_a_clear_400(server) -> None:
    with clients(server, 2) as (alice, bob):
        alice.guest("alice")
        for options, words in [
            ({"deck": "1-10000000x4"}, "1 to 20, not 10000000"),
            ({"deck": "1-1000000000x4"}, "1 to 20"),
            ({"deck": "9" * 5000 + "x4"}, "at most 200 characters"),
            ({"deck": [[10**4000, 1], [2, 3]]}, "1 to 20"),
            ({"hand_size": "9" * 5000}, "cannot be"),
            ({"x" * 5000: 1}, "There is no option"),
        ]:
            answer = alice.post("/api/tables", {"game": "catopomp", "seats": 2, "options": options})
            assert answer.status_code == 400, answer.text[:300]
            assert answer.json()["code"] == "invalid_options" and words in answer.json()["error"]
            assert len(answer.content) < 1000
        # a 5,000-digit JSON number is refused as JSON before anything reads it
        raw = '{"game": "catopomp", "seats": 2, "options": {"deck": [[' + "9" * 5000 + ", 1]]}}"
        answer = alice.http.post("/api/tables", content=raw, headers={"Content-Type": "application/json"})
        assert answer.status_code == 400 and answer.json()["code"] == "bad_request"
        assert alice.ok(alice.get("/api/tables"))["tables"] == []
        bob.guest("bob")  # still serving


def _raw(client: Client, path: str, text: str) -> httpx.Response:
    return client.http.post(path, content=text.encode(), headers={"Content-Type": "application/json"})


def test_lone_surrogates_and_huge_ids_are_4xx(server) -> None:
    with clients(server, 2) as (alice, bob):
        alice.signup("alice")
        # "\ud800" is valid JSON naming no character; it cannot be hashed, stored or echoed
        for path, body in [
            ("/api/auth/signup", '{"name": "eve", "password": "\\ud800\\ud800\\ud800\\ud800"}'),
            ("/api/auth/login", '{"name": "alice", "password": "\\udfff and more"}'),
            ("/api/auth/guest", '{"name": "\\ud800"}'),
            ("/api/tables", '{"game": "shutbox", "seats": 2, "options": {"tiles": "\\ud800"}}'),
            ("/api/tables", '{"game": "shutbox", "seats": 2, "options": {"\\ud800": 1}}'),
            ("/api/tables", '{"game": "\\ud800", "seats": 2}'),
        ]:
            answer = _raw(alice, path, body)
            assert answer.status_code == 400, (path, answer.status_code, answer.text)
            assert answer.json()["code"] == "bad_request"
        for path in ("/api/tables/" + "9" * 5000, "/api/tables/12345678901/results"):
            assert alice.get(path).status_code == 404
        assert alice.get("/replay/" + "9" * 5000).status_code == 200  # the client's page; it asks the API
        assert alice.delete("/api/tables/1/seats/" + "9" * 5000).status_code == 404

        table = alice.create("shutbox", 2)
        bob.guest("bob")
        bob.ok(bob.post(f"/api/tables/{table['id']}/join"))
        alice.ok(alice.post(f"/api/tables/{table['id']}/start"))
        sock = alice.socket(table["id"])
        state = sock.wait_state(lambda m: m["view"] is not None)
        sock.send('{"type": "action", "seq": ' + str(state["seq"]) + ', "action": "\\ud800"}')
        assert sock.wait_for(lambda m: m["type"] == "refused")["code"] == "malformed"
        sock.send('{"type": "\\udc00"}')
        assert sock.wait_for(lambda m: m["type"] == "refused")["code"] == "malformed"
        # the connection's writer is alive: it still answers
        sock.send({"type": "ping"})
        sock.wait_for(lambda m: m["type"] == "pong")
        sock.close()
    assert "Traceback" not in server.log_path.read_text()


def test_cross_site_state_changes_are_refused(sqlite_server) -> None:
    """A page of another origin (another port counts) cannot make a player leave, join, start
    or log out, with or without a body; the same requests from the site itself pass."""
    with clients(sqlite_server, 2) as (alice, bob):
        alice.guest("alice")
        bob.guest("bob")
        table = alice.create("shutbox", 2)
        base = sqlite_server.base
        foreign = [
            {"Origin": "http://127.0.0.1:1"},
            {"Origin": "http://evil.example"},
            {"Sec-Fetch-Site": "same-site"},
            {"Sec-Fetch-Site": "cross-site", "Origin": base},
            {"Origin": "null"},
        ]
        for headers in foreign:
            for path in (f"/api/tables/{table['id']}/join", f"/api/tables/{table['id']}/leave", "/api/auth/logout"):
                answer = bob.http.post(path, headers={"Content-Type": "text/plain", **headers})
                assert answer.status_code == 403, (path, headers, answer.text)
                assert answer.json()["code"] == "forbidden"
            answer = alice.http.post(f"/api/tables/{table['id']}/start", headers=headers)
            assert answer.status_code == 403
        detail = alice.table(table["id"])
        assert detail["status"] == "open" and detail["seats"][1]["kind"] == "empty"
        assert bob.ok(bob.get("/api/auth/me"))["name"] == "bob"  # still logged in
        same = {"Origin": base, "Sec-Fetch-Site": "same-origin"}
        bob.ok(bob.http.post(f"/api/tables/{table['id']}/join", headers=same))
        # reading stays open to everyone (links, the lobby in another tab)
        assert bob.http.get("/api/tables", headers={"Sec-Fetch-Site": "cross-site"}).status_code == 200


def test_every_response_carries_security_headers(sqlite_server) -> None:
    with clients(sqlite_server, 1) as (client,):
        for path in ("/", "/api/games", "/api/tables/999", "/static/style.css", "/nowhere"):
            headers = client.get(path).headers
            assert "frame-ancestors 'none'" in headers["content-security-policy"], path
            assert headers["x-frame-options"] == "DENY"
            assert headers["x-content-type-options"] == "nosniff"
            assert headers["referrer-policy"] == "same-origin"
        cookie = client.post("/api/auth/guest", {"name": "plain"}).headers["set-cookie"].lower()
        assert "httponly" in cookie and "secure" not in cookie


def test_cookies_are_secure_behind_https_and_forwarded_headers_need_trust(sqlite_url, tmp_path) -> None:
    with running(sqlite_url, tmp_path, "--public-url", "https://games.example") as server, clients(server, 1) as (c,):
        cookie = c.post("/api/auth/guest", {"name": "tls"}).headers["set-cookie"].lower()
        assert "secure" in cookie and "samesite=lax" in cookie
        # the configured public origin counts as this site
        assert c.http.post("/api/auth/logout", headers={"Origin": "https://games.example"}).status_code == 200

    def guesses(server, address: str, name: str, count: int) -> list[int]:
        with httpx.Client(base_url=server.base) as http:
            return [
                http.post(
                    "/api/auth/login",
                    json={"name": name, "password": "wrong guess"},
                    headers={"X-Forwarded-For": address},
                ).status_code
                for _ in range(count)
            ]

    # not trusted: X-Forwarded-For cannot hop addresses to dodge the per-address limit
    with running(sqlite_url, tmp_path) as server:
        assert guesses(server, "10.0.0.1", "nobody", 5) == [401] * 5
        assert guesses(server, "10.0.0.9", "nobody", 1) == [429]
    # trusted proxy: a guesser at one address cannot lock the owner out from another
    with running(sqlite_url, tmp_path, "--forwarded-allow-ips", "127.0.0.1") as server, clients(server, 1) as (owner,):
        owner.signup("owner", "the real password")
        assert guesses(server, "10.0.0.1", "owner", 6)[-1] == 429
        answer = owner.http.post(
            "/api/auth/login",
            json={"name": "owner", "password": "the real password"},
            headers={"X-Forwarded-For": "10.0.0.2"},
        )
        assert answer.status_code == 200, answer.text


def test_an_untrusted_proxy_is_warned_about_once(sqlite_url, tmp_path) -> None:
    """Behind a proxy not named in --forwarded-allow-ips every client is the proxy's address (one
    guesser locks everyone out of logging in): the first forwarded request says so in the log, once;
    a trusted proxy's requests say nothing."""

    def forwarded(server, headers: dict[str, str]) -> None:
        with httpx.Client(base_url=server.base) as http:
            assert http.get("/api/health", headers=headers).status_code == 200

    def warnings(server) -> list[str]:
        return [line for line in server.log_path.read_text().splitlines() if "not trusted" in line]

    with running(sqlite_url, tmp_path) as server:
        forwarded(server, {})
        assert warnings(server) == []
        forwarded(server, {"X-Forwarded-For": "203.0.113.5"})
        forwarded(server, {"Forwarded": "for=203.0.113.6", "X-Forwarded-For": "203.0.113.6"})
        (line,) = warnings(server)
        assert "127.0.0.1 sent X-Forwarded-For" in line and "--forwarded-allow-ips 127.0.0.1" in line
    with running(sqlite_url, tmp_path, "--forwarded-allow-ips", "10.9.9.9") as server:
        forwarded(server, {"Forwarded": "for=203.0.113.7"})
        (line,) = warnings(server)
        assert "127.0.0.1 sent Forwarded" in line
    with running(sqlite_url, tmp_path, "--forwarded-allow-ips", "127.0.0.1") as server:
        forwarded(server, {"X-Forwarded-For": "203.0.113.8"})
        forwarded(server, {"Forwarded": "for=203.0.113.8"})
        log = server.log_path.read_text()
        assert warnings(server) == [] and "Forwarded' header" in log


def test_logout_closes_the_sessions_sockets(sqlite_server) -> None:
    with clients(sqlite_server, 2) as (alice, other):
        alice.guest("alice")
        table = alice.create("shutbox", 2)
        mine = alice.socket(table["id"])
        mine.wait_state()
        watcher = other.socket(table["id"])
        watcher.wait_state()
        alice.ok(alice.post("/api/auth/logout"))
        assert closed(mine) == 4401
        watcher.send({"type": "ping"})
        watcher.wait_for(lambda m: m["type"] == "pong")
        watcher.close()


def test_bad_names_are_refused(sqlite_server) -> None:
    with clients(sqlite_server, 1) as (client,):
        client.signup("Alice")
        refused = ["\u3164", "a\u200bb", "\u2800\u2800", "random bot", "Greedy Bot", "ボット", "...", "ｂｏｔ"]
        refused += ["a\u00a0b", "Привет", "раураl"]  # Cyrillic look-alikes of paypal: another script
        for name in refused:
            answer = client.post("/api/auth/guest", {"name": name})
            assert answer.status_code == 400, (name, answer.text)
            body = answer.json()
            assert body["key"].startswith("error.name.") and " / " not in body["error"]  # one language
            japanese = client.http.post("/api/auth/guest", json={"name": name}, headers={"Accept-Language": "ja"})
            assert japanese.json()["key"] == body["key"] and "名前" in japanese.json()["error"]
        # compatibility forms are normalised and look-alikes collide: Ａｌｉｃｅ, A1ice, ALlCE are Alice
        for look_alike in ("Ａｌｉｃｅ", "A1ice", "ALlCE", "alice"):
            answer = client.post("/api/auth/signup", {"name": look_alike, "password": "long enough"})
            assert answer.status_code == 409, look_alike
            assert client.post("/api/auth/guest", {"name": look_alike}).status_code == 409
        client.signup("カイ")
        assert client.post("/api/auth/guest", {"name": "力イ"}).status_code == 409  # kanji 力 for katakana カ
        assert json.loads(client.post("/api/auth/guest", {"name": "Ｋａｔｅ"}).text)["name"] == "Kate"


def test_look_alike_names_are_refused_at_sign_up(sqlite_url, tmp_path) -> None:
    """Unicode's confusables (UTS #39 skeletons) inside the names' repertoire, against a real server."""
    registered = {
        "paypal": ["PAYPAL", "paypa1", "PayPaI", "ｐａｙｐａｌ"],  # case, 1/l, capital I/l, full width
        "maria": ["rnaria", "MARlA"],  # rn/m
        "Oscar": ["0scar", "OSCAR"],  # 0/O
        "カイロ": ["力イ口", "ｶｲﾛ"],  # katakana カ/kanji 力, ロ/口, half width
        "ルーク": ["ル一ク"],  # long vowel mark ー/kanji 一
    }
    with running(sqlite_url, tmp_path, "--limit=signups_per_hour=100") as server, clients(server, 1) as (client,):
        for name in registered:
            assert client.post("/api/auth/signup", {"name": name, "password": "long enough"}).status_code == 201
        for look_alikes in registered.values():
            for look_alike in look_alikes:
                answer = client.post("/api/auth/signup", {"name": look_alike, "password": "long enough"})
                assert answer.status_code == 409, (look_alike, answer.text)
                assert "looks too much like" in answer.json()["error"] and answer.json()["key"] == "error.name_taken"
                japanese = client.http.post(
                    "/api/auth/signup",
                    json={"name": look_alike, "password": "long enough"},
                    headers={"Accept-Language": "ja-JP,ja;q=0.9"},
                )
                assert "見分けにくい" in japanese.json()["error"] and " / " not in japanese.json()["error"]
        # what only resembles a little is a different name, and the owner still logs in
        for other in ("paypals", "mario", "Oscar2", "カイ", "ルク"):
            assert client.post("/api/auth/signup", {"name": other, "password": "long enough"}).status_code == 201
        assert client.post("/api/auth/login", {"name": "paypal", "password": "long enough"}).status_code == 200
