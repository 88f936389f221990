"""Several server processes on one PostgreSQL database (issue 14): any process serves any table,
the database orders the changes, every change reaches every connection on every process, and
the bots and clock of a table move in one process at a time, taken over when it dies."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_harness import Client, ServerProcess, clients, free_port, play_out, running
from sqlalchemy.engine import make_url
from views_check import check_views

from nekobako.store import games, leases, open_database
from nekobako.store.games import LeaseLost, StaleCopy

pytestmark = pytest.mark.postgres


@contextlib.contextmanager
def processes(database_url: str, tmp_path: Path, count: int, *args: str) -> Iterator[list[ServerProcess]]:
    """`count` server processes on one database (started with time to spare: a loaded machine
    starts two Python processes slowly)."""
    started: list[ServerProcess] = []
    try:
        for index in range(count):
            server = ServerProcess(database_url, tmp_path / f"process-{index}.log", args)
            server.start(timeout=90)
            started.append(server)
        yield started
    finally:
        for server in started:
            server.stop()


def client_on(server: ServerProcess, other: Client) -> Client:
    """The same person (the same session cookie) talking to another process."""
    client = Client(server)
    client.http.cookies.update(other.http.cookies)
    client.user = other.user
    return client


def test_two_players_on_two_processes_play_to_the_end_and_see_the_same_states(postgres_url, tmp_path) -> None:
    rng = random.Random(14)
    with (
        processes(postgres_url, tmp_path, 2) as (first, second),
        clients(first, 2) as (alice, watcher_a),
        clients(second, 2) as (bob, watcher_b),
    ):
        alice.guest("alice")
        bob.guest("bob")
        table = alice.create("catbox", 3)
        table_id = table["id"]
        bob.ok(bob.post(f"/api/tables/{table_id}/join"))  # process 2 changes a table process 1 made
        alice.ok(alice.post(f"/api/tables/{table_id}/bots", {"level": "greedy", "fill": True}))
        seen_by_bob = bob.table(table_id)
        assert [s["kind"] for s in seen_by_bob["seats"]] == ["human", "human", "bot"]
        alice.ok(alice.post(f"/api/tables/{table_id}/start"))
        socks = [alice.socket(table_id), bob.socket(table_id)]
        watchers = [watcher_a.socket(table_id), watcher_b.socket(table_id)]
        for sock in socks + watchers:
            sock.wait_state(lambda m: m["view"] is not None)
        # who is connected, and chat, reach the other process too
        socks[0].wait_state(lambda m: [s["connected"] for s in m["table"]["seats"]] == [True, True, True])
        bob.ok(bob.post(f"/api/tables/{table_id}/chat", {"text": "hello from process 2"}), 201)
        heard = socks[0].wait_for(lambda m: m["type"] == "chat")
        assert heard["message"]["text"] == "hello from process 2"
        # simultaneous discards from two processes: the database orders them
        play_out(socks, rng, timeout=120)
        for sock in socks + watchers:
            sock.wait_state(lambda m: m["view"]["over"])
        record = alice.ok(alice.get(f"/api/tables/{table_id}/record"))
        assert record == bob.ok(bob.get(f"/api/tables/{table_id}/record"))
        # every view on either process is the engine's view of a prefix of the one record
        assert check_views(record, socks + watchers) > 50
        spectator = [{m["seq"]: m["view"] for m in w.states if m["view"]} for w in watchers]
        common = set(spectator[0]) & set(spectator[1])
        assert len(common) > 5 and all(spectator[0][s] == spectator[1][s] for s in common)
        assert watchers[0].last["view"] == watchers[1].last["view"]
        for sock in socks + watchers:
            sock.close()


def test_killing_the_process_that_drives_a_table_hands_it_to_another(postgres_url, tmp_path) -> None:
    """kill -9 of the process that drives the bots and the clock, mid-game: the other process takes
    the lease over within seconds, its clock hands the silent person's seat to a bot, and the bots
    finish the game; every action anyone saw accepted is in the record."""
    slow_bots = ("--bot-delay", "0.2")
    with (
        processes(postgres_url, tmp_path, 2, *slow_bots) as (driver, other),
        clients(driver, 1) as (alice,),
        clients(other, 1) as (bob,),
    ):
        alice.guest("alice")
        bob.guest("bob")
        table_id = alice.create("catbox", 3, clock={"kind": "realtime", "seconds": 5})["id"]
        bob.ok(bob.post(f"/api/tables/{table_id}/join"))
        alice.ok(alice.post(f"/api/tables/{table_id}/bots", {"level": "greedy", "fill": True}))
        alice.ok(alice.post(f"/api/tables/{table_id}/start"))  # the starting process drives it
        alice.ok(alice.post(f"/api/tables/{table_id}/leave"))  # a bot plays for alice from now on
        assert alice.ok(alice.get("/api/health"))["drives"] == 1
        sock = bob.socket(table_id)
        sock.wait_state(lambda m: m["view"] is not None)
        play_out([sock], random.Random(3), stop_at=20, timeout=90)
        sock.drain(0.3)
        before = sock.last
        assert before is not None and not before["view"]["over"]

        driver.kill()
        killed = time.monotonic()
        # bob now stays silent: only the other process's clock and bots can move the table
        moved = sock.wait_state(lambda m: m["seq"] > before["seq"] or m["view"]["over"], timeout=30)
        assert time.monotonic() - killed < 15, "the table was not taken over within seconds"
        assert moved is not None
        final = sock.wait_state(lambda m: m["view"]["over"], timeout=180)
        assert final["table"]["seats"][1]["replaced"] == "timeout"
        record = bob.ok(bob.get(f"/api/tables/{table_id}/record"))
        assert len(record["actions"]) == final["seq"] >= before["seq"]
        assert check_views(record, [sock]) > 10
        assert bob.ok(bob.get("/api/health"))["drives"] == 0  # finished: the lease was given up
        sock.close()


def _wait(condition: Any, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def test_a_process_stalled_past_its_lease_does_not_drive_the_table_when_it_wakes(postgres_url, tmp_path) -> None:
    """The process that drives a table is stopped (SIGSTOP) while its bot's chosen move waits at
    a gate (`bot_gate`); the other process takes the lease over and its own bot comes to the same
    position. The stalled process wakes (SIGCONT) with its gate open, so its bot submits at once,
    before its conductor can notice the lost lease: the commit is refused by the lease's fence
    and the table does not move until the new holder's bot moves."""
    gates = [tmp_path / f"gate-{i}" for i in range(2)]
    servers = []
    for index, gate in enumerate(gates):
        gate.mkdir()
        env = {"NEKOBAKO_TEST_FAULTS": "bot_gate", "NEKOBAKO_TEST_BOT_GATE": str(gate)}
        servers.append(ServerProcess(postgres_url, tmp_path / f"process-{index}.log", (), env))
    try:
        for server in servers:
            server.start(timeout=90)
        stalled, other = servers
        assert stalled.proc is not None
        with clients(stalled, 1) as (alice,), clients(other, 1) as (watcher,):
            alice.guest("alice")
            table_id = alice.create("shutbox", 2)["id"]
            alice.ok(alice.post(f"/api/tables/{table_id}/bots", {"level": "greedy", "seat": 1}))
            alice.ok(alice.post(f"/api/tables/{table_id}/start"))  # the starting process drives it
            assert alice.ok(alice.get("/api/health"))["drives"] == 1
            on_other = client_on(other, alice)
            sock = on_other.socket(table_id)  # alice plays through the other process
            rng = random.Random(32)
            deadline = time.monotonic() + 60
            while not (gates[0] / "waiting").exists():
                assert time.monotonic() < deadline, "the bot never came to move"
                sock.drain()
                sock.act_if_asked(rng)
            seq = watcher.table(table_id)["seq"]

            os.kill(stalled.proc.pid, signal.SIGSTOP)
            try:
                _wait(lambda: (gates[1] / "waiting").exists(), 30, "the other process did not take the table over")
                assert watcher.ok(watcher.get("/api/health"))["drives"] == 1
                (gates[0] / "open").touch()  # the stalled process's bot submits as soon as it wakes
            finally:
                os.kill(stalled.proc.pid, signal.SIGCONT)
            _wait(lambda: (gates[0] / "answered").exists(), 15, "the woken bot's move was never judged")
            time.sleep(0.5)
            assert watcher.table(table_id)["seq"] == seq, "the stalled process moved a table it no longer drives"
            _wait(lambda: alice.ok(alice.get("/api/health"))["drives"] == 0, 10, "the woken process still drives")
            assert "another process" in stalled.log_path.read_text()

            (gates[1] / "open").touch()  # the new holder's bot moves
            moved = sock.wait_state(lambda m: m["seq"] > seq, timeout=15)
            assert moved["view"]["history"]
            sock.close()
            on_other.close()
    finally:
        for server in servers:
            if server.proc is not None and server.proc.poll() is None:
                os.kill(server.proc.pid, signal.SIGCONT)
            server.stop()


