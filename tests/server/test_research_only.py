"""Research configurations (issue 30): small games for solvers are never offered at a table and the
server refuses them with a clear error in the reader's language, changing nothing."""

from __future__ import annotations

from server_harness import clients


def test_a_research_configuration_is_refused_at_a_table(server) -> None:
    with clients(server, 1) as (alice,):
        alice.guest("alice")
        for options in ({"tiles": 4}, {"tiles": "2"}, {"length": "one"}):
            answer = alice.post("/api/tables", {"game": "shutbox", "seats": 2, "options": options})
            assert answer.status_code == 400, answer.text[:300]
            body = answer.json()
            assert body["code"] == "invalid_options" and "research configuration" in body["error"]
        small = {"game": "catbox", "seats": 2, "options": {"side": "small"}}
        answer = alice.post("/api/tables", small)
        assert answer.status_code == 400 and answer.json()["code"] == "invalid_options", answer.text[:300]
        assert "'side' = small is a research configuration" in answer.json()["error"]
        answer = alice.http.post("/api/tables", json=small, headers={"Accept-Language": "ja"})
        assert answer.status_code == 400 and "研究用" in answer.json()["error"], answer.text[:300]
        assert alice.ok(alice.get("/api/tables"))["tables"] == []
        games = alice.ok(alice.get("/api/games"))
        shutbox = next(g for g in games["games"] if g["name"] == "shutbox")
        tiles = next(o for o in shutbox["options"] if o["name"] == "tiles")
        assert tiles["choices"] == [9, 10, 12]  # the lobby offers only the table's values
        catbox = next(g for g in games["games"] if g["name"] == "catbox")
        side = next(o for o in catbox["options"] if o["name"] == "side")
        assert side["choices"] == ["white", "purple"]
