"""Deltas between state messages (server/deltas.py): applying the patch always gives the new value
back, leaves the old one untouched, and is small when little changed (issue 17)."""

from __future__ import annotations

import copy
import json

from hypothesis import given
from hypothesis import strategies as st

from nekobako.engine.viewlog import read_only
from nekobako.server.deltas import apply, diff

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-5, 5)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=3)
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=3), inner, max_size=5),
    max_leaves=25,
)


def exact(a, b) -> bool:
    """Equal as JSON (True and 1 differ)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@given(json_values, json_values)
def test_applying_the_delta_gives_the_new_value(old, new):
    before = copy.deepcopy(old)
    patch = diff(old, new)
    assert exact(apply(old, patch), new)
    assert exact(old, before)  # the old value is not changed
    assert (patch is None) == exact(old, new)
    assert patch is None or exact(json.loads(json.dumps(patch)), patch)  # a patch is JSON itself


@given(json_values, st.lists(st.tuples(st.text(max_size=2), json_values), max_size=4))
def test_a_grown_object_of_lists_is_patched_by_its_new_items(base, additions):
    old = {"history": [base], "seq": 1}
    new = {"history": [base, *[a for _, a in additions]], "seq": 2}
    patch = diff(old, new)
    if additions:
        assert patch == {"o": {"history": {"a": 1, "+": [a for _, a in additions]}, "seq": {"=": 2}}}
    assert exact(apply(old, patch), new)


@given(st.lists(json_values, min_size=1, max_size=6), st.lists(json_values, min_size=1, max_size=6))
def test_a_chain_of_deltas_reproduces_every_message(first, rest):
    """What a client does: one full message, then deltas, each against the one before."""
    messages = [{"n": i, "view": v} for i, v in enumerate([*first, *rest])]
    held = messages[0]
    for message in messages[1:]:
        held = apply(held, diff(held, message))
        assert exact(held, message)


def test_json_types_are_kept_apart():
    assert diff(True, 1) == {"=": 1}
    assert diff([1, 2], [1.0, 2]) is not None
    assert apply({"a": [True]}, diff({"a": [True]}, {"a": [1]})) == {"a": [1]}


def test_a_long_history_costs_only_its_new_entry():
    old = {"view": {"history": [[0, f"play {i} red"] for i in range(300)], "board": [[None] * 9] * 4}}
    new = copy.deepcopy(old)
    new["view"]["history"].append([1, "play 4 blue"])
    new["view"]["board"][1] = [None, None, 1, None, None, None, None, None, None]
    patch = diff(old, new)
    size = len(json.dumps(patch, separators=(",", ":")))
    assert size < 120, patch
    assert size * 40 < len(json.dumps(new, separators=(",", ":")))


# ---------------------------------------------------------------------------------------- live
def _delta_socket(client, table_id: int):
    from websockets.sync.client import connect

    token = client.http.cookies.get("nekobako_session")
    headers = {"Cookie": f"nekobako_session={token}"} if token else {}
    url = f"{client.server.ws_base}/ws/tables/{table_id}?deltas=1"
    return connect(url, additional_headers=headers, open_timeout=10, close_timeout=1, legacy=True)


class Held:
    """What the browser client does with `?deltas=1`: hold the last whole message, patch it."""

    def __init__(self, ws):
        self.ws = ws
        self.message: dict | None = None
        self.by_seq: dict[int, dict] = {}
        self.bytes = 0
        self.kinds: list[str] = []

    def read(self, timeout: float = 0.02) -> bool:
        try:
            raw = self.ws.recv(timeout=timeout)
        except TimeoutError:
            return False
        self.bytes += len(raw.encode())
        msg = json.loads(raw)
        self.kinds.append(msg["type"])
        if msg["type"] == "state":
            self.message = msg
        elif msg["type"] == "delta":
            assert self.message is not None and msg["base"] == self.message["version"]
            self.message = {**apply(self.message, msg["patch"]), "clock": msg["clock"]}
        else:
            return True
        self.by_seq[self.message["seq"]] = self.message
        return True


def test_delta_messages_rebuild_what_full_messages_say(sqlite_server):
    import random

    from server_harness import Client

    host = Client(sqlite_server)
    host.guest("Dee")
    table = host.create("catbox", 3)["id"]
    for seat in (1, 2):
        host.ok(host.post(f"/api/tables/{table}/bots", {"level": "random", "seat": seat}))
    host.ok(host.post(f"/api/tables/{table}/start"))
    full = host.socket(table)
    mine = Held(_delta_socket(host, table))
    watcher = Held(_delta_socket(Client(sqlite_server), table))
    rng = random.Random(5)
    full_bytes = 0
    try:
        for _ in range(3000):
            message = full.receive(0.02)
            if message is not None:
                full_bytes += len(json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode())
            mine.read()
            watcher.read()
            if full.view and full.view["over"] and mine.message and mine.message["view"]["over"]:
                break
            full.act_if_asked(rng)
        else:
            raise AssertionError("the game did not end")
        for _ in range(20):
            watcher.read()
        assert mine.kinds[0] == "state" and mine.kinds.count("state") == 1 and "delta" in mine.kinds
        for state in full.states:  # the same position seen both ways is the same view
            held = mine.by_seq.get(state["seq"])
            if held is not None and state["view"] is not None:
                assert held["view"] == state["view"], state["seq"]
        assert mine.message["view"] == full.view
        assert watcher.message["view"]["over"] and watcher.message["seat"] is None
        assert mine.bytes * 3 < full_bytes, (mine.bytes, full_bytes)
        # a sync asks for the whole state again
        mine.ws.send(json.dumps({"type": "sync"}))
        while not mine.read(1.0) or mine.kinds[-1] != "state":
            pass
        assert mine.message["view"] == full.view
    finally:
        full.close()
        mine.ws.close()
        watcher.ws.close()


@given(json_values)
def test_a_read_only_copy_is_no_change(value):
    """The engine's views share read-only entries (engine/viewlog.py): the same JSON as a plain
    copy, so no patch between them."""
    assert diff(copy.deepcopy(value), read_only(copy.deepcopy(value))) is None
    assert diff(read_only(copy.deepcopy(value)), copy.deepcopy(value)) is None
