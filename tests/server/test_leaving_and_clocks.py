"""Leaving a running game or running out of time hands the seat to a bot, and the table says so;
a disconnected player reconnects to the same seat."""

from __future__ import annotations

import random
import time

from server_harness import clients, play_out, running, started_shutbox


def _replaced(message: dict, seat: int, reason: str) -> bool:
    return any(
        n["kind"] == "replaced" and n["seat"] == seat and n["data"]["reason"] == reason for n in message["notices"]
    )


def test_leaving_player_is_replaced_and_reconnect_keeps_the_seat(sqlite_server) -> None:
    with clients(sqlite_server, 2) as (alice, bob):
        alice.signup("alice")
        bob.signup("bob")
        table = alice.create("catopomp", 2)
        table_id = table["id"]
        bob.ok(bob.post(f"/api/tables/{table_id}/join"))
        alice.ok(alice.post(f"/api/tables/{table_id}/start"))
        a, b = alice.socket(table_id, lang="ja"), bob.socket(table_id)
        for sock in (a, b):
            sock.wait_state(lambda m: m["view"] is not None)
        assert [
            s["connected"]
            for s in a.wait_state(lambda m: all(s["connected"] for s in m["table"]["seats"]))["table"]["seats"]
        ] == [True, True]
        # bob drops the connection and comes back: same seat, same position
        seen = b.last
        b.close()
        a.wait_state(lambda m: not m["table"]["seats"][1]["connected"])
        b = bob.socket(table_id)
        back = b.wait_state()
        assert back["seat"] == 1 and back["seq"] == seen["seq"] and back["view"] == seen["view"]
        # bob leaves: a bot plays seat 1, the table says so in each reader's language
        detail = bob.ok(bob.post(f"/api/tables/{table_id}/leave"))
        assert detail["seats"][1]["kind"] == "bot" and detail["seats"][1]["replaced"] == "left"
        assert detail["you"] is None
        notice = next(n for n in detail["notices"] if n["kind"] == "replaced")
        assert notice["text"] == "Seat 1 (bob) left; the greedy bot plays for them."
        note = a.wait_state(lambda m: _replaced(m, 1, "left"))
        notice = next(n for n in note["notices"] if n["kind"] == "replaced")
        assert notice["text"] == "席1（bob）が退席したため、貪欲ボットが代わりに打ちます。"
        assert note["table"]["notices"][-1] == notice
        # bob now watches: the public view, no hand
        watched = b.wait_state(lambda m: m["seat"] is None)
        assert "hand" not in watched["view"]
        b.send({"type": "action", "seq": watched["seq"], "action": "pass"})
        assert b.wait_for(lambda m: m["type"] == "refused")["code"] == "spectator"
        play_out([a], random.Random(5), timeout=60)
        assert a.wait_state(lambda m: m["view"]["over"])
        # whoever wins on the board, the player who left places last and loses rating; bob never
        # played a card, so alice gains nothing (a puppet that joins and leaves farms no rating)
        results = alice.ok(alice.get(f"/api/tables/{table_id}/results"))
        assert results["places"] == [1, 2]  # not [1, 3] or [2, 3]: two seats, two places
        # Catopomp's gems are whole numbers in the REST results too (the JSON says 2, not 2.0)
        assert all(type(v) is int for v in results["scores"] + [v for row in results["round_scores"] for v in row])
        changes = {c["user"]["name"]: c for c in results["ratings"]}
        assert set(changes) == {"bob"} and changes["bob"]["after"] < 1500
        a.close()
        b.close()


def _notices(message: dict, kind: str, seat: int) -> list[dict]:
    return [n for n in message["notices"] if n["kind"] == kind and n["seat"] == seat]


