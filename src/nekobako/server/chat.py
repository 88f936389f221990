"""Table chat: the players' channel and the spectators' own, stored with the game (`store/chat.py`)
and shown in its replay.

Rules, all here:
* Anyone seated at the table (a bot playing for them included) writes in `players`; everyone
  else who is logged in writes in `spectators`. Anonymous watchers read but do not write.
* Everyone reads `players`. `spectators` is read by spectators only while the game is not over
  (players are not coached from the gallery); after the end, and in the replay, everyone reads both.
* A message is at most `MAX_CHARS` characters with at least one that shows; control characters
  become spaces, runs of white space one space, the ends are trimmed; a person writes at most
  `RATE[0]` messages per `RATE[1]` seconds at one table, counted in the database (every process).
  The client shows the text as text (never as HTML).

A message is sent to this process's sockets (`{"type": "chat"}`); with several processes, the
table's notification channel carries it to the others.
"""

from __future__ import annotations

import asyncio
import re
import unicodedata
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..i18n import Message
from ..store import chat, moderation
from ..store.chat import Channel
from .errors import ApiError, Refusal
from .requests import current_user, path_int, read_body, require_user
from .wire import CHAT_PATTERN as TEXT_PATTERN
from .wire import MAX_CHAT as MAX_CHARS
from .wire import ChatPost

if TYPE_CHECKING:
    from .hub import Hub
    from .live import LiveTable

RATE = (5, 10.0)  # messages, seconds


def channel_of(live: LiveTable, user: dict[str, Any]) -> Channel:
    return "players" if any(s.user_id == user["id"] for s in live.row.seats) else "spectators"


def readable(live: LiveTable, user: dict[str, Any] | None) -> tuple[Channel, ...]:
    """The channels `user` (None: an anonymous watcher) may read at this table now."""
    if live.row.status in ("finished", "abandoned"):
        return ("players", "spectators")
    if user is not None and channel_of(live, user) == "players":
        return ("players",)
    return ("players", "spectators")


def clean_text(raw: Any) -> str:
    """The message as stored, or `Refusal` saying what is wrong with it. `TEXT_PATTERN` (the
    OpenAPI document's) states the same rule: at most `MAX_CHARS` characters as sent, at least
    one that is neither white space nor a control character."""
    if not isinstance(raw, str):
        raise Refusal("chat_invalid", Message("error.chat.text"))
    if len(raw) > MAX_CHARS:
        raise Refusal("chat_invalid", Message("error.chat.long", most=MAX_CHARS, n=len(raw)))
    if not re.search(TEXT_PATTERN, raw):
        raise Refusal("chat_invalid", Message("error.chat.empty"))
    return " ".join("".join(" " if unicodedata.category(c) == "Cc" else c for c in raw).split())


class ChatRoom:
    """Posting chat messages. The rate limit is counted in the database (`store.chat.add_message`),
    so it holds across server processes; within this process posts are stored one at a time, so
    two of one person's posts never count the same messages (SQLite has no lock to take)."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()

    async def post(self, hub: Hub, live: LiveTable, user: dict[str, Any], raw: Any) -> dict[str, Any]:
        """Store and send one message; raises `Refusal` (nothing stored) when it is refused."""
        text = clean_text(raw)
        channel = channel_of(live, user)
        seat = next((s.seat for s in live.row.seats if s.user_id == user["id"]), None)
        try:
            async with self._lock:
                message = await hub.db(
                    chat.add_message,
                    table_id=live.id,
                    channel=channel,
                    user=user,
                    seat=seat,
                    seq=live.row.seq,
                    text=text,
                    rate=RATE,
                )
        except chat.TooMany as exc:
            count, window = RATE
            message = Message("error.chat.rate", count=count, window=f"{window:.0f}", n=int(exc.wait) + 1)
            raise Refusal("chat_rate", message) from None
        hub.broadcast(live, {"type": "chat", "message": message})  # every process: readers["chat"]
        return message


def may_read(live: LiveTable, conn: Any, message: dict[str, Any]) -> bool:
    """A chat message goes to the connections whose user may read its channel (`Hub.readers`)
    and did not mute its writer (`server/moderation.py`)."""
    line = message["message"]
    return line["channel"] in readable(live, conn.user) and line["user"]["id"] not in conn.muted


async def history(
    hub: Hub, live: LiveTable, user: dict[str, Any] | None, muted: frozenset[int] = frozenset()
) -> list[dict[str, Any]]:
    """The messages `user` may read, without those of the people they muted."""
    lines = await hub.db(chat.messages, live.id, readable(live, user))
    return [m for m in lines if m["user"]["id"] not in muted] if muted else lines


def _hub(request: Request) -> Hub:
    return request.app.state.hub


async def table_chat(request: Request) -> JSONResponse:
    """GET: the messages the asker may read; POST {text}: write one (as over the WebSocket)."""
    hub = _hub(request)
    live = await hub.get_fresh(path_int(request, "table_id"))
    if request.method == "GET":
        reader = await current_user(request)
        muted = await hub.db(moderation.muted_ids, reader["id"]) if reader is not None else frozenset()
        return JSONResponse({"messages": await history(hub, live, reader, muted)})
    user = await require_user(request)
    try:
        body = await read_body(request, ChatPost, {"text": clean_text})
        message = await request.app.state.chat.post(hub, live, user, body.text)
    except Refusal as refusal:
        raise ApiError(429 if refusal.code == "chat_rate" else 400, refusal.code, refusal.message) from None
    return JSONResponse(message, status_code=201)


routes = [Route("/api/tables/{table_id:id}/chat", table_chat, methods=["GET", "POST"])]
