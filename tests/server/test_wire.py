"""The declared types of the wire (server/wire.py): a frame is accepted exactly when the hand checks
it replaced accepted it, and what a real server sends fits the types the documents are made from."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import given
from hypothesis import strategies as st
from server_harness import Seat, clients, play_out
from websockets.sync.client import connect

from nekobako.i18n import Message
from nekobako.server import asyncapi, wire
from nekobako.server.play import Misfit, decode_frame


def old_frame(data: Any) -> str | None:
    """The refusal key the server gave a decoded frame before the types (play._handle and
    play._action, field by field), None for an accepted action, ping or sync."""
    if not isinstance(data, dict):
        return "error.ws.not_object"
    kind = data.get("type")
    if kind in ("ping", "sync", "chat"):
        return None
    if kind != "action":
        return "error.ws.type"
    seq, action = data.get("seq"), data.get("action")
    if not isinstance(seq, int) or isinstance(seq, bool):
        return "error.ws.seq"
    if not isinstance(action, str) or not action.strip() or len(action) > 200:
        return "error.ws.action"
    return None


values = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=4)
frames = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(["action", "ping", "sync", "nope"]) | values,
        "seq": values,
        "action": values | st.text(alphabet=" \t\x1cab", max_size=3) | st.just("x" * 201),
    },
) | st.lists(values, max_size=2)


@given(frames)
def test_a_frame_is_refused_exactly_as_the_hand_checks_refused_it(data) -> None:
    decoded = decode_frame(json.dumps(data))
    key = old_frame(data)
    if key is None:
        assert isinstance(decoded, msgspec.Struct)
        if isinstance(decoded, wire.ActionFrame):
            assert (decoded.seq, decoded.action) == (data["seq"], data["action"])
    else:
        message = decoded.message if isinstance(decoded, Misfit) else decoded
        assert isinstance(message, Message) and message.key == key, (data, decoded)


def test_text_that_is_no_json_object_is_refused_as_before() -> None:
    assert decode_frame("{").key == "error.ws.not_json"  # type: ignore[union-attr]
    assert decode_frame("[" * 100_000).key == "error.ws.not_json"  # type: ignore[union-attr]
    assert decode_frame('{"type": "ping", "x": "\\ud800"}').key == "error.body_surrogate"  # type: ignore[union-attr]
    assert isinstance(decode_frame('{"type": "ping", "x": NaN}'), wire.PingFrame)  # the standard library reads NaN


def test_what_the_server_sends_fits_its_declared_types(server) -> None:
    """A game with a bot played to the end on a plain and a delta socket, with chat, a refusal and
    a ping: every frame is a `wire.ServerFrame`, every answer its endpoint's type."""
    with clients(server, 1) as (alice,):
        alice.guest("alice")
        body = {"game": "shutbox", "seats": 2, "bots": "random", "start": True}
        table = alice.ok(alice.post("/api/tables", body), 201)
        msgspec.convert(table, wire.Table)
        plain = alice.socket(table["id"])
        token = alice.http.cookies.get("nekobako_session")
        url = f"{server.ws_base}/ws/tables/{table['id']}?deltas=1"
        deltas = Seat(
            connect(url, additional_headers={"Cookie": f"nekobako_session={token}"}, open_timeout=10, legacy=True)
        )
        try:
            plain.send({"type": "ping"})
            plain.send({"type": "chat", "text": "good luck"})
            plain.send({"type": "action", "seq": -1, "action": "shut 99"})
            plain.send("not json")
            play_out([plain], random.Random(5), timeout=60)
            plain.drain(0.2)
            deltas.drain(0.2)
            assert {m["type"] for m in deltas.messages} >= {"state", "delta"}
        finally:
            plain.close()
            deltas.close()
        kinds = {m["type"] for m in plain.messages}
        assert {"state", "pong", "chat", "chat_history", "refused"} <= kinds
        for message in plain.messages + deltas.messages:
            msgspec.convert(message, wire.ServerFrame)
        msgspec.convert(alice.ok(alice.get(f"/api/tables/{table['id']}/results")), wire.Results)
        msgspec.convert(alice.ok(alice.get(f"/api/tables/{table['id']}/chat")), wire.ChatMessages)
        msgspec.convert(alice.ok(alice.get("/api/games")), wire.Games)
        msgspec.convert(alice.ok(alice.get("/api/tables", status="finished")), wire.TablePage)


def test_the_protocol_document_holds_the_frames_of_the_types() -> None:
    """docs/protocol.md's AsyncAPI block is generated from server/wire.py: run
    `python -m nekobako.server.asyncapi docs/protocol.md` after changing a frame's type."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
    assert asyncapi.written(doc) == doc
    generated = asyncapi.document()
    assert set(generated["channels"]["table"]["messages"]) >= {"table_client_action", "table_server_state"}