def test_a_bot_move_chosen_before_a_reclaim_on_another_process_does_not_count(postgres_url, tmp_path) -> None:
    """The driving process's bot has chosen its move for bob's seat and waits at its gate; bob
    takes the seat back through the other process. Once the gate opens, the driver's copy is
    behind (the reclaim was committed elsewhere): its commit is refused as stale, the move is
    judged again against the table as it is, and refused: the position stays bob's."""
    gate = tmp_path / "gate"
    gate.mkdir()
    env = {"NEKOBAKO_TEST_FAULTS": "bot_gate", "NEKOBAKO_TEST_BOT_GATE": str(gate)}
    driver = ServerProcess(postgres_url, tmp_path / "driver.log", (), env)
    with processes(postgres_url, tmp_path, 1) as (other,):
        try:
            driver.start(timeout=90)
            with clients(driver, 2) as (alice, bob):
                alice.guest("alice")
                bob.guest("bob")
                table_id = alice.create("shutbox", 2)["id"]
                bob.ok(bob.post(f"/api/tables/{table_id}/join"))
                alice.ok(alice.post(f"/api/tables/{table_id}/start"))  # the driver claims it
                bob.ok(bob.post(f"/api/tables/{table_id}/leave"))
                sock = alice.socket(table_id)
                rng = random.Random(32)
                deadline = time.monotonic() + 60
                while not (gate / "waiting").exists():
                    assert time.monotonic() < deadline, "the bot never came to move"
                    sock.drain()
                    sock.act_if_asked(rng)
                seq = alice.table(table_id)["seq"]
                elsewhere = client_on(other, bob)
                elsewhere.ok(elsewhere.post(f"/api/tables/{table_id}/reclaim"))
                (gate / "open").touch()
                _wait(lambda: (gate / "answered").exists(), 15, "the bot's move was never judged")
                time.sleep(0.3)
                table = elsewhere.table(table_id)
                assert table["seats"][1]["kind"] == "human" and table["seq"] == seq
                sock.close()
                elsewhere.close()
        finally:
            driver.stop()


