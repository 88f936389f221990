"""Helpers shared by the rule scenarios of every game (importable: `pythonpath` in pyproject)."""

from __future__ import annotations

from typing import Any

import pytest

from nekobako.engine import IllegalAction, State, replay


def run(game: str, players: int, actions: list[str], seed: int = 0, **options: Any) -> State:
    """Replay a scenario record (forced deals and dice in `actions`)."""
    return replay({"game": game, "players": players, "options": options, "seed": seed, "actions": actions})


def refused(state: State, seat: int, text: str, error: type[Exception] = IllegalAction) -> str:
    """Assert `text` is refused for `seat` and changes nothing, hidden parts included; return why."""
    before, history = state.full_view(), list(state.history)
    with pytest.raises(error) as info:
        state.act(seat, text)
    assert state.full_view() == before and state.history == history
    return str(info.value)


def legal(state: State, seat: int) -> list[str]:
    """The legal actions of `seat`, in notation."""
    return [str(a) for a in state.legal_actions(seat)]


CATOPOMP_ROUND_1 = [
    "start 0",
    "deal 1 2 3 4 5 | 6 7 8 9 10",
    "dice 1 1 1",
    "0: play 1 2 3",
    "0: bury 4",
    "1: pass",
    "0: keep",
    "0: play 5",
    "1: pass",
    "0: keep",
    "0: hell 4",
]
"""Catopomp, two players, five cards each (`hand_size=5`): seat 0 sheds everything, seat 1 is left
holding cards, loses a gem (2 → 1) and so holds a spare die in round 2."""

CATOPOMP_ROUND_2 = [
    "deal 1 2 3 4 5 | 6 7 8 9 10",
    "dice 1 1",
    "1: spare 6",  # never used this round
    "1: play 6 7 8",
    "1: bury 9",
    "0: pass",
    "1: keep",
    "1: play 10",
    "0: pass",
    "1: keep",
    "1: hell 9",
]
"""After `CATOPOMP_ROUND_1`: seat 1 (spare die set to 6, never used) sheds everything and seat 0
loses a gem, so both seats have one gem and hold a spare die in round 3."""
