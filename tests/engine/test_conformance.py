"""The engine contract, checked once for every game and every player count (docs/engine.md).

Each test draws random table options from the game's own option table and a random position
reached by random legal play (in simultaneous phases a random seat of those to move acts), then
checks what every game promises: clones are complete and independent, a refusal changes nothing
(whatever the seat or the value passed as an action), records round-trip through JSON, views are
JSON, read back as the game's typed view (`Game.read_view`), say what `legal_actions` says and
never leak (a world sampled from a seat's view shows that seat exactly the same view), events are
immutable values worded in both languages.

Game-specific properties (card conservation, scoring, uniform determinization) stay with each game.
"""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from nekobako.engine import (
    CHANCE,
    BadRecord,
    FrozenData,
    IllegalAction,
    InvalidOptions,
    MalformedAction,
    SeatView,
    State,
    game_names,
    get_game,
    random_playout,
    replay,
    summary,
)

TABLES = [
    (name, players)
    for name in game_names()
    for players in range(get_game(name).min_players, get_game(name).max_players + 1)
]
SEEDS = st.integers(0, 2**32 - 1)
LENGTHS = st.integers(0, 400)
FEW = settings(max_examples=6, phases=[Phase.explicit, Phase.reuse, Phase.generate])  # no shrinking: slow here


def random_options(game_name: str, players: int, rng: random.Random) -> dict[str, Any]:
    """Options drawn from the game's option table; a combination the game refuses is drawn again
    (and after a few refusals the defaults are used)."""
    game = get_game(game_name)
    for _ in range(10):
        raw = {spec.name: rng.choice(spec.choices) for spec in game.option_specs if spec.choices}
        try:
            return game.options(raw, players).to_json()
        except InvalidOptions:
            continue
    return {}


def position(game_name: str, players: int, seed: int, length: int) -> tuple[State[Any], random.Random, set[Any]]:
    """A random position, the generator that reached it, and every action seen on the way."""
    rng = random.Random(seed)
    state = get_game(game_name).new_game(players, random_options(game_name, players, rng))
    seen: set[Any] = set()
    for _ in range(length):
        to_move = state.to_move
        if not to_move:
            break
        seat = to_move[rng.randrange(len(to_move))]
        action = state.sample_chance(rng) if seat == CHANCE else rng.choice(list(state.legal_actions(seat)))
        seen.update(state.legal_actions(seat)) if seat != CHANCE else seen.add(action)
        state.apply(seat, action)
    return state, rng, seen


def slots(state: State[Any]) -> list[str]:
    return [name for cls in type(state).__mro__ for name in getattr(cls, "__slots__", ())]


def snapshot(value: Any) -> Any:
    """A copy of the built-in containers in `value` (other objects — the game, tables, actions — are
    immutable and kept), to tell later whether anything in it was changed."""
    if isinstance(value, list):
        return [snapshot(v) for v in value]
    if isinstance(value, tuple):
        return tuple(snapshot(v) for v in value)
    if isinstance(value, dict):
        return {k: snapshot(v) for k, v in value.items()}
    if isinstance(value, set):
        return set(value)
    return value


@pytest.mark.parametrize(("game", "players"), TABLES)
@FEW
@given(seed=SEEDS, length=LENGTHS)
def test_clones_are_complete_and_independent(game: str, players: int, seed: int, length: int) -> None:
    state, rng, _ = position(game, players, seed, length)
    before = state.full_view()
    with pytest.raises(AttributeError):
        state.no_such_field = 1  # type: ignore[attr-defined]  # __slots__ everywhere: a typo fails
    fields = {name: snapshot(getattr(state, name)) for name in slots(state)}
    clone = state.clone()
    for name, value in fields.items():  # every field is copied
        assert getattr(clone, name) == value, name
    assert clone.full_view() == before
    assert pickle.loads(pickle.dumps(state)).full_view() == before  # worker processes pickle states
    random_playout(clone, rng)
    assert clone.is_over()
    assert state.full_view() == before
    for name, value in fields.items():  # and none is shared: playing on the clone changed none
        assert getattr(state, name) == value, name


NOT_SEATS: list[Any] = [False, True, 0.0, 1.0, "0", None, -2, (0,)]
NOT_ACTIONS: list[Any] = ["roll", "", None, 7, 3.5, object(), (1, 2), ["play"], {"kind": "play"}]
FOREIGN: dict[str, list[Any]] = {
    name: [get_game(name).parse_action(text) for text in texts]
    for name, texts in {
        "shutbox": ["roll", "dice 3 4"],
        "catbox": ["discard 3"],
        "catopomp": ["pass", "bury 3"],
    }.items()
}


