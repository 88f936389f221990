"""The lobby's changes to tables: list, create, join, leave, seat and remove bots, start.

Each change to an existing table is a command to its actor (`actor`: `TakeSeat`, `Leave`,
`SeatBots`, `RemoveBot`, `Start`), which checks it, commits it through `Tables.persist` and tells
the listeners. A refused change raises `ApiError` before anything is written.
"""

from __future__ import annotations

import contextlib
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import msgspec
from sqlalchemy import Connection

from ..bots import bot_names, make_bot
from ..engine import NekobakoError, State, get_game
from ..i18n import Message
from ..store import games, leases, quotas
from ..store.database import now
from ..store.games import NoticeRow, SeatRow, TableRow
from .actor import Request, catch_up, get_fresh, send
from .choices import ChoiceTracker
from .clock import clock_after, parse_clock
from .conductor import LEASE_SECONDS
from .errors import ApiError
from .live import LiveTable, draw_chance_steps, new_notice
from .moves import replace_by_bot
from .requests import FieldRefusal, typed
from .seat_bots import STRONG_LEVELS
from .settings import Limits
from .tables import Tables
from .wire import AddBots, Join, NewTable

PAGE_SIZE = (1, 100)


def available_game(name: Any) -> Any:
    """The engine's game called `name`, or a 400 naming the games that exist."""
    if not isinstance(name, str):
        raise ApiError(400, "unknown_game", Message("error.game_name"))
    try:
        return get_game(name)
    except NekobakoError as exc:
        raise ApiError(400, "unknown_game", exc.message) from None


class Rooms:
    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.limits = tables.limits
        # after a game starts; True: this process's lease was made in the transaction that started it
        self.started: Callable[[LiveTable, bool], Awaitable[None]] | None = None

    async def list_tables(
        self,
        statuses: list[str],
        viewer: dict[str, Any] | None,
        *,
        game: str | None = None,
        limit: int = 50,
        before: int | None = None,
        seats_free: bool = False,
        lang: str = "en",
    ) -> tuple[list[dict[str, Any]], int | None]:
        """One page of tables, newest first, and the cursor of the next page (or None). The ids
        come from the database (other processes make tables too); the tables from memory, where
        copies are kept up to date. Only open tables have free seats."""
        if seats_free:
            statuses = [s for s in statuses if s == "open"]
            if not statuses:
                return [], None
        ids = await self.tables.db(
            games.table_ids, statuses, game=game, before=before, limit=limit + 1, seats_free=seats_free
        )
        found = []
        for table_id in ids:
            with contextlib.suppress(ApiError):
                found.append(await self.tables.get(table_id))
        await catch_up(self.tables, found)
        page = found[:limit]
        cursor = page[-1].id if len(found) > limit else None
        return [t.detail(viewer, lang) for t in page], cursor

    async def create_table(self, user: dict[str, Any], body: NewTable) -> LiveTable:
        """A new table hosted by `user` at seat 0; with `bots` (a level) every other seat gets a
        bot, and with `start` the game starts too: one transaction, and the table in memory is
        the row just stored (nothing is read back). Everything is checked before it is stored."""
        game = available_game(body.game)
        players = body.seats
        try:
            options = game.options(body.options or {}, players)
        except NekobakoError as exc:
            raise ApiError(400, "invalid_options", exc.message) from None
        clock = {"kind": "none"} if body.clock is None else msgspec.to_builtins(body.clock)
        level = body.bots
        if level is not None:
            _bot_level(game.name, level, players, options.to_json())
        begin = body.start
        row = games.new_table_row(game.name, players, options.to_json(), clock, user["id"], secrets.randbits(62))
        if level is not None:
            if all(s.kind != "empty" for s in row.seats):
                raise ApiError(409, "conflict", Message("error.all_taken"))
            row.seats = [SeatRow(s.seat, "bot", bot=level) if s.kind == "empty" else s for s in row.seats]
        entries: list[str] = []
        state = None
        lease = leases.StartedLease(self.tables.origin, time.time() + LEASE_SECONDS) if begin else None
        if begin:
            _require_seated(row)
            values, entries, row.notices, state = opening(row)
            for key, value in values.items():
                setattr(row, key, value)
        try:
            table_id = await self.tables.db(
                games.insert_table,
                row,
                entries=entries,
                check=self._new_table_check(user, level),
                lease=lease,
            )
        except (quotas.HostsTooMany, quotas.StrongBotsTooMany) as exc:
            raise quota_error(exc, self.limits) from None
        row.id = table_id
        made = LiveTable(row=row, users={user["id"]: user}, entries=entries)
        if state is not None:
            made.state, made.tracker = state
        live = self.tables.add(made)
        if begin:
            self.tables.changed(live)
            if self.started is not None:
                await self.started(live, lease is not None and lease.taken)
        return live

    def _new_table_check(self, user: dict[str, Any], level: str | None) -> Callable[[Connection], None]:
        """The quotas a new table counts against, in the transaction that stores it: the tables
        its host hosts, and with a searching bot the tables that have one (hosting first, as
        every transaction takes these locks)."""
        hosting = partial(quotas.limit_hosting, host_id=user["id"], most=self.limits.open_tables)
        if level not in STRONG_LEVELS:
            return hosting
        strong = partial(
            quotas.limit_strong_bots,
            table_id=None,
            host_id=user["id"],
            levels=STRONG_LEVELS,
            per_host=self.limits.strong_bot_tables,
            per_server=self.limits.server_strong_bot_tables,
        )

        def both(conn: Connection) -> None:
            hosting(conn)
            strong(conn)

        return both

    async def join(self, user: dict[str, Any], table_id: int, body: dict[str, Any]) -> LiveTable:
        """`body` is the request's (`wire.Join`), typed once the table is known: its seats word a
        seat that is not a number."""
        live = await get_fresh(self.tables, table_id)
        seat = typed(body, Join, {"seat": lambda seat: _empty_seat(live, seat)}).seat
        await send(self.tables, live, TakeSeat(user, seat))
        return live

    async def leave(self, user: dict[str, Any], table_id: int) -> LiveTable:
        live = await get_fresh(self.tables, table_id)
        await send(self.tables, live, Leave(user))
        return live

    async def add_bots(self, user: dict[str, Any], table_id: int, raw: dict[str, Any]) -> LiveTable:
        """`raw` is the request's body (`wire.AddBots`), typed once the table is known."""
        live = await get_fresh(self.tables, table_id)
        body = bots_body(raw, live)
        level = _bot_level(live.row.game, body.level, live.row.players, live.row.options)
        await send(self.tables, live, SeatBots(user, level, body.fill, body.seat))
        return live

    async def remove_seat(self, user: dict[str, Any], table_id: int, seat: int) -> LiveTable:
        live = await get_fresh(self.tables, table_id)
        await send(self.tables, live, RemoveBot(user, seat))
        return live

    async def start(self, user: dict[str, Any], table_id: int) -> LiveTable:
        live = await get_fresh(self.tables, table_id)
        await send(self.tables, live, Start(user))
        if self.started is not None:
            await self.started(live, False)
        return live