def test_a_process_stalled_past_its_lease_plays_no_clock_when_it_wakes(postgres_url, tmp_path) -> None:
    """The same with the clock: the process that drives a table is stopped before alice's due
    time; the other takes the lease over and, at the due time, its clock's move for alice waits
    at its gate. The stalled process wakes after the due time with its gate open, so its clock
    plays alice's turn at once: refused by the lease's fence, no `timeout` notice, nothing moves
    until the new holder's clock plays."""
    gates = [tmp_path / f"gate-{i}" for i in range(2)]
    servers = []
    for index, gate in enumerate(gates):
        gate.mkdir()
        env = {"NEKOBAKO_TEST_FAULTS": "bot_gate", "NEKOBAKO_TEST_BOT_GATE": str(gate)}
        servers.append(ServerProcess(postgres_url, tmp_path / f"process-{index}.log", (), env))
    try:
        for server in servers:
            server.start(timeout=90)
        stalled, other = servers
        assert stalled.proc is not None
        with clients(stalled, 2) as (alice, bob), clients(other, 1) as (watcher,):
            alice.guest("alice")
            bob.guest("bob")
            clock = {"kind": "realtime", "bank": 8}
            table_id = alice.create("shutbox", 2, clock=clock)["id"]
            bob.ok(bob.post(f"/api/tables/{table_id}/join"))
            started = alice.ok(alice.post(f"/api/tables/{table_id}/start"))  # this process drives it
            os.kill(stalled.proc.pid, signal.SIGSTOP)
            try:
                assert started["status"] == "running"
                seq = watcher.table(table_id)["seq"]
                _wait(lambda: (gates[1] / "waiting").exists(), 30, "the other process's clock never played")
                (gates[0] / "open").touch()  # the stalled process's clock plays as soon as it wakes
            finally:
                os.kill(stalled.proc.pid, signal.SIGCONT)
            _wait(lambda: (gates[0] / "answered").exists(), 15, "the woken clock's move was never judged")
            time.sleep(0.5)
            table = watcher.table(table_id)
            assert table["seq"] == seq, "the stalled process played a clock it no longer drives"
            assert not [n for n in table["notices"] if n["kind"] == "timeout"]
            (gates[1] / "open").touch()  # the new holder's clock plays alice's (or bob's) turn
            _wait(
                lambda: any(n["kind"] == "timeout" for n in watcher.table(table_id)["notices"]),
                15,
                "the new holder's clock did not play",
            )
            timeouts = [n for n in watcher.table(table_id)["notices"] if n["kind"] == "timeout"]
            assert len(timeouts) == 1 and timeouts[0]["data"]["count"] == 1
    finally:
        for server in servers:
            if server.proc is not None and server.proc.poll() is None:
                os.kill(server.proc.pid, signal.SIGCONT)
            server.stop()


