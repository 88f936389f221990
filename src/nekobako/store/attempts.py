"""Rate-limited attempts (logins, sign-ups, guest accounts) counted in the database, so the
limits hold however many server processes share it.

An attempt is stored when it starts and deleted if it succeeds (a failed login stays counted for
the window). The keys are locked for the transaction (`database.hold`), so two requests checking
the same key, in one process or two, cannot both slip under the limit.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Engine, delete, insert, select

from .database import hold
from .schema import attempts


def begin(engine: Engine, keys: Sequence[str], limit: int, window: float, now: float) -> tuple[float, list[int]]:
    """Count one attempt for every key, unless one of them already has `limit` attempts within
    `window` seconds: then nothing is stored. Returns (seconds to wait, 0 when allowed; the ids
    of the stored attempts)."""
    with engine.begin() as conn:
        for key in sorted(set(keys)):
            hold(conn, key)
        for key in keys:
            times = (
                conn.execute(
                    select(attempts.c.at)
                    .where(attempts.c.key == key, attempts.c.at > now - window)
                    .order_by(attempts.c.at)
                    .limit(limit)
                )
                .scalars()
                .all()
            )
            if len(times) >= limit:
                return max(1.0, times[0] + window - now), []
        ids = []
        for key in keys:
            result = conn.execute(insert(attempts).values(key=key[:200], at=now))
            assert result.inserted_primary_key is not None
            ids.append(result.inserted_primary_key[0])
    return 0.0, ids


def forget(engine: Engine, ids: Sequence[int]) -> None:
    """An attempt that succeeded no longer counts."""
    if ids:
        with engine.begin() as conn:
            conn.execute(delete(attempts).where(attempts.c.id.in_(list(ids))))


def purge(engine: Engine, before: float) -> int:
    """Attempts older than every window: gone (run with the hourly purge)."""
    with engine.begin() as conn:
        return conn.execute(delete(attempts).where(attempts.c.at < before)).rowcount
