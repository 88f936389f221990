"""What goes over the wire, declared once: every REST body and WebSocket frame a client sends is a
msgspec type here, decoded and checked at the edge (`requests.read_body`, `play._handle`); the
OpenAPI document and the WebSocket frames' description in docs/protocol.md are generated from
these same types (`server/openapi.py`, `server/asyncapi.py`).

The types say the shape: which fields, of which JSON type, within which bounds. What only the
engine or the database knows (a game's options, a bot level of that game, a free seat, a name
nobody holds) is asked of them after decoding, as before. A body or frame that does not fit is
refused with the catalogue message of its first misfit field, in the order the fields are
declared (`first_misfit`), so each field keeps the one refusal clients and tests know.

msgspec over pydantic: decoding an action frame with msgspec costs a quarter of the standard
library's `json.loads` plus the hand checks it replaced, and about half of pydantic's
(`benchmarks/wire_speed.py`, docs/server.md "Typed messages"). This module imports nothing of the
server's but the name rule (`names.py`, which imports only `errors`), so it adds no arrow to the
`live` / `connections` / `messages` modules.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import UNSET, UnsetType

from .names import NAME_LENGTH, NAME_PATTERN

# bounds the server enforces, named once (docs/protocol.md)
MAX_ACTION = 200  # notation is never longer (engine.check_text)
MAX_CHAT = 500
CHAT_PATTERN = r"[^\s\x00-\x1f\x7f-\x9f]"  # a character that shows: not white space, not a control
PASSWORD_LENGTH = (8, 200)
MAX_REASON = 500
USER_ID = Annotated[int, msgspec.Meta(ge=1, le=2**31 - 1, description="a player's id")]
TIMEOUTS = Annotated[int, msgspec.Meta(ge=1, le=10, description="timeouts in a row that hand the seat to a bot")]

Name = Annotated[
    str,
    msgspec.Meta(
        min_length=NAME_LENGTH[0],
        max_length=NAME_LENGTH[1],
        pattern=NAME_PATTERN,  # server/names.py's rule, exactly
        description="NFKC-normalised on arrival; look-alikes of a registered name are taken (409)",
    ),
]
ChatText = Annotated[
    str,
    msgspec.Meta(max_length=MAX_CHAT, pattern=CHAT_PATTERN, description="plain text: shown as text, never as HTML"),
]
Notation = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=MAX_ACTION,
        pattern=r"\S",
        description="the canonical notation from `legal`, without the `SEAT:` prefix",
    ),
]


class Body(msgspec.Struct, kw_only=True):
    """A REST body: unknown fields are ignored (a newer client may send more)."""


# ---- accounts --------------------------------------------------------------------------------


class Credentials(Body):
    """Sign up: a name and a password of 8 to 200 characters."""

    name: Name
    password: Annotated[str, msgspec.Meta(min_length=PASSWORD_LENGTH[0], max_length=PASSWORD_LENGTH[1])]


class Login(Body):
    """Log in: a wrong password of any length up to 200 is a 401, not a malformed body."""

    name: Name
    password: Annotated[str, msgspec.Meta(max_length=PASSWORD_LENGTH[1])]


class Guest(Body):
    """Play as a guest under a chosen name."""

    name: Name


# ---- tables ----------------------------------------------------------------------------------


class NoClock(msgspec.Struct, tag="none", tag_field="kind", forbid_unknown_fields=True):
    """No time limit."""


class RealtimeClock(msgspec.Struct, tag="realtime", tag_field="kind", forbid_unknown_fields=True):
    """A time bank per player (`seconds` is an older name for `bank`) plus an increment per move."""

    bank: Annotated[int, msgspec.Meta(ge=5, le=3600)]
    increment: Annotated[int, msgspec.Meta(ge=0, le=600)] = 0
    timeouts: TIMEOUTS = 3


class TurnClock(msgspec.Struct, tag="turn", tag_field="kind", forbid_unknown_fields=True):
    """Turn-based: `days` per decision."""

    days: Annotated[int, msgspec.Meta(ge=1, le=14)]
    timeouts: TIMEOUTS = 3


Clock = NoClock | RealtimeClock | TurnClock


class NewTable(Body):
    """A new table; with `bots` every other seat gets such a bot, with `start` the game starts.
    `options` are the game's (the engine checks them; the document lists what each game takes)."""

    game: str
    seats: int
    options: dict[str, Any] | None = None
    clock: Clock | None = None
    bots: Annotated[str | None, msgspec.Meta(description="every seat but the host's gets a bot of this level")] = None
    start: Annotated[bool, msgspec.Meta(description="start the game at once (every seat must be taken: `bots`)")] = (
        False
    )