def test_a_driver_change_commits_only_under_the_lease_it_names(database_url) -> None:
    """`Change.fence`: a change made under a lease commits while its holder holds that epoch;
    once another process claimed the table (a new epoch), it is refused with `LeaseLost` and
    changes nothing, while an unfenced change of the same batch commits."""
    engine = open_database(database_url)
    try:
        ids, revisions = _tables_with_one_moved_on(engine, 3, stale=2)
        first, second = ids[:2]
        assert leases.claim(engine, [first], "a", 100.0, 3.0) == {first: 1}
        assert leases.claim(engine, [first], "a", 101.0, 3.0) == {first: 1}  # ours already: the same epoch
        assert leases.claim(engine, [first], "b", 102.0, 3.0) == {}  # not run out yet
        ok = games.Change(first, revisions[first], values={"deadlines": {"0": 1.0}}, fence=("a", 1))
        assert games.commit_changes(engine, [ok]) == [revisions[first] + 1]
        assert leases.claim(engine, [first], "b", 105.0, 3.0) == {first: 2}  # a ran out: b's now
        assert leases.renew(engine, "a", 106.0, 3.0) == {}
        late = games.Change(first, revisions[first] + 1, values={"deadlines": {"0": 2.0}}, fence=("a", 1))
        plain = games.Change(second, revisions[second], values={"deadlines": {"0": 3.0}})
        late_result, plain_result = games.commit_changes(engine, [late, plain])
        assert isinstance(late_result, LeaseLost) and plain_result == revisions[second] + 1
        assert games.load_table(engine, first).deadlines == {"0": 1.0}
        fenced = games.Change(first, revisions[first] + 1, values={"deadlines": {"0": 4.0}}, fence=("b", 2))
        assert games.commit_changes(engine, [fenced]) == [revisions[first] + 2]
        assert leases.renew(engine, "b", 107.0, 3.0) == {first: 2}
        leases.release(engine, "b", [first])
        assert leases.claim(engine, [first], "a", 108.0, 3.0) == {first: 3}
    finally:
        engine.dispose()


