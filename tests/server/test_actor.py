"""A table's actor (`server/actor.py`) on the real store (a SQLite file): commands from many
senders are handled one at a time in the order sent; a refused move changes nothing; a bot's
move for a seat its person took back is refused; a command refused after its copy was read back
still tells the listeners; a stopped actor refuses what it had not begun; a commit whose sender
stopped waiting lands before the next command and is told (and, when it failed, the table is
read back first); a commit in doubt that cannot be read back is refused in the reader's
language."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hub_harness import with_hub

from nekobako.engine import format_entry
from nekobako.server import actor
from nekobako.server.errors import ApiError, Refusal
from nekobako.server.hub import Hub
from nekobako.server.live import LiveTable
from nekobako.server.moves import BotMove, PersonMove, Reclaim
from nekobako.server.rooms import Leave
from nekobako.server.tables import Tables
from nekobako.server.wire import NewTable
from nekobako.store import accounts, games, open_database

Check = Callable[[Hub, LiveTable, list[dict[str, Any]]], Awaitable[None]]


def at_a_running_table(tmp_path: Path, check: Check) -> None:
    """`check` with a hub on a fresh SQLite file and a running two-person game of catopomp (no
    conductor: nothing drives the table but the test)."""
    engine = open_database(f"sqlite:///{tmp_path / 'actor.db'}")
    people = [accounts.create_user(engine, name, None) for name in ("ann", "bob")]

    async def main(hub: Hub) -> None:
        hub.rooms.started = None  # no lease claimed: no bot or clock moves here on its own
        live = await hub.rooms.create_table(people[0], NewTable(game="catopomp", seats=2))
        await hub.rooms.join(people[1], live.id, {"seat": 1})
        await hub.rooms.start(people[0], live.id)
        await check(hub, live, people)

    with_hub(engine, main)


def a_legal_move(live: LiveTable) -> tuple[int, str]:
    assert live.state is not None
    seat = live.state.to_move[0]
    return seat, str(live.state.legal_actions(seat)[0])


@dataclass(frozen=True)
class Noted(actor.Command):
    """A command that notes when it begins and ends, and lets other tasks run in between."""

    number: int
    log: list[tuple[str, int]] = field(compare=False)

    async def apply(self, tables: Tables, live: LiveTable) -> int:
        self.log.append(("begin", self.number))
        await asyncio.sleep(0.001)
        self.log.append(("end", self.number))
        return self.number


def test_commands_from_many_senders_are_handled_one_at_a_time_in_order(tmp_path: Path) -> None:
    async def check(hub: Hub, live: LiveTable, people: list[dict[str, Any]]) -> None:
        log: list[tuple[str, int]] = []
        answers = await asyncio.gather(*(hub.send(live, Noted(n, log)) for n in range(20)))
        assert answers == list(range(20))
        assert log == [(step, n) for n in range(20) for step in ("begin", "end")]
        # many answers to one position: the first is stored, the others find it gone
        seat, move = a_legal_move(live)
        person = live.row.seats[seat].user_id
        seq = live.row.seq
        outcomes = await asyncio.gather(
            *(hub.send(live, PersonMove(seat, seq, move, person)) for _ in range(5)), return_exceptions=True
        )
        assert outcomes[0] is None
        assert [o.code for o in outcomes[1:] if isinstance(o, Refusal)] == ["stale"] * 4
        stored = await hub.db(games.load_actions, live.id)
        assert stored == live.entries and stored[seq] == format_entry(seat, move)
        assert live.actor is None  # idle: no task left for the table

    at_a_running_table(tmp_path, check)


def test_a_refused_move_changes_nothing(tmp_path: Path) -> None:
    async def check(hub: Hub, live: LiveTable, people: list[dict[str, Any]]) -> None:
        seat, _ = a_legal_move(live)
        other = 1 - seat
        before = (live.version, live.row.revision, list(live.entries))
        refusals = []
        for command in (
            PersonMove(seat, live.row.seq, "no such move", live.row.seats[seat].user_id),
            PersonMove(other, live.row.seq, a_legal_move(live)[1], live.row.seats[other].user_id),
            PersonMove(seat, live.row.seq, a_legal_move(live)[1], live.row.seats[other].user_id),
        ):
            with pytest.raises(Refusal) as refused:
                await hub.send(live, command)
            refusals.append(refused.value.code)
        assert refusals == ["illegal", "not_your_turn", "spectator"]
        assert (live.version, live.row.revision, live.entries) == before
        assert await hub.db(games.load_actions, live.id) == before[2]
        assert (await hub.db(games.load_table, live.id)).revision == before[1]

    at_a_running_table(tmp_path, check)


def test_a_bot_move_for_a_seat_its_person_took_back_is_refused(tmp_path: Path) -> None:
    async def check(hub: Hub, live: LiveTable, people: list[dict[str, Any]]) -> None:
        seat, move = a_legal_move(live)
        person = next(p for p in people if p["id"] == live.row.seats[seat].user_id)
        await hub.send(live, Leave(person))
        assert live.row.seats[seat].kind == "bot"
        turns, seq = live.seat_turns(seat), live.row.seq  # what the bot saw when it chose
        await hub.send(live, Reclaim(person))
        revision = live.row.revision
        with pytest.raises(Refusal) as refused:
            await hub.send(live, BotMove(seat, seq, move, turns, epoch=1))
        assert refused.value.code == "stale" and refused.value.message.key == "error.seat_changed"
        assert live.row.revision == revision and live.row.seq == seq
        await hub.send(live, PersonMove(seat, seq, move, person["id"]))  # the person's own move counts
        assert live.entries[seq] == format_entry(seat, move)

    at_a_running_table(tmp_path, check)


@dataclass(frozen=True)
class Held(actor.Command):
    """A command that waits for the test to let it go on."""

    begun: asyncio.Event
    go: asyncio.Event

    async def apply(self, tables: Tables, live: LiveTable) -> None:
        self.begun.set()
        await self.go.wait()


def test_a_stopped_actor_refuses_new_commands_and_those_it_had_not_begun(tmp_path: Path) -> None:
    async def check(hub: Hub, live: LiveTable, people: list[dict[str, Any]]) -> None:
        seat, move = a_legal_move(live)
        person = live.row.seats[seat].user_id
        begun, go = asyncio.Event(), asyncio.Event()
        held = actor.queue(hub.tables, live, Held(begun, go))  # queued at once; answered later
        queued = actor.queue(hub.tables, live, PersonMove(seat, live.row.seq, move, person))
        await begun.wait()
        hub.tables.closing = True
        await actor.stop(hub.tables, hub.tables.values())
        entries = list(live.entries)
        for reply in (held, queued):
            with pytest.raises(Refusal) as refused:
                await reply
            assert refused.value.code == "unavailable" and refused.value.message.key == "error.stopping"
        with pytest.raises(Refusal, match="shutting down"):
            await hub.send(live, PersonMove(seat, live.row.seq, move, person))
        with pytest.raises(ApiError) as refused_request:  # a request's command: a 503 to retry
            await hub.send(live, Reclaim(people[0]))
        assert refused_request.value.status == 503
        assert live.entries == entries == await hub.db(games.load_actions, live.id)
        assert live.actor is None

    at_a_running_table(tmp_path, check)


@dataclass(frozen=True)
class ReadBackThenRefused(actor.Command):
    """What a command does when its commit was stale (`Tables.persist`: the copy read back from
    the database) and its checks then refuse it against the fresh copy."""

    async def apply(self, tables: Tables, live: LiveTable) -> None:
        await tables.reload(live, stale=True)
        raise Refusal("stale", "the position changed")


def test_a_command_refused_after_the_copy_was_read_back_still_tells_the_listeners(tmp_path: Path) -> None:
    async def check(hub: Hub, live: LiveTable, people: list[dict[str, Any]]) -> None:
        told: list[int] = []
        hub.tables.listeners.append(lambda changed: told.append(changed.version))
        version = live.version
        with pytest.raises(Refusal):
            await hub.send(live, ReadBackThenRefused())
        assert live.version > version and told == [live.version]
        with pytest.raises(Refusal):  # refused before anything was read: nobody is told
            await hub.send(live, PersonMove(0, live.row.seq, "no such move", None))
        assert told == [live.version]

    at_a_running_table(tmp_path, check)


def test_a_failed_commit_that_cannot_be_read_back_is_refused_in_the_readers_language(tmp_path: Path) -> None:
    """The database went away with a commit in doubt: the player is told so (not "nothing
    changed", which may be untrue), in either language, and the table stays in doubt: it is
    read back before its next change."""
    from server_harness import free_port
    from sqlalchemy import create_engine

    async def check(hub: Hub, live: LiveTable, people: list[dict[str, Any]]) -> None:
        stored = hub.tables.engine
        hub.tables.engine = create_engine(f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/gone")
        try:
            with pytest.raises(Refusal) as refused:
                await hub.tables.after_failed_commit(live, live.row.seq + 1)
        finally:
            hub.tables.engine.dispose()
            hub.tables.engine = stored
        assert refused.value.code == "unavailable" and refused.value.message.key == "error.store_unknown"
        assert "cannot tell yet" in refused.value.message.text("en")
        assert "保存されたかどうか" in refused.value.message.text("ja")
        assert live.uncertain

    at_a_running_table(tmp_path, check)


@dataclass(frozen=True)
class Looks(actor.Command):
    """A command that only reports the record's length when it begins."""

    async def apply(self, tables: Tables, live: LiveTable) -> int:
        return live.row.seq


def test_a_move_whose_sender_stopped_mid_commit_lands_before_the_next_command_and_is_told(tmp_path: Path) -> None:
    """A sender's task cancelled while its commit is in flight (a bot's task stopped when its
    lease is lost): the commit still lands, the next command begins only after it (never beside
    it), and the listeners are told of it even when no command follows."""
    from nekobako.server.faults import Faults

    async def check(hub: Hub, live: LiveTable, people: list[dict[str, Any]]) -> None:
        hub.tables.faults = Faults("slow_commit")  # a played action's commit takes 0.3 s longer
        told: list[int] = []
        hub.tables.listeners.append(lambda changed: told.append(changed.version))
        for follow in (True, False):
            seat, move = a_legal_move(live)
            seq, version = live.row.seq, live.version
            sender = asyncio.create_task(hub.send(live, PersonMove(seat, seq, move, live.row.seats[seat].user_id)))
            await asyncio.sleep(0.1)  # the commit has begun
            sender.cancel()
            with pytest.raises(asyncio.CancelledError):
                await sender
            assert live.row.seq == seq and not told  # not landed yet
            if follow:
                assert await hub.send(live, Looks()) == seq + 1
            else:
                await asyncio.sleep(0.5)
            assert live.row.seq == seq + 1 and told == [version + 1]
            assert games.load_table(hub.tables.engine, live.id).seq == seq + 1
            told.clear()

    at_a_running_table(tmp_path, check)


def test_a_commit_that_failed_after_its_sender_stopped_is_read_back_before_the_next_command(
    tmp_path: Path,
) -> None:
    """The cancelled sender's commit fails (whether it was stored is not known): the next command
    first reads the table back, as after any failed commit, and the listeners see the truth."""
    from nekobako.server.faults import Faults

    async def check(hub: Hub, live: LiveTable, people: list[dict[str, Any]]) -> None:
        hub.tables.faults = Faults("slow_commit,fail_commit")  # 0.3 s, then the commit fails
        told: list[int] = []
        hub.tables.listeners.append(lambda changed: told.append(changed.version))
        seat, move = a_legal_move(live)
        seq, version = live.row.seq, live.version
        sender = asyncio.create_task(hub.send(live, PersonMove(seat, seq, move, live.row.seats[seat].user_id)))
        await asyncio.sleep(0.1)
        sender.cancel()
        with pytest.raises(asyncio.CancelledError):
            await sender
        assert await hub.send(live, Looks()) == seq  # nothing was stored
        assert told == [version + 1] and not live.uncertain  # read back, and told

    at_a_running_table(tmp_path, check)
