"""The table WebSocket: `state` and `chat` messages out, `action` / `chat` / `sync` / `ping` in
(docs/protocol.md).

Every frame from a client is treated as hostile until proven otherwise: it is decoded once into
its declared type (`server/wire.py`); binary frames, text that is not a JSON object, oversized
text, unknown types and wrongly typed fields are refused with a reason, and nothing reaches the
hub unless it is a well-formed action of the seat this connection's user holds.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

import msgspec
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..i18n import Message
from ..store import moderation
from . import chat
from .connections import Connection
from .errors import ApiError, CloseCode, Refusal, request_lang
from .guards import same_origin_socket
from .hub import Hub
from .live import LiveTable
from .moves import PersonMove
from .requests import SESSION_COOKIE, current_user, valid_text
from .wire import (
    FRAME_TYPES,
    MAX_ACTION,
    ActionFrame,
    ChatFrame,
    ClientFrame,
    PingFrame,
    SyncFrame,
    first_misfit,
    frame_decoder,
)

MAX_TEXT = 4096


async def table_socket(ws: WebSocket) -> None:
    hub: Hub = ws.app.state.hub
    if not same_origin_socket(ws):
        await ws.close(code=CloseCode.FOREIGN_ORIGIN)  # before accepting: the handshake is refused with HTTP 403
        return
    try:
        live = await hub.tables.get(ws.path_params["table_id"])
    except ApiError:
        await ws.accept()  # accepted first so the client can read the close code
        await ws.close(code=CloseCode.NO_TABLE, reason="no such table")
        return
    user = await current_user(ws)
    await ws.accept()
    place = None if user is not None else await hub.watchers.admit(live.id)  # counted over every process
    reason = "too many anonymous watchers; log in or play as a guest to watch"
    if user is None and place is None:
        await ws.close(code=CloseCode.TOO_MANY_WATCHERS, reason=reason)
        return
    if place is not None:  # its place lapsed (this process stalled) and none is left: closed
        place.lost = lambda: ws.close(code=CloseCode.TOO_MANY_WATCHERS, reason=reason)
    try:
        await _serve(hub, ws, live, user)
    finally:
        if place is not None:
            await hub.watchers.leave(place)


async def _serve(hub: Hub, ws: WebSocket, live: LiveTable, user: dict[str, Any] | None) -> None:
    deltas = ws.query_params.get("deltas") == "1"  # the browser client's choice: only what changed
    session = ws.cookies.get(SESSION_COOKIE) if user is not None else None
    conn = Connection(ws, live, user, session, deltas, request_lang(ws))
    if user is not None:  # before it hears anything: a muted writer's lines never reach it
        conn.muted = await hub.db(moderation.muted_ids, user["id"])
    live.connections.add(conn)
    conn.start()
    conn.push_state(force=True)
    conn.push({"type": "chat_history", "messages": await chat.history(hub, live, user, conn.muted)})
    hub.presence_changed(live)
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            await _handle(hub, conn, message)
            if conn.overflowed:
                await ws.close(code=CloseCode.POLICY, reason="too many unread messages")
                break
    except WebSocketDisconnect:
        pass
    finally:
        live.connections.discard(conn)
        await conn.stop()
        hub.presence_changed(live)


def _refuse(conn: Connection, code: str, reason: Message, **extra: Any) -> None:
    """`reason` in the connection's language (`?lang=`, else Accept-Language, else English); `key`
    and `params` for clients that word it themselves, as the browser does (docs/protocol.md)."""
    message = {"type": "refused", "code": code, "reason": reason.text(conn.lang), **reason.to_json()}
    conn.push({**message, "seq": conn.table.row.seq, **extra})


async def _handle(hub: Hub, conn: Connection, message: Mapping[str, Any]) -> None:
    text = message.get("text")
    if text is None:
        _refuse(conn, "malformed", Message("error.ws.binary"))
        return
    if len(text) > MAX_TEXT:
        _refuse(conn, "malformed", Message("error.ws.too_long", n=len(text), most=MAX_TEXT))
        return
    frame = decode_frame(text)
    if isinstance(frame, ActionFrame):
        await _action(hub, conn, frame.seq, frame.action)
    elif isinstance(frame, ChatFrame):
        await _chat(hub, conn, frame.text)
    elif isinstance(frame, SyncFrame):
        conn.push_state(force=True)
    elif isinstance(frame, PingFrame):
        conn.push({"type": "pong"})
    elif isinstance(frame, Misfit) and frame.kind == "chat":
        await _chat(hub, conn, frame.data.get("text"))  # the chat's own check words it
    elif isinstance(frame, Misfit):
        action = frame.data.get("action")
        echo = {"action": action} if isinstance(action, str) and len(action) <= MAX_ACTION else {}
        _refuse(conn, "malformed", frame.message, **echo)
    else:
        _refuse(conn, "malformed", frame)


@dataclass(frozen=True)
class Misfit:
    """A frame of a known type with a field that does not fit: the first, worded."""

    kind: str
    data: dict[str, Any]
    message: Message


FIELD_REFUSALS = {
    ("action", "seq"): Message("error.ws.seq"),
    ("action", "action"): Message("error.ws.action", most=MAX_ACTION),
}


def decode_frame(text: str) -> ClientFrame | Misfit | Message:
    """The frame `text` holds (server/wire.py), decoded once; or why it is refused."""
    try:
        return frame_decoder.decode(text)
    except (msgspec.DecodeError, msgspec.ValidationError):
        pass
    # why not, in the order clients know: JSON, an object, Unicode, a known type, then its fields
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: arrays or objects nested too deeply
        return Message("error.ws.not_json")
    if not isinstance(data, dict):
        return Message("error.ws.not_object")
    if not valid_text(data):
        return Message("error.body_surrogate")
    kind = data.get("type")
    frame_type = FRAME_TYPES.get(kind) if isinstance(kind, str) else None
    if frame_type is None or not isinstance(kind, str):
        return Message("error.ws.type", type=repr(kind))
    try:  # JSON's NaN and Infinity, which the standard library reads and msgspec does not
        return cast(ClientFrame, msgspec.convert(data, frame_type))
    except msgspec.ValidationError:
        field = first_misfit(data, frame_type) or "type"
    return Misfit(kind, data, FIELD_REFUSALS.get((kind, field), Message("error.body_field", field=field)))


async def _action(hub: Hub, conn: Connection, seq: int, action: str) -> None:
    echo = {"action": action}
    seat = conn.seat
    if seat is None:
        _refuse(conn, "spectator", Message("error.ws.spectator"), **echo)
        return
    try:
        await hub.send(conn.table, PersonMove(seat, seq, action, conn.user["id"] if conn.user else None))
    except Refusal as refusal:
        _refuse(conn, refusal.code, refusal.message, **echo)


async def _chat(hub: Hub, conn: Connection, text: Any) -> None:
    if conn.user is None:
        _refuse(conn, "chat_anonymous", Message("error.chat.anonymous"))
        return
    try:
        await conn.ws.app.state.chat.post(hub, conn.table, conn.user, text)
    except Refusal as refusal:
        _refuse(conn, refusal.code, refusal.message)


routes = [WebSocketRoute("/ws/tables/{table_id:id}", table_socket)]
