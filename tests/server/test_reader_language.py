"""An API client reads the server's words in its own language, one language at a time: REST errors
(the server's own, Starlette's and the cross-site guard's) and WebSocket refusals, chosen by
`?lang=`, else the page's cookie, else `Accept-Language`, else English; the key and params are
always there for a client that words them itself."""

from __future__ import annotations

import asyncio
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


def test_a_wrong_page_address_is_worded_in_the_readers_language(sqlite_server) -> None:
    """Outside /api/ a refusal is words alone (no JSON), in the same reader's language."""
    with httpx.Client(base_url=sqlite_server.base, timeout=15) as http:
        asked = [
            (http.get("/static/nowhere.js", params={"lang": "ja"}), "ja"),
            (http.get("/static/nowhere.js", headers={"Accept-Language": "ja"}), "ja"),
            (http.get("/nowhere", headers={"Cookie": "nekobako_lang=ja"}), "ja"),
            (http.get("/nowhere"), "en"),
        ]
        for answer, lang in asked:
            assert answer.status_code == 404 and answer.text == text("error.http_404", lang), answer.text
        assert JAPANESE.search(asked[0][0].text)


def test_a_server_without_the_browser_client_says_so_in_the_readers_language(tmp_path, monkeypatch) -> None:
    from starlette.applications import Starlette
    from starlette.routing import Route

    from nekobako.server import pages

    monkeypatch.setattr(pages, "WEB_DIR", tmp_path)  # no index.html: the package was installed without it
    app = Starlette(routes=[Route("/", pages.index)])

    async def ask() -> httpx.Response:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as http:
            return await http.get("/", headers={"Accept-Language": "ja"})

    answer = asyncio.run(ask())
    assert answer.status_code == 503 and answer.text == text("error.no_web_client", "ja")


def test_a_seated_person_the_table_cannot_name_reads_in_the_readers_language() -> None:
    from datetime import UTC, datetime

    from nekobako.server.live import LiveTable, new_notice
    from nekobako.server.notices import notice_json
    from nekobako.store.games import SeatRow, TableRow

    seats = [SeatRow(0, "human", 7), SeatRow(1, "bot", 8, "greedy", "left")]
    row = TableRow(7, "shutbox", 2, {}, {}, "running", None, 1, 0, 0, {}, datetime.now(UTC), None, None, seats)
    live = LiveTable(row=row, users={})  # their accounts are gone
    assert live.names("ja") == ["プレイヤー7", "プレイヤー8（貪欲ボット）"]
    assert live.names("en") == ["player 7", "player 8 (greedy bot)"]
    notice = new_notice("returned", 0, 0, {"name": live.user_name(7)})  # stored: worded when read
    assert "プレイヤー7" in notice_json(notice, "ja")["text"]
    assert "player 7" in notice_json(notice, "en")["text"]