class Join(Body):
    """Take a seat (default: the lowest empty one)."""

    seat: int | None = None


class AddBots(Body):
    """Host: seat a bot, or fill every empty seat."""

    level: str
    fill: bool = False
    seat: Annotated[int | None, msgspec.Meta(description="default: the lowest empty seat")] = None


class ChatPost(Body):
    """A chat line (the players' channel when seated, else the spectators')."""

    text: ChatText


class Mute(Body):
    """Mute a player."""

    user: USER_ID


class Report(Body):
    """Report a player at a table to the operator, with an optional reason."""

    user: USER_ID
    reason: Annotated[str, msgspec.Meta(max_length=MAX_REASON)] | None = None


class TutorialTry(Body):
    """A tutorial's step (steps done), and a move tried there."""

    step: (
        Annotated[int, msgspec.Meta(ge=0, description="steps done (where the learner resumes)")]
        | Annotated[str, msgspec.Meta(pattern="^[0-9]{1,3}$", description="the same, as digits")]
    ) = 0
    move: Annotated[str, msgspec.Meta(max_length=MAX_ACTION, description="a move in notation")] | None = None


# ---- the table's WebSocket, client to server -------------------------------------------------


class ActionFrame(msgspec.Struct, tag="action", tag_field="type"):
    """Play for your seat: `seq` is the top-level `seq` of the state message the action answers."""

    seq: int
    action: Notation


class ChatFrame(msgspec.Struct, tag="chat", tag_field="type"):
    """Write in the table's chat (see Chat)."""

    text: ChatText


class SyncFrame(msgspec.Struct, tag="sync", tag_field="type"):
    """Ask for a fresh `state` message (with deltas: a whole one)."""


class PingFrame(msgspec.Struct, tag="ping", tag_field="type"):
    """Keep-alive; answered with `pong`."""


ClientFrame = ActionFrame | ChatFrame | SyncFrame | PingFrame
FRAME_TYPES: dict[str, type[msgspec.Struct]] = {
    "action": ActionFrame,
    "chat": ChatFrame,
    "sync": SyncFrame,
    "ping": PingFrame,
}
frame_decoder = msgspec.json.Decoder(ClientFrame)

_MISSING = object()


def fits(value: Any, kind: Any) -> bool:
    try:
        msgspec.convert(value, kind)
    except msgspec.ValidationError:
        return False
    return True


def first_misfit(data: dict[str, Any], kind: type[msgspec.Struct]) -> str | None:
    """The first field of `kind`, in declaration order, that `data` lacks or holds wrongly (None
    when each fits alone). Only asked once a decode failed, to say why."""
    for field in msgspec.structs.fields(kind):
        value = data.get(field.encode_name, _MISSING)
        if value is _MISSING:
            if field.required:
                return field.name
        elif not fits(value, field.type):
            return field.name
    return None


Channel = Literal["players", "spectators"]


# ---- answers: what the server sends (REST bodies and WebSocket frames) ------------------------
# Fields an answer may leave out default to UNSET (not required in the documents); the server
# builds these objects as dicts on its hot paths (`messages.py`), and tests hold them to these
# types (tests/server/test_wire.py).


class Answer(msgspec.Struct, kw_only=True, omit_defaults=True):
    """An object the server sends."""


Key = Annotated[str, msgspec.Meta(description="a catalogue key: its words in every language are in /api/catalogue")]
AnyObject = dict[str, Any]


class User(Answer):
    id: int
    name: str
    guest: bool