@pytest.mark.parametrize(("game", "players"), TABLES)
@FEW
@given(seed=SEEDS, length=LENGTHS)
def test_a_refusal_changes_nothing(game: str, players: int, seed: int, length: int) -> None:
    state, rng, seen = position(game, players, seed, length)
    before, record, events = state.full_view(), state.record(), list(state.events)

    def refused(seat: Any, action: Any, error: type[Exception]) -> None:
        with pytest.raises(error) as info:
            state.apply(seat, action)
        assert str(info.value), (seat, action)
        assert state.full_view() == before and state.record() == record and state.events == events

    some_action = next(iter(seen), None) if seen else state.sample_chance(rng) if state.is_chance() else None
    for seat in [*NOT_SEATS, players, players + 1]:
        refused(seat, some_action, IllegalAction)  # no such seat, whatever the action
    seats = [CHANCE, *range(players)]
    for seat in seats:
        # chance may be given any outcome of its step (a deal has too many to list): not tried here
        if seat != CHANCE or not state.is_chance():
            legal = set(state.legal_actions(seat))
            for action in rng.sample(sorted(seen, key=str), min(len(seen), 20)):
                if action not in legal:
                    refused(seat, action, IllegalAction)
        for action in NOT_ACTIONS + [a for other, actions in FOREIGN.items() if other != game for a in actions]:
            refused(seat, action, MalformedAction)


@pytest.mark.parametrize(("game", "players"), TABLES)
@FEW
@given(seed=SEEDS, length=LENGTHS)
def test_records_round_trip_through_json(game: str, players: int, seed: int, length: int) -> None:
    state, _, _ = position(game, players, seed, length)
    record = state.record(seed=seed).to_json()
    again = replay(json.loads(json.dumps(record)))
    assert again.full_view() == state.full_view()
    assert [(s, str(a)) for s, a in again.history] == [(s, str(a)) for s, a in state.history]
    assert again.record(seed=seed).to_json() == record
    bad = {**record, "actions": [*record["actions"], "0: no such action"]}  # the bad entry is named
    with pytest.raises(BadRecord) as info:
        replay(bad)
    assert info.value.index == len(record["actions"]) and info.value.entry == "0: no such action"


@pytest.mark.parametrize(("game", "players"), TABLES)
@FEW
@given(seed=SEEDS, length=LENGTHS)
def test_views_are_json_and_a_world_sampled_from_a_view_shows_the_same_view(
    game: str, players: int, seed: int, length: int
) -> None:
    state, rng, _ = position(game, players, seed, length)
    rules = get_game(game)
    assert json.loads(json.dumps(state.full_view())) == state.full_view()
    assert json.loads(json.dumps(summary(state))) == summary(state)
    for seat in [None, *range(players)]:
        view = state.view(seat)
        assert json.loads(json.dumps(view)) == view
        assert view["seat"] == seat and view["game"] == game and view["players"] == players
        to_move = seat is not None and seat in state.to_move
        assert view["legal"] == ([str(a) for a in state.legal_actions(seat)] if to_move else [])
        assert state.history_texts(seat) == [text for _, text in view["history"]]  # what other readers read
        seen = rules.read_view(view)  # the typed view Python readers use agrees with the state
        assert isinstance(seen, SeatView) and type(seen) is type(rules.read_view(state.view(None)))
        assert (seen.game, seen.players, seen.seat, seen.seq) == (game, players, seat, len(state.history))
        assert seen.to_move == state.to_move and seen.over == state.is_over()
        assert seen.legal == tuple(view["legal"]) and seen.winners == tuple(state.winners())
        assert list(seen.scores) == state.scores() and [list(r) for r in seen.round_scores] == state.round_scores()
        assert seen.options == state.options.to_json() and seen.history == view["history"]
        with pytest.raises(AttributeError):
            seen.seat = 0  # type: ignore[misc]  # a typed view is a value
        for _ in range(2):  # hidden information is drawn afresh: a leak would show as a difference
            world = rules.determinize(view, rng)
            assert world.private_view(seat) == state.private_view(seat)
            assert world.to_move == state.to_move and world.is_over() == state.is_over()
            assert world.scores() == state.scores() and world.round_scores() == state.round_scores()
            if seat is not None:
                assert [str(a) for a in world.legal_actions(seat)] == view["legal"]
            random_playout(world, rng)
            assert world.is_over()


@pytest.mark.parametrize(("game", "players"), TABLES)
@FEW
@given(seed=SEEDS)
def test_events_are_values_worded_in_both_languages(game: str, players: int, seed: int) -> None:
    state, _, _ = position(game, players, seed, 100_000)
    rules = get_game(game)
    assert state.is_over() and state.events and state.events[-1].kind == "game_over"
    for event in state.events:
        assert isinstance(event.data, FrozenData) and hash(event) == hash(type(event)(*event))
        assert 0 <= event.at <= len(state.history)
        assert rules.describe(event, "en") != event.kind and rules.describe(event, "ja") != event.kind
    assert [e.to_json() for e in state.events] == state.view(None)["events"]