# -- the lobby's commands to a table's actor ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class TakeSeat(Request):
    """A person sits down at an open table's empty `seat`."""

    user: dict[str, Any]
    seat: Any

    async def apply(self, tables: Tables, live: LiveTable) -> None:
        user = self.user
        _require_open(live)
        held = live.seat_of(user["id"])
        if held is not None:
            raise ApiError(409, "conflict", Message("error.already_seated", seat=held))
        index = _empty_seat(live, self.seat)
        seats = [replace(s) for s in live.row.seats]
        seats[index] = SeatRow(index, "human", user["id"])
        await tables.persist(live, seat_rows=seats, users={user["id"]: user})


@dataclass(frozen=True, slots=True)
class Leave(Request):
    """A person leaves: at an open table the seat empties (the last person's leaving abandons
    it; a host's leaving passes hosting on); in a running game a bot takes the seat over."""

    user: dict[str, Any]

    async def apply(self, tables: Tables, live: LiveTable) -> None:
        user = self.user
        seat = live.seat_of(user["id"])
        if seat is None:
            raise ApiError(409, "conflict", Message("error.not_seated"))
        if live.row.status == "open":
            seats = [replace(s) for s in live.row.seats]
            seats[seat] = SeatRow(seat)
            humans = [s.user_id for s in seats if s.kind == "human" and s.user_id is not None]
            values: dict[str, Any] = {}
            if not humans:
                values["status"] = "abandoned"
            check: Callable[[Connection], None] | None = None
            locks: tuple[str, ...] = ()
            if live.row.host_id == user["id"]:
                values["host_id"] = None
                if humans:
                    check = partial(_pass_hosting, tables.limits, live.id, humans, values)
                    locks = (*map(quotas.hosting_lock, humans), quotas.STRONG_LOCK)
            await tables.persist(live, seat_rows=seats, values=values, check=check, locks=locks)
        elif live.running:
            await replace_by_bot(tables, live, seat, "left")


