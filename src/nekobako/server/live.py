"""A table in memory: its stored row, the engine state rebuilt from the stored actions, who is
connected, and the inbox of its actor, which makes every change to it (`actor`).

The state object is never mutated in place: a change is applied to a clone, committed to the
database, and only then swapped in. So a reader (a bot thinking in a thread, a message being
built) always sees one consistent position, and a failed commit leaves the table as it was.
"""

from __future__ import annotations

import asyncio
import collections
import random
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..engine import CHANCE, Record, State, format_entry, get_game, parse_entry
from ..i18n import Message, has, text, value_text
from ..store.database import iso
from ..store.games import NoticeKind, NoticeRow, SeatRow, TableRow
from .choices import ChoiceTracker
from .notices import notice_json


class Viewer(Protocol):
    """A connection watching or playing the table (`connections.Connection`), as the table and
    the hub use it: declared here so that the table does not import its connections."""

    user: dict[str, Any] | None
    session: str | None
    muted: frozenset[int]

    def push_state(self, force: bool = False) -> None: ...

    def push(self, message: dict[str, Any]) -> None: ...

    async def close(self, code: int, reason: str) -> None: ...


class Made:
    """Values made from one source object, each once per key, while the source stays the same
    object: a table's seats and notices are lists of its row that every change to them replaces
    (never changes in place), and most changes are moves, which leave both as they were, where
    every state message and lobby page would otherwise word them all again."""

    def __init__(self) -> None:
        self.source: Any = None
        self.made: dict[Any, Any] = {}

    def get(self, source: Any, key: Any, make: Callable[[], Any]) -> Any:
        if source is not self.source:
            self.source, self.made = source, {}
        if key not in self.made:
            self.made[key] = make()
        return self.made[key]


class Shared:
    """What one version of a table looks like to its viewers: parts (a seat's view, the detail)
    and finished texts, dropped as soon as the table changes."""

    def __init__(self) -> None:
        self.version = -1
        self.parts: dict[Hashable, Any] = {}
        self.texts: dict[Hashable, str] = {}

    def _at(self, version: int) -> None:
        if version != self.version:
            self.version = version
            self.parts.clear()
            self.texts.clear()

    def part(self, version: int, key: Hashable, build: Callable[[], Any]) -> Any:
        """A value computed once per version (do not mutate it: others share it)."""
        self._at(version)
        if key not in self.parts:
            self.parts[key] = build()
        return self.parts[key]

    def text(self, version: int, key: Hashable, build: Callable[[], Any], encode: Callable[[Any], str]) -> str:
        """A message encoded once per version and key (`messages.encode`)."""
        self._at(version)
        text = self.texts.get(key)
        if text is None:
            text = self.texts[key] = encode(build())
        return text


