"""The lobby's push (`/ws/lobby`, server/lobby_feed.py): an open lobby page is told when the tables
change — made here, or on another process of the same PostgreSQL database — at most once a
period, and refused from another site's page."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from server_harness import Client, ServerProcess
from test_processes import processes
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect


def lobby(server: ServerProcess, **headers: str) -> ClientConnection:
    return connect(f"{server.ws_base}/ws/lobby", additional_headers=headers, open_timeout=10, legacy=True)


def told(socket: ClientConnection, within: float = 5.0) -> list[dict]:
    """The messages that arrive within `within` seconds of the first (waiting that long for it)."""
    out = [json.loads(socket.recv(timeout=within))]
    deadline = time.monotonic() + 1.5
    while (left := deadline - time.monotonic()) > 0:
        try:
            out.append(json.loads(socket.recv(timeout=left)))
        except TimeoutError:
            break
    return out


def quiet(socket: ClientConnection, for_seconds: float = 1.5) -> bool:
    try:
        socket.recv(timeout=for_seconds)
    except TimeoutError:
        return True
    return False


def test_a_lobby_page_is_told_of_new_tables_and_their_changes_not_of_every_one(sqlite_server) -> None:
    page = lobby(sqlite_server)
    assert quiet(page)  # nothing happens: nothing said
    host = Client(sqlite_server)
    host.guest("Pusher")
    table = host.create("catbox", 3)["id"]
    first = told(page)
    assert first[0]["type"] == "tables" and isinstance(first[0]["revision"], int)

    # a burst of changes (two bots, the start, the bots' first moves) is told in a few messages,
    # never one per change, each with a newer revision
    for seat in (1, 2):
        host.ok(host.post(f"/api/tables/{table}/bots", {"level": "random", "seat": seat}))
    host.ok(host.post(f"/api/tables/{table}/start"))
    burst = told(page)
    revisions = [m["revision"] for m in [*first, *burst]]
    assert revisions == sorted(set(revisions)) and 1 <= len(burst) <= 3
    page.close()


def test_another_sites_page_is_refused_and_a_talking_one_closed(sqlite_server) -> None:
    with pytest.raises(InvalidStatus):
        lobby(sqlite_server, Origin="https://elsewhere.example")
    page = lobby(sqlite_server)
    page.send('{"type":"ping"}')  # a ping is fine
    assert quiet(page, 0.5)
    page.send("x" * 5000)
    with pytest.raises(ConnectionClosed) as closed:
        page.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008


@pytest.mark.postgres
def test_a_table_made_on_another_process_is_told_to_this_ones_lobby(postgres_url: str, tmp_path: Path) -> None:
    with processes(postgres_url, tmp_path, 2) as (here, there):
        page = lobby(here)
        assert quiet(page, 1.0)
        host = Client(there)
        host.guest("Elsewhere")
        table = host.create("shutbox", 2)["id"]  # made there: told here by a signal
        assert told(page)[0]["type"] == "tables"
        host.ok(host.post(f"/api/tables/{table}/bots", {"level": "random", "seat": 1}))  # changed there
        assert told(page)[0]["type"] == "tables"
        page.close()