def test_a_change_from_a_stale_copy_is_refused_and_changes_nothing(tmp_path) -> None:
    engine = open_database(f"sqlite:///{tmp_path / 'stale.db'}")
    try:
        from nekobako.store import accounts

        host = accounts.create_user(engine, "host", None)
        table_id = games.create_table(
            engine, game="shutbox", players=1, options={}, clock={"kind": "none"}, host_id=host["id"], seed=1
        )
        revision = games.load_table(engine, table_id).revision
        assert games.commit_change(engine, table_id, revision=revision, values={"seq": 0}) == revision + 1
        with pytest.raises(StaleCopy):  # a second writer that read the same revision
            games.commit_change(engine, table_id, revision=revision, values={"status": "abandoned"})
        row = games.load_table(engine, table_id)
        assert row.status == "open" and row.revision == revision + 1
    finally:
        engine.dispose()


def _tables_with_one_moved_on(engine: Any, count: int, stale: int) -> tuple[list[int], dict[int, int]]:
    """`count` new tables and the revisions a process read them at; table number `stale` is then
    changed by another writer, so a change computed from that revision is stale."""
    from nekobako.store import accounts

    host = accounts.create_user(engine, "host", None)
    ids = [
        games.create_table(
            engine, game="shutbox", players=1, options={}, clock={"kind": "none"}, host_id=host["id"], seed=i
        )
        for i in range(count)
    ]
    revisions = {t: games.load_table(engine, t).revision for t in ids}
    games.commit_change(engine, ids[stale], revision=revisions[ids[stale]], values={"seq": 0})
    return ids, revisions


def test_a_busy_process_commits_at_most_once_a_gap_and_a_lone_change_at_once(postgres_url) -> None:
    """Changes that keep coming (one a millisecond, to many tables) gather into transactions at
    least `Committer.GAP` apart, each storing its own changes; a change that finds the last
    transaction long past is committed at once, and one right after it waits for the gap."""
    import asyncio

    from nekobako.server.settings import Settings
    from nekobako.server.tables import Committer, Tables

    engine = open_database(postgres_url)
    try:
        ids, revisions = _tables_with_one_moved_on(engine, 40, stale=0)
        busy = ids[1:]

        async def main() -> tuple[int, list[Any], float, float, float]:
            tables = Tables(engine, Settings())
            committer = tables.committer
            try:
                started = time.monotonic()
                pending = []
                for t in busy:  # 39 changes over about 39 ms
                    change = games.Change(t, revisions[t], values={"seq": 1})
                    pending.append(asyncio.ensure_future(committer.commit(change)))
                    await asyncio.sleep(0.001)
                outcomes = await asyncio.gather(*pending)
                spread = time.monotonic() - started
                committer.GAP = 1.0  # a gap long enough to tell "at once" from "after the gap"
                await asyncio.sleep(1.1)
                clock = time.monotonic()
                await committer.commit(games.Change(ids[0], revisions[ids[0]] + 1, values={"seq": 2}))
                lone = time.monotonic() - clock
                await committer.commit(games.Change(ids[0], revisions[ids[0]] + 2, values={"seq": 3}))
                after = time.monotonic() - clock
                return committer.batches, outcomes, spread, lone, after
            finally:
                await tables.signals.stop()
                tables.workers.close()

        batches, outcomes, spread, lone, after = asyncio.run(main())
        assert outcomes == [revisions[t] + 1 for t in busy]
        busy_batches = batches - 2  # the two single changes came last
        assert 2 <= busy_batches <= spread / Committer.GAP + 1
        assert lone < 0.5 and after >= 0.95
        assert [games.load_table(engine, t).seq for t in busy] == [1] * len(busy)
    finally:
        engine.dispose()


def test_one_group_commit_tells_each_change_its_own_outcome(database_url) -> None:
    """A batch of changes to several tables (on PostgreSQL sent in one pipeline): a stale one is
    refused alone, the others are stored with their actions, and each gets its own answer."""
    engine = open_database(database_url)
    try:
        ids, revisions = _tables_with_one_moved_on(engine, 4, stale=1)
        stale = ids[1]
        batch = [
            games.Change(t, revisions[t], values={"seq": 2}, entries=(f"entry {t} a", f"entry {t} b")) for t in ids
        ]
        results = games.commit_changes(engine, batch)
        assert isinstance(results[1], StaleCopy)
        assert [r for i, r in enumerate(results) if i != 1] == [revisions[t] + 1 for t in ids if t != stale]
        for t in ids:
            stored = games.load_actions(engine, t)
            assert stored == ([] if t == stale else [f"entry {t} a", f"entry {t} b"])
            assert games.load_table(engine, t).revision == revisions[t] + 1
    finally:
        engine.dispose()


