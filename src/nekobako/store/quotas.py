"""Quotas on tables, each counted inside the transaction that makes the change it allows, under
the quota's lock (`database.hold`): however many server processes share the database, two
requests cannot both see room for one more and both take it.

- tables one user hosts that are open or running (`limit_hosting`);
- tables with a searching bot, per host and per server (`limit_strong_bots`);
- who inherits an open table whose host left (`next_host`): someone those limits allow.

Lock names sort in the order they are taken (`hosting/…` before `quota/strong-bots`), and a
transaction that takes several takes them sorted (`games.Change.locks`), so two transactions
never wait for each other in a circle.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sqlalchemy import Connection, bindparam, func, select

from .database import hold
from .schema import seats, tables

LIVE = ("open", "running")
STRONG_LOCK = "quota/strong-bots"  # one lock for the per-host and the per-server count


class HostsTooMany(Exception):
    """The host already hosts as many open or running tables as one may."""

    def __init__(self, hosted: int):
        super().__init__(f"{hosted} tables hosted")
        self.hosted = hosted


class StrongBotsTooMany(Exception):
    """A table with a searching bot more would pass a limit: the host's (`mine` tables already)
    or, with `mine` None, the server's."""

    def __init__(self, mine: int | None, limit: int):
        super().__init__(f"{'server' if mine is None else mine} tables with searching bots (limit {limit})")
        self.mine = mine
        self.limit = limit


_HOSTED = select(func.count()).where(tables.c.host_id == bindparam("host_id"), tables.c.status.in_(LIVE))


def limit_hosting(conn: Connection, host_id: int, most: int) -> None:
    """Raise `HostsTooMany` unless `host_id` hosts fewer than `most` open or running tables."""
    hold(conn, hosting_lock(host_id))
    hosted = int(conn.execute(_HOSTED, {"host_id": host_id}).scalar_one())
    if hosted >= most:
        raise HostsTooMany(hosted)


def limit_strong_bots(
    conn: Connection,
    *,
    table_id: int | None,
    host_id: int | None,
    levels: Iterable[str],
    per_host: int,
    per_server: int,
) -> None:
    """Raise `StrongBotsTooMany` if one more open or running table with a bot of `levels` (table
    `table_id`, hosted by `host_id`; None: a table not made yet) passes a limit. A table that has
    one already does not count twice."""
    hold(conn, STRONG_LOCK)
    strong = strong_tables(conn, levels)
    if table_id is not None:
        strong.pop(table_id, None)
    mine = sum(1 for host in strong.values() if host == host_id)
    if host_id is not None and mine >= per_host:
        raise StrongBotsTooMany(mine, per_host)
    if len(strong) >= per_server:
        raise StrongBotsTooMany(None, per_server)


def strong_tables(conn: Connection, levels: Iterable[str]) -> dict[int, int | None]:
    """Open or running tables (id → host) where a bot of one of `levels` plays for itself."""
    query = (
        select(tables.c.id, tables.c.host_id)
        .where(tables.c.status.in_(LIVE))
        .where(
            select(seats.c.table_id)
            .where(
                seats.c.table_id == tables.c.id,
                seats.c.kind == "bot",
                seats.c.bot.in_(list(levels)),
                seats.c.replaced.is_(None),
            )
            .exists()
        )
    )
    return {r.id: r.host_id for r in conn.execute(query)}


def hosting_lock(user_id: int) -> str:
    return f"hosting/{user_id}"


def next_host(
    conn: Connection,
    *,
    table_id: int,
    candidates: Sequence[int],
    most_hosted: int,
    levels: Iterable[str],
    per_host_strong: int,
) -> int | None:
    """Who inherits open table `table_id` from a host who left: the first of `candidates` (the
    people still seated, in seat order) who hosts fewer than `most_hosted` open or running tables
    and, when this table has a searching bot, fewer than `per_host_strong` tables with one; None
    when nobody may. Counted under the same locks as the quotas themselves."""
    for user_id in sorted(set(candidates), key=hosting_lock):
        hold(conn, hosting_lock(user_id))
    hold(conn, STRONG_LOCK)
    strong = strong_tables(conn, levels)
    for user_id in candidates:
        query = select(func.count()).where(tables.c.host_id == user_id, tables.c.status.in_(LIVE))
        if int(conn.execute(query).scalar_one()) >= most_hosted:
            continue
        if table_id in strong and sum(1 for host in strong.values() if host == user_id) >= per_host_strong:
            continue
        return user_id
    return None
