"""An API client reads the server's words in its own language, one language at a time: REST errors
(the server's own, Starlette's and the cross-site guard's) and WebSocket refusals, chosen by
`?lang=`, else the page's cookie, else `Accept-Language`, else English; the key and params are
always there for a client that words them itself."""

from __future__ import annotations

import re

import httpx
from server_harness import clients, started_shutbox

from nekobako.i18n import text
from worded import english_words

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def _error(answer: httpx.Response, status: int, key: str) -> str:
    body = answer.json()
    assert answer.status_code == status and body["key"] == key, body
    return body["error"]


def test_rest_errors_are_worded_in_the_asked_language(sqlite_server) -> None:
    base = sqlite_server.base
    with httpx.Client(base_url=base, timeout=15) as http:
        ja = {"Accept-Language": "ja,en;q=0.5"}
        cases = [
            (http.get("/api/nowhere", headers=ja), 404, "error.http_404"),
            (http.delete("/api/games", headers=ja), 405, "error.http_405"),
            (
                http.post("/api/auth/login", json={"name": "nobody", "password": "wrong password"}, headers=ja),
                401,
                "error.bad_credentials",
            ),
            (http.post("/api/auth/logout", headers={**ja, "Origin": "http://evil.example"}), 403, "error.cross_site"),
            (http.get("/api/tables", params={"limit": "lots", "lang": "ja"}), 400, "error.whole_number"),
        ]
        for answer, status, key in cases:
            words = _error(answer, status, key)
            assert words == text(key, "ja", **answer.json()["params"]), words
            quoted = [str(v) for v in answer.json()["params"].values()]  # a field's name, as sent
            assert JAPANESE.search(words) and not english_words(words, quoted), words
        # without a language asked for: English; the page's choice (its cookie) over the browser's list
        assert _error(http.get("/api/nowhere"), 404, "error.http_404") == "There is nothing at this address."
        chosen = http.get("/api/nowhere", headers={"Accept-Language": "en", "Cookie": "nekobako_lang=ja"})
        assert _error(chosen, 404, "error.http_404") == "このアドレスには何もありません。"
        asked = http.get("/api/nowhere", params={"lang": "en"}, headers={"Accept-Language": "ja"})
        assert _error(asked, 404, "error.http_404") == "There is nothing at this address."
        # a rules page that does not exist says so in the reader's language too
        rules = http.get("/rules/chess", params={"lang": "ja"})
        assert rules.status_code == 404 and JAPANESE.search(rules.text) and "chess" in rules.text, rules.text
        unknown_lang = http.get("/rules/catbox", params={"lang": "xx"}, headers={"Accept-Language": "ja"})
        assert unknown_lang.status_code == 400 and JAPANESE.search(unknown_lang.text), unknown_lang.text


def test_websocket_refusals_are_worded_in_the_sockets_language(sqlite_server) -> None:
    with clients(sqlite_server, 2) as (alice, bob):
        table_id, socks = started_shutbox(alice, bob)
        seq = socks[0].last["seq"]
        japanese, english = alice.socket(table_id, lang="ja"), bob.socket(table_id)
        for sock in (japanese, english):
            sock.wait_state()
            sock.send("not json")
        said = [s.wait_for(lambda m: m["type"] == "refused") for s in (japanese, english)]
        assert [m["key"] for m in said] == ["error.ws.not_json"] * 2
        assert said[0]["reason"] == text("error.ws.not_json", "ja") and JAPANESE.search(said[0]["reason"])
        assert said[1]["reason"] == text("error.ws.not_json", "en")
        assert all(m["seq"] == seq for m in said)
        for sock in (japanese, english, *socks):
            sock.close()


def test_a_bots_seat_is_named_in_the_readers_language(sqlite_server) -> None:
    with clients(sqlite_server, 1) as (host,):
        host.guest("host")
        table = host.create("shutbox", 2)
        host.ok(host.post(f"/api/tables/{table['id']}/bots", {"level": "greedy", "seat": 1}))
        assert host.table(table["id"])["seats"][1]["name"] == "greedy bot"
        host.http.headers["Accept-Language"] = "ja"
        assert [s["name"] for s in host.table(table["id"])["seats"]] == ["host", "貪欲ボット"]
        host.ok(host.post(f"/api/tables/{table['id']}/start"))
        sockets = {lang: host.socket(table["id"], lang=lang) for lang in ("en", "ja")}
        named = {lang: s.wait_state()["table"]["seats"][1]["name"] for lang, s in sockets.items()}
        assert named == {"en": "greedy bot", "ja": "貪欲ボット"}
        for sock in sockets.values():
            sock.close()