@dataclass
class LiveTable:
    row: TableRow
    users: dict[int, dict[str, Any]]
    state: State | None = None
    tracker: ChoiceTracker | None = None
    entries: list[str] = field(default_factory=list)  # the stored record entries; len == row.seq
    # commands waiting for the table's actor (`actor.Command`), and the actor while it runs
    inbox: collections.deque[tuple[Any, asyncio.Future[Any] | None]] = field(default_factory=collections.deque)
    actor: Any = None  # its task while it runs (`actor.SENDER`: a sender runs its step)
    # a commit still landing after the step that began it was cancelled, and the version before it:
    # the next step waits for it (`actor._step`), so no two changes ever overlap
    landing: tuple[asyncio.Future[None], int] | None = None
    connections: set[Viewer] = field(default_factory=set)
    version: int = 0  # bumped on every change, so writers can skip unchanged state messages
    bot_task: asyncio.Task[None] | None = None
    clock_task: asyncio.Task[None] | None = None
    clock_wake: asyncio.Event = field(default_factory=asyncio.Event)  # set on every change
    uncertain: bool = False  # a commit failed without telling whether it was stored: reload first
    # other server processes → the users connected through them
    elsewhere: dict[str, frozenset[int]] = field(default_factory=dict)
    shared: Shared = field(default_factory=Shared)  # messages built once per version for all viewers
    # the parts of `detail` that few changes touch, kept while what they were made from stays
    notices_made: Made = field(default_factory=Made, repr=False)
    seats_made: Made = field(default_factory=Made, repr=False)

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def running(self) -> bool:
        return self.row.status == "running" and self.state is not None and not self.state.is_over()

    def seat_of(self, user_id: int | None) -> int | None:
        """The seat `user_id` plays (a seat a bot took over no longer counts)."""
        if user_id is None:
            return None
        for seat in self.row.seats:
            if seat.kind == "human" and seat.user_id == user_id:
                return seat.seat
        return None

    def seat_turns(self, seat: int) -> int:
        """How often `seat` changed hands during the game (a bot took it over, its player took it
        back): a bot's move computed before the count changed is not that seat's bot's any more."""
        return sum(1 for n in self.row.notices if n.seat == seat and n.kind in ("replaced", "returned"))

    def seat_name(self, seat: SeatRow, lang: str = "en") -> str | None:
        """Who sits there, in `lang`: the player's name, "greedy bot", or "bob (greedy bot)" for a
        player a bot replaced; None for an empty seat."""
        level = Message(f"bot.{seat.bot}") if has(f"bot.{seat.bot}") else seat.bot
        if seat.kind == "bot" and seat.replaced is None:
            return text("words.bot_seat", lang, level=level)
        if seat.user_id is not None:
            name = value_text(self.user_name(seat.user_id), lang)
            return name if seat.kind == "human" else text("words.replaced_seat", lang, name=name, level=level)
        return None

    def user_name(self, user_id: int | None) -> str | dict[str, Any]:
        """The person's name; one the table cannot name (their account is gone) is "player 7" as a
        message in JSON, so that a stored notice words it in each reader's language."""
        known = self.users.get(user_id, {}) if user_id is not None else {}
        return known["name"] if "name" in known else Message("words.unknown_player", id=user_id).to_json()

    def names(self, lang: str = "en") -> list[str | None]:
        return [self.seat_name(s, lang) for s in self.row.seats]

    def connected_users(self) -> set[int]:
        """Who watches or plays here now, through this process or (as they last said) another."""
        here = {c.user["id"] for c in self.connections if c.user is not None}
        return here.union(*self.elsewhere.values())

    def detail(self, viewer: dict[str, Any] | None, lang: str = "en") -> dict[str, Any]:
        """The lobby's Table object (docs/protocol.md); its notices worded in `lang` for `viewer`."""
        row = self.row
        game = get_game(row.game)
        online = self.connected_users()
        state = self.state
        to_move = state.to_move_json() if state is not None and row.status == "running" else []
        you = self.seat_of(viewer["id"]) if viewer else None
        return {
            "id": row.id,
            "game": row.game,
            "title": game.title.key,
            "players": row.players,
            "options": row.options,
            "clock": row.clock,
            "status": row.status,
            "host": self.users.get(row.host_id) if row.host_id is not None else None,
            "seats": self._seats_json(online, lang),
            "seq": row.seq,
            "to_move": to_move,
            "over": row.status == "finished",
            "winners": state.winners() if state is not None and row.status == "finished" else [],
            "created_at": iso(row.created_at),
            "started_at": iso(row.started_at),
            "finished_at": iso(row.finished_at),
            "notices": self.notices(you, lang),
            "you": you,
        }

    def notices(self, reader: int | None, lang: str) -> list[dict[str, Any]]:
        """The notices as `reader` sees them in `lang` (shared: do not change the list)."""
        notices = self.row.notices
        return self.notices_made.get(notices, (reader, lang), lambda: [notice_json(n, lang, reader) for n in notices])

    def _seats_json(self, online: set[int], lang: str) -> list[dict[str, Any]]:
        seats = self.row.seats
        key = (frozenset(online), lang, len(self.users))  # `users` only grows
        return self.seats_made.get(seats, key, lambda: [self._seat_json(s, online, lang) for s in seats])

    def _seat_json(self, seat: SeatRow, online: set[int], lang: str) -> dict[str, Any]:
        return {
            "seat": seat.seat,
            "kind": seat.kind,
            "user": self.users.get(seat.user_id) if seat.user_id is not None else None,
            "bot": seat.bot,
            "name": self.seat_name(seat, lang),
            "connected": seat.kind == "bot" or (seat.kind == "human" and seat.user_id in online),
            "replaced": seat.replaced,
        }

    def record(self) -> Record:
        """The stored entries in the order they were accepted: the complete record."""
        row = self.row
        return Record(row.game, row.players, dict(row.options), row.seed, list(self.entries))


def chance_rng(seed: int, seq: int) -> random.Random:
    """The generator for the chance step at `seq`: a function of the table's secret seed and the
    position only, so sampling needs no stored generator state."""
    return random.Random(f"{seed}:chance:{seq}")


def draw_chance_steps(state: State, tracker: ChoiceTracker, seed: int, seq: int) -> list[str]:
    """Sample every pending chance step (the first one would be stored at `seq`); returns the
    record entries written. Unlike `engine.fill_chance` (one generator for the whole game), each
    step draws from `chance_rng(seed, its seq)`, so a restarted server needs no generator state."""
    entries: list[str] = []
    while state.is_chance():
        outcome = state.sample_chance(chance_rng(seed, seq + len(entries)))
        state.apply(CHANCE, outcome)
        entries.append(format_entry(CHANCE, outcome))
        tracker.update(state, CHANCE, seq + len(entries))
    return entries


def rebuild(row: TableRow, entries: list[str]) -> tuple[State, ChoiceTracker]:
    """The state after the stored entries (the engine's replay, one entry at a time so the choice
    tracker sees every position)."""
    state = get_game(row.game).new_game(row.players, row.options)
    tracker = ChoiceTracker(row.players)
    advance(state, tracker, entries, 0)
    return state, tracker


def advance(state: State, tracker: ChoiceTracker, entries: list[str], seq: int) -> None:
    """Apply stored `entries` (the first one stored at `seq`) to `state` and `tracker` in place."""
    game = state.game
    for index, entry in enumerate(entries, seq + 1):
        seat, text = parse_entry(entry)
        state.apply(seat, game.parse_action(text))
        tracker.update(state, seat, index)


def new_notice(kind: NoticeKind, seat: int | None, seq: int, data: dict[str, Any]) -> NoticeRow:
    from ..store.database import now

    return NoticeRow(kind, seat, seq, data, now())
