"""Faults a test can switch on in a real server process, to prove that the server's promises hold
when the database or a bot misbehaves. Off unless the environment variable
`NEKOBAKO_TEST_FAULTS` names them (comma-separated); never set it in production.

* `fail_commit`: every commit of a played action fails before it reaches the database;
* `lose_ack`: the first commit of a played action is stored, then reported as failed (the
  connection dropped between COMMIT and its reply);
* `slow_commit`: every commit of a played action takes 0.3 s longer;
* `bot_crash`: every bot raises instead of answering;
* `bot_illegal`: every bot answers something no game accepts;
* `bot_gate`: every bot's chosen move (the clock's too) waits, before it is submitted, until the file `open`
  exists in the folder `NEKOBAKO_TEST_BOT_GATE`; the process writes `waiting` there while one
  waits and `answered` once its submission was accepted or refused (so a test can make a bot
  as slow as it needs, and know where it is).
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

from sqlalchemy.exc import OperationalError

KNOWN = frozenset({"fail_commit", "lose_ack", "slow_commit", "bot_crash", "bot_illegal", "bot_gate"})
GATE_POLL = 0.01


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

        self.gate = Path(os.environ.get("NEKOBAKO_TEST_BOT_GATE", ".")) if "bot_gate" in self.active else None

    def __contains__(self, name: str) -> bool:
        return name in self.active

    async def hold_bot(self) -> None:
        """`bot_gate`: wait until the test opens the gate."""
        if self.gate is None:
            return
        (self.gate / "waiting").touch()
        while not (self.gate / "open").exists():
            await asyncio.sleep(GATE_POLL)

    def bot_answered(self) -> None:
        if self.gate is not None:
            (self.gate / "waiting").unlink(missing_ok=True)
            (self.gate / "answered").touch()

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
