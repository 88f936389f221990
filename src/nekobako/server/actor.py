"""One actor per table: every change to a table is a command to its actor, handled one at a time
in the order sent; each step (`_step`) asks the engine, commits through the group commit
(`Tables.persist`), then tells the listeners (the hub: connections, bots, clock).

Who sends: a person's socket (`moves.PersonMove`), the bot and clock drivers (`moves.BotMove`,
`moves.ClockMove`, `moves.TimeOut`), the lobby's requests (`rooms`: join, leave, seats, start;
`moves.Reclaim`), the conductor (`conductor.ExtendDeadlines`) and other processes' signals
(`Refresh`). A sender that needs the outcome awaits `send` (a refusal is raised to it); one that
does not `post`s. When the table is idle the sender runs the step itself (`send`), so the actor
costs no task switch per move; otherwise its command waits in the inbox. Since only the actor
changes its table, nothing else needs a lock, and a check made by a command holds until its
commit: the seat, the turn and the position cannot change in between.

A commit whose outcome is unknown leaves the table `uncertain`: the actor reads it back before
the next command (the database unreachable: that command is refused). A commit refused because
another process changed the table first (`StaleCopy`) reloads the copy; the actor then runs the
same command again, from its checks on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from ..i18n import Message
from ..store import games
from .errors import ApiError, Refusal
from .live import LiveTable
from .tables import Stale, Tables

log = logging.getLogger("nekobako.server")

STALE_RETRIES = 8  # another process changing the same table this many times in a row: give up
Reply = asyncio.Future[Any]
SENDER: Any = object()  # `LiveTable.actor` while a sender runs the actor's step itself (`send`)


class Command:
    """A change asked of one table. `apply` runs in the table's actor only; it raises a refusal
    before anything is written, and returns what the sender is told."""

    __slots__ = ()

    async def apply(self, tables: Tables, live: LiveTable) -> Any:
        raise NotImplementedError

    def refused(self, code: str, message: Message) -> Exception:
        """How this command's sender is told the table cannot take it now: a socket's refusal."""
        return Refusal(code, message)

    def gave_up(self) -> Exception:
        """Another process kept changing the table first (`STALE_RETRIES` times)."""
        return Refusal("unavailable", Message("error.too_busy"))


class Request(Command):
    """A command from an HTTP request: refused with an `ApiError` (503, to retry)."""

    __slots__ = ()

    def refused(self, code: str, message: Message) -> Exception:
        return ApiError(503, code, message)

    def gave_up(self) -> Exception:
        return ApiError(503, "busy", Message("error.too_fast"))


async def send(tables: Tables, live: LiveTable, command: Command) -> Any:
    """`command` to `live`'s actor; its outcome, or its refusal raised. When the actor is idle
    (nothing running, nothing queued: most moves), the sender runs the actor's step itself, in
    its own task: no task is started and no reply waited for, as cheap as the lock it replaces.
    Commands sent meanwhile queue behind it, and a task of their own handles them after it."""
    if live.actor is not None or live.inbox or tables.closing:
        return await queue(tables, live, command)
    live.actor = SENDER
    try:
        return await _step(tables, live, command)
    finally:
        live.actor = None
        if live.inbox:
            _start(tables, live)


def queue(tables: Tables, live: LiveTable, command: Command) -> Reply:
    """`command` queued for `live`'s actor; await the reply for its outcome (or its refusal).
    A sender that stops waiting (its socket closed) withdraws a command not yet begun."""
    reply: Reply = asyncio.get_running_loop().create_future()
    _queue(tables, live, command, reply)
    return reply


def post(tables: Tables, live: LiveTable, command: Command) -> None:
    """Queue `command` without waiting for it (a refusal is logged, not raised)."""
    _queue(tables, live, command, None)


def _queue(tables: Tables, live: LiveTable, command: Command, reply: Reply | None) -> None:
    if tables.closing:
        if reply is not None:
            reply.set_exception(command.refused("unavailable", Message("error.stopping")))
        return
    live.inbox.append((command, reply))
    if live.actor is None:
        _start(tables, live)


def _start(tables: Tables, live: LiveTable) -> None:
    live.actor = asyncio.create_task(run(tables, live))


async def run(tables: Tables, live: LiveTable) -> None:
    """The actor's task: handle the queued commands one by one; end when none is left (the next
    one starts it again), so a table nobody changes costs no task."""
    inbox = live.inbox
    try:
        while inbox:
            command, reply = inbox.popleft()
            if reply is not None and reply.done():
                continue  # its sender stopped waiting before it began
            try:
                outcome = await _step(tables, live, command)
            except asyncio.CancelledError:  # shutting down (`stop`)
                if reply is not None and not reply.done():
                    reply.set_exception(command.refused("unavailable", Message("error.stopping")))
                raise
            except Exception as exc:
                if reply is None:
                    if not isinstance(exc, (Refusal, ApiError)):
                        log.exception("table %s: %s failed", live.id, type(command).__name__)
                elif not reply.done():
                    reply.set_exception(exc)
                continue
            if reply is not None and not reply.done():
                reply.set_result(outcome)
    finally:
        live.actor = None
        if tables.closing:
            _refuse_queued(live)
        elif inbox:  # cancelled with commands queued: a new task takes them
            _start(tables, live)


async def _step(tables: Tables, live: LiveTable, command: Command) -> Any:
    """One command: handled, then (when it changed the table) told to the listeners; also when
    it was refused after the copy was read back (a stale commit, an uncertain one), so that the
    connections see what another process did even though this command changed nothing."""
    before = live.version
    try:
        if live.landing is not None:  # a change a cancelled step began: it ends first
            landing, before = live.landing
            try:
                await asyncio.shield(landing)
            except Exception:  # not stored, or not known whether: the truth is read first
                live.uncertain = True
            live.landing = None
        return await _handle(tables, live, command)
    except asyncio.CancelledError:
        if live.landing is not None:  # its commit still lands: a step of its own takes it up then
            live.landing[0].add_done_callback(lambda _: _take_up(tables, live))
        raise
    finally:
        if live.version != before:
            tables.changed(live)


def _take_up(tables: Tables, live: LiveTable) -> None:
    """A cancelled step's commit ended and no step has waited for it yet: one does, which tells
    the listeners when it was stored (the copy is then at that revision: nothing is read)."""
    if live.landing is not None:
        post(tables, live, Refresh(live.row.revision))


def _refuse_queued(live: LiveTable) -> None:
    while live.inbox:
        command, reply = live.inbox.popleft()
        if reply is not None and not reply.done():
            reply.set_exception(command.refused("unavailable", Message("error.stopping")))


async def _handle(tables: Tables, live: LiveTable, command: Command) -> Any:
    if live.uncertain:  # the last commit's outcome is unknown: the truth first
        try:
            await tables.reload(live)
        except Exception:
            log.warning("table %s: the database is still unreachable", live.id)
            raise command.refused("unavailable", Message("error.unavailable")) from None
    for _ in range(STALE_RETRIES):
        try:
            return await command.apply(tables, live)
        except Stale:
            continue
    raise command.gave_up()


async def stop(tables: Tables, lives: Collection[LiveTable]) -> None:
    """At shutdown (`tables.closing` set: new commands are refused): the actors end, and the
    commands they had not begun are refused. `lives` is read twice (a collection, not an
    iterator: a generator would leave the queued commands unanswered)."""
    tasks = [live.actor for live in lives if isinstance(live.actor, asyncio.Task)]
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(BaseException):  # cancelled, or a failure it logged
            await task
    for live in lives:
        _refuse_queued(live)


@dataclass(frozen=True, slots=True)
class Refresh(Command):
    """Another process changed the table (to `revision`, when known): bring the copy up to it."""

    revision: int | None = None

    async def apply(self, tables: Tables, live: LiveTable) -> bool:
        return await tables.refresh(live, self.revision)


async def catch_up(tables: Tables, copies: list[LiveTable], *, wait: bool = True) -> None:
    """Bring the copies that fell behind the database up to it (one query to find them), through
    their actors; `wait`: until they are. Only with several processes: on SQLite this process
    made every change itself."""
    if not tables.signals.enabled or not copies:
        return
    stored = await tables.db(games.revisions, [live.id for live in copies])
    behind = [(live, stored[live.id]) for live in copies if stored.get(live.id, live.row.revision) > live.row.revision]
    if not wait:
        for live, revision in behind:
            post(tables, live, Refresh(revision))
        return
    for live, revision in behind:
        await send(tables, live, Refresh(revision))


async def get_fresh(tables: Tables, table_id: int) -> LiveTable:
    """The table as the database has it now, for a request that reads it or decides on it (a
    person's requests may reach different processes): a copy that has not heard of another
    process's last change yet is brought up to date first."""
    live = await tables.get(table_id)
    await catch_up(tables, [live])
    return live