def test_running_out_of_time_costs_one_turn_only(server) -> None:
    with clients(server, 2) as (alice, bob):
        alice.signup("alice")
        bob.signup("bob")
        table = alice.create("shutbox", 2, clock={"kind": "realtime", "bank": 5})
        table_id = table["id"]
        assert table["clock"] == {"kind": "realtime", "bank": 5, "increment": 0, "timeouts": 3}
        bob.ok(bob.post(f"/api/tables/{table_id}/join"))
        alice.ok(alice.post(f"/api/tables/{table_id}/start"))
        a, j = alice.socket(table_id), bob.socket(table_id, lang="ja")
        first = a.wait_state(lambda m: m["view"] is not None)
        mover = first["view"]["to_move"][0]
        deadline = first["clock"]["deadlines"][str(mover)]
        assert 3 < deadline - first["clock"]["now"] <= 5.5
        # nobody moves: after 5 seconds a bot plays that one decision; the seat stays the player's
        started = time.monotonic()
        note = a.wait_state(lambda m: bool(_notices(m, "timeout", mover)), timeout=12)
        assert 4 < time.monotonic() - started < 10
        assert note["seq"] > first["seq"]  # the bot moved for them
        assert note["table"]["seats"][mover]["kind"] == "human" and note["table"]["seats"][mover]["replaced"] is None
        [timeout] = _notices(note, "timeout", mover)
        assert timeout["data"]["count"] == 1 and timeout["data"]["limit"] == 3
        # alice reads English, bob Japanese; the one who ran out of time reads "you"
        [japanese] = _notices(j.wait_state(lambda m: bool(_notices(m, "timeout", mover))), "timeout", mover)
        assert (timeout["key"], japanese["key"]) == ("notice.timeout", "notice.timeout")
        if mover == 0:
            assert timeout["text"] == "You ran out of time; the greedy bot played this turn for you (1 of 3 in a row)."
            assert (
                japanese["text"].startswith("席0（alice）は時間切れのため、貪欲ボット")
                and "（連続1/3回）" in japanese["text"]
            )
        else:
            assert (
                timeout["text"].startswith("Seat 1 (bob) ran out of time; the greedy bot played")
                and "1 of 3" in timeout["text"]
            )
            assert (
                japanese["text"] == "あなたは時間切れのため、貪欲ボットがこの手番だけ代わりに打ちました（連続1/3回）。"
            )
        assert note["clock"]["missed"] == {str(mover): 1}
        a.close()
        j.close()


def test_timeouts_in_a_row_hand_the_seat_over_and_the_player_takes_it_back(server) -> None:
    # three seats: after the mover's seat goes to a bot, the two others still have to time out
    # twice each (5 s banks) before the game can end, time enough to take the seat back on a
    # busy machine (with two seats the game could end first: 409 "not running")
    with clients(server, 3) as players:
        for client, name in zip(players, ("alice", "bob", "carol"), strict=True):
            client.guest(name)
        alice = players[0]
        table = alice.create("shutbox", 3, clock={"kind": "realtime", "bank": 5, "timeouts": 2})
        table_id = table["id"]
        for client in players[1:]:
            client.ok(client.post(f"/api/tables/{table_id}/join"))
        alice.ok(alice.post(f"/api/tables/{table_id}/start"))
        sockets = [client.socket(table_id) for client in players]
        first = sockets[0].wait_state(lambda m: m["view"] is not None)
        for s in sockets[1:]:
            s.wait_state(lambda m: m["view"] is not None)
        mover = first["view"]["to_move"][0]
        client, sock = players[mover], sockets[mover]
        other = players[(mover + 1) % 3]
        # two timeouts in a row: the first costs a turn, the second hands the seat to a bot
        sock.wait_state(lambda m: bool(_notices(m, "timeout", mover)), timeout=12)
        replaced = sock.wait_state(lambda m: _replaced(m, mover, "timeout"), timeout=15)
        assert replaced["table"]["seats"][mover]["kind"] == "bot"
        assert "until they take the seat back" in _notices(replaced, "replaced", mover)[0]["text"]
        assert other.post(f"/api/tables/{table_id}/reclaim").status_code == 409  # not their seat
        # the player takes the seat back: a person again, timeouts forgotten
        client.ok(client.post(f"/api/tables/{table_id}/reclaim"))
        back = sock.wait_state(lambda m: bool(_notices(m, "returned", mover)), timeout=10)
        assert back["table"]["seats"][mover]["kind"] == "human" and back["table"]["seats"][mover]["replaced"] is None
        assert str(mover) not in back["clock"]["missed"]
        assert back["seat"] == mover
        response = client.post(f"/api/tables/{table_id}/reclaim")
        assert response.status_code == 409  # nothing to take back any more
        for s in sockets:
            s.close()


