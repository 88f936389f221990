"""The browser client's files as a slow phone needs them (issue 17): gzip for browsers that take
it, one-year immutable caching at addresses that carry the client's version, revalidation (ETag,
304) at the plain addresses, and index.html preloading each page's whole module graph."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest

from nekobako.server.assets import Assets, _imports

WEB = Path(__file__).resolve().parents[2] / "src" / "nekobako" / "web"


@pytest.fixture
def base(sqlite_server) -> str:
    return sqlite_server.base


def _index(base: str, path: str = "/") -> tuple[str, list[str]]:
    html = httpx.get(base + path).text
    version = re.search(r'/static/v/(\w+)/app\.js"', html)
    assert version, html
    return version.group(1), re.findall(r'rel="modulepreload" href="/static/v/\w+/([^"]+)"', html)


def test_index_names_the_version_and_preloads_the_page_modules(base):
    version, lobby = _index(base, "/")
    assert lobby[0] == "app.js" and {"lobby.js", "api.js", "dom.js", "i18n.js"} <= set(lobby)
    assert "table.js" not in lobby
    _, table = _index(base, "/table/1")
    assert {"table.js", "ws.js", "games/catbox.js", "games/common.js"} <= set(table)
    assert version == Assets(WEB).build().version
    only_shutbox = Assets(WEB).preloads("table", "shutbox")
    assert "games/shutbox.js" in only_shutbox and "games/catbox.js" not in only_shutbox
    page = httpx.get(base + "/")
    assert page.headers["cache-control"] == "private, no-cache"  # the page itself is always asked again


def test_the_game_list_comes_inside_the_pages_that_draw_it_and_nothing_is_preloaded(base):
    """`/` is the lobby and also a table opened at `/#/table/ID` (the server never sees the hash): a
    preloaded `/api/games` went unused there and Chromium warned. The lobby and the replay hold
    the list in the page instead; the table page asks for it only while the table is open."""
    games = httpx.get(base + "/api/games").json()["games"]
    for path in ("/", "/replay/1"):
        page = httpx.get(base + path)
        assert 'rel="preload"' not in page.text, path
        assert _boot(page)["games"] == games, path
    for path in ("/table/1", "/player/nobody"):
        assert "games" not in _boot(httpx.get(base + path)), path


def _boot(response: httpx.Response) -> dict:
    found = re.search(r'<script type="application/json" id="boot">(.*?)</script>', response.text, re.S)
    assert found, response.text
    return json.loads(found.group(1))


def test_the_page_holds_the_readers_words_account_and_first_state(sqlite_server):
    """What the client would ask for first comes inside the page (issue 17): the words of one
    language (Accept-Language, or the switch's cookie), who is signed in, and at a table the
    reader's first state message, the socket's own (with the reader's hand)."""
    from server_harness import Client

    base = sqlite_server.base
    english = _boot(httpx.get(base + "/", headers={"Accept-Language": "en-GB,en;q=0.9"}))
    assert english["lang"] == "en" and english["user"] is None
    assert set(english["catalogue"]) == {"langs", "en", "close_codes"} and english["catalogue"]["langs"] == ["en", "ja"]
    assert english["catalogue"]["en"]["lobby.title"] == "Tables"
    japanese = _boot(httpx.get(base + "/", headers={"Accept-Language": "ja,en;q=0.5"}))
    assert set(japanese["catalogue"]) == {"langs", "ja", "close_codes"}
    chosen = _boot(httpx.get(base + "/", headers={"Accept-Language": "ja"}, cookies={"nekobako_lang": "en"}))
    assert chosen["lang"] == "en"  # the switch's choice wins over the browser's list
    assert _boot(httpx.get(base + "/", cookies={"nekobako_lang": "xx"}))["lang"] == "en"

    # a name that tries to end the script element is just text in the JSON
    host = Client(sqlite_server)
    host.guest("</script><b>")
    table = host.create("catbox", 3)["id"]
    for seat in (1, 2):
        host.ok(host.post(f"/api/tables/{table}/bots", {"level": "random", "seat": seat}))
    host.ok(host.post(f"/api/tables/{table}/start"))
    page = host.http.get(f"{base}/table/{table}")
    assert "</script><b>" not in page.text
    boot = _boot(page)
    assert boot["user"]["name"] == "</script><b>"
    state = boot["state"]
    assert state["type"] == "state" and state["table"]["id"] == table and state["seat"] == 0
    assert state["view"]["hand"] and "now" in state["clock"]
    spectator = _boot(httpx.get(f"{base}/table/{table}"))
    assert spectator["state"]["seat"] is None and spectator["state"]["view"].get("hand") is None
    assert "state" not in _boot(httpx.get(f"{base}/table/987654"))  # no such table: no state, still a page


def test_one_language_of_the_catalogue_and_a_clear_error_for_another(base):
    japanese = httpx.get(f"{base}/api/catalogue?lang=ja").json()
    assert set(japanese) == {"langs", "ja", "close_codes"}
    refused = httpx.get(f"{base}/api/catalogue?lang=fr", headers={"Accept-Language": "ja"})
    assert refused.status_code == 400 and refused.json()["key"] == "error.lang" and "lang" in refused.json()["error"]


def test_a_known_table_preloads_only_its_game(sqlite_server):
    from server_harness import Client

    host = Client(sqlite_server)
    host.guest("Preloader")
    table = host.create("catbox", 3)["id"]
    _, modules = _index(sqlite_server.base, f"/table/{table}")
    assert "games/catbox.js" in modules and "games/catopomp.js" not in modules


def test_versioned_files_are_compressed_and_kept_for_a_year(base):
    version, modules = _index(base)
    for name in [*modules, "style.css"]:
        reply = httpx.get(f"{base}/static/v/{version}/{name}", headers={"Accept-Encoding": "gzip"})
        assert reply.status_code == 200, name
        assert reply.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert reply.headers["content-encoding"] == "gzip"
        assert int(reply.headers["content-length"]) < len(reply.content)  # httpx unpacked it
        assert reply.content == (WEB / name).read_bytes()
    raw = httpx.get(f"{base}/static/v/{version}/app.js", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in raw.headers and raw.content == (WEB / "app.js").read_bytes()
    old = httpx.get(f"{base}/static/v/000000000000/app.js")  # a page from before an update
    assert old.status_code == 200 and old.headers["cache-control"] == "no-cache"


def test_plain_addresses_revalidate_and_unknown_files_are_404(base):
    first = httpx.get(f"{base}/static/style.css")
    assert first.headers["cache-control"] == "no-cache"
    again = httpx.get(f"{base}/static/style.css", headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    for path in (
        "/static/nothing.js",
        "/static/../server/app.py",
        "/static/%2e%2e/server/app.py",
        "/static/index.html",
    ):
        assert httpx.get(base + path).status_code == 404, path


def test_the_whole_client_is_small_once_compressed():
    """Recorded in docs/web.md: every file, gzip level 9."""
    build = Assets(WEB).build()
    plain = sum(len(a.body) for a in build.files.values())
    packed = sum(len(a.gzipped or a.body) for a in build.files.values())
    assert packed < plain / 2.5, (plain, packed)


def test_static_imports_are_found():
    text = 'import { h } from "../dom.js";\nimport * as api from "./api.js";\nexport { x } from "./x.js";\n'
    assert _imports("games/catbox.js", text) == ("dom.js", "games/api.js", "games/x.js")


def test_a_changed_file_changes_the_version(tmp_path):
    (tmp_path / "index.html").write_text('<script src="/static/app.js"></script>\n</head>')
    (tmp_path / "app.js").write_text('import "./a.js";\n')
    (tmp_path / "a.js").write_text("export const a = 1;\n")
    assets = Assets(tmp_path)
    before = assets.build().version
    assert assets.preloads("lobby") == ["app.js", "a.js"]
    (tmp_path / "a.js").write_text("export const a = 22;\n")
    assert assets.build().version != before
    assert assets.build().files["a.js"].body == b"export const a = 22;\n"


def test_an_unchanged_lobby_poll_is_a_bodiless_304_and_api_answers_are_gzipped(sqlite_server):
    from server_harness import Client

    base = sqlite_server.base
    first = httpx.get(f"{base}/api/tables")
    etag = first.headers["etag"]
    assert first.headers["cache-control"] == "no-cache"
    again = httpx.get(f"{base}/api/tables", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    host = Client(sqlite_server)
    host.guest("Poller")
    host.create("shutbox", 2)
    changed = httpx.get(f"{base}/api/tables", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.json()["tables"]
    games = httpx.get(f"{base}/api/games", headers={"Accept-Encoding": "gzip"})
    assert games.headers["content-encoding"] == "gzip" and games.json()["games"]
    assert int(games.headers["content-length"]) * 2 < len(games.content)
