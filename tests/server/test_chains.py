"""Chains (issue 14): quick bots that move right after a person (or another bot) move at once, and
their moves go into the same transaction as the move before them. The guarantees stay: every
position reaches every reader as a message of its own (the browser paces them), on this process
and on the others, and a process that dies between the commit and the announcement loses
nothing."""

from __future__ import annotations

import contextlib
import json
import random
import subprocess
import time
from pathlib import Path

import pytest
from server_harness import Client, Seat, clients, play_out, running
from test_processes import client_on, processes
from views_check import check_views
from websockets.sync.client import connect

from nekobako.engine import CHANCE, parse_entry
from nekobako.server.faults import EXIT_STATUS
from nekobako.store import games, open_database


def positions(actions: list[str]) -> list[int]:
    """The seq of every position a reader is shown: after each move and the chance steps that
    follow it (the opening deal is the first state a reader gets, not counted)."""
    out: list[int] = []
    for index, entry in enumerate(actions):
        if parse_entry(entry)[0] != CHANCE:
            out.append(index + 1)
        elif out:
            out[-1] = index + 1
    return out


def greedy_table(alice: Client) -> int:
    """A started 3-player Cat in the Box table: alice and two greedy bots."""
    alice.guest("alice")
    table_id = alice.create("catbox", 3)["id"]
    alice.ok(alice.post(f"/api/tables/{table_id}/bots", {"level": "greedy", "fill": True}))
    alice.ok(alice.post(f"/api/tables/{table_id}/start"))
    return table_id


def commits(client: Client) -> int:
    return int(client.ok(client.get("/api/health"))["commits"]["changes"])


def shown_one_by_one(record: dict, sock: Seat) -> None:
    """Every position after the socket's first state was sent to it as a message of its own."""
    seen = {m["seq"] for m in sock.states}
    missing = [seq for seq in positions(record["actions"]) if seq > sock.states[0]["seq"] and seq not in seen]
    assert not missing, f"positions never sent on their own: {missing[:10]}"


def test_bots_answering_a_person_are_one_commit_and_every_position_its_own_message(tmp_path: Path) -> None:
    with running(f"sqlite:///{tmp_path / 'chains.db'}", tmp_path) as server, clients(server, 1) as (alice,):
        table_id = greedy_table(alice)
        sock = alice.socket(table_id)
        sock.wait_state(lambda m: m["view"] is not None)
        before = commits(alice)
        play_out([sock], random.Random(14), timeout=120)
        committed = commits(alice) - before
        record = alice.ok(alice.get(f"/api/tables/{table_id}/record"))
        moves = len(positions(record["actions"]))
        # two greedy bots answer each of alice's moves in her move's transaction
        assert moves > 20 and committed * 2 < moves, (committed, moves)
        shown_one_by_one(record, sock)
        seqs = [m["seq"] for m in sock.states]
        assert seqs == sorted(seqs), "a position was sent after a later one"
        assert check_views(record, [sock]) >= moves
        sock.close()


@pytest.mark.postgres
def test_a_chain_reaches_the_other_process_position_by_position(postgres_url: str, tmp_path: Path) -> None:
    """alice plays through the process that drives the table; a watcher and alice's second tab on
    the other process are sent each position of each chain on its own."""
    with processes(postgres_url, tmp_path, 2) as (driver, other), clients(driver, 1) as (alice,):
        table_id = greedy_table(alice)
        watcher = Client(other)
        there = client_on(other, alice)
        try:
            socks = [alice.socket(table_id), watcher.socket(table_id), there.socket(table_id)]
            for sock in socks:
                sock.wait_state(lambda m: m["view"] is not None)
            rng, deadline = random.Random(7), time.monotonic() + 120
            while not (socks[0].view and socks[0].view["over"]) and time.monotonic() < deadline:
                for sock in socks:  # every reader keeps up (one far behind is sent positions coalesced)
                    sock.drain()
                socks[0].act_if_asked(rng)
            for sock in socks[1:]:
                sock.wait_state(lambda m: m["view"]["over"], timeout=30)
            record = alice.ok(alice.get(f"/api/tables/{table_id}/record"))
            for sock in socks:
                shown_one_by_one(record, sock)
                seqs = [m["seq"] for m in sock.states]
                assert seqs == sorted(seqs), "a position was sent after a later one"
            assert check_views(record, socks) > 3 * len(positions(record["actions"])) // 2
            for sock in socks:
                sock.close()
        finally:
            watcher.close()
            there.close()


