"""Users and sessions. Passwords are hashed by the caller (argon2, off the event loop); this
module only stores hashes. Session cookies are random tokens; only their sha256 is stored, so a
copy of the database does not let anyone log in."""

from __future__ import annotations

import hashlib
import secrets
import unicodedata
from datetime import timedelta
from typing import Any

from sqlalchemy import Engine, bindparam, delete, exists, insert, select
from sqlalchemy.exc import IntegrityError

from . import confusables
from .database import aware, now, reading
from .schema import rating_changes, seats, sessions, tables, users

SESSION_DAYS = 30


class NameTaken(Exception):
    """A registered account already uses this name, or one that looks the same."""


KEY_LENGTH = 64  # users.account_key


def account_key(name: str) -> str:
    """What makes two account names the same: compatibility forms (NFKC), case and Unicode's
    confusables (UTS #39 skeletons). Case and look-alikes are folded together until nothing
    changes — skeleton of the case-folded name, then of its capitals — so `Alice`, `ALICE` and
    `ALlCE` (capital I looks like l) are one; a key too long for its column is kept as its hash."""
    key = unicodedata.normalize("NFKC", name).casefold()
    for _ in range(4):  # two rounds reach the fixed point for every name in the repertoire
        folded = confusables.skeleton(confusables.skeleton(key).casefold().upper()).casefold()
        if folded == key:
            break
        key = folded
    key = " ".join(key.split())
    if len(key) <= KEY_LENGTH:
        return key
    return "#" + hashlib.sha256(key.encode()).hexdigest()[: KEY_LENGTH - 1]


def _user(row: Any) -> dict[str, Any]:
    return {"id": row.id, "name": row.name, "guest": bool(row.guest)}


def create_user(engine: Engine, name: str, password_hash: str | None) -> dict[str, Any]:
    """A registered account (with a hash) or a guest (without). Raises `NameTaken`."""
    guest = password_hash is None
    key = account_key(name)
    with engine.begin() as conn:
        taken = conn.execute(select(users.c.id).where(users.c.account_key == key)).first()
        if taken is not None:
            raise NameTaken(name)
        try:
            result = conn.execute(
                insert(users).values(
                    name=name,
                    account_key=None if guest else key,
                    password_hash=password_hash,
                    guest=guest,
                    created_at=now(),
                )
            )
        except IntegrityError:
            raise NameTaken(name) from None
        inserted = result.inserted_primary_key
        assert inserted is not None
        user_id = inserted[0]
    return {"id": user_id, "name": name, "guest": guest}


def account_for_login(engine: Engine, name: str) -> tuple[dict[str, Any], str] | None:
    """The registered account called `name` with its password hash, or None."""
    with reading(engine) as conn:
        # accounts made before Unicode's skeletons were used are keyed otherwise: their stored
        # name, exactly as typed at sign-up, still finds them
        key = users.c.account_key == account_key(name)
        same = (users.c.name == " ".join(unicodedata.normalize("NFKC", name).split())) & users.c.account_key.isnot(None)
        row = conn.execute(select(users).where(key | same).order_by(key.desc())).first()
    if row is None or row.password_hash is None:
        return None
    return _user(row), row.password_hash


def set_password_hash(engine: Engine, user_id: int, password_hash: str) -> None:
    with engine.begin() as conn:
        conn.execute(users.update().where(users.c.id == user_id).values(password_hash=password_hash))


def users_by_id(engine: Engine, ids: list[int]) -> dict[int, dict[str, Any]]:
    if not ids:
        return {}
    with reading(engine) as conn:
        rows = conn.execute(select(users).where(users.c.id.in_(set(ids)))).all()
    return {row.id: _user(row) for row in rows}


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_session(engine: Engine, user_id: int) -> str:
    """A new session for `user_id`; returns the cookie value."""
    token = secrets.token_urlsafe(32)
    created = now()
    with engine.begin() as conn:
        conn.execute(
            insert(sessions).values(
                token_hash=_hash(token),
                user_id=user_id,
                created_at=created,
                expires_at=created + timedelta(days=SESSION_DAYS),
            )
        )
    return token


_SESSION_USER = (
    select(users, sessions.c.expires_at)
    .join(sessions, sessions.c.user_id == users.c.id)
    .where(sessions.c.token_hash == bindparam("token_hash"))
)  # made once: every request and socket asks it (docs/server.md, "Statements made once")


def session_user(engine: Engine, token: str) -> dict[str, Any] | None:
    """The user a cookie value belongs to, if the session exists and has not expired."""
    if not token or len(token) > 128:
        return None
    with reading(engine) as conn:
        row = conn.execute(_SESSION_USER, {"token_hash": _hash(token)}).first()
    if row is None or aware(row.expires_at) < now():
        return None
    return _user(row)


def purge(engine: Engine, guest_days: int = SESSION_DAYS) -> tuple[int, int]:
    """Delete expired sessions, then guest accounts older than `guest_days` that no session, seat,
    hosted table or rating refers to (a guest who played keeps their name in the records).
    Returns (sessions, guests) deleted."""
    stamp = now()
    with engine.begin() as conn:
        gone_sessions = conn.execute(delete(sessions).where(sessions.c.expires_at < stamp)).rowcount
        unused = (
            select(users.c.id)
            .where(users.c.guest.is_(True), users.c.created_at < stamp - timedelta(days=guest_days))
            .where(~exists().where(sessions.c.user_id == users.c.id))
            .where(~exists().where(seats.c.user_id == users.c.id))
            .where(~exists().where(tables.c.host_id == users.c.id))
            .where(~exists().where(rating_changes.c.user_id == users.c.id))
        )
        ids = [row.id for row in conn.execute(unused)]
        if ids:
            conn.execute(delete(users).where(users.c.id.in_(ids)))
    return gone_sessions, len(ids)


def delete_session(engine: Engine, token: str) -> None:
    with engine.begin() as conn:
        conn.execute(delete(sessions).where(sessions.c.token_hash == _hash(token)))
