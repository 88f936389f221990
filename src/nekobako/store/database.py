"""Opening the database: one SQLAlchemy engine for a SQLite file or a PostgreSQL URL.

SQLite runs in WAL mode with `synchronous=FULL`, so a committed action survives the process being
killed (and a power cut); PostgreSQL commits are durable by default.
"""

from __future__ import annotations

import functools
import hashlib
import time
from datetime import UTC, datetime
from typing import Any, overload

from sqlalchemy import BigInteger, Connection, Engine, bindparam, create_engine, event, func, inspect, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import InvalidatePoolError
from sqlalchemy.schema import CreateColumn

from .schema import metadata


class DatabaseError(Exception):
    """The database URL is unusable or the server cannot be reached."""


def normalize_url(url: str) -> str:
    """Accept `postgresql://` and `postgres://` as psycopg 3 URLs; everything else as given."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


IDLE_PING = 2.0  # seconds: a pooled PostgreSQL connection idle longer is checked before use


def open_database(url: str, *, pool_size: int = 5) -> Engine:
    """An engine for `url` with the tables created and new columns added (idempotent). A
    PostgreSQL pool keeps `pool_size` connections open: one for each thread that uses it, so
    none is opened and closed per transaction under load."""
    url = normalize_url(url)
    try:
        parsed = make_url(url)
    except Exception as exc:  # sqlalchemy raises ArgumentError with a readable message
        raise DatabaseError(f"bad database URL {url!r}: {exc}") from None
    kwargs: dict[str, Any] = {"future": True}
    if parsed.get_backend_name() == "sqlite":
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
    else:
        kwargs["pool_size"] = pool_size
    try:
        engine = create_engine(url, **kwargs)
    except Exception as exc:  # an unknown kind (nonsense://x) or a driver that is not installed
        raise DatabaseError(
            f"cannot use database URL {parsed.render_as_string(hide_password=True)!r}: {exc}; "
            "use sqlite:///FILE or postgresql://user@host/db"
        ) from None
    if parsed.get_backend_name() == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    else:
        event.listen(engine, "checkin", _note_checkin)
        event.listen(engine, "checkout", _ping_if_idle)
    try:
        metadata.create_all(engine)
        _add_new_columns(engine)
    except Exception as exc:
        engine.dispose()
        raise DatabaseError(f"cannot open database {parsed.render_as_string(hide_password=True)}: {exc}") from None
    return engine


def _add_new_columns(engine: Engine) -> None:
    """Columns added to an existing table since the database was made (`create_all` only makes
    missing tables). Schema changes are additive: a new column has a server default."""
    found = inspect(engine)
    with engine.begin() as conn:
        for table in metadata.sorted_tables:
            have = {c["name"] for c in found.get_columns(table.name)}
            for column in table.columns:
                if column.name not in have:
                    assert column.server_default is not None, f"{table.name}.{column.name} needs a server default"
                    ddl = CreateColumn(column).compile(dialect=engine.dialect)
                    conn.execute(text(f"ALTER TABLE {table.name} ADD COLUMN {ddl}"))


def _note_checkin(_dbapi_connection: Any, record: Any) -> None:
    record.info["checked_in"] = time.monotonic()


def _ping_if_idle(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
    """A connection that waited in the pool more than `IDLE_PING` seconds is pinged before use
    (the server may have restarted meanwhile); a failed ping replaces every pooled connection.
    SQLAlchemy's `pool_pre_ping` would ping before every transaction: a round trip more for
    each, where a busy server's connections are never idle."""
    if time.monotonic() - record.info.get("checked_in", time.monotonic()) <= IDLE_PING:
        return
    try:
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("SELECT 1")
        finally:
            cursor.close()
        dbapi_connection.rollback()
    except Exception as exc:
        raise InvalidatePoolError(str(exc)) from None


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def reading(engine: Engine) -> Connection:
    """A connection for reads alone. On PostgreSQL its statements run each on its own (autocommit):
    no `BEGIN` before the first and no `ROLLBACK` when it goes back to the pool, two round trips
    fewer per read, and the isolation a read-committed transaction gives (each statement sees
    what was committed when it began). SQLite keeps its transaction: there a read's statements
    see one snapshot."""
    conn = engine.connect()
    if engine.dialect.name == "postgresql":
        conn.execution_options(isolation_level="AUTOCOMMIT")
    return conn


_ADVISORY_LOCK = select(func.pg_advisory_xact_lock(bindparam("number", type_=BigInteger)))


def hold(conn: Connection, key: str) -> None:
    """Take the lock named `key` until the transaction ends, so a count and the change it allows
    are one step for every server process and thread (a quota, a rate limit). PostgreSQL locks
    the name alone (`pg_advisory_xact_lock`); SQLite has no named locks, so a transaction that
    has not written yet takes the database's write lock now (`BEGIN IMMEDIATE`), which every
    other writer waits for: call it before the transaction's first read."""
    if conn.dialect.name == "postgresql":
        number = int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big", signed=True)
        conn.execute(_ADVISORY_LOCK, {"number": number})
        return
    driver = conn.connection.driver_connection
    if driver is not None and not driver.in_transaction:  # pysqlite starts transactions at the first write
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def now() -> datetime:
    return datetime.now(UTC)


@overload
def aware(value: datetime) -> datetime: ...
@overload
def aware(value: None) -> None: ...
def aware(value: datetime | None) -> datetime | None:
    """SQLite returns naive datetimes; every time we store is UTC."""
    if value is None or value.tzinfo is not None:
        return value
    return value.replace(tzinfo=UTC)


@functools.lru_cache(maxsize=4096)  # a table's times are worded for every message and lobby page
def iso(value: datetime | None) -> str | None:
    value = aware(value)
    return None if value is None else value.isoformat(timespec="seconds")
