"""Chat messages of a table, stored with the game so its replay can show them.

Two channels: `players` (written by the people seated at the table) and `spectators` (everyone
else who watches). Who may read which channel is the server's rule (`server/chat.py`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from sqlalchemy import Engine, insert, select

from .database import aware, iso, now
from .schema import chat_messages, users

Channel = Literal["players", "spectators"]
CHANNELS: tuple[Channel, ...] = ("players", "spectators")


def add_message(
    engine: Engine, *, table_id: int, channel: Channel, user: dict[str, Any], seat: int | None, seq: int, text: str
) -> dict[str, Any]:
    """Store one message; returns it as the protocol writes it."""
    stamp = now()
    with engine.begin() as conn:
        result = conn.execute(
            insert(chat_messages).values(
                table_id=table_id,
                channel=channel,
                user_id=user["id"],
                seat=seat,
                seq=seq,
                text=text,
                created_at=stamp,
            )
        )
        key = result.inserted_primary_key
        assert key is not None
    return _json(key[0], channel, user, seat, seq, text, stamp)


def messages(engine: Engine, table_id: int, channels: Iterable[Channel]) -> list[dict[str, Any]]:
    """The table's messages in these channels, oldest first."""
    query = (
        select(chat_messages, users.c.name, users.c.guest)
        .join(users, users.c.id == chat_messages.c.user_id)
        .where(chat_messages.c.table_id == table_id, chat_messages.c.channel.in_(list(channels)))
        .order_by(chat_messages.c.id)
    )
    with engine.connect() as conn:
        rows = conn.execute(query).all()
    return [
        _json(
            r.id,
            r.channel,
            {"id": r.user_id, "name": r.name, "guest": bool(r.guest)},
            r.seat,
            r.seq,
            r.text,
            aware(r.created_at),
        )
        for r in rows
    ]


def _json(
    message_id: int, channel: str, user: dict[str, Any], seat: int | None, seq: int, text: str, at: Any
) -> dict[str, Any]:
    return {
        "id": message_id,
        "channel": channel,
        "user": {"id": user["id"], "name": user["name"], "guest": bool(user.get("guest", False))},
        "seat": seat,
        "seq": seq,
        "text": text,
        "at": iso(at),
    }