def test_plain_moves_of_one_batch_are_one_statement(postgres_url) -> None:
    """PostgreSQL writes a batch's plain moves as one statement (`games._send_moves`), beside a
    change of another shape in the same pipeline: the stale move is refused alone, every other
    table moves with its actions, clock and deadlines."""
    engine = open_database(postgres_url)
    try:
        ids, revisions = _tables_with_one_moved_on(engine, 5, stale=2)
        stale = ids[2]

        def move(t: int) -> games.Change:
            values = {"seq": 2, "deadlines": {"0": 1.5 + t}, "clock": {"kind": "none", "moved": t}}
            return games.Change(t, revisions[t], values=values, entries=(f"{t}: a", f"{t}: b"))

        other = games.Change(ids[4], revisions[ids[4]], values={"status": "abandoned"})
        results = games.commit_changes(engine, [*map(move, ids[:4]), other])
        assert isinstance(results[2], StaleCopy)
        assert [r for i, r in enumerate(results) if i != 2] == [revisions[t] + 1 for t in ids if t != stale]
        for t in ids[:4]:
            row = games.load_table(engine, t)
            if t == stale:
                assert games.load_actions(engine, t) == [] and row.deadlines == {}
                continue
            assert games.load_actions(engine, t) == [f"{t}: a", f"{t}: b"]
            assert (row.seq, row.deadlines, row.clock["moved"]) == (2, {"0": 1.5 + t}, t)
        assert games.load_table(engine, ids[4]).status == "abandoned"
    finally:
        engine.dispose()


def test_a_group_commit_sends_one_signal_of_its_stored_changes_after_committing(postgres_url) -> None:
    """The changes that wait together go into one transaction, and the other processes hear of
    them in one notification, sent after the commit (so it never holds PostgreSQL's notification
    lock through the disk flush) and naming only the tables that moved, at their new revisions."""
    import asyncio

    import orjson
    import psycopg

    from nekobako.server.settings import Settings
    from nekobako.server.signals import CHANNEL
    from nekobako.server.tables import Tables

    engine = open_database(postgres_url)
    listener = psycopg.connect(make_url(postgres_url).set(drivername="postgresql").render_as_string(False))
    try:
        listener.autocommit = True
        listener.execute(f"LISTEN {CHANNEL}")
        ids, revisions = _tables_with_one_moved_on(engine, 4, stale=1)

        async def commit_together() -> list[Any]:
            tables = Tables(engine, Settings())
            try:
                changes = [games.Change(t, revisions[t], values={"status": "abandoned"}) for t in ids]
                outcomes = await asyncio.gather(*map(tables.committer.commit, changes), return_exceptions=True)
                return [tables.committer.batches, *outcomes]
            finally:
                await tables.signals.stop()  # (what is in the outbox is sent first)
                tables.workers.close()

        batches, *outcomes = asyncio.run(commit_together())
        assert batches == 1 and isinstance(outcomes[1], StaleCopy)
        heard = [orjson.loads(n.payload) for n in listener.notifies(timeout=2)]
        expected = {str(t): revisions[t] + 1 for t in ids if t != ids[1]}
        assert [(m["k"], m["r"]) for m in heard] == [("tables", expected)]
    finally:
        listener.close()
        engine.dispose()


