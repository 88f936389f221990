"""A real server process and real clients for the server tests: `python -m nekobako.server` on a
free port with its own database, httpx for REST and the `websockets` library for play."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

PYTHON = sys.executable
# How long a harness waits for a started server to answer (the browser tests' harness too): under
# heavy load on the shared machine a start has taken more than 30 s; a healthy one answers in ~1 s.
START_SECONDS = 60.0
QUIET = ("--bot-delay", "0", "--log-level", "warning", "--no-warm-bots")  # warm-up: test_bot_warm_up.py
SRC = Path(__file__).resolve().parents[2] / "src"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ServerProcess:
    """`python -m nekobako.server` as a child process; `kill()` is SIGKILL (a crash, no cleanup)."""

    def __init__(
        self, database_url: str, log_path: Path, args: tuple[str, ...] = (), env: dict[str, str] | None = None
    ):
        self.database_url = database_url
        self.log_path = log_path
        self.args = args  # more command-line options (limits, settings)
        self.env = env or {}  # e.g. NEKOBAKO_TEST_FAULTS
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = START_SECONDS, same_port: bool = False) -> None:
        if not same_port:
            self.port = free_port()
        env = dict(os.environ, PYTHONPATH=str(SRC), **self.env)
        log = self.log_path.open("ab")
        self.proc = subprocess.Popen(
            [
                *(PYTHON, "-m", "nekobako.server", "--port", str(self.port)),
                *("--database-url", self.database_url, *QUIET, *self.args),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}:\n{self.log_path.read_text()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.base + "/api/games", timeout=1).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError(f"server did not answer within {timeout}s:\n{self.log_path.read_text()}")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


@contextlib.contextmanager
def running(database_url: str, tmp_path: Path, *args: str, **env: str) -> Iterator[ServerProcess]:
    """A server process with extra options or injected faults, stopped afterwards."""
    server = ServerProcess(database_url, tmp_path / f"server-{random.getrandbits(24):06x}.log", args, env)
    server.start()
    try:
        yield server
    finally:
        server.stop()


class Client:
    """One browser's worth of state: an httpx client with its cookies, and table sockets."""

    def __init__(self, server: ServerProcess):
        self.server = server
        self.http = httpx.Client(base_url=server.base, timeout=15)
        self.user: dict[str, Any] | None = None

    def close(self) -> None:
        self.http.close()

    def post(self, path: str, body: Any = None) -> httpx.Response:
        return self.http.post(path, json=body) if body is not None else self.http.post(path)

    def delete(self, path: str) -> httpx.Response:
        return self.http.delete(path)

    def get(self, path: str, **params: Any) -> httpx.Response:
        return self.http.get(path, params=params)

    def ok(self, response: httpx.Response, status: int = 200) -> Any:
        assert response.status_code == status, f"{response.status_code} {response.text}"
        return response.json()

    def signup(self, name: str, password: str = "correct horse") -> dict[str, Any]:
        self.user = self.ok(self.post("/api/auth/signup", {"name": name, "password": password}), 201)
        return self.user

    def guest(self, name: str) -> dict[str, Any]:
        self.user = self.ok(self.post("/api/auth/guest", {"name": name}), 201)
        return self.user

    def create(self, game: str, seats: int, options: dict[str, Any] | None = None, clock: Any = None) -> dict:
        body: dict[str, Any] = {"game": game, "seats": seats, "options": options or {}}
        if clock is not None:
            body["clock"] = clock
        return self.ok(self.post("/api/tables", body), 201)

    def table(self, table_id: int) -> dict[str, Any]:
        return self.ok(self.get(f"/api/tables/{table_id}"))

    def socket(self, table_id: int, seat: int | None = None, lang: str | None = None) -> Seat:
        """A table socket; `lang` asks for notices in that language (`?lang=`)."""
        token = self.http.cookies.get("nekobako_session")
        headers = {"Cookie": f"nekobako_session={token}"} if token else {}
        url = f"{self.server.ws_base}/ws/tables/{table_id}" + (f"?lang={lang}" if lang else "")
        ws = connect(url, additional_headers=headers, open_timeout=10, close_timeout=1, legacy=True)
        return Seat(ws)


