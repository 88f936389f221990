"""What an operator can set: the public address, the worker pools and the limits that keep one
user or one address from taking the server for themselves (docs/server.md lists them)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any


@dataclass(frozen=True)
class Limits:
    """Per user, per client address and per server. Windowed counts are per hour."""

    open_tables: int = 5  # tables one user hosts that are open or running
    strong_bot_tables: int = 2  # tables with a searching bot (ismcts) one user runs at a time
    server_strong_bot_tables: int = 16  # the same, all users together
    reviews: int = 1  # reviews of finished games one user has computing at a time (docs/review.md)
    server_reviews: int = 4  # the same, all users together
    guests_per_hour: int = 20  # guest accounts made from one address
    signups_per_hour: int = 10  # registered accounts made from one address
    anonymous_sockets: int = 20  # sockets without a session watching one table
    finished_in_memory: int = 200  # finished tables kept for replays before the oldest is evicted
    rematch_seconds: int = 600  # a rematch offer lapses this long after it was made (store.rematch)

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    def with_text(self, items: list[str]) -> Limits:
        """`["open_tables=10"]` → these limits with that one changed; `ValueError` with the reason."""
        changes: dict[str, Any] = {}
        for item in items:
            name, _, value = item.partition("=")
            name = name.strip()
            if name not in self.names():
                raise ValueError(f"unknown limit {name!r}; limits: {', '.join(self.names())}")
            if not value.strip().isdigit() or len(value.strip()) > 9:
                raise ValueError(f"limit {name} must be a whole number, not {value!r}")
            changes[name] = int(value)
        return replace(self, **changes)


@dataclass(frozen=True)
class Settings:
    bot_delay: float = 0.0  # seconds a bot waits before moving, so people can follow
    public_url: str | None = None  # e.g. https://games.example; https makes cookies Secure
    bot_processes: int = 1  # processes that run bot searches
    hash_threads: int = 2  # threads that hash passwords (argon2 is slow on purpose)
    tune_collector: bool = False  # freeze start-up objects, collect less often (collector.py); serve sets it
    warm_bots: bool = (
        False  # search processes start with the server, compiled search loaded (workers.py); serve sets it
    )
    limits: Limits = field(default_factory=Limits)

    @property
    def secure_cookies(self) -> bool:
        return bool(self.public_url and self.public_url.lower().startswith("https://"))