def test_signals_go_through_one_kept_connection_that_is_opened_again_after_it_breaks(postgres_url) -> None:
    """Every signal of a process goes out through its outbox's one connection; killed
    (PostgreSQL restarted, an operator's `pg_terminate_backend`), it is opened again and the
    signal that found it broken still arrives, after those before it."""
    import asyncio

    import orjson
    import psycopg

    from nekobako.server.signals import CHANNEL, SENDER_NAME, Signals

    engine = open_database(postgres_url)
    database = make_url(postgres_url).database
    admin = psycopg.connect(make_url(postgres_url).set(drivername="postgresql").render_as_string(False))
    admin.autocommit = True
    admin.execute(f"LISTEN {CHANNEL}")
    signals = Signals(engine, "sender")

    def senders(ending: int | None = None) -> list[int]:
        """The sending connections' server processes (one that is ending may take a moment to go)."""
        query = "SELECT pid FROM pg_stat_activity WHERE datname = %s AND application_name = %s"
        deadline = time.monotonic() + 5
        while True:
            pids = [row[0] for row in admin.execute(query, (database, SENDER_NAME))]
            if ending not in pids or time.monotonic() > deadline:
                return pids
            time.sleep(0.05)

    try:
        for n in range(3):
            signals.send({"k": "message", "t": 1, "m": {"n": n}})
        assert signals.outbox is not None and signals.outbox.drained(5)
        first = senders()
        assert len(first) == 1
        admin.execute("SELECT pg_terminate_backend(%s)", first)
        signals.send({"k": "message", "t": 1, "m": {"n": 3}})
        assert signals.outbox.drained(5) and signals.outbox.dropped == 0
        heard = [orjson.loads(n.payload) for n in admin.notifies(timeout=2, stop_after=4)]
        assert [(m["o"], m["m"]["n"]) for m in heard] == [("sender", n) for n in range(4)]
        again = senders(ending=first[0])
        assert len(again) == 1 and again != first
        asyncio.run(signals.stop())
        assert senders(ending=again[0]) == []
    finally:
        admin.close()
        engine.dispose()


def test_signals_never_wait_for_a_database_that_is_away(caplog) -> None:
    """With PostgreSQL unreachable, sending a signal returns at once and raises nothing: the
    outbox's thread logs once and drops what it cannot send (the other processes catch up by
    comparing revisions), and the outbox holds at most `OUTBOX_LIMIT` signals meanwhile."""
    import asyncio

    from sqlalchemy import create_engine

    from nekobako.server import signals as signals_module
    from nekobako.server.signals import OUTBOX_LIMIT, Signals

    engine = create_engine(f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/nowhere")
    signals = Signals(engine, "cut off")
    assert signals.outbox is not None
    sends = OUTBOX_LIMIT + 2 * signals_module.SIGNALS_PER_STATEMENT
    with caplog.at_level("WARNING", logger="nekobako.server"):
        for n in range(sends):
            signals.send({"k": "message", "t": 1, "m": {"n": n}})
        assert signals.outbox.queue.qsize() <= OUTBOX_LIMIT
        assert signals.outbox.drained(30)
        asyncio.run(signals.stop())
    assert signals.outbox.dropped == sends  # none sent, every one counted
    failures = [r for r in caplog.records if "sending signals to other processes failed" in r.getMessage()]
    assert len(failures) == 1


def test_several_processes_on_one_port(postgres_url, tmp_path) -> None:
    """`--workers 2`: two processes behind one port, one game played through both."""
    server = ServerProcess(postgres_url, tmp_path / "workers.log", ("--workers", "2"))
    server.start(timeout=90)  # two processes start (and import everything) at once
    try:
        with clients(server, 2) as (alice, bob):
            processes = set()
            deadline = time.monotonic() + 20
            while len(processes) < 2 and time.monotonic() < deadline:
                with httpx.Client(base_url=server.base) as fresh:  # a new connection may reach the other process
                    processes.add(fresh.get("/api/health").json()["process"])
            assert len(processes) == 2
            rng = random.Random(2)
            alice.guest("alice")
            bob.guest("bob")
            table_id = alice.create("shutbox", 2)["id"]
            bob.ok(bob.post(f"/api/tables/{table_id}/join"))
            alice.ok(alice.post(f"/api/tables/{table_id}/start"))
            socks = [alice.socket(table_id), bob.socket(table_id)]
            play_out(socks, rng, timeout=90)
            record = alice.ok(alice.get(f"/api/tables/{table_id}/record"))
            assert check_views(record, socks) > 2
            for sock in socks:
                sock.close()
    finally:
        server.stop()


@pytest.mark.parametrize("how", ["workers", "second process"])
def test_sqlite_is_served_by_one_process(how, tmp_path) -> None:
    url = f"sqlite:///{tmp_path / 'one.db'}"
    command = [sys.executable, "-m", "nekobako.server", "--port", str(free_port()), "--database-url", url]
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2] / "src"))
    if how == "workers":
        out = subprocess.run([*command, "--workers", "2"], capture_output=True, text=True, timeout=60, env=env)
    else:
        with running(url, tmp_path):
            out = subprocess.run(command, capture_output=True, text=True, timeout=60, env=env)
    assert out.returncode == 2
    assert "several server processes need PostgreSQL" in out.stderr