class Seat:
    """A table WebSocket that keeps every message it received."""

    def __init__(self, ws: ClientConnection):
        self.ws = ws
        self.messages: list[dict[str, Any]] = []
        self.states: list[dict[str, Any]] = []
        self.refusals: list[dict[str, Any]] = []
        self.last: dict[str, Any] | None = None
        self.pending: int | None = None  # own history count when an action was sent
        self.refusals_at_send = 0

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()

    def send(self, data: Any) -> None:
        self.ws.send(data if isinstance(data, (str, bytes)) else json.dumps(data))

    def receive(self, timeout: float) -> dict[str, Any] | None:
        try:
            raw = self.ws.recv(timeout=timeout)
        except TimeoutError:
            return None
        message = json.loads(raw)
        self.messages.append(message)
        if message["type"] == "state":
            self.states.append(message)
            self.last = message
        elif message["type"] == "refused":
            self.refusals.append(message)
        return message

    def drain(self, timeout: float = 0.005) -> None:
        while self.receive(timeout) is not None:
            pass

    def wait_for(self, predicate: Any, timeout: float = 15.0) -> dict[str, Any]:
        """Receive until a message satisfies `predicate`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            message = self.receive(max(0.01, deadline - time.monotonic()))
            if message is not None and predicate(message):
                return message
        raise AssertionError(f"no matching message within {timeout}s; last: {json.dumps(self.last)[:2000]}")

    def wait_state(self, predicate: Any = lambda m: True, timeout: float = 15.0, new: bool = False) -> dict[str, Any]:
        """The latest state message if it satisfies `predicate` (unless `new`), else the next one that does."""
        if not new and self.last is not None and predicate(self.last):
            return self.last
        return self.wait_for(lambda m: m["type"] == "state" and predicate(m), timeout)

    @property
    def view(self) -> dict[str, Any] | None:
        return self.last["view"] if self.last else None

    def own_moves(self) -> int:
        view = self.view
        if not view:
            return 0
        return sum(1 for seat, _ in view["history"] if seat == view["seat"])

    def act_if_asked(self, rng: random.Random) -> bool:
        """Send a random legal action when this seat is to move and has no action in flight. An
        action is in flight until the seat's own history grows, it is no longer to move, or a
        refusal arrives (a game may hide a simultaneous choice from the history for a while)."""
        view = self.view
        if not view or view["over"] or not view["legal"]:
            self.pending = None
            return False
        if self.pending is not None and self.own_moves() <= self.pending and not self.refused_since_send():
            return False
        self.pending = self.own_moves()
        self.refusals_at_send = len(self.refusals)
        assert self.last is not None
        self.send({"type": "action", "seq": self.last["seq"], "action": rng.choice(view["legal"])})
        return True

    def refused_since_send(self) -> bool:
        return len(self.refusals) > self.refusals_at_send


def play_out(seats: list[Seat], rng: random.Random, timeout: float = 60.0, stop_at: int | None = None) -> None:
    """Let these sockets' seats play random legal actions until the game ends (or `seq >= stop_at`)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for seat in seats:
            seat.drain()
            if seat.view and (seat.view["over"] or (stop_at is not None and seat.view["seq"] >= stop_at)):
                return
            seat.act_if_asked(rng)
    raise AssertionError("the game did not finish in time")


def closed(seat: Seat, timeout: float = 5.0) -> int | None:
    """Wait until the server closes the socket; its close code."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            seat.ws.recv(timeout=0.2)
        except TimeoutError:
            continue
        except ConnectionClosed as exc:
            return exc.rcvd.code if exc.rcvd else None
    return None


@contextlib.contextmanager
def clients(server: ServerProcess, count: int) -> Iterator[list[Client]]:
    made = [Client(server) for _ in range(count)]
    try:
        yield made
    finally:
        for client in made:
            client.close()


def started_shutbox(
    alice: Client, bob: Client, *, clock: dict | None = None, alice_signs_up: bool = False
) -> tuple[int, list[Seat]]:
    """A started 2-player Shut the Box table (alice hosts, bob joins as a guest) and both players'
    sockets, each holding the first view."""
    if alice_signs_up:
        alice.signup("alice")
    else:
        alice.guest("alice")
    bob.guest("bob")
    table = alice.create("shutbox", 2, clock=clock)
    bob.ok(bob.post(f"/api/tables/{table['id']}/join"))
    alice.ok(alice.post(f"/api/tables/{table['id']}/start"))
    socks = [alice.socket(table["id"]), bob.socket(table["id"])]
    for sock in socks:
        sock.wait_state(lambda m: m["view"] is not None)
    return table["id"], socks
