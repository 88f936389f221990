"""Stale, illegal, out-of-turn, spectator and malformed messages (hostile frames included) are
refused with a reason and change nothing; the connection keeps working afterwards."""

from __future__ import annotations

import json

from server_harness import clients, closed, started_shutbox
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from nekobako.engine import Record, replay


def test_bad_messages_are_refused_and_change_nothing(server) -> None:
    with clients(server, 3) as (alice, bob, anonymous):
        table_id, socks = started_shutbox(alice, bob, alice_signs_up=True)
        start = socks[0].last
        seq = start["seq"]
        mover = start["view"]["to_move"][0]
        me, other = socks[mover], socks[1 - mover]
        before = me.last["view"]
        watcher = anonymous.socket(table_id)
        watcher.wait_state()

        def refused(sock, frame, code: str) -> dict:
            sock.send(frame)
            message = sock.wait_for(lambda m: m["type"] == "refused")
            assert message["code"] == code, message
            assert message["reason"] and message["seq"] == seq
            return message

        refused(other, {"type": "action", "seq": seq, "action": "roll"}, "not_your_turn")
        refused(me, {"type": "action", "seq": seq + 1, "action": "roll"}, "stale")
        refused(me, {"type": "action", "seq": seq - 1, "action": "roll"}, "stale")
        refused(watcher, {"type": "action", "seq": seq, "action": "roll"}, "spectator")
        # the engine's own words for an illegal action (closing tiles before rolling)
        message = refused(me, {"type": "action", "seq": seq, "action": "shut 2 3"}, "illegal")
        history = Record(
            "shutbox", 2, {}, None, [h[1] if h[0] == -1 else f"{h[0]}: {h[1]}" for h in me.view["history"]]
        )
        state = replay(history)
        try:
            state.act(mover, "shut 2 3")
            raise AssertionError("the engine accepted what the server refused")
        except ValueError as exc:
            assert message["reason"] == str(exc)
        refused(me, {"type": "action", "seq": seq, "action": "fly away"}, "illegal")
        for frame in [
            "not json",
            b"\x00\x01binary",
            "x" * 5000,
            "[1, 2]",
            "null",
            {"type": "dance"},
            {"no": "type"},
            {"type": "action", "seq": str(seq), "action": "roll"},
            {"type": "action", "seq": True, "action": "roll"},
            {"type": "action", "seq": seq, "action": 5},
            {"type": "action", "seq": seq, "action": ["roll"]},
            {"type": "action", "seq": seq, "action": ""},
            {"type": "action", "seq": seq, "action": "roll " * 100},
            {"type": "action", "seq": seq},
        ]:
            refused(me, frame if isinstance(frame, (str, bytes)) else json.dumps(frame), "malformed")

        # nothing changed: same seq, same view, and no action stored
        me.send({"type": "sync"})
        fresh = me.wait_state(lambda m: True, new=True)
        assert fresh["seq"] == seq and fresh["view"] == before
        assert alice.table(table_id)["seq"] == seq

        # the connection still works, and a repeated message is applied once only
        me.send({"type": "action", "seq": seq, "action": "roll"})
        me.send({"type": "action", "seq": seq, "action": "roll"})
        duplicate = me.wait_for(lambda m: m["type"] == "refused")
        assert duplicate["code"] == "stale"
        after = me.wait_state(lambda m: m["seq"] > seq)
        assert [h for h in after["view"]["history"] if h[0] == mover] == [[mover, "roll"]]
        assert after["seq"] == seq + 2  # the roll and its dice
        me.send({"type": "ping"})
        me.wait_for(lambda m: m["type"] == "pong")
        for sock in [*socks, watcher]:
            sock.close()


def test_oversized_frames_close_and_foreign_origins_are_refused(sqlite_server) -> None:
    with clients(sqlite_server, 1) as (alice,):
        alice.guest("alice")
        table = alice.create("shutbox", 1)
        sock = alice.socket(table["id"])
        sock.wait_state()
        sock.send("x" * (2 * 1024 * 1024))
        assert closed(sock) == 1009
        other = alice.socket(table["id"])
        other.wait_state()
        other.send({"type": "ping"})
        other.wait_for(lambda m: m["type"] == "pong")
        other.close()
        url = f"{sqlite_server.ws_base}/ws/tables/{table['id']}"
        try:
            with connect(url, origin="http://evil.example", open_timeout=5) as ws:
                ws.recv(timeout=5)
            raise AssertionError("a foreign origin was served")
        except InvalidStatus as exc:
            assert exc.response.status_code == 403
        with connect(f"{sqlite_server.ws_base}/ws/tables/999", open_timeout=5) as ws:
            try:
                ws.recv(timeout=5)
                raise AssertionError("an unknown table was served")
            except ConnectionClosed as exc:
                assert exc.rcvd is not None and exc.rcvd.code == 4404


def test_racing_copies_of_one_action_are_applied_once(server) -> None:
    """Several connections of the same seat fire the same action at once: the table's actor
    handles them one at a time, so exactly one goes through; the others are stale."""
    with clients(server, 2) as (alice, bob):
        table_id, socks = started_shutbox(alice, bob, alice_signs_up=True)
        mover = socks[0].last["view"]["to_move"][0]
        owner = (alice, bob)[mover]
        copies = [socks[mover]] + [owner.socket(table_id) for _ in range(4)]
        for sock in copies:
            sock.wait_state(lambda m: m["view"] is not None)
        seq = copies[0].last["seq"]
        for sock in copies:
            sock.send({"type": "action", "seq": seq, "action": "roll"})
        refusals = 0
        for sock in copies:
            sock.wait_state(lambda m: m["seq"] > seq)
            sock.drain(0.3)
            refusals += len(sock.refusals)
        assert refusals == len(copies) - 1
        assert all(r["code"] == "stale" for sock in copies for r in sock.refusals)
        history = copies[0].last["view"]["history"]
        assert [h for h in history if h[0] == mover] == [[mover, "roll"]]
        assert alice.table(table_id)["seq"] == seq + 2
        for sock in [*copies, socks[1 - mover]]:
            sock.close()
