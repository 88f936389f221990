"""The database tables, declared once with SQLAlchemy Core so SQLite and PostgreSQL share them.

A game is stored as its table row plus the ordered `actions` (chance outcomes included): that
list *is* the record, so rebuilding a table after a restart is the engine's `replay`.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(64), nullable=False),
    # lower-cased name for registered accounts (unique); NULL for guests, who may share names
    Column("account_key", String(64), unique=True, nullable=True),
    Column("password_hash", String(255), nullable=True),
    Column("guest", Boolean, nullable=False, default=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),  # sha256 of the cookie value
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
)

tables = Table(
    "game_tables",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", JSON, nullable=False),
    Column("clock", JSON, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("host_id", Integer, ForeignKey("users.id"), nullable=True),
    Column("seed", BigInteger, nullable=False),
    Column("seq", Integer, nullable=False, default=0),
    # bumped by every committed change: a process whose copy is older finds out when it commits
    Column("revision", Integer, nullable=False, default=0, server_default="0"),
    # seat (as text) -> Unix time a decision is due; only for tables with a clock
    Column("deadlines", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("started_at", DateTime(timezone=True), nullable=True),
    Column("finished_at", DateTime(timezone=True), nullable=True),
)

seats = Table(
    "seats",
    metadata,
    Column("table_id", Integer, ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # empty | human | bot
    Column("user_id", Integer, ForeignKey("users.id"), nullable=True),
    Column("bot", String(16), nullable=True),
    Column("replaced", String(16), nullable=True),  # null | left | timeout
)

actions = Table(
    "actions",
    metadata,
    Column("table_id", Integer, ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),  # 0-based index in the record
    Column("entry", Text, nullable=False),  # record entry: "2: play 7 red" or "dice 3 4"
    Column("created_at", DateTime(timezone=True), nullable=False),
)

notices = Table(
    "notices",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", Integer, ForeignKey("game_tables.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("kind", String(16), nullable=False),
    Column("seat", Integer, nullable=True),
    Column("seq", Integer, nullable=False),
    Column("data", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

ratings = Table(
    "ratings",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("games", Integer, nullable=False),
)

rating_changes = Table(
    "rating_changes",
    metadata,
    Column("table_id", Integer, ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("before", Float, nullable=False),
    Column("after", Float, nullable=False),
)

# -- issue 13: results per seat, chat, rematch offers (additive tables; `create_all` makes them) --

seat_results = Table(
    "seat_results",
    metadata,
    # one row per seat of a finished table: what player pages and win rates read, written when the
    # game ends (or filled in from the record the first time a page needs it)
    Column("table_id", Integer, ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=True, index=True),
    Column("place", Integer, nullable=False),
    Column("won", Boolean, nullable=False),
    Column("score", Float, nullable=False),
)

chat_messages = Table(
    "chat_messages",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", Integer, ForeignKey("game_tables.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("channel", String(16), nullable=False),  # players | spectators
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("seat", Integer, nullable=True),  # the writer's seat (players' channel)
    Column("seq", Integer, nullable=False),  # the table's seq when it was written: its place in a replay
    Column("text", Text, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

# -- issue 32: muting and reporting players (additive tables) --

mutes = Table(
    "mutes",
    metadata,
    # `user_id` reads nothing `muted_id` writes in chat, at any table, until they unmute
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("muted_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

reports = Table(
    "reports",
    metadata,
    # a player reported to the operator (`nekobako reports`), with the chat lines the reporter saw
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("reporter_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("reported_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("table_id", Integer, ForeignKey("game_tables.id", ondelete="SET NULL"), nullable=True),
    Column("reason", Text, nullable=False),  # "" when none was given
    Column("context", JSON, nullable=False),  # the table's last chat lines: [{user, channel, text, at}]
    Column("created_at", DateTime(timezone=True), nullable=False),
)

rematch_offers = Table(
    "rematch_offers",
    metadata,
    # one offer per finished table: who was asked, who accepted, and the new table once all did
    Column("table_id", Integer, ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("offered_by", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("accepted", JSON, nullable=False),  # user ids, in the order they accepted
    Column("declined_by", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=True),
    Column("new_table_id", Integer, ForeignKey("game_tables.id", ondelete="SET NULL"), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

leases = Table(
    "leases",
    metadata,
    # the one server process that drives a running table's bots and clock, until `until` (Unix
    # time) unless it renews: another process takes the table over once the lease has run out.
    # `epoch` counts the holders: a driver's commit names the epoch it acts under (a fence)
    Column("table_id", Integer, ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("holder", String(80), nullable=False, index=True),
    Column("until", Float, nullable=False),
    Column("epoch", Integer, nullable=False, default=1, server_default="1"),
)

attempts = Table(
    "attempts",
    metadata,
    # rate-limited attempts (logins, sign-ups, guests) per key, shared by every server process
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(200), nullable=False, index=True),
    Column("at", Float, nullable=False),
)

watchers = Table(
    "watchers",
    metadata,
    # one row per anonymous watcher's socket, held by the server process it is connected through
    # until `until` (Unix time); the process renews its rows every second, so a dead process's
    # watchers stop counting within seconds (the per-table limit: `store.watchers`)
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", Integer, ForeignKey("game_tables.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("holder", String(80), nullable=False),
    Column("until", Float, nullable=False),
)

# -- issue 29: reviews of finished games (an additive table) --

reviews = Table(
    "reviews",
    metadata,
    # one review per seat of a finished table (docs/review.md): `running` while a server process
    # computes it (`done` of `total` decisions rated; `updated_at` renewed at each, so a review whose
    # process died is taken over once it is stale), then `done` with the review's JSON
    Column("table_id", Integer, ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("status", String(8), nullable=False),  # running | done | failed
    Column("requested_by", Integer, ForeignKey("users.id", ondelete="SET NULL"), nullable=True, index=True),
    Column("done", Integer, nullable=False, default=0),
    Column("total", Integer, nullable=False, default=0),
    Column("result", JSON, nullable=True),
    Column("updated_at", Float, nullable=False),  # Unix time
)