@dataclass(frozen=True, slots=True)
class SeatBots(Request):
    """The host seats a bot of `level` at `seat`, or at every empty seat (`fill`)."""

    user: dict[str, Any]
    level: str
    fill: bool
    seat: Any

    async def apply(self, tables: Tables, live: LiveTable) -> None:
        _require_host(live, self.user)
        _require_open(live)
        seats = [replace(s) for s in live.row.seats]
        if self.fill:
            targets = [s.seat for s in seats if s.kind == "empty"]
            if not targets:
                raise ApiError(409, "conflict", Message("error.all_taken"))
        else:
            targets = [_empty_seat(live, self.seat)]
        for index in targets:
            seats[index] = SeatRow(index, "bot", bot=self.level)
        check = _strong_bot_check(tables.limits, live) if self.level in STRONG_LEVELS else None
        locks = (quotas.STRONG_LOCK,) if check is not None else ()
        try:
            await tables.persist(live, seat_rows=seats, check=check, locks=locks)
        except quotas.StrongBotsTooMany as exc:
            raise quota_error(exc, tables.limits) from None


@dataclass(frozen=True, slots=True)
class RemoveBot(Request):
    """The host takes the bot at `seat` away."""

    user: dict[str, Any]
    seat: int

    async def apply(self, tables: Tables, live: LiveTable) -> None:
        seat = self.seat
        _require_host(live, self.user)
        _require_open(live)
        if not 0 <= seat < live.row.players:
            raise ApiError(409, "conflict", Message("error.no_seat", seat=seat))
        if live.row.seats[seat].kind != "bot":
            raise ApiError(409, "conflict", Message("error.only_bot_seat"))
        seats = [replace(s) for s in live.row.seats]
        seats[seat] = SeatRow(seat)
        await tables.persist(live, seat_rows=seats)


@dataclass(frozen=True, slots=True)
class Start(Request):
    """The host starts the game; this process takes the table's lease in the same transaction."""

    user: dict[str, Any]

    async def apply(self, tables: Tables, live: LiveTable) -> None:
        _require_host(live, self.user)
        _require_open(live)
        _require_seated(live.row)
        values, entries, notices, state = opening(live.row)
        lease = partial(leases.StartedLease(tables.origin, time.time() + LEASE_SECONDS), table_id=live.id)
        await tables.persist(
            live, values=values, first_seq=0, entries=entries, new_notices=notices, state=state, extra=lease
        )


def _pass_hosting(limits: Limits, table_id: int, humans: list[int], values: dict[str, Any], conn: Connection) -> None:
    """In the commit of a host's leaving: the first person still seated whom the limits let
    host this table (`open_tables`, and `strong_bot_tables` if it has a searching bot)
    becomes its host; when nobody may, the table closes (abandoned), as when the last person
    leaves: a table nobody may host could never start."""
    host = quotas.next_host(
        conn,
        table_id=table_id,
        candidates=humans,
        most_hosted=limits.open_tables,
        levels=STRONG_LEVELS,
        per_host_strong=limits.strong_bot_tables,
    )
    values["host_id"] = host
    if host is None:
        values["status"] = "abandoned"


def _strong_bot_check(limits: Limits, live: LiveTable) -> Callable[[Connection], None]:
    """Searching bots cost a process's whole second per move: a few tables per host and per
    server (all processes together), counted in the transaction that seats the bot."""
    return partial(
        quotas.limit_strong_bots,
        table_id=live.id,
        host_id=live.row.host_id,
        levels=STRONG_LEVELS,
        per_host=limits.strong_bot_tables,
        per_server=limits.server_strong_bot_tables,
    )


def quota_error(exc: quotas.HostsTooMany | quotas.StrongBotsTooMany, limits: Limits) -> ApiError:
    """A quota's refusal in the reader's language."""
    if isinstance(exc, quotas.HostsTooMany):
        return ApiError(429, "quota", Message("error.quota_hosting", n=exc.hosted, limit=limits.open_tables))
    if exc.mine is not None:
        return ApiError(429, "quota", Message("error.quota_mine", n=exc.mine, limit=exc.limit))
    return ApiError(429, "quota", Message("error.quota_server"))


