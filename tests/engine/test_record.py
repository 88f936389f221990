"""Records: parsing, refusals that name the entry, replay with the seed filling chance."""

from __future__ import annotations

import json
import random

import pytest

from nekobako.engine import (
    CHANCE,
    Action,
    BadRecord,
    Record,
    State,
    fill_chance,
    format_entry,
    parse_entry,
    play_out,
    replay,
    summary,
)
from nekobako.games.shutbox import GAME

BASE = {"game": "shutbox", "players": 2, "options": {"tiles": 9}, "seed": 7}


def record(actions, **changes):
    return {**BASE, **changes, "actions": actions}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("{not json", "not JSON"),
        ("[1, 2]", "a JSON object"),
        ({"players": 2}, "needs 'game'"),
        ({"game": "shutbox", "players": True}, "needs 'players'"),
        ({"game": "shutbox", "players": "2"}, "needs 'players'"),
        ({"game": "shutbox", "players": 2, "options": [1]}, "'options' must be an object"),
        ({"game": "shutbox", "players": 2, "seed": 1.5}, "'seed' must be an integer"),
        ({"game": "shutbox", "players": 2, "seed": False}, "'seed' must be an integer"),
        ({"game": "shutbox", "players": 2, "actions": "roll"}, "list of strings"),
        ({"game": "shutbox", "players": 2, "actions": [1]}, "list of strings"),
    ],
)
def test_malformed_records_are_refused(data, message):
    with pytest.raises(BadRecord, match=message):
        Record.from_json(data)


def test_record_round_trips_through_json():
    rec = Record.from_json(json.dumps(record(["start 0", "0: roll"])))
    assert rec.to_json() == record(["start 0", "0: roll"])


def test_entries_parse_and_format():
    assert parse_entry("2: shut 2 7") == (2, "shut 2 7")
    assert parse_entry(" 11 :roll 1") == (11, "roll 1")
    assert parse_entry("dice 3 4") == (CHANCE, "dice 3 4")
    assert format_entry(CHANCE, "dice 3 4") == "dice 3 4" and format_entry(3, "roll") == "3: roll"


@pytest.mark.parametrize(
    ("actions", "index", "why"),
    [
        (["start 0", "0: roll", "dice 3 4", "0: shut 8"], 3, "8 = 8, not the dice total 7"),
        (["start 0", "0: fly"], 1, "no action 'fly'"),
        (["start 0", "1: roll"], 1, "It is not your turn"),
        (["start 0", "4: roll"], 1, "There is no seat 4"),
        (["start 0", "dice 3 4"], 1, "Chance is not to move now"),
        (["start 0", "0: roll", "dice 9 9"], 2, "from 1 to 6"),
        (["start 0", "0: roll", "dice 3"], 2, "Two dice"),
    ],
)
def test_bad_entries_are_named_with_index_and_reason(actions, index, why):
    with pytest.raises(BadRecord) as info:
        replay(record(actions))
    exc = info.value
    assert exc.index == index and exc.entry == actions[index]
    assert f"Action {index} {actions[index]!r}" in str(exc) and why in str(exc)
    assert exc.code == "engine.record.refused" and "番目" in exc.text("ja")


def test_entries_after_the_end_are_refused():
    done = GAME.new_game(1)
    for seat, text in [(CHANCE, "start 0"), (0, "roll"), (CHANCE, "dice 1 1"), (0, "shut 2"), (0, "roll")]:
        done.act(seat, text)
    actions = [*done.record().actions, "dice 1 1", "0: roll", "dice 1 1", "0: shut 2", "0: roll", "dice 1 1"]
    over = replay(record(actions, players=1))
    assert over.is_over()
    with pytest.raises(BadRecord, match="The game is over"):
        replay(record([*actions, "dice 3 4"], players=1))
    with pytest.raises(BadRecord, match="The game is over"):
        replay(record([*actions, "0: roll"], players=1))


def test_unknown_games_and_bad_options_are_bad_records():
    with pytest.raises(BadRecord, match="no game 'chess'"):
        replay(record([], game="chess"))
    with pytest.raises(BadRecord, match="Option 'tiles' cannot be 11"):
        replay(record([], options={"tiles": 11}))
    with pytest.raises(BadRecord, match="research configuration"):  # 2–8 tiles: for solvers only
        replay(record([], options={"tiles": 8}))
    with pytest.raises(BadRecord, match="1–12 players"):
        replay(record([], players=20))


def play_with_seeded_chance(players: int, seed: int) -> State:
    """Random play where chance draws from `Random(seed)` in order, exactly as `replay` fills it."""
    chance_rng, player_rng = random.Random(seed), random.Random(seed + 1)
    state = GAME.new_game(players)

    def choose(seat: int) -> Action:
        legal = state.legal_actions(seat)
        return legal[player_rng.randrange(len(legal))]

    play_out(state, choose, chance_rng)
    return state


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_seed_fills_missing_chance_outcomes(seed):
    played = play_with_seeded_chance(3, seed)
    actions = played.record().actions
    last_player = max(i for i, a in enumerate(actions) if ":" in a)
    # drop every chance entry before the last player action: the seed must supply them again
    sparse = [a for i, a in enumerate(actions) if ":" in a or i > last_player]
    assert len(sparse) < len(actions)
    state = replay(record(sparse, players=3, seed=seed))
    assert state.full_view() == played.full_view()
    assert state.record(seed=seed).actions == actions


def test_written_outcomes_take_precedence_over_the_seed():
    played = play_with_seeded_chance(2, 5)
    assert replay(record(played.record().actions, seed=999)).full_view() == played.full_view()
    assert replay(record(played.record().actions, seed=None)).full_view() == played.full_view()


def test_nothing_is_filled_after_the_last_entry():
    state = replay(record([], seed=3))
    assert state.is_chance() and state.history == []
    fill_chance(state, random.Random(3))
    assert not state.is_chance() and str(state.history[0][1]).startswith("start ")


def test_summary_has_the_documented_keys():
    state = replay(record(["start 1", "1: roll", "dice 3 4"]))
    out = summary(state)
    assert set(out) >= {"game", "over", "to_move", "legal", "scores", "round_scores", "winners", "events"}
    assert out["to_move"] == [1] and out["legal"] == {"1": ["shut 7", "shut 1 6", "shut 2 5", "shut 3 4", "shut 1 2 4"]}
    assert summary(replay(record(["start 1", "1: roll"])))["to_move"] == "chance"
    json.dumps(out)
