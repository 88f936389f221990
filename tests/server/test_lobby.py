"""The lobby over real HTTP: games and options as the engine describes them, option errors in the
engine's words, seats, bots, permissions, and the OpenAPI document against the real routes."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from hub_harness import with_hub
from server_harness import clients, play_out
from sqlalchemy import event, insert
from views_check import check_views

from nekobako.engine import InvalidOptions, get_game
from nekobako.i18n import Message
from nekobako.server.app import create_app
from nekobako.server.clock import parse_clock
from nekobako.server.hub import Hub
from nekobako.server.openapi import document
from nekobako.server.rooms import opening
from nekobako.server.wire import NewTable
from nekobako.store import accounts, games, leases, open_database, schema
from nekobako.store.games import SeatRow


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


def test_one_request_makes_fills_and_starts_a_table(server) -> None:
    """`POST /api/tables` with `bots` and `start`: the table is made, the other seats get bots and
    the game starts in one request, which plays to the end; a bad body changes nothing."""
    with clients(server, 1) as (alice,):
        alice.guest("alice")
        refused = [
            ({"game": "catbox", "seats": 3, "bots": "genius"}, 400, "error.bot_level"),
            ({"game": "catbox", "seats": 3, "bots": 3}, 400, "error.bot_level"),
            ({"game": "catbox", "seats": 3, "bots": "optimal"}, 409, "error.bot_game"),
            ({"game": "catbox", "seats": 3, "bots": "greedy", "start": "yes"}, 400, "error.start_flag"),
            ({"game": "catbox", "seats": 3, "start": True}, 409, "error.seat_empty"),
            ({"game": "shutbox", "seats": 1, "bots": "random", "start": True}, 409, "error.all_taken"),
            ({"game": "catbox", "seats": 9, "bots": "greedy", "start": True}, 400, "engine.options.players"),
            # the learned level's weights do not fit a table whose options change the encoding
            (
                {"game": "catopomp", "seats": 4, "options": {"extra_cards": "both"}, "bots": "learned"},
                409,
                "bots.learned.mismatch",
            ),
        ]
        for body, status, key in refused:
            answer = alice.http.post("/api/tables", json=body, headers={"Accept-Language": "ja"})
            assert (answer.status_code, answer.json()["key"]) == (status, key), (body, answer.text)
            if key.startswith("error."):  # (the engine's message holds another: the test above has its words)
                assert answer.json()["error"] == Message(key, **answer.json()["params"]).text("ja")
        assert alice.ok(alice.get("/api/tables", status="open,running,finished,abandoned"))["tables"] == []

        body = {"game": "shutbox", "seats": 2, "options": {"tiles": 9}, "bots": "random", "start": True}
        table = alice.ok(alice.post("/api/tables", body), 201)
        assert table["status"] == "running" and table["started_at"] is not None and table["you"] == 0
        assert [(s["kind"], s["bot"]) for s in table["seats"]] == [("human", None), ("bot", "random")]
        assert [n["kind"] for n in table["notices"]] == ["started"] and table["options"]["tiles"] == 9
        assert alice.post(f"/api/tables/{table['id']}/start").status_code == 409  # running already
        seat = alice.socket(table["id"])
        seat.wait_state(lambda m: m["view"] is not None)
        play_out([seat], random.Random(32), timeout=60)
        seat.wait_state(lambda m: m["view"]["over"])
        record = alice.ok(alice.get(f"/api/tables/{table['id']}/record"))
        assert check_views(record, [seat]) > 0
        seat.close()

        # bots without start: an open table, started by the request of before; alone: started at once
        filled = alice.ok(alice.post("/api/tables", {"game": "catbox", "seats": 3, "bots": "greedy"}), 201)
        assert filled["status"] == "open" and [s["kind"] for s in filled["seats"]] == ["human", "bot", "bot"]
        assert alice.ok(alice.post(f"/api/tables/{filled['id']}/start"))["status"] == "running"
        solo = alice.ok(alice.post("/api/tables", {"game": "shutbox", "seats": 1, "start": True}), 201)
        assert solo["status"] == "running"
        assert alice.ok(alice.post("/api/tables", {"game": "shutbox", "seats": 1, "start": False}), 201)["status"] == (
            "open"
        )


@pytest.mark.parametrize("start", [False, True])
def test_a_table_kept_as_it_was_stored_is_the_table_read_back(database_url, start) -> None:
    """`Rooms.create_table` keeps the row it stored instead of reading it back: what it keeps must
    be what `load_table` (another process, a restart) would read, entries and notices too."""
    engine = open_database(database_url)
    try:
        clock = parse_clock({"kind": "realtime", "bank": 60, "increment": 5})
        options = get_game("catbox").options({"side": "purple"}, 3).to_json()
        row = games.new_table_row("catbox", 3, options, clock, _host(engine), seed=2**62 - 1)
        row.seats = [row.seats[0], SeatRow(1, "bot", bot="greedy"), SeatRow(2, "bot", bot="ismcts")]
        entries: list[str] = []
        if start:
            values, entries, row.notices, _ = opening(row)
            for key, value in values.items():
                setattr(row, key, value)
        row.id = games.insert_table(engine, row, entries=entries)
        assert games.load_table(engine, row.id) == row
        assert games.load_actions(engine, row.id) == entries and (len(entries) > 0) == start
    finally:
        engine.dispose()


def test_a_table_started_at_once_is_leased_to_its_maker_in_the_same_transaction(database_url) -> None:
    """No process's round may find it running with no lease (and drive its bots away from its
    players' process): the lease is taken in the transaction that stores it."""
    engine = open_database(database_url)
    try:
        made = []
        for lease in (True, False):
            row = games.new_table_row("shutbox", 1, {}, parse_clock(None), _host(engine), seed=7)
            values, entries, row.notices, _ = opening(row)
            for key, value in values.items():
                setattr(row, key, value)
            taken = leases.StartedLease("maker", time.time() + 60) if lease else None
            made.append(games.insert_table(engine, row, entries=entries, lease=taken))
            assert taken is None or taken.taken
        assert leases.orphans(engine, time.time(), 10) == [made[1]]  # the one stored without its lease
        assert leases.claim(engine, made, "another", time.time(), 3) == {made[1]: 1}
        assert leases.claim(engine, made, "maker", time.time(), 3) == {made[0]: 1}  # its maker's, same epoch
    finally:
        engine.dispose()