class Seat(Answer):
    seat: int | UnsetType = UNSET
    kind: Literal["empty", "human", "bot"] | UnsetType = UNSET
    user: User | UnsetType | None = UNSET
    bot: str | UnsetType | None = UNSET
    name: str | UnsetType | None = UNSET
    connected: bool | UnsetType = UNSET
    replaced: Literal["left", "timeout"] | UnsetType | None = UNSET


class TableClock(Answer):
    """A table's clock as the server shows it: the settings and, once running, each seat's state."""

    kind: Literal["none", "realtime", "turn"]
    bank: int | UnsetType = UNSET
    increment: int | UnsetType = UNSET
    days: int | UnsetType = UNSET
    timeouts: int | UnsetType = UNSET
    banks: Annotated[dict[str, float], msgspec.Meta(description="seat → seconds left in its bank (real time)")] | (
        UnsetType
    ) = UNSET
    missed: Annotated[dict[str, int], msgspec.Meta(description="seat → timeouts in a row")] | UnsetType = UNSET


class Notice(Answer):
    kind: Literal["started", "finished", "replaced", "timeout", "returned"] | UnsetType = UNSET
    seat: int | UnsetType | None = UNSET
    seq: int | UnsetType = UNSET
    at: Annotated[str, msgspec.Meta(extra_json_schema={"format": "date-time"})] | UnsetType = UNSET
    data: AnyObject | UnsetType = UNSET
    key: Key | UnsetType = UNSET
    params: (
        Annotated[AnyObject, msgspec.Meta(description="the message's parameters (a nested message is {key, params})")]
        | UnsetType
    ) = UNSET
    text: (
        Annotated[
            str,
            msgspec.Meta(
                description="the notice in the reader's language (?lang= or Accept-Language), "
                "in the second person when it is about the reader's seat"
            ),
        ]
        | UnsetType
    ) = UNSET


class Table(Answer):
    id: int | UnsetType = UNSET
    game: str | UnsetType = UNSET
    title: Key | UnsetType = UNSET
    players: int | UnsetType = UNSET
    options: AnyObject | UnsetType = UNSET
    clock: TableClock | UnsetType = UNSET
    status: Literal["open", "running", "finished", "abandoned"] | UnsetType = UNSET
    host: User | UnsetType | None = UNSET
    seats: list[Seat] | UnsetType = UNSET
    seq: int | UnsetType = UNSET
    to_move: Literal["chance"] | list[int] | UnsetType = UNSET
    over: bool | UnsetType = UNSET
    winners: Annotated[list[int], msgspec.Meta(description="seats that won (finished tables)")] | UnsetType = UNSET
    created_at: str | UnsetType = UNSET
    started_at: str | UnsetType | None = UNSET
    finished_at: str | UnsetType | None = UNSET
    notices: list[Notice] | UnsetType = UNSET
    you: int | UnsetType | None = UNSET


class Preset(Answer):
    value: Any = UNSET
    label: Key | UnsetType = UNSET


class Option(Answer):
    """One table option (OptionSpec.describe); its words are catalogue keys."""

    name: str | UnsetType = UNSET
    label: Key | UnsetType = UNSET
    help: Key | UnsetType = UNSET
    choices: (
        Annotated[list[Any] | None, msgspec.Meta(description="the values allowed; null: see presets and bounds")]
        | UnsetType
    ) = UNSET
    labels: (
        Annotated[
            list[str | None] | None,
            msgspec.Meta(description="per choice, the key of its label, or null where the value reads as itself"),
        ]
        | UnsetType
    ) = UNSET
    default: Annotated[Any, msgspec.Meta(description="null when it depends on the number of players")] = UNSET
    advanced: bool | UnsetType = UNSET
    presets: list[Preset] | UnsetType = UNSET
    bounds: dict[str, list[int]] | UnsetType = UNSET


