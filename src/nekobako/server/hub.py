"""Every table the server hosts, and every change to them: the lobby (create, join, leave, bots,
start), play (`submit`), bots in seats and clocks.

One rule holds throughout: under the table's lock, a change is computed on copies, committed to
the database in one transaction, and only then swapped into memory and announced. A refused
change raises `ApiError` (REST) or `Refusal` (WebSocket) before anything is written.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from sqlalchemy import Engine

from ..bots import bot_names
from ..engine import NekobakoError, format_entry, get_game, parse_entry
from ..store import accounts, games, ratings
from ..store.database import now
from ..store.games import NoticeRow, Replaced, SeatRow
from .choices import ChoiceTracker
from .clock import decision_seconds, parse_clock
from .drivers import drive_bots, log_if_failed, watch_clock
from .elo import elo_update, last_for_replaced, placements
from .errors import ApiError, Refusal
from .faults import Faults
from .live import LiveTable, draw_chance_steps, new_notice, rebuild
from .seat_bots import STRONG_LEVELS, replacement_level
from .settings import Settings
from .workers import Workers

log = logging.getLogger("nekobako.server")

PAGE_SIZE = (1, 100)
LAG_PERIOD = 0.1
PURGE_PERIOD = 3600.0
LIVE = ("open", "running")  # tables always in memory
MAX_TABLE_ID = 2**31 - 1  # the id column is a 32-bit integer; larger numbers name no table


def available_game(name: Any) -> Any:
    """The engine's game called `name`, or a 400 naming the games that exist."""
    if not isinstance(name, str):
        raise ApiError(400, "unknown_game", "game must be a game name such as 'shutbox'")
    try:
        return get_game(name)
    except NekobakoError as exc:
        raise ApiError(400, "unknown_game", str(exc)) from None


