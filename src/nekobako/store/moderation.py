"""Mutes and reports (issue 32), as Board Game Arena has them.

A mute is one row (who, whom): the muter reads none of the muted player's chat lines at any table,
in any session, until they unmute; the muted player is not told. A report is one row for the
operator (`nekobako reports`): who reported whom at which table, an optional reason, and the
table's last chat lines the reporter could read, copied so that the context survives whatever
happens to the table. Reports are limited per reporter and window (counted here, in the
transaction that stores one, under a lock on the reporter, so every server process shares the
count), and a player reports one person once per table.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from sqlalchemy import Engine, bindparam, delete, insert, select
from sqlalchemy.exc import IntegrityError

from .database import aware, hold, iso, now, reading
from .schema import chat_messages, mutes, reports, users

MAX_MUTES = 1000  # per person: each of their sockets holds the set


class TooManyMutes(Exception):
    """The muter has `MAX_MUTES` already."""


class TooManyReports(Exception):
    """The reporter's limit is reached: the next report may come in `wait` seconds."""

    def __init__(self, wait: float):
        super().__init__(f"wait {wait:.0f} s")
        self.wait = wait


class AlreadyReported(Exception):
    """This reporter reported this player at this table before."""


class NoSuchUser(Exception):
    """The user id names nobody."""


def _user_exists(conn: Any, user_id: int) -> bool:
    return conn.execute(select(users.c.id).where(users.c.id == user_id)).first() is not None


_MUTED_IDS = select(mutes.c.muted_id).where(mutes.c.user_id == bindparam("user_id"))  # every socket's


def muted_ids(engine: Engine, user_id: int) -> frozenset[int]:
    with reading(engine) as conn:
        rows = conn.execute(_MUTED_IDS, {"user_id": user_id}).scalars().all()
    return frozenset(rows)


def muted_users(engine: Engine, user_id: int) -> list[dict[str, Any]]:
    """Whom `user_id` muted, by name, oldest mute first."""
    query = (
        select(users.c.id, users.c.name, users.c.guest)
        .join(mutes, mutes.c.muted_id == users.c.id)
        .where(mutes.c.user_id == user_id)
        .order_by(mutes.c.created_at, users.c.id)
    )
    with reading(engine) as conn:
        return [{"id": r.id, "name": r.name, "guest": bool(r.guest)} for r in conn.execute(query)]


def mute(engine: Engine, user_id: int, muted_id: int) -> frozenset[int]:
    """Mute (muting twice is one mute); raises `NoSuchUser`, `TooManyMutes`. Returns the new set."""
    with engine.begin() as conn:
        hold(conn, f"mutes/{user_id}")
        if not _user_exists(conn, muted_id):
            raise NoSuchUser(muted_id)
        present = set(conn.execute(select(mutes.c.muted_id).where(mutes.c.user_id == user_id)).scalars())
        if muted_id not in present:
            if len(present) >= MAX_MUTES:
                raise TooManyMutes
            conn.execute(insert(mutes).values(user_id=user_id, muted_id=muted_id, created_at=now()))
            present.add(muted_id)
    return frozenset(present)


def unmute(engine: Engine, user_id: int, muted_id: int) -> frozenset[int]:
    """Unmute (a player not muted stays not muted). Returns the new set."""
    with engine.begin() as conn:
        conn.execute(delete(mutes).where(mutes.c.user_id == user_id, mutes.c.muted_id == muted_id))
        rows = conn.execute(select(mutes.c.muted_id).where(mutes.c.user_id == user_id)).scalars().all()
    return frozenset(rows)


def add_report(
    engine: Engine,
    *,
    reporter_id: int,
    reported_id: int,
    table_id: int,
    reason: str,
    channels: Iterable[str],
    lines: int,
    rate: tuple[int, float],
) -> dict[str, Any]:
    """Store a report with the table's last `lines` chat lines in `channels`, unless the reporter
    stored `rate[0]` in the last `rate[1]` seconds (`TooManyReports`) or reported this player at
    this table before (`AlreadyReported`); `NoSuchUser` for an unknown player. Nothing is stored
    when it raises."""
    count, window = rate
    with engine.begin() as conn:
        hold(conn, f"reports/{reporter_id}")
        if not _user_exists(conn, reported_id):
            raise NoSuchUser(reported_id)
        same = select(reports.c.id).where(
            reports.c.reporter_id == reporter_id, reports.c.reported_id == reported_id, reports.c.table_id == table_id
        )
        if conn.execute(same).first() is not None:
            raise AlreadyReported
        stamp = now()
        recent = (
            conn.execute(
                select(reports.c.created_at)
                .where(reports.c.reporter_id == reporter_id, reports.c.created_at > stamp - timedelta(seconds=window))
                .order_by(reports.c.created_at.desc())
                .limit(count)
            )
            .scalars()
            .all()
        )
        if len(recent) >= count:
            raise TooManyReports((aware(recent[-1]) + timedelta(seconds=window) - stamp).total_seconds())
        context = _last_lines(conn, table_id, list(channels), lines)
        try:
            key = conn.execute(
                insert(reports).values(
                    reporter_id=reporter_id,
                    reported_id=reported_id,
                    table_id=table_id,
                    reason=reason,
                    context=context,
                    created_at=stamp,
                )
            ).inserted_primary_key
        except IntegrityError:  # the table went away meanwhile
            raise NoSuchUser(reported_id) from None
        assert key is not None
    return {"id": int(key[0]), "table": table_id, "at": iso(stamp), "lines": len(context)}


def _last_lines(conn: Any, table_id: int, channels: list[str], lines: int) -> list[dict[str, Any]]:
    query = (
        select(chat_messages, users.c.name)
        .join(users, users.c.id == chat_messages.c.user_id)
        .where(chat_messages.c.table_id == table_id, chat_messages.c.channel.in_(channels))
        .order_by(chat_messages.c.id.desc())
        .limit(lines)
    )
    rows = list(conn.execute(query))[::-1]
    return [
        {"user": {"id": r.user_id, "name": r.name}, "channel": r.channel, "text": r.text, "at": iso(r.created_at)}
        for r in rows
    ]


def list_reports(engine: Engine, last: int = 50) -> list[dict[str, Any]]:
    """The newest `last` reports, newest first, with names (what the operator reads)."""
    reporter, reported = users.alias("reporter"), users.alias("reported")
    query = (
        select(reports, reporter.c.name.label("reporter_name"), reported.c.name.label("reported_name"))
        .join(reporter, reporter.c.id == reports.c.reporter_id)
        .join(reported, reported.c.id == reports.c.reported_id)
        .order_by(reports.c.id.desc())
        .limit(last)
    )
    with reading(engine) as conn:
        rows = conn.execute(query).all()
    return [
        {
            "id": r.id,
            "at": iso(r.created_at),
            "reporter": {"id": r.reporter_id, "name": r.reporter_name},
            "reported": {"id": r.reported_id, "name": r.reported_name},
            "table": r.table_id,
            "reason": r.reason,
            "context": list(r.context),
        }
        for r in rows
    ]
