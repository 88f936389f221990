"""Views made from the view log (engine/viewlog.py, issue 14) are the views made from scratch.

A state keeps the JSON of its history and events for views, carries it across `clone`, and makes
only the new entries. These properties play random games the way the server does (clone, apply,
then every seat's and a spectator's view), with side branches as a search makes them, and check at
every step that each view equals, as Python values and as the bytes the server sends, the view of
the same state with an empty log and of the state rebuilt from its record; that a view kept by a
caller never changes afterwards; and that the shared entries cannot be changed through a view.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from typing import Any

import orjson
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from nekobako.engine import CHANCE, ReadOnlyDict, ReadOnlyList, State, game_names, get_game, replay

GAMES = [(name, players) for name in game_names() for players in (2, 3, 4)]
SOME = settings(max_examples=5, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])


def step(state: State[Any], rng: random.Random) -> State[Any]:
    """The next state, as the server makes it: a clone with one random action applied (any seat
    of a simultaneous decision)."""
    new = state.clone()
    to_move = new.to_move
    seat = to_move[rng.randrange(len(to_move))]
    action = new.sample_chance(rng) if seat == CHANCE else rng.choice(list(new.legal_actions(seat)))
    new.apply(seat, action)
    return new


def fresh(state: State[Any], seat: int | None) -> dict[str, Any]:
    """The view made from scratch: the same state with an empty view log."""
    clone = state.clone()
    clone.view_log = {}
    return clone.view(seat)


def encoded(view: dict[str, Any]) -> bytes:
    return orjson.dumps(view, option=orjson.OPT_NON_STR_KEYS)  # as the server encodes messages


def readers(state: State[Any]) -> list[int | None]:
    return [*range(state.players), None]


@pytest.mark.parametrize(("game", "players"), GAMES)
@SOME
@given(seed=st.integers(0, 2**32 - 1))
def test_cached_views_equal_fresh_ones(game: str, players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = get_game(game).new_game(players)
    kept: list[tuple[dict[str, Any], bytes]] = []
    steps = 0
    while state.to_move and steps < 250:
        if rng.random() < 0.1:  # a side branch, as a search makes: it must not disturb the main line
            branch = step(state, rng)
            if branch.to_move:
                branch = step(branch, rng)
            for seat in readers(branch):
                assert branch.view(seat) == fresh(branch, seat)
        state = step(state, rng)
        steps += 1
        for seat in readers(state):
            view = state.view(seat)
            again = fresh(state, seat)
            assert view == again
            assert view["events"] == [event.to_json() for event in state.events]  # as before the log
            assert encoded(view) == encoded(again) == json.dumps(again, separators=(",", ":")).encode()
            kept.append((view, encoded(view)))
        assert state.full_view() == fresh_full(state)
        if steps % 40 == 0:  # the state rebuilt from its record shows every reader the same
            rebuilt = replay(state.record(seed).to_json())
            for seat in readers(state):
                assert rebuilt.view(seat) == state.view(seat)
    for view, text in kept:  # views handed out earlier never changed afterwards
        assert encoded(view) == text


def fresh_full(state: State[Any]) -> dict[str, Any]:
    clone = state.clone()
    clone.view_log = {}
    return clone.full_view()


@pytest.mark.parametrize("game", game_names())
def test_shared_entries_are_read_only(game: str) -> None:
    rng = random.Random(3)
    state = get_game(game).new_game(2)
    while len(state.events) < 3 and state.to_move:
        state = step(state, rng)
    view = state.view(0)
    entry, event = view["history"][0], view["events"][0]
    assert isinstance(entry, ReadOnlyList) and isinstance(event, ReadOnlyDict)
    with pytest.raises(TypeError):
        entry[1] = "changed"
    with pytest.raises(TypeError):
        entry.append("more")
    with pytest.raises(TypeError):
        event["kind"] = "changed"
    with pytest.raises(TypeError):
        event["data"].update(x=1)
    view["history"].append(["mine"])  # a view's own lists are its caller's to change…
    view["events"].clear()
    assert state.view(0) == fresh(state, 0)  # …and the next view does not see it
    again = pickle.loads(pickle.dumps(view))  # bots in worker processes get views pickled
    assert again == view and copy.deepcopy(view) == view
    assert pickle.loads(pickle.dumps(state)).view(1) == state.view(1)
