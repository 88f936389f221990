"""Simultaneous decisions: while several seats choose at once, another seat's choice does not make
your answer stale; your own repeated answer is."""

from __future__ import annotations

from server_harness import clients


def test_discards_answer_the_same_position(server) -> None:
    with clients(server, 3) as (alice, bob, carol):
        alice.signup("alice")
        bob.guest("bob")
        carol.guest("carol")
        table = alice.create("catbox", 3)
        table_id = table["id"]
        bob.ok(bob.post(f"/api/tables/{table_id}/join"))
        carol.ok(carol.post(f"/api/tables/{table_id}/join"))
        alice.ok(alice.post(f"/api/tables/{table_id}/start"))
        socks = [c.socket(table_id) for c in (alice, bob, carol)]
        views = [s.wait_state(lambda m: m["view"] is not None and m["view"]["legal"]) for s in socks]
        seq = views[0]["seq"]
        assert all(v["seq"] == seq for v in views)
        assert sorted(views[0]["view"]["to_move"]) == [0, 1, 2]  # everyone discards at once

        a, b, c = socks
        a.send({"type": "action", "seq": seq, "action": views[0]["view"]["legal"][0]})
        b.wait_state(lambda m: m["seq"] == seq + 1)  # bob sees that alice has chosen...
        assert b.last["view"]["legal"] == views[1]["view"]["legal"]
        b.send({"type": "action", "seq": seq, "action": views[1]["view"]["legal"][0]})  # ...and answers seq anyway
        c.wait_state(lambda m: m["seq"] == seq + 2)
        c.send({"type": "action", "seq": seq, "action": views[2]["view"]["legal"][-1]})
        done = a.wait_state(lambda m: m["seq"] == seq + 3)
        assert all(s.refusals == [] for s in socks)
        assert done["view"]["phase"] != "discard"
        # a discard sent again for the old position is stale now
        a.send({"type": "action", "seq": seq, "action": views[0]["view"]["legal"][0]})
        assert a.wait_for(lambda m: m["type"] == "refused")["code"] in ("stale", "not_your_turn")
        assert alice.table(table_id)["seq"] == seq + 3
        for sock in socks:
            sock.close()
