"""Faults a test can switch on in a real server process, to prove that the server's promises hold
when the database or a bot misbehaves. Off unless the environment variable
`NEKOBAKO_TEST_FAULTS` names them (comma-separated); never set it in production.

* `fail_commit`: every commit of a played action fails before it reaches the database;
* `lose_ack`: the first commit of a played action is stored, then reported as failed (the
  connection dropped between COMMIT and its reply);
* `slow_commit`: every commit of a played action takes 0.3 s longer;
* `bot_crash`: every bot raises instead of answering;
* `bot_illegal`: every bot answers something no game accepts.
"""

from __future__ import annotations

import os
import time

from sqlalchemy.exc import OperationalError

KNOWN = frozenset({"fail_commit", "lose_ack", "slow_commit", "bot_crash", "bot_illegal"})


class InjectedFault(OperationalError):
    def __init__(self, what: str):
        super().__init__(what, None, Exception(what))


class Faults:
    def __init__(self, names: str | None = None):
        raw = os.environ.get("NEKOBAKO_TEST_FAULTS", "") if names is None else names
        self.active = {n.strip() for n in raw.split(",") if n.strip()}
        unknown = self.active - KNOWN
        if unknown:
            raise ValueError(f"unknown fault {sorted(unknown)[0]!r}; faults: {', '.join(sorted(KNOWN))}")

    def __contains__(self, name: str) -> bool:
        return name in self.active

    def before_commit(self, has_entries: bool) -> None:
        """Blocking (runs in the database thread)."""
        if not has_entries:
            return
        if "slow_commit" in self.active:
            time.sleep(0.3)
        if "fail_commit" in self.active:
            raise InjectedFault("injected: the commit failed")

    def after_commit(self, has_entries: bool) -> None:
        if has_entries and "lose_ack" in self.active:
            self.active.discard("lose_ack")
            raise InjectedFault("injected: the commit's acknowledgement was lost")
