"""Chat messages of a table, stored with the game so its replay can show them.

Two channels: `players` (written by the people seated at the table) and `spectators` (everyone
else who watches). Who may read which channel is the server's rule (`server/chat.py`).

A writer's messages at a table are limited per time window, counted here from the stored
messages in the transaction that stores the new one, so the limit holds however many server
processes share the database (on PostgreSQL under a lock on the writer at that table: two
processes storing at once cannot both slip under it)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from typing import Any, Literal

from sqlalchemy import Engine, bindparam, insert, select

from .database import aware, hold, iso, now, reading
from .schema import chat_messages, users

Channel = Literal["players", "spectators"]
CHANNELS: tuple[Channel, ...] = ("players", "spectators")


class TooMany(Exception):
    """The writer's limit at this table is reached: the next message may come in `wait` seconds."""

    def __init__(self, wait: float):
        super().__init__(f"wait {wait:.1f} s")
        self.wait = wait


def add_message(
    engine: Engine,
    *,
    table_id: int,
    channel: Channel,
    user: dict[str, Any],
    seat: int | None,
    seq: int,
    text: str,
    rate: tuple[int, float],
) -> dict[str, Any]:
    """Store one message, unless its writer stored `rate[0]` at this table in the last `rate[1]`
    seconds (then `TooMany`, nothing stored); returns it as the protocol writes it."""
    count, window = rate
    with engine.begin() as conn:
        hold(conn, f"chat/{table_id}/{user['id']}")
        stamp = now()  # after the lock: a writer that waited counts the one it waited for
        recent = (
            conn.execute(
                select(chat_messages.c.created_at)
                .where(
                    chat_messages.c.table_id == table_id,
                    chat_messages.c.user_id == user["id"],
                    chat_messages.c.created_at > stamp - timedelta(seconds=window),
                )
                .order_by(chat_messages.c.created_at.desc())
                .limit(count)
            )
            .scalars()
            .all()
        )
        if len(recent) >= count:
            raise TooMany((aware(recent[-1]) + timedelta(seconds=window) - stamp).total_seconds())
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


_MESSAGES = (
    select(chat_messages, users.c.name, users.c.guest)
    .join(users, users.c.id == chat_messages.c.user_id)
    .where(
        chat_messages.c.table_id == bindparam("table_id"),
        chat_messages.c.channel.in_(bindparam("channels", expanding=True)),
    )
    .order_by(chat_messages.c.id)
)  # every socket's


def messages(engine: Engine, table_id: int, channels: Iterable[Channel]) -> list[dict[str, Any]]:
    """The table's messages in these channels, oldest first."""
    with reading(engine) as conn:
        rows = conn.execute(_MESSAGES, {"table_id": table_id, "channels": list(channels)}).all()
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