def opening(row: TableRow) -> tuple[dict[str, Any], list[str], list[NoticeRow], tuple[State, ChoiceTracker]]:
    """What starting the game of `row` changes: the table's values, the opening's record entries
    (the deal), the `started` notice, and the state with its choices."""
    state = get_game(row.game).new_game(row.players, row.options)
    tracker = ChoiceTracker(row.players)
    entries = draw_chance_steps(state, tracker, row.seed, 0)
    clock, deadlines = clock_after(row.clock, row.seats, row.deadlines, state, None, tracker)
    notices = [new_notice("started", None, len(entries), {})]
    values = {"status": "running", "started_at": now(), "seq": len(entries), "deadlines": deadlines, "clock": clock}
    return values, entries, notices, (state, tracker)


def new_table_body(raw: dict[str, Any]) -> NewTable:
    """A new table's body, typed; a misfit field is refused with the words of its own check. A
    real-time clock may name its bank `seconds` (the name it had when it was a limit per decision)."""
    clock = raw.get("clock")
    if isinstance(clock, dict) and clock.get("kind") == "realtime" and "seconds" in clock and "bank" not in clock:
        clock = {("bank" if key == "seconds" else key): value for key, value in clock.items()}
        raw = {**raw, "clock": clock}
    game = raw.get("game")
    refusals: dict[str, FieldRefusal] = {
        "game": available_game,
        "seats": Message("error.seats"),
        "options": Message("error.options_object"),
        "clock": parse_clock,
        "bots": lambda level: _bot_level(str(game), level),
        "start": Message("error.start_flag"),
    }
    return typed(raw, NewTable, refusals)


def bots_body(raw: dict[str, Any], live: LiveTable) -> AddBots:
    """A body of `POST /api/tables/{id}/bots`, typed, for this table (its game and seats)."""
    refusals: dict[str, FieldRefusal] = {
        "level": lambda level: _bot_level(live.row.game, level),
        "fill": Message("error.fill"),
        "seat": lambda seat: _empty_seat(live, seat),
    }
    return typed(raw, AddBots, refusals)


def _bot_level(game: str, level: Any, players: int | None = None, options: dict[str, Any] | None = None) -> str:
    """`level` if it names a bot that plays `game` at this table: 400 for no bot level, 409 for
    another game's or for a `learned` level with no weights for this table (checked once the
    table's players and options are known)."""
    levels = bot_names(game)
    if level not in bot_names():
        raise ApiError(400, "bad_request", Message("error.bot_level", levels=list(levels)))
    if level not in levels:
        message = Message("error.bot_game", level=level, game=Message(f"game.{game}"), levels=list(levels))
        raise ApiError(409, "conflict", message)
    check = getattr(make_bot(level, game), "check_table", None)  # the learned level's weights
    if callable(check) and players is not None:
        try:
            check(players, options)
        except NekobakoError as exc:
            raise ApiError(409, "conflict", exc.message) from None
    return str(level)


def _require_seated(row: TableRow) -> None:
    empty = [s.seat for s in row.seats if s.kind == "empty"]
    if empty:
        raise ApiError(409, "conflict", Message("error.seat_empty", seat=empty[0]))


def _require_open(live: LiveTable) -> None:
    if live.row.status != "open":
        raise ApiError(409, "conflict", Message("error.not_open", status=Message(f"lobby.status.{live.row.status}")))


def _require_host(live: LiveTable, user: dict[str, Any]) -> None:
    if live.row.host_id != user["id"]:
        raise ApiError(403, "forbidden", Message("error.host_only"))


def _empty_seat(live: LiveTable, seat: Any) -> int:
    if seat is None:
        for row in live.row.seats:
            if row.kind == "empty":
                return row.seat
        raise ApiError(409, "conflict", Message("error.full"))
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise ApiError(400, "bad_request", Message("error.seat_number", last=live.row.players - 1))
    if not 0 <= seat < live.row.players:
        raise ApiError(409, "conflict", Message("error.seat_range", seat=seat, last=live.row.players - 1))
    if live.row.seats[seat].kind != "empty":
        raise ApiError(409, "conflict", Message("error.seat_taken", seat=seat))
    return seat