def test_a_bot_move_chosen_before_its_player_takes_the_seat_back_does_not_count(database_url, tmp_path) -> None:
    """The bot that plays for bob (who left) has chosen its move and is held at a gate before
    submitting it (`bot_gate`: as slow as the test needs, no hoping for timing); bob takes the
    seat back meanwhile. Once the gate opens the bot's move is refused: the position is still
    bob's to answer, and his own move counts."""
    gate = tmp_path / "gate"
    gate.mkdir()
    faults = {"NEKOBAKO_TEST_FAULTS": "bot_gate", "NEKOBAKO_TEST_BOT_GATE": str(gate)}
    with running(database_url, tmp_path, **faults) as server, clients(server, 2) as (alice, bob):
        table_id, (a, b) = started_shutbox(alice, bob)
        bob.ok(bob.post(f"/api/tables/{table_id}/leave"))
        rng = random.Random(32)
        deadline = time.monotonic() + 60
        while not (gate / "waiting").exists():  # alice plays until the bot for seat 1 waits
            assert time.monotonic() < deadline, "the bot never came to move"
            a.drain()
            a.act_if_asked(rng)
        before = alice.table(table_id)
        assert before["seats"][1]["kind"] == "bot"
        bob.ok(bob.post(f"/api/tables/{table_id}/reclaim"))
        (gate / "open").touch()
        deadline = time.monotonic() + 15
        while not (gate / "answered").exists():  # the bot's move was submitted and judged
            assert time.monotonic() < deadline, "the bot's move was never judged"
            time.sleep(0.01)
        after = alice.table(table_id)
        assert after["seats"][1]["kind"] == "human" and after["seq"] == before["seq"]
        b.send({"type": "sync"})
        mine = b.wait_state(lambda m: m["seat"] == 1 and m["seq"] == before["seq"], new=True)
        assert 1 in mine["view"]["to_move"] and mine["view"]["legal"]
        b.send({"type": "action", "seq": mine["seq"], "action": mine["view"]["legal"][0]})
        moved = b.wait_for(lambda m: m["type"] == "refused" or (m["type"] == "state" and m["seq"] > before["seq"]))
        assert moved["type"] == "state", moved
        assert moved["view"]["history"][-1][0] == 1 or moved["seq"] > before["seq"]
        for sock in (a, b):
            sock.close()


def test_turn_based_clock_gives_days(sqlite_server) -> None:
    with clients(sqlite_server, 1) as (alice,):
        alice.guest("alice")
        table = alice.create("shutbox", 1, clock={"kind": "turn", "days": 2})
        alice.ok(alice.post(f"/api/tables/{table['id']}/start"))
        sock = alice.socket(table["id"])
        message = sock.wait_state(lambda m: m["view"] is not None)
        clock = message["clock"]
        assert clock["kind"] == "turn" and clock["days"] == 2 and clock["timeouts"] == 3
        assert abs(clock["deadlines"]["0"] - clock["now"] - 2 * 86400) < 30
        sock.send({"type": "action", "seq": message["seq"], "action": "roll"})
        after = sock.wait_state(lambda m: m["seq"] > message["seq"])
        assert after["clock"]["deadlines"]["0"] >= clock["deadlines"]["0"]  # a new decision, a new deadline
        sock.close()
