"""Quotas that hold when requests race on several server processes (issue 14): the strong-bot
quota is counted in the transaction that seats the bot, anonymous watchers hold counted places
in the database that a closed socket frees at once and a killed process frees within the lease.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from server_harness import Client, Seat, ServerProcess, clients, closed, play_out
from sqlalchemy import func, select
from test_processes import client_on, processes
from websockets.exceptions import ConnectionClosed

from nekobako.server.watchers import LEASE_SECONDS
from nekobako.store import open_database, quotas
from nekobako.store.schema import watchers

STRONG = ("--limit=open_tables=20", "--limit=strong_bot_tables=2", "--limit=server_strong_bot_tables=3")


@contextlib.contextmanager
def two_servers(database_url: str, tmp_path: Path, *args: str) -> Iterator[list[ServerProcess]]:
    """Two processes on PostgreSQL; on SQLite (one process only) the same process twice."""
    count = 2 if database_url.startswith("postgresql") else 1
    with processes(database_url, tmp_path, count, *args) as started:
        yield started * (3 - count)


def at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    """Every call started together (a barrier in front of each), their results in order."""
    barrier = threading.Barrier(len(calls))

    def run(call: Callable[[], Any]) -> Any:
        barrier.wait()
        return call()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


def test_the_strong_bot_quota_holds_when_two_processes_are_asked_at_once(database_url, tmp_path) -> None:
    """Two hosts ask for a searching bot at four tables each, the requests split over two
    processes and sent together, ten rounds: exactly three are seated (the server's limit), at
    most two per host, every other request is refused with 429 in the asker's language."""
    engine = open_database(database_url)
    with two_servers(database_url, tmp_path, *STRONG) as (first, second), clients(first, 2) as hosts:
        hosts[0].guest("alice")
        hosts[1].guest("bob")
        tables = {host.user["id"]: [host.create("shutbox", 2)["id"] for _ in range(4)] for host in hosts}
        askers = [
            (client_on(first if i % 2 else second, host), table)
            for host in hosts
            for i, table in enumerate(tables[host.user["id"]])
        ]
        for _ in range(10):
            answers = at_once(
                [
                    lambda c=client, t=table: c.http.post(
                        f"/api/tables/{t}/bots", json={"level": "ismcts", "seat": 1}, headers={"Accept-Language": "ja"}
                    )
                    for client, table in askers
                ]
            )
            assert sorted(a.status_code for a in answers) == [200] * 3 + [429] * 5, [a.text for a in answers]
            for answer in answers:
                if answer.status_code == 429:
                    assert answer.json()["code"] == "quota" and answer.json()["key"] in (
                        "error.quota_mine",
                        "error.quota_server",
                    )
                    assert "探索ボット" in answer.json()["error"]
            with engine.connect() as conn:
                strong = quotas.strong_tables(conn, {"ismcts"})
            assert len(strong) == 3
            assert max(list(strong.values()).count(host.user["id"]) for host in hosts) == 2
            for (client, table), answer in zip(askers, answers, strict=True):  # the places given back
                if answer.status_code == 200:
                    client.ok(client.delete(f"/api/tables/{table}/seats/1"))
        for client, _ in askers:
            client.close()
    engine.dispose()


def test_a_burst_of_guest_accounts_from_one_address_gets_exactly_the_limit(database_url, tmp_path) -> None:
    """Eight guest accounts asked for at once from one address, over two processes (one on
    SQLite, whose threads the database's write lock orders): three are made, five refused."""
    with two_servers(database_url, tmp_path, "--limit=guests_per_hour=3") as (first, second):
        askers = [Client(first if i % 2 else second) for i in range(8)]
        answers = at_once(
            [lambda c=client, i=i: c.post("/api/auth/guest", {"name": f"g{i}"}) for i, client in enumerate(askers)]
        )
        assert sorted(a.status_code for a in answers) == [201] * 3 + [429] * 5
        for client in askers:
            client.close()


def first_word(seat: Seat) -> int | None:
    """None when the socket was let in (its first message came), else its close code."""
    try:
        seat.ws.recv(timeout=15)
        return None
    except ConnectionClosed as exc:
        return exc.rcvd.code if exc.rcvd else -1


def watch(client: Client, table_id: int) -> tuple[Seat, int | None]:
    seat = client.socket(table_id)
    return seat, first_word(seat)


@pytest.mark.postgres
def test_anonymous_watchers_are_counted_across_processes_and_freed_on_leaving_and_on_death(
    postgres_url, tmp_path
) -> None:
    with (
        processes(postgres_url, tmp_path, 2, "--limit=anonymous_sockets=3") as (first, second),
        clients(first, 4) as on_first,
        clients(second, 5) as on_second,
    ):
        host = on_second[-1]
        host.guest("host")
        table_id = host.create("shutbox", 2)["id"]
        anonymous = [*on_first, *on_second[:4]]
        tried = at_once([lambda c=client: watch(c, table_id) for client in anonymous])
        assert sorted(code or 0 for _, code in tried) == [0] * 3 + [4429] * 5
        inside = [(seat, client) for (seat, code), client in zip(tried, anonymous, strict=True) if code is None]
        engine = open_database(postgres_url)
        with engine.connect() as conn:
            assert conn.execute(select(func.count()).select_from(watchers)).scalar_one() == 3

        def admitted_within(client: Client, seconds: float) -> tuple[Seat, float]:
            start = time.monotonic()
            while True:
                seat, code = watch(client, table_id)
                if code is None:
                    return seat, time.monotonic() - start
                assert code == 4429 and time.monotonic() - start < seconds, code
                time.sleep(0.1)

        # one leaves: the place is free at once, on the other process too
        leaving, client = inside.pop()
        leaving.close()
        elsewhere = on_second[0] if client in on_first else on_first[0]
        newcomer, waited = admitted_within(elsewhere, 2.0)
        assert waited < LEASE_SECONDS  # not by the lease running out
        inside.append((newcomer, elsewhere))
        # kill -9 of the first process: its watchers' places come back when their lease runs out
        if not any(c in on_first for _, c in inside):  # the first process holds a place when it dies
            inside.pop()[0].close()
            admitted_within(on_first[1], 2.0)
        first.kill()
        _, code = watch(on_second[1], table_id)
        assert code == 4429  # a dead process's places still count until their lease runs out
        _, waited = admitted_within(on_second[2], LEASE_SECONDS + 3.0)
        assert waited <= LEASE_SECONDS + 3.0
        engine.dispose()


@pytest.mark.postgres
def test_a_stalled_process_closes_a_watcher_whose_lapsed_place_was_given_away(postgres_url, tmp_path) -> None:
    """One anonymous place per table. The process of the one admitted watcher is stopped
    (SIGSTOP) past the places' lease, so the place goes to a watcher of the other process; when
    the stalled process wakes, its watcher finds no place left and is closed (4429): the limit
    holds after a stall, not only after a kill."""
    with (
        processes(postgres_url, tmp_path, 2, "--limit=anonymous_sockets=1") as (first, second),
        clients(first, 1) as (early,),
        clients(second, 2) as (host, late),
    ):
        host.guest("host")
        table_id = host.create("shutbox", 2)["id"]
        watched, code = watch(early, table_id)
        assert code is None
        assert first.proc is not None
        os.kill(first.proc.pid, signal.SIGSTOP)
        try:
            time.sleep(LEASE_SECONDS + 0.5)
            deadline = time.monotonic() + 10
            while (code := watch(late, table_id)[1]) is not None:  # the lapsed place is given away
                assert code == 4429 and time.monotonic() < deadline, code
                time.sleep(0.2)
        finally:
            os.kill(first.proc.pid, signal.SIGCONT)
        assert closed(watched, timeout=8) == 4429
        engine = open_database(postgres_url)
        with engine.connect() as conn:
            assert conn.execute(select(func.count()).select_from(watchers)).scalar_one() == 1
        engine.dispose()


@pytest.mark.postgres
def test_the_chat_rate_holds_when_one_person_writes_through_two_processes_at_once(postgres_url, tmp_path) -> None:
    """One person sends eight chat messages at the same moment, half through each of two
    processes, three rounds (the window of 10 s passed between them): exactly five are stored
    each time (5 per 10 s per person and table, counted in the database, not per process), the
    others refused with 429 `chat_rate`, and the table holds only the accepted ones."""
    from nekobako.server.chat import RATE

    count, window = RATE
    with processes(postgres_url, tmp_path, 2) as (first, second), clients(first, 1) as (alice,):
        alice.guest("alice")
        table_id = alice.create("shutbox", 2)["id"]
        senders = [alice, client_on(second, alice)] * 4
        accepted: list[str] = []
        for round_ in range(3):
            if round_:
                time.sleep(window + 0.5)
            answers = at_once(
                [
                    lambda c=client, i=i, r=round_: c.http.post(
                        f"/api/tables/{table_id}/chat", json={"text": f"r{r} m{i}"}
                    )
                    for i, client in enumerate(senders)
                ]
            )
            assert sorted(a.status_code for a in answers) == [201] * count + [429] * (8 - count)
            assert all(a.json()["code"] == "chat_rate" for a in answers if a.status_code == 429)
            accepted += [a.json()["text"] for a in answers if a.status_code == 201]
        stored = alice.ok(alice.get(f"/api/tables/{table_id}/chat"))["messages"]
        assert sorted(m["text"] for m in stored) == sorted(accepted)
        senders[1].close()


def test_a_rematch_counts_as_a_table_its_offerer_hosts(sqlite_url, tmp_path) -> None:
    """The new table of a rematch is hosted by whoever offered it: past their quota the last
    acceptance is refused in the reader's language and stores nothing; once they have room, the
    same acceptance makes the table."""
    with processes(sqlite_url, tmp_path, 1, "--limit=open_tables=1") as (server,), clients(server, 2) as (alice, bob):
        alice.guest("alice")
        bob.guest("bob")
        table_id = alice.create("shutbox", 2)["id"]
        bob.ok(bob.post(f"/api/tables/{table_id}/join"))
        alice.ok(alice.post(f"/api/tables/{table_id}/start"))
        socks = [alice.socket(table_id), bob.socket(table_id)]
        play_out(socks, random.Random(3))
        bob.ok(bob.post(f"/api/tables/{table_id}/rematch"))
        other = bob.create("shutbox", 2)["id"]  # bob hosts as many tables as one may
        refused = alice.http.post(f"/api/tables/{table_id}/rematch", headers={"Accept-Language": "ja"})
        assert refused.status_code == 429 and refused.json()["key"] == "error.rematch_hosting"
        assert "再戦を申し込んだ人" in refused.json()["error"]
        offer = alice.ok(alice.get(f"/api/tables/{table_id}/rematch"))["rematch"]
        assert [u["name"] for u in offer["accepted"]] == ["bob"] and offer["new_table"] is None
        bob.ok(bob.post(f"/api/tables/{other}/leave"))
        done = alice.ok(alice.post(f"/api/tables/{table_id}/rematch"))["rematch"]
        assert alice.table(done["new_table"])["host"]["name"] == "bob"
        for sock in socks:
            sock.close()
