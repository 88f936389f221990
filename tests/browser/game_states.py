"""Tables brought to a chosen position without a browser: a guest over HTTP creates the table,
random bots fill the other seats, and the guest's moves are random legal actions sent over the
WebSocket until `stop(view)` holds on the guest's own turn (the bots then wait for the guest) or
the game is over; with `again`, a game that ended before `stop` held (the dice or the deal of that
table's random seed) is followed by up to that many new tables. The browser then opens the table
with the guest's session cookie."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass

import httpx
from websockets.sync.client import connect

COOKIE = "nekobako_session"


@dataclass
class Seated:
    table: int
    cookie: str
    over: bool = False  # the game ended before `stop` held

    def open_in(self, context, server) -> None:
        """Give a browser context this guest's session."""
        context.add_cookies([{"name": COOKIE, "value": self.cookie, "url": server.url}])


def play_to(
    server,
    game: str,
    seats: int,
    stop: Callable[[dict], bool],
    *,
    seed: int = 3,
    name: str = "Ada",
    options=None,
    again: int = 0,
) -> Seated:
    for _ in range(again):
        seated = _play_to(server, game, seats, stop, seed=seed, name=name, options=options)
        if not seated.over:
            return seated
    return _play_to(server, game, seats, stop, seed=seed, name=name, options=options)


def _play_to(server, game: str, seats: int, stop: Callable[[dict], bool], *, seed: int, name: str, options) -> Seated:
    http = httpx.Client(base_url=server.url, timeout=15)
    http.post("/api/auth/guest", json={"name": name}).raise_for_status()
    body = {"game": game, "seats": seats, "options": options or {}}
    table = http.post("/api/tables", json=body).json()["id"]
    for seat in range(1, seats):
        http.post(f"/api/tables/{table}/bots", json={"level": "random", "seat": seat}).raise_for_status()
    http.post(f"/api/tables/{table}/start").raise_for_status()
    cookie = http.cookies.get(COOKIE)
    rng = random.Random(seed)
    answered = -1
    headers = {"Cookie": f"{COOKIE}={cookie}"}
    with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table}", additional_headers=headers) as ws:
        while True:
            msg = json.loads(ws.recv(timeout=30))
            view = msg.get("view") if msg.get("type") == "state" else None
            if view is None:
                continue
            mine = bool(view["legal"])
            if view["over"] or (mine and stop(view)):
                return Seated(table, cookie, over=view["over"])
            if mine and msg["seq"] != answered:
                answered = msg["seq"]
                ws.send(json.dumps({"type": "action", "seq": msg["seq"], "action": rng.choice(view["legal"])}))
