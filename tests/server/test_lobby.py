"""The lobby over real HTTP: games and options as the engine describes them, option errors in the
engine's words, seats, bots, permissions, and the OpenAPI document against the real routes."""

from __future__ import annotations

import pytest
from server_harness import clients

from nekobako.engine import InvalidOptions, get_game
from nekobako.server.app import create_app
from nekobako.server.openapi import document


def _engine_error(game: str, options: dict, players: int) -> str:
    with pytest.raises(InvalidOptions) as info:
        get_game(game).options(options, players)
    return str(info.value)


def test_games_tables_seats_and_permissions(server) -> None:
    with clients(server, 3) as (alice, bob, stranger):
        games = {g["name"]: g for g in stranger.ok(stranger.get("/api/games"))["games"]}
        assert set(games) == {"shutbox", "catbox", "catopomp"}
        for name, entry in games.items():
            game = get_game(name)
            assert entry["options"] == game.describe_options()
            assert (entry["min_players"], entry["max_players"]) == (game.min_players, game.max_players)
            assert "random" in entry["bots"]
            assert entry["title"] == f"game.{name}" and entry["messages"] == game.messages
            assert entry["messages"], "every game describes its events"
        assert stranger.post("/api/tables", {"game": "shutbox", "seats": 2}).status_code == 401

        alice.signup("alice")
        bob.guest("bob")
        for body, options, players in [  # the engine's own message, word for word
            ({"game": "shutbox", "seats": 2, "options": {"tiles": 11}}, {"tiles": 11}, 2),
            ({"game": "shutbox", "seats": 2, "options": {"colour": "red"}}, {"colour": "red"}, 2),
            ({"game": "catbox", "seats": 9}, {}, 9),
        ]:
            response = alice.post("/api/tables", body)
            assert response.status_code == 400 and response.json()["code"] == "invalid_options"
            assert response.json()["error"] == _engine_error(body["game"], options, players)
        for body in [
            {"game": "chess", "seats": 2},
            {"game": "shutbox", "seats": "2"},
            {"game": "shutbox", "seats": 2, "options": [1]},
            {"game": "shutbox", "seats": 2, "clock": {"kind": "realtime", "seconds": 1}},
            {"game": "shutbox", "seats": 2, "clock": {"kind": "turn", "days": 99}},
            {"game": "shutbox", "seats": 2, "clock": {"kind": "hourglass"}},
            {"game": "shutbox", "seats": 2, "clock": {"kind": "realtime", "bank": 60, "seconds": 60}},
            {"game": "shutbox", "seats": 2, "clock": {"kind": "realtime", "bank": 60, "increment": 601}},
            {"game": "shutbox", "seats": 2, "clock": {"kind": "turn", "days": 1, "timeouts": 0}},
        ]:
            assert alice.post("/api/tables", body).status_code == 400, body
        assert alice.ok(alice.get("/api/tables"))["tables"] == []  # nothing was created

        table = alice.create("shutbox", 3, {"tiles": 12, "scoring": "digits"}, {"kind": "turn", "days": 2})
        table_id = table["id"]
        assert table["options"]["tiles"] == 12 and table["options"]["scoring"] == "digits"
        assert table["clock"] == {"kind": "turn", "days": 2, "timeouts": 3} and table["status"] == "open"
        assert [s["kind"] for s in table["seats"]] == ["human", "empty", "empty"] and table["you"] == 0

        assert bob.post(f"/api/tables/{table_id}/start").status_code == 403
        assert bob.post(f"/api/tables/{table_id}/bots", {"level": "random"}).status_code == 403
        assert alice.post(f"/api/tables/{table_id}/start").status_code == 409  # empty seats
        assert alice.post(f"/api/tables/{table_id}/join").status_code == 409  # already seated
        assert bob.post(f"/api/tables/{table_id}/join", {"seat": 0}).status_code == 409
        assert bob.post(f"/api/tables/{table_id}/join", {"seat": 7}).status_code == 409  # no such seat here
        assert bob.post(f"/api/tables/{table_id}/join", {"seat": "one"}).status_code == 400
        assert bob.ok(bob.post(f"/api/tables/{table_id}/join", {"seat": 2}))["you"] == 2
        assert alice.post(f"/api/tables/{table_id}/bots", {"level": "genius"}).status_code == 400
        table = alice.ok(alice.post(f"/api/tables/{table_id}/bots", {"level": "random", "seat": 1}))
        assert table["seats"][1]["kind"] == "bot" and table["seats"][1]["bot"] == "random"
        assert alice.post(f"/api/tables/{table_id}/bots", {"level": "random", "fill": True}).status_code == 409
        assert alice.ok(alice.delete(f"/api/tables/{table_id}/seats/1"))["seats"][1]["kind"] == "empty"
        assert alice.delete(f"/api/tables/{table_id}/seats/2").status_code == 409  # people leave by themselves
        listed = stranger.ok(stranger.get("/api/tables"))["tables"]
        assert [t["id"] for t in listed] == [table_id] and listed[0]["you"] is None

        # the host leaves before the start: bob becomes host; bob leaves: the table is abandoned
        assert alice.ok(alice.post(f"/api/tables/{table_id}/leave"))["host"]["name"] == "bob"
        assert bob.ok(bob.post(f"/api/tables/{table_id}/leave"))["status"] == "abandoned"
        assert stranger.ok(stranger.get("/api/tables"))["tables"] == []
        assert stranger.ok(stranger.get("/api/tables", status="abandoned"))["tables"][0]["id"] == table_id
        assert stranger.get("/api/tables", status="sleeping").status_code == 400
        assert stranger.get(f"/api/tables/{table_id}/record").status_code == 409
        assert stranger.get("/api/tables/4242").status_code == 404

        running = alice.create("shutbox", 2)
        alice.ok(alice.post(f"/api/tables/{running['id']}/bots", {"level": "random", "fill": True}))
        started = alice.ok(alice.post(f"/api/tables/{running['id']}/start"))
        assert started["status"] == "running" and started["notices"][0]["kind"] == "started"
        assert bob.post(f"/api/tables/{running['id']}/join").status_code == 409
        statuses = {t["id"]: t["status"] for t in stranger.ok(stranger.get("/api/tables"))["tables"]}
        assert statuses.get(running["id"]) in ("running", None)  # a quick bot game may be over already


def test_openapi_document_matches_the_routes(sqlite_server) -> None:
    with clients(sqlite_server, 1) as (client,):
        served = client.ok(client.get("/api/openapi.json"))
    assert served == document()
    assert served["openapi"].startswith("3.")
    routes = set()
    for route in create_app("sqlite://").routes:
        path = getattr(route, "path", "")
        for method in getattr(route, "methods", None) or ():
            if path.startswith("/api") and method != "HEAD":
                routes.add((method.lower(), path.replace(":id", "")))
    described = {(m, p) for p, ops in served["paths"].items() for m in ops}
    assert described == routes


def test_pages_are_served(sqlite_server) -> None:
    with clients(sqlite_server, 1) as (client,):
        for path in ("/", "/replay/1", "/table/3"):
            response = client.get(path)
            assert response.status_code in (200, 503)
            if response.status_code == 200:
                assert "text/html" in response.headers["content-type"]