@pytest.mark.postgres
def test_a_process_dying_between_commit_and_announce_loses_nothing(postgres_url: str, tmp_path: Path) -> None:
    """The driving process exits right after committing alice's move with the bots' answers,
    before telling anyone: the other process shows every position of that chain, takes the
    table over, and the game goes on from there."""
    with (
        running(postgres_url, tmp_path, NEKOBAKO_TEST_FAULTS="exit_after_commit") as driver,
        processes(postgres_url, tmp_path, 1) as (other,),
        clients(driver, 1) as (alice,),
    ):
        table_id = greedy_table(alice)
        watcher = Client(other)
        there = client_on(other, alice)
        try:
            far = watcher.socket(table_id)
            far.wait_state(lambda m: m["view"] is not None)
            sock = alice.socket(table_id)
            assert driver.proc is not None
            sent = -1
            for _ in range(40):  # alice moves until a move of hers is answered by both bots at once
                far.drain()  # the watcher keeps up (one far behind is sent positions coalesced)
                state = sock.wait_state(lambda m, after=sent: bool(m["view"]["legal"]) and m["seq"] > after)
                sent = state["seq"]
                sock.send({"type": "action", "seq": state["seq"], "action": state["view"]["legal"][0]})
                with contextlib.suppress(subprocess.TimeoutExpired):
                    assert driver.proc.wait(timeout=1) == EXIT_STATUS
                    break
            died = time.monotonic()
            engine = open_database(postgres_url)
            try:
                stored = games.load_actions(engine, table_id)
            finally:
                engine.dispose()
            assert time.monotonic() - died < 1.5, "read before another process could drive the bots"
            assert parse_entry(stored[state["seq"]])[0] == state["seat"], "alice's move is stored"
            chain = [state["seq"] + seq for seq in positions(stored[state["seq"] :])]
            assert len(chain) >= 3, "the bots' answers were committed with alice's move"
            far.wait_state(lambda m: m["seq"] >= chain[-1], timeout=10)
            assert [m["seq"] for m in far.states if m["seq"] > state["seq"]] == chain
            # the other process takes the table over; alice goes on there
            mine = there.socket(table_id)
            mine.wait_state(lambda m: m["view"] is not None)
            play_out([mine], random.Random(5), timeout=120)
            final = there.ok(there.get(f"/api/tables/{table_id}/record"))
            assert final["actions"][: len(stored)] == stored
            mine.close()
            far.close()
        finally:
            watcher.close()
            there.close()


def test_with_batch_the_positions_of_a_chain_come_in_one_frame_in_order(tmp_path: Path) -> None:
    """`?batch=1` (the browser's choice): what the server has ready at once is one frame holding a
    JSON array of the messages, in order; without it, each message is a frame of its own."""
    with running(f"sqlite:///{tmp_path / 'batch.db'}", tmp_path) as server, clients(server, 1) as (alice,):
        table_id = greedy_table(alice)
        cookie = {"Cookie": f"nekobako_session={alice.http.cookies.get('nekobako_session')}"}
        url = f"{server.ws_base}/ws/tables/{table_id}?batch=1"
        answers: list[list[int]] = []  # the seqs of the states in the frame answering each move
        with connect(url, additional_headers=cookie, open_timeout=10) as ws:
            state: dict = {}
            sent = None
            while len(answers) < 12:
                data = json.loads(ws.recv(timeout=15))
                frame = data if isinstance(data, list) else [data]
                seqs = [m["seq"] for m in frame if m["type"] == "state"]
                assert seqs == sorted(set(seqs)), seqs
                state = next((m for m in reversed(frame) if m["type"] == "state"), state)
                if sent is not None and seqs and seqs[-1] > sent:
                    answers.append(seqs)
                    sent = None
                if sent is None and state.get("view") and state["view"]["legal"]:
                    sent = state["seq"]
                    ws.send(json.dumps({"type": "action", "seq": sent, "action": state["view"]["legal"][0]}))
        # alice's move and both bots' answers: three positions in one frame
        assert any(len(seqs) >= 3 for seqs in answers), answers