class Game(Answer):
    name: str | UnsetType = UNSET
    title: Key | UnsetType = UNSET
    min_players: int | UnsetType = UNSET
    max_players: int | UnsetType = UNSET
    options: list[Option] | UnsetType = UNSET
    bots: list[str] | UnsetType = UNSET
    tutorial: (
        Annotated[bool, msgspec.Meta(description="the game has a tutorial (/api/tutorials/{game})")] | UnsetType
    ) = UNSET
    messages: (
        Annotated[
            dict[str, Key],
            msgspec.Meta(description="event or prompt kind -> the key of its template ({who} and the event's data)"),
        ]
        | UnsetType
    ) = UNSET


class Error(Answer):
    """A refusal: nothing changed."""

    error: Annotated[str, msgspec.Meta(description="in the client's language (Accept-Language)")]
    code: str
    key: Key
    params: AnyObject


class Results(Answer):
    over: bool | UnsetType = UNSET
    scores: list[float] | UnsetType = UNSET
    round_scores: list[list[float]] | UnsetType = UNSET
    winners: list[int] | UnsetType = UNSET
    places: list[int] | UnsetType = UNSET
    names: list[str | None] | UnsetType = UNSET
    ratings: list[AnyObject] | UnsetType = UNSET


class Record(Answer):
    """An engine record (replayable by `nekobako replay`) plus table, names and final (full view)."""

    game: str | UnsetType = UNSET
    players: int | UnsetType = UNSET
    options: AnyObject | UnsetType = UNSET
    seed: int | UnsetType | None = UNSET
    actions: list[str] | UnsetType = UNSET
    table: int | UnsetType = UNSET
    names: list[str | None] | UnsetType = UNSET
    final: AnyObject | UnsetType = UNSET


class RatingPoint(Answer):
    table: int | UnsetType = UNSET
    at: str | UnsetType | None = UNSET
    rating: float | UnsetType = UNSET


class PlayerRating(Answer):
    game: str | UnsetType = UNSET
    rating: float | UnsetType = UNSET
    games: int | UnsetType = UNSET
    start: Annotated[float | None, msgspec.Meta(description="the rating before the first rated game")] | UnsetType = (
        UNSET
    )
    history: (
        Annotated[list[RatingPoint], msgspec.Meta(description="the rating after each rated game, oldest first")]
        | UnsetType
    ) = UNSET


class WinRate(Answer):
    game: str | UnsetType = UNSET
    played: int | UnsetType = UNSET
    won: int | UnsetType = UNSET
    rate: float | UnsetType = UNSET


class RecentGame(Answer):
    table: int | UnsetType = UNSET
    game: str | UnsetType = UNSET
    players: int | UnsetType = UNSET
    finished_at: str | UnsetType | None = UNSET
    seat: int | UnsetType = UNSET
    place: int | UnsetType | None = UNSET
    won: bool | UnsetType | None = UNSET
    seats: list[AnyObject] | UnsetType = UNSET


class PlayerPage(Answer):
    user: User
    ratings: list[PlayerRating]
    win_rates: list[WinRate]
    recent: Annotated[
        list[RecentGame],
        msgspec.Meta(description="newest first; `seats` has every seat's user or bot, place, won and score"),
    ]


class ChatMessage(Answer):
    id: int
    channel: Channel
    user: User
    seat: Annotated[int | None, msgspec.Meta(description="the writer's seat (players' channel)")]
    seq: Annotated[int, msgspec.Meta(description="the table's seq when written: where a replay shows it")]
    text: Annotated[str, msgspec.Meta(description="plain text: show it as text, never as HTML")]
    at: str


class Rematch(Answer):
    table: Annotated[int, msgspec.Meta(description="the finished table")] | UnsetType = UNSET
    offered_by: User | UnsetType = UNSET
    accepted: list[User] | UnsetType = UNSET
    waiting: Annotated[list[User], msgspec.Meta(description="who played and has not accepted yet")] | UnsetType = UNSET
    declined_by: User | UnsetType | None = UNSET
    new_table: Annotated[int | None, msgspec.Meta(description="the new table, once everyone accepted")] | UnsetType = (
        UNSET
    )
    at: str | UnsetType | None = UNSET
    expires_at: (
        Annotated[str | None, msgspec.Meta(description="when the offer lapses unless all accepted")] | UnsetType
    ) = UNSET
    expired: Annotated[bool, msgspec.Meta(description="lapsed: a new offer may be made")] | UnsetType = UNSET


