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
