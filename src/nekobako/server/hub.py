"""Every table the server hosts, and every change to them: the lobby (create, join, leave, bots,
start), play (`submit`), bots in seats and clocks.

One rule holds throughout: under the table's lock, a change is computed on copies, committed to
the database in one transaction, and only then swapped into memory and announced. A refused
change raises `ApiError` (REST) or `Refusal` (WebSocket) before anything is written.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from sqlalchemy import Engine

from ..bots import bot_names
from ..engine import NekobakoError, format_entry, get_game
from ..store import accounts, games, ratings
from ..store.database import now
from ..store.games import NoticeRow, SeatRow
from .choices import ChoiceTracker
from .clock import decision_seconds, parse_clock
from .drivers import drive_bots, watch_clock
from .elo import elo_update, placements
from .errors import ApiError, Refusal
from .live import LiveTable, draw_chance_steps, new_notice, rebuild
from .seat_bots import SeatBots, replacement_level

log = logging.getLogger("nekobako.server")

MAX_FINISHED_LISTED = 30
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
    def __init__(self, engine: Engine, *, bot_delay: float = 0.0):
        self.engine = engine
        self.closing = False
        self.bot_delay = bot_delay
        self.tables: dict[int, LiveTable] = {}
        self.bots = SeatBots()
        self._loading = asyncio.Lock()

    async def db(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run a blocking store function in a worker thread."""
        return await asyncio.to_thread(fn, self.engine, *args, **kwargs)

    # -- lifecycle -----------------------------------------------------------------------------
    async def startup(self) -> None:
        """Rebuild every open and running table from the database and set its bots and clock going."""
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
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task

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
        return live

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

    # -- the lobby -----------------------------------------------------------------------------
    async def list_tables(self, statuses: list[str], viewer: dict[str, Any] | None) -> list[dict[str, Any]]:
        live = ("open", "running")  # always in memory
        found = [t for t in self.tables.values() if t.row.status in statuses and t.row.status in live]
        done = [s for s in statuses if s not in live]
        if done:
            ids = await self.db(games.table_ids, done)
            for table_id in ids[-MAX_FINISHED_LISTED:]:
                found.append(await self.get(table_id))
        found.sort(key=lambda t: t.id, reverse=True)
        return [t.detail(viewer) for t in found]

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
        if level not in levels:
            raise ApiError(400, "bad_request", f"bot level must be one of: {', '.join(levels)}")
        fill = body.get("fill", False)
        if not isinstance(fill, bool):
            raise ApiError(400, "bad_request", "fill must be true or false")
        async with live.lock:
            self._require_host(live, user)
            self._require_open(live)
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
                raise ApiError(404, "not_found", f"there is no seat {seat}")
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
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < live.row.players:
            raise ApiError(400, "bad_request", f"seat must be a number from 0 to {live.row.players - 1}")
        if live.row.seats[seat].kind != "empty":
            raise ApiError(409, "conflict", f"seat {seat} is taken")
        return seat

    # -- play ----------------------------------------------------------------------------------
    async def submit(self, live: LiveTable, seat: int, seq: int, text: str) -> None:
        """Apply `text` for `seat` as the answer to position `seq`, then the chance steps that follow.
        Raises `Refusal` (and changes nothing) when the action is stale, illegal or out of turn."""
        async with live.lock:
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
                log.exception("table %s: storing %r failed; nothing changed", live.id, entries)
                raise Refusal(
                    "unavailable", "the server could not store the action; nothing changed, try again"
                ) from None
        self.after_change(live)

    async def replace_by_bot(self, live: LiveTable, seat: int, reason: str) -> None:
        """A bot takes over `seat` for the rest of the game (lock held by the caller)."""
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

        def compute(before: dict[int, float]) -> dict[int, float]:
            return elo_update(before, {seat: places[seat] for seat in before})

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
        if live.running and live.row.deadlines and (live.clock_task is None or live.clock_task.done()):
            live.clock_task = asyncio.create_task(watch_clock(self, live))
        live.clock_wake.set()

    def presence_changed(self, live: LiveTable) -> None:
        live.version += 1
        self._announce(live)


def final_places(live: LiveTable, state: Any) -> list[int]:
    """Placement per seat for ratings: by the result, with players a bot replaced counted last."""
    places = placements(state.scores(), state.winners())
    last = max(places) + 1
    return [last if s.replaced is not None else places[s.seat] for s in live.row.seats]