class Review(Answer):
    status: Literal["none", "running", "done", "failed"]
    done: Annotated[int, msgspec.Meta(description="decisions rated so far")]
    total: Annotated[int, msgspec.Meta(description="decisions to rate (0 until counted)")]
    review: Annotated[AnyObject | None, msgspec.Meta(description="nekobako.review's JSON (docs/review.md)")]


class Games(Answer):
    games: list[Game] | UnsetType = UNSET


class Catalogue(Answer):
    langs: list[str]
    close_codes: dict[str, int]
    en: Annotated[AnyObject, msgspec.Meta(description="key -> text, or [one, other] plural forms")] | UnsetType = UNSET
    ja: Annotated[AnyObject, msgspec.Meta(description="key -> text, or [text] (one plural form)")] | UnsetType = UNSET


class TablePage(Answer):
    tables: list[Table] | UnsetType = UNSET
    next: Annotated[int | None, msgspec.Meta(description="pass as `before` for the next page")] | UnsetType = UNSET


class ReplayStep(Answer):
    step: int | UnsetType = UNSET
    steps: int | UnsetType = UNSET
    view: AnyObject | UnsetType = UNSET


class Lesson(Answer):
    step: int | UnsetType = UNSET
    steps: int | UnsetType = UNSET
    text: Annotated[AnyObject, msgspec.Meta(description="{key, params}: the step's words")] | UnsetType = UNSET
    point: Annotated[str, msgspec.Meta(description="the part of the table the text points at")] | UnsetType = UNSET
    rules: Annotated[str, msgspec.Meta(description="the rules section (anchor) it links to")] | UnsetType = UNSET
    expected: str | UnsetType | None = UNSET
    over: bool | UnsetType = UNSET


class TutorialStep(Answer):
    game: str
    seat: Annotated[int, msgspec.Meta(description="the learner's seat")]
    lesson: Lesson
    view: AnyObject
    refused: Annotated[AnyObject | None, msgspec.Meta(description="{key, params, error}: why the move was not played")]


class Hint(Answer):
    seq: int | UnsetType = UNSET
    action: str | UnsetType = UNSET
    value: float | UnsetType = UNSET
    objective: str | UnsetType = UNSET


class Ratings(Answer):
    ratings: list[AnyObject] | UnsetType = UNSET


class Quantiles(Answer):
    p50: float | UnsetType = UNSET
    p90: float | UnsetType = UNSET
    p99: float | UnsetType = UNSET
    max: float | UnsetType = UNSET


class Commits(Answer):
    changes: int | UnsetType = UNSET
    transactions: int | UnsetType = UNSET
    ms: Quantiles | UnsetType = UNSET


class Collector(Answer):
    thresholds: list[int] | UnsetType = UNSET
    frozen: int | UnsetType = UNSET
    collections: list[int] | UnsetType = UNSET
    collected: int | UnsetType = UNSET
    pause_ms: AnyObject | UnsetType = UNSET


class WarmUp(Answer):
    processes: int | UnsetType = UNSET
    seconds: float | UnsetType = UNSET
    games: list[str] | UnsetType = UNSET


class Health(Answer):
    ok: bool
    loop_lag_ms: Quantiles
    process: str | UnsetType = UNSET
    drives: int | UnsetType = UNSET
    commits: Commits | UnsetType = UNSET
    collector: Collector | UnsetType = UNSET
    tables_in_memory: int | UnsetType = UNSET
    running: int | UnsetType = UNSET
    bot_warm_up: (
        Annotated[
            WarmUp | None,
            msgspec.Meta(description="the bot search processes, once all started with the compiled search loaded"),
        ]
        | UnsetType
    ) = UNSET


class ChatMessages(Answer):
    messages: list[ChatMessage] | UnsetType = UNSET


class RematchAnswer(Answer):
    rematch: Rematch | UnsetType | None = UNSET