def _host(engine: Any) -> int:
    return accounts.create_user(engine, f"host {random.getrandbits(32)}", None)["id"]


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


def test_a_table_started_in_the_request_that_makes_it_is_adopted_without_a_claim(tmp_path) -> None:
    """Its lease was made in the transaction that stored it (epoch 1, this process's) and the copy
    in memory is that transaction's: the process drives it without claiming it or reading it
    back; a lease that was there already is claimed as before."""
    engine = open_database(f"sqlite:///{tmp_path / 'adopt.db'}")
    statements: list[str] = []
    event.listen(engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    body = NewTable(game="shutbox", seats=2, bots="greedy", start=True)

    async def main(hub: Hub) -> None:
        host = await hub.db(accounts.create_user, "ann", None)
        live = await hub.rooms.create_table(host, body)
        assert hub.conductor.held == {live.id: 1}
        stored = max(i for i, s in enumerate(statements) if s.startswith("INSERT INTO leases"))
        assert not any("revision" in s and s.startswith("SELECT") for s in statements[stored:])
        assert sum(s.startswith("INSERT INTO leases") for s in statements) == 1
        # a lease row already there for the next table's id (the foreign key stops that today;
        # the claim stays for it): claimed, the epoch raised
        with engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
            conn.execute(insert(schema.leases).values(table_id=live.id + 1, holder="gone", until=0.0, epoch=4))
            conn.commit()
            conn.exec_driver_sql("PRAGMA foreign_keys=ON")
        again = await hub.rooms.create_table(host, body)
        assert again.id == live.id + 1 and hub.conductor.held[again.id] == 5

    with_hub(engine, main)