class Hub:
    def __init__(self, engine: Engine, settings: Settings | None = None):
        self.engine = engine
        self.settings = settings or Settings()
        self.limits = self.settings.limits
        self.bot_delay = self.settings.bot_delay
        self.closing = False
        self.tables: dict[int, LiveTable] = {}
        self.finished_order: dict[int, None] = {}  # finished tables in memory, oldest first
        self.workers = Workers(self.settings)
        self.faults = Faults()
        self._loading = asyncio.Lock()
        self.loop_lags: collections.deque[float] = collections.deque(maxlen=600)  # the last minute
        self.lag_task: asyncio.Task[None] | None = None
        self.purge_task: asyncio.Task[None] | None = None

    async def db(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run a blocking store function in a database thread."""
        return await self.workers.db(fn, self.engine, *args, **kwargs)

    # -- lifecycle -----------------------------------------------------------------------------
    async def watch_loop_lag(self) -> None:
        """How late the event loop wakes up (every 0.1 s): the health endpoint reports it."""
        loop = asyncio.get_running_loop()
        while not self.closing:
            expected = loop.time() + LAG_PERIOD
            await asyncio.sleep(LAG_PERIOD)
            self.loop_lags.append(max(0.0, loop.time() - expected))

    def health(self) -> dict[str, Any]:
        lags = sorted(self.loop_lags)

        def at(q: float) -> float:
            return round(lags[min(len(lags) - 1, int(q * len(lags)))] * 1000, 2) if lags else 0.0

        running = sum(1 for t in self.tables.values() if t.running)
        return {
            "ok": True,
            "tables_in_memory": len(self.tables),
            "running": running,
            "loop_lag_ms": {"p50": at(0.5), "p90": at(0.9), "p99": at(0.99), "max": at(1.0), "samples": len(lags)},
        }

    async def purge_accounts(self) -> None:
        """Expired sessions and unused old guest accounts go, at startup and then every hour."""
        while not self.closing:
            try:
                sessions, guests = await self.db(accounts.purge)
                if sessions or guests:
                    log.info("purged %s expired sessions and %s unused guest accounts", sessions, guests)
            except Exception:
                log.exception("purging sessions and guests failed; trying again in an hour")
            await asyncio.sleep(PURGE_PERIOD)

    async def startup(self) -> None:
        """Rebuild every open and running table from the database and set its bots and clock going."""
        self.lag_task = asyncio.create_task(self.watch_loop_lag())
        self.purge_task = asyncio.create_task(self.purge_accounts())
        for table_id in await self.db(games.table_ids, ["open", "running"]):
            try:
                live = await self.get(table_id)
            except Exception:
                log.exception("table %s cannot be rebuilt; it stays stored but is not served", table_id)
                continue
            if live.running:
                await self._extend_lapsed_deadlines(live)
                self.after_change(live)

    async def shutdown(self) -> None:
        self.closing = True
        tasks = [t for live in self.tables.values() for t in (live.bot_task, live.clock_task) if t is not None]
        tasks += [t for t in (self.lag_task, self.purge_task) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        self.workers.close()

    async def _extend_lapsed_deadlines(self, live: LiveTable) -> None:
        """Time the server was down does not count: deadlines that passed meanwhile start again."""
        limit = decision_seconds(live.row.clock)
        if limit is None or not live.row.deadlines:
            return
        stamp = time.time()
        deadlines = {k: (v if v > stamp else stamp + limit) for k, v in live.row.deadlines.items()}
        if deadlines != live.row.deadlines:
            async with live.lock:
                await self._persist(live, values={"deadlines": deadlines})

    async def get(self, table_id: int) -> LiveTable:
        live = self.tables.get(table_id)
        if live is not None:
            return live
        if not 0 < table_id <= MAX_TABLE_ID:  # the database would refuse such a number with an error
            raise ApiError(404, "not_found", f"there is no table {table_id}")
        async with self._loading:
            live = self.tables.get(table_id)
            if live is None:
                live = await self._load(table_id)
                self.tables[table_id] = live
                self._keep_or_evict(live)
        return live

    def _keep_or_evict(self, live: LiveTable) -> None:
        """Finished and abandoned tables are kept in memory only while someone may look at them:
        the most recent `finished_in_memory` of them (the rest are read again on demand)."""
        if live.row.status not in ("finished", "abandoned"):
            return
        self.finished_order[live.id] = None
        excess = len(self.finished_order) - self.limits.finished_in_memory
        for table_id in list(self.finished_order)[: max(0, excess)]:
            old = self.tables.get(table_id)
            if old is not None and old.connections:
                continue  # someone watches it; evicted later
            del self.finished_order[table_id]
            self.tables.pop(table_id, None)

    async def _load(self, table_id: int) -> LiveTable:
        row = await self.db(games.load_table, table_id)
        if row is None:
            raise ApiError(404, "not_found", f"there is no table {table_id}")
        user_ids = [s.user_id for s in row.seats if s.user_id is not None]
        if row.host_id is not None:
            user_ids.append(row.host_id)
        users = await self.db(accounts.users_by_id, user_ids)
        live = LiveTable(row=row, users=users)
        if row.status in ("running", "finished"):
            entries = await self.db(games.load_actions, table_id)
            live.state, live.tracker = await asyncio.to_thread(rebuild, row, entries)
            live.entries = entries
            live.row.seq = len(entries)
        return live

    async def _reload(self, live: LiveTable) -> None:
        """Make memory match the database again after a commit whose outcome is unknown (lock
        held). Raises when the database cannot be read; the table then stays `uncertain`."""
        fresh = await self._load(live.id)
        live.row, live.users, live.state, live.tracker, live.entries = (
            fresh.row,
            fresh.users,
            fresh.state,
            fresh.tracker,
            fresh.entries,
        )
        live.uncertain = False
        live.version += 1
        log.warning("table %s reloaded from the database at seq %s", live.id, live.row.seq)

    async def _settle_uncertain(self, live: LiveTable) -> None:
        """Before any change to a table whose last commit is in doubt (lock held)."""
        if not live.uncertain:
            return
        try:
            await self._reload(live)
        except Exception:
            log.warning("table %s: the database is still unreachable", live.id)
            raise Refusal("unavailable", "the server cannot reach its database; try again in a moment") from None

    # -- the lobby -----------------------------------------------------------------------------
    async def list_tables(
        self,
        statuses: list[str],
        viewer: dict[str, Any] | None,
        *,
        game: str | None = None,
        limit: int = 50,
        before: int | None = None,
        seats_free: bool = False,
    ) -> tuple[list[dict[str, Any]], int | None]:
        """One page of tables, newest first, and the cursor of the next page (or None). Open and
        running tables are in memory; finished and abandoned ones are read from the database."""

        def wanted(t: LiveTable) -> bool:
            return (
                t.row.status in statuses
                and (game is None or t.row.game == game)
                and (before is None or t.id < before)
                and (not seats_free or any(s.kind == "empty" for s in t.row.seats))
            )

        in_memory = ("open", "running")
        found = [t for t in self.tables.values() if t.row.status in in_memory and wanted(t)]
        done = [s for s in statuses if s not in in_memory]
        if done and not seats_free:
            ids = await self.db(games.table_ids, done, game=game, before=before, limit=limit + 1)
            for table_id in ids:
                with contextlib.suppress(ApiError):
                    found.append(await self.get(table_id))
        found.sort(key=lambda t: t.id, reverse=True)
        page = found[:limit]
        cursor = page[-1].id if len(found) > limit else None
        return [t.detail(viewer) for t in page], cursor

    async def create_table(self, user: dict[str, Any], body: dict[str, Any]) -> LiveTable:
        game = available_game(body.get("game"))
        players = body.get("seats")
        if not isinstance(players, int) or isinstance(players, bool):
            raise ApiError(400, "bad_request", "seats must be a whole number of players")
        raw_options = body.get("options")
        raw_options = {} if raw_options is None else raw_options
        if not isinstance(raw_options, dict):
            raise ApiError(400, "bad_request", "options must be an object of option names to values")
        try:
            options = game.options(raw_options, players)
        except NekobakoError as exc:
            raise ApiError(400, "invalid_options", str(exc)) from None
        clock = parse_clock(body.get("clock"))
        hosted = sum(1 for t in self.tables.values() if t.row.host_id == user["id"] and t.row.status in LIVE)
        if hosted >= self.limits.open_tables:
            raise ApiError(
                429,
                "quota",
                f"you already host {hosted} open or running tables (at most {self.limits.open_tables}); "
                "finish or leave one first",
            )
        table_id = await self.db(
            games.create_table,
            game=game.name,
            players=players,
            options=options.to_json(),
            clock=clock,
            host_id=user["id"],
            seed=secrets.randbits(62),
        )
        return await self.get(table_id)

    async def join(self, user: dict[str, Any], table_id: int, seat: Any) -> LiveTable:
        live = await self.get(table_id)
        async with live.lock:
            self._require_open(live)
            held = live.seat_of(user["id"])
            if held is not None:
                raise ApiError(409, "conflict", f"you already sit at seat {held}")
            index = self._empty_seat(live, seat)
            seats = [replace(s) for s in live.row.seats]
            seats[index] = SeatRow(index, "human", user["id"])
            await self._persist(live, seat_rows=seats, users={user["id"]: user})
        self._announce(live)
        return live

    async def leave(self, user: dict[str, Any], table_id: int) -> LiveTable:
        live = await self.get(table_id)
        async with live.lock:
            seat = live.seat_of(user["id"])
            if seat is None:
                raise ApiError(409, "conflict", "you do not hold a seat at this table")
            if live.row.status == "open":
                seats = [replace(s) for s in live.row.seats]
                seats[seat] = SeatRow(seat)
                humans = [s for s in seats if s.kind == "human"]
                values: dict[str, Any] = {}
                if not humans:
                    values["status"] = "abandoned"
                if live.row.host_id == user["id"]:
                    values["host_id"] = humans[0].user_id if humans else None
                await self._persist(live, seat_rows=seats, values=values)
            elif live.running:
                await self.replace_by_bot(live, seat, "left")
        self.after_change(live)
        return live

    async def add_bots(self, user: dict[str, Any], table_id: int, body: dict[str, Any]) -> LiveTable:
        live = await self.get(table_id)
        level = body.get("level")
        levels = bot_names(live.row.game)
        if level not in bot_names():
            raise ApiError(400, "bad_request", f"bot level must be one of: {', '.join(levels)}")
        if level not in levels:
            message = f"{level} bots do not play {live.row.game}; choose one of: {', '.join(levels)}"
            raise ApiError(409, "conflict", message)
        fill = body.get("fill", False)
        if not isinstance(fill, bool):
            raise ApiError(400, "bad_request", "fill must be true or false")
        async with live.lock:
            self._require_host(live, user)
            self._require_open(live)
            if level in STRONG_LEVELS:
                self._check_strong_bot_quota(live, user)
            seats = [replace(s) for s in live.row.seats]
            if fill:
                targets = [s.seat for s in seats if s.kind == "empty"]
                if not targets:
                    raise ApiError(409, "conflict", "every seat is taken")
            else:
                targets = [self._empty_seat(live, body.get("seat"))]
            for index in targets:
                seats[index] = SeatRow(index, "bot", bot=level)
            await self._persist(live, seat_rows=seats)
        self._announce(live)
        return live

    async def remove_seat(self, user: dict[str, Any], table_id: int, seat: int) -> LiveTable:
        live = await self.get(table_id)
        async with live.lock:
            self._require_host(live, user)
            self._require_open(live)
            if not 0 <= seat < live.row.players:
                raise ApiError(409, "conflict", f"this table has no seat {seat}")
            if live.row.seats[seat].kind != "bot":
                raise ApiError(409, "conflict", "only a bot's seat can be emptied; players leave by themselves")
            seats = [replace(s) for s in live.row.seats]
            seats[seat] = SeatRow(seat)
            await self._persist(live, seat_rows=seats)
        self._announce(live)
        return live

    async def start(self, user: dict[str, Any], table_id: int) -> LiveTable:
        live = await self.get(table_id)
        async with live.lock:
            self._require_host(live, user)
            self._require_open(live)
            empty = [s.seat for s in live.row.seats if s.kind == "empty"]
            if empty:
                raise ApiError(409, "conflict", f"seat {empty[0]} is empty; invite a player or add a bot")
            row = live.row
            state = get_game(row.game).new_game(row.players, row.options)
            tracker = ChoiceTracker(row.players)
            entries = draw_chance_steps(state, tracker, row.seed, 0)
            deadlines = self._deadlines(live, state, None, tracker)
            notices = [new_notice("started", None, len(entries), {})]
            values = {"status": "running", "started_at": now(), "seq": len(entries), "deadlines": deadlines}
            await self._persist(
                live, values=values, first_seq=0, entries=entries, new_notices=notices, state=(state, tracker)
            )
        self.after_change(live)
        return live

    def _check_strong_bot_quota(self, live: LiveTable, user: dict[str, Any]) -> None:
        """Searching bots cost a process's whole second per move: a few tables per user and per server."""
        strong = [
            t
            for t in self.tables.values()
            if t is not live
            and t.row.status in ("open", "running")
            and any(s.kind == "bot" and s.bot in STRONG_LEVELS and s.replaced is None for s in t.row.seats)
        ]
        mine = sum(1 for t in strong if t.row.host_id == user["id"])
        if mine >= self.limits.strong_bot_tables:
            limit = self.limits.strong_bot_tables
            raise ApiError(429, "quota", f"you already run {mine} tables with searching bots (at most {limit})")
        if len(strong) >= self.limits.server_strong_bot_tables:
            raise ApiError(429, "quota", "the server runs as many tables with searching bots as it can; try greedy")

    def _require_open(self, live: LiveTable) -> None:
        if live.row.status != "open":
            raise ApiError(409, "conflict", f"the table is {live.row.status}, not open")

    def _require_host(self, live: LiveTable, user: dict[str, Any]) -> None:
        if live.row.host_id != user["id"]:
            raise ApiError(403, "forbidden", "only the table's host may do that")

    def _empty_seat(self, live: LiveTable, seat: Any) -> int:
        if seat is None:
            for row in live.row.seats:
                if row.kind == "empty":
                    return row.seat
            raise ApiError(409, "conflict", "the table is full")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise ApiError(400, "bad_request", f"seat must be a number from 0 to {live.row.players - 1}")
        if not 0 <= seat < live.row.players:
            raise ApiError(409, "conflict", f"this table has no seat {seat}; seats go from 0 to {live.row.players - 1}")
        if live.row.seats[seat].kind != "empty":
            raise ApiError(409, "conflict", f"seat {seat} is taken")
        return seat

    # -- play ----------------------------------------------------------------------------------
    async def submit(self, live: LiveTable, seat: int, seq: int, text: str) -> None:
        """Apply `text` for `seat` as the answer to position `seq`, then the chance steps that follow.
        Raises `Refusal` (and changes nothing) when the action is stale, illegal or out of turn."""
        async with live.lock:
            await self._settle_uncertain(live)
            state, tracker = live.state, live.tracker
            if not live.running or state is None or tracker is None:
                raise Refusal("not_running", "the game is not running")
            stale = tracker.stale_reason(seat, seq, live.row.seq)
            if stale is not None:
                raise Refusal("stale", stale)
            if seat not in state.to_move:
                raise Refusal("not_your_turn", f"seat {seat} is not to move now")
            game = state.game
            new_state, new_tracker = state.clone(), tracker.copy()
            try:
                action = game.parse_action(text)
                new_state.apply(seat, action)
            except NekobakoError as exc:
                raise Refusal("illegal", str(exc)) from None
            seq_after = live.row.seq + 1
            new_tracker.update(new_state, seat, seq_after)
            entries = [format_entry(seat, action), *draw_chance_steps(new_state, new_tracker, live.row.seed, seq_after)]
            values: dict[str, Any] = {
                "seq": live.row.seq + len(entries),
                "deadlines": self._deadlines(live, new_state, tracker, new_tracker),
            }
            notices: list[NoticeRow] = []
            extra = None
            if new_state.is_over():
                values.update(status="finished", finished_at=now(), deadlines={})
                notices.append(new_notice("finished", None, values["seq"], {}))
                extra = self._rating_settlement(live, new_state)
            try:
                await self._persist(
                    live,
                    values=values,
                    first_seq=live.row.seq,
                    entries=entries,
                    new_notices=notices,
                    state=(new_state, new_tracker),
                    extra=extra,
                )
            except Exception:
                log.exception("table %s: storing %r failed; reading the table back", live.id, entries)
                await self._after_failed_commit(live, values["seq"])
        self.after_change(live)

    async def _after_failed_commit(self, live: LiveTable, stored_seq: int) -> None:
        """A commit raised: it may or may not have reached the database (the connection can drop
        between COMMIT and its reply). Read the table back and tell the player what is true."""
        live.uncertain = True
        try:
            await self._reload(live)
        except Exception:
            log.warning("table %s: cannot read the table back; it reloads before its next change", live.id)
            raise Refusal(
                "unavailable",
                "the server lost its database and cannot tell yet whether your action was stored; "
                "the table shows the truth as soon as it is back",
            ) from None
        if live.row.seq < stored_seq:
            raise Refusal("unavailable", "the server could not store the action; nothing changed, try again")
        log.warning("table %s: the action was stored although its commit reported a failure", live.id)

    async def replace_by_bot(self, live: LiveTable, seat: int, reason: Replaced) -> None:
        """A bot takes over `seat` for the rest of the game (lock held by the caller)."""
        await self._settle_uncertain(live)
        level = replacement_level(live.row.game)
        seats = [replace(s) for s in live.row.seats]
        old = seats[seat]
        seats[seat] = SeatRow(seat, "bot", old.user_id, level, reason)
        name = live.user_name(old.user_id)
        notice = new_notice("replaced", seat, live.row.seq, {"reason": reason, "name": name, "bot": level})
        deadlines = {k: v for k, v in live.row.deadlines.items() if k != str(seat)}
        await self._persist(live, seat_rows=seats, values={"deadlines": deadlines}, new_notices=[notice])

    def _deadlines(
        self, live: LiveTable, state: Any, old: ChoiceTracker | None, new: ChoiceTracker
    ) -> dict[str, float]:
        """Due times of the people to move: kept while a seat's choices stand, restarted when they change."""
        limit = decision_seconds(live.row.clock)
        if limit is None or state.is_over() or state.is_chance():
            return {}
        stamp = time.time()
        out = {}
        for seat in state.to_move:
            if live.row.seats[seat].kind != "human":
                continue
            key = str(seat)
            kept = live.row.deadlines.get(key)
            if kept is not None and old is not None and old.since[seat] == new.since[seat]:
                out[key] = kept
            else:
                out[key] = stamp + limit
        return out

    def _rating_settlement(self, live: LiveTable, state: Any) -> Callable[[Any], None] | None:
        """The ratings change of a finished game, to run inside the game's last transaction."""
        seat_users = {
            s.seat: s.user_id
            for s in live.row.seats
            if s.user_id is not None and not live.users.get(s.user_id, {}).get("guest", True)
        }
        if len(seat_users) < 2:
            return None
        places = final_places(live, state)
        # someone sat down and left without playing: only those who left lose, nobody gains
        only = None if everyone_played(live) else {s.seat for s in live.row.seats if s.replaced is not None}

        def compute(before: dict[int, float]) -> dict[int, float]:
            after = elo_update(before, {seat: places[seat] for seat in before})
            return after if only is None else {seat: after[seat] for seat in only if seat in after}

        return lambda conn: ratings.settle_ratings(conn, live.id, live.row.game, seat_users, compute)

    async def _persist(
        self,
        live: LiveTable,
        *,
        values: dict[str, Any] | None = None,
        seat_rows: list[SeatRow] | None = None,
        first_seq: int = 0,
        entries: list[str] | None = None,
        new_notices: list[NoticeRow] | None = None,
        state: tuple[Any, ChoiceTracker] | None = None,
        users: dict[int, dict[str, Any]] | None = None,
        extra: Callable[[Any], None] | None = None,
    ) -> None:
        """Commit one change, then (and only then) show it in memory. Shielded: once the commit
        has started, cancelling the caller cannot leave memory behind the database."""

        async def work() -> None:
            await self.db(
                games.commit_change,
                live.id,
                values=values,
                seat_rows=seat_rows,
                first_seq=first_seq,
                entries=entries or (),
                new_notices=new_notices or (),
                extra=extra,
                hooks=self.faults if self.faults.active else None,
            )
            for key, value in (values or {}).items():
                setattr(live.row, key, value)
            if seat_rows is not None:
                live.row.seats = seat_rows
            if new_notices:
                live.row.notices = [*live.row.notices, *new_notices]
            if state is not None:
                live.state, live.tracker = state
            if entries:
                live.entries = [*live.entries[:first_seq], *entries]
            if users:
                live.users.update(users)
            live.version += 1

        await asyncio.shield(asyncio.ensure_future(work()))
        self._keep_or_evict(live)

    # -- after every change: tell everyone, wake bots and the clock -----------------------------------
    def _announce(self, live: LiveTable) -> None:
        for conn in list(live.connections):
            conn.push_state()

    def after_change(self, live: LiveTable) -> None:
        self._announce(live)
        if self.closing:
            return
        if live.running and (live.bot_task is None or live.bot_task.done()):
            live.bot_task = asyncio.create_task(drive_bots(self, live))
            live.bot_task.add_done_callback(log_if_failed)
        if live.running and live.row.deadlines and (live.clock_task is None or live.clock_task.done()):
            live.clock_task = asyncio.create_task(watch_clock(self, live))
            live.clock_task.add_done_callback(log_if_failed)
        live.clock_wake.set()

    async def close_session_sockets(self, token: str) -> None:
        """After logout: the session's table sockets close (4401), so a shared computer does not
        keep playing as the person who left."""
        doomed = [c for live in self.tables.values() for c in live.connections if c.session == token]
        for conn in doomed:
            await conn.close(4401, "logged out")

    def presence_changed(self, live: LiveTable) -> None:
        live.version += 1
        self._announce(live)


def everyone_played(live: LiveTable) -> bool:
    """Did every person who left (or ran out of time) make a move of their own before a bot took
    over? One who joined and left at once proves nothing about anyone, so nobody gains from it.
    (People still seated at the end played, even if the game ended before their turn.)"""
    replaced_at = {n.seat: n.seq for n in live.row.notices if n.kind == "replaced"}
    for seat in live.row.seats:
        if seat.user_id is None or seat.replaced is None:
            continue
        until = replaced_at.get(seat.seat, len(live.entries))
        if not any(parse_entry(entry)[0] == seat.seat for entry in live.entries[:until]):
            return False
    return True


def final_places(live: LiveTable, state: Any) -> list[int]:
    """Placement per seat for results and ratings: the seats a bot took over (the player left or ran
    out of time) share the last place; the others keep their order from the result, ranked from 1."""
    replaced = {s.seat for s in live.row.seats if s.replaced is not None}
    return last_for_replaced(placements(state.scores(), state.winners()), replaced)