class ReportFiled(Answer):
    id: int | UnsetType = UNSET
    table: int | UnsetType = UNSET
    at: str | UnsetType | None = UNSET
    lines: Annotated[int, msgspec.Meta(description="chat lines kept with the report")] | UnsetType = UNSET


class Reported(Answer):
    report: ReportFiled | UnsetType = UNSET


class Muted(Answer):
    muted: list[User] | UnsetType = UNSET


class Done(Answer):
    """A plain acknowledgement (`{"ok": true}`)."""


class Document(Answer):
    """An OpenAPI document."""


# ---- the table's WebSocket, server to client -------------------------------------------------


class ClockState(TableClock):
    """The table's clock with each seat's deadline and the server's time."""

    deadlines: (
        Annotated[dict[str, float], msgspec.Meta(description="seat now to move → Unix time its decision is due")]
        | UnsetType
    ) = UNSET
    now: Annotated[float, msgspec.Meta(description="the server's time (Unix seconds)")] | UnsetType = UNSET


class StateMessage(Answer, tag="state", tag_field="type"):
    """The table as this connection may see it: on connect, after every accepted action, seat
    change, notice or clock change (with deltas: the first message and the answer to `sync`).
    Answer with this `seq`, not `view.seq`."""

    seq: Annotated[int, msgspec.Meta(description="stored actions, chance outcomes included")]
    seat: Annotated[int | None, msgspec.Meta(description="this connection's seat; null for spectators")]
    view: Annotated[AnyObject | None, msgspec.Meta(description="state.view(seat); null before the start")]
    notices: list[Notice]
    clock: ClockState
    table: Table
    events: (
        Annotated[list[AnyObject], msgspec.Meta(description="game events since this connection's last state")]
        | UnsetType
    ) = UNSET
    event_index: Annotated[int, msgspec.Meta(description="the number of the first of `events`")] | UnsetType = UNSET
    version: Annotated[int, msgspec.Meta(description="with deltas: what the next delta's `base` names")] | UnsetType = (
        UNSET
    )


class DeltaMessage(Answer, tag="delta", tag_field="type"):
    """With `?deltas=1`: what changed since the message whose `version` is `base`."""

    base: int
    version: int
    patch: Annotated[
        AnyObject,
        msgspec.Meta(description='{"=": value}, {"o": {key: patch}, "x": [keys]} or {"a": n, "i": {...}, "+": [...]}'),
    ]
    clock: ClockState


class RefusedMessage(Answer, tag="refused", tag_field="type"):
    """An action or message was not accepted; nothing changed. To its sender only."""

    code: Literal[
        "malformed",
        "stale",
        "illegal",
        "not_your_turn",
        "spectator",
        "not_running",
        "unavailable",
        "chat_invalid",
        "chat_rate",
        "chat_anonymous",
    ]
    reason: Annotated[str, msgspec.Meta(description="in the connection's language")]
    key: Key
    params: AnyObject
    seq: Annotated[int, msgspec.Meta(description="the table's seq now")]
    action: Annotated[str, msgspec.Meta(description="the refused action, echoed")] | UnsetType = UNSET


class PongMessage(Answer, tag="pong", tag_field="type"):
    """The answer to `ping`."""


class RematchMessage(Answer, tag="rematch", tag_field="type"):
    """The finished table's rematch offer changed."""

    rematch: Rematch


class ChatHistoryMessage(Answer, tag="chat_history", tag_field="type"):
    """Once on connect, after the first `state`: the channels this connection may read."""

    messages: list[ChatMessage]


class ChatMessageSent(Answer, tag="chat", tag_field="type"):
    """A new message in a channel this connection may read."""

    message: ChatMessage


ServerFrame = (
    StateMessage | DeltaMessage | RefusedMessage | PongMessage | RematchMessage | ChatHistoryMessage | ChatMessageSent
)


class LobbyChanged(Answer, tag="tables", tag_field="type"):
    """The lobby's tables changed (`GET /ws/lobby`): ask `GET /api/tables` again."""

    revision: Annotated[int, msgspec.Meta(description="grows with every change")]