def test_rate_limits_and_quotas_hold_across_processes(postgres_url, tmp_path) -> None:
    limits = ("--limit", "guests_per_hour=3", "--limit", "open_tables=2")
    with (
        processes(postgres_url, tmp_path, 2, *limits) as (first, second),
        clients(first, 2) as (a, b),
        clients(second, 2) as (c, d),
    ):
        a.guest("a")
        c.guest("c")
        b.guest("b")
        refused = d.post("/api/auth/guest", {"name": "d"})  # the fourth from one address, on another process
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
        a.create("shutbox", 2)
        elsewhere = client_on(second, a)
        elsewhere.create("shutbox", 2)
        third = elsewhere.post("/api/tables", {"game": "shutbox", "seats": 2, "options": {}})
        assert third.status_code == 429 and third.json()["code"] == "quota"
        assert a.post("/api/tables", {"game": "shutbox", "seats": 2, "options": {}}).status_code == 429


def test_the_chat_rate_limit_holds_across_processes(postgres_url, tmp_path) -> None:
    """One person writing through two processes by turns: the sixth message within ten seconds is
    refused (in the person's language) by whichever process it reaches, and nothing is stored."""
    with processes(postgres_url, tmp_path, 2) as (first, second), clients(first, 1) as (alice,):
        alice.guest("alice")
        table_id = alice.create("shutbox", 2)["id"]
        elsewhere = client_on(second, alice)
        both = [alice, elsewhere]
        japanese = {"Accept-Language": "ja"}
        for i in range(5):
            sent = both[i % 2].http.post(f"/api/tables/{table_id}/chat", json={"text": f"m{i}"}, headers=japanese)
            assert sent.status_code == 201, sent.text
        for client in both:  # the sixth, on either process
            refused = client.http.post(f"/api/tables/{table_id}/chat", json={"text": "one too many"}, headers=japanese)
            assert refused.status_code == 429
            body = refused.json()
            assert body["code"] == "chat_rate" and body["key"] == "error.chat.rate"
            assert "10秒に5件までです" in body["error"], body
        stored = alice.ok(alice.get(f"/api/tables/{table_id}/chat"))["messages"]
        assert [m["text"] for m in stored] == [f"m{i}" for i in range(5)]
        elsewhere.close()


def test_queueing_a_signal_takes_no_lock_the_outbox_thread_holds() -> None:
    """The event loop queues signals while the outbox's thread may be holding its own lock (it
    does after every batch, to wake `drained`); a `put` that waited for it would stall every table
    of the process behind the thread's turn for the interpreter lock."""
    import threading

    from sqlalchemy import create_engine

    from nekobako.server.signals import Signals

    engine = create_engine(f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/nowhere")
    signals = Signals(engine, "cut off")
    outbox = signals.outbox
    assert outbox is not None
    with outbox._sent:  # what the thread holds while it tells `drained` a batch is done
        putter = threading.Thread(target=signals.send, args=({"k": "message", "t": 1, "m": {}},))
        putter.start()
        putter.join(2)
        assert not putter.is_alive()
    assert outbox.drained(30) and outbox.dropped == 1
    outbox.close()
