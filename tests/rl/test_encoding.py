"""Each game's encoding against its views: ids both ways, the fast tensor equal to the reference
built from the seat's view alone, legal masks equal to the legal actions, and no hidden card ever
reaching a tensor or an information-state string."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nekobako.engine import CHANCE, MalformedAction, get_game
from nekobako.engine.encoding import encoding

CASES = [
    ("shutbox", 1, {}),
    ("shutbox", 3, {}),
    ("shutbox", 2, {"simultaneous": True, "tiles": 12, "max_close": "any", "scoring": "digits"}),
    ("catbox", 2, {}),
    ("catbox", 3, {"side": "purple"}),
    ("catbox", 4, {}),
    ("catbox", 5, {}),
    ("catopomp", 2, {}),
    ("catopomp", 3, {"casual": True}),
    ("catopomp", 4, {"extra_cards": "both"}),
]
SIZES = {
    ("shutbox", 1): 61,
    ("catbox", 2): 25,
    ("catbox", 3): 33,
    ("catbox", 4): 43,
    ("catbox", 5): 48,
    ("catopomp", 2): 1086,
    ("catopomp", 4): 1746,
}
"""Action-space sizes at default options, as docs/research.md states them."""


def walk(name: str, players: int, options: dict, seed: int, limit: int = 400):
    """Yield every position of one random game where a player is to move (with that seat)."""
    rng = random.Random(seed)
    state = get_game(name).new_game(players, options)
    steps = 0
    while state.to_move and steps < limit:
        seat = state.to_move[0]
        if seat == CHANCE:
            state.apply(CHANCE, state.sample_chance(rng))
            continue
        yield state, seat
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
        steps += 1
    yield state, -1


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_ids_round_trip_through_notation(name, players, options) -> None:
    enc = encoding(name, players, **options)
    for i, action in enumerate(enc.actions):
        assert enc.action(i) is action
        assert enc.id_of_text(str(action)) == i
        assert enc.action_id(action) == i
    with pytest.raises(MalformedAction):
        enc.action(enc.num_actions)
    if (name, players) in SIZES and not options:
        assert enc.num_actions == SIZES[(name, players)]


def test_an_action_outside_the_table_has_no_id() -> None:
    with pytest.raises(MalformedAction):
        encoding("catbox", 3).id_of_text("play 9 red")  # cards go to 6 at 3 players
    with pytest.raises(MalformedAction):
        encoding("shutbox", 1).id_of_text("shut 3 4 5 6")  # at most 3 tiles per roll


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_tensor_equals_the_view_reference_and_masks_equal_legal(name, players, options) -> None:
    enc = encoding(name, players, **options)
    out = np.empty(enc.size, np.float32)
    checked = 0
    for state, mover in walk(name, players, options, seed=players):
        for seat in range(players):
            enc.observe(state, seat, out)
            reference = np.array(enc.observe_view(state.view(seat)), np.float32)
            if not np.array_equal(out, reference):
                fast, slow = enc.layout.slices(out), enc.layout.slices(reference)
                wrong = {k: (fast[k], slow[k]) for k in fast if fast[k] != slow[k]}
                pytest.fail(f"{name} seat {seat} at {len(state.history)}: {wrong}")
            checked += 1
        if mover >= 0:
            ids = enc.legal_ids(state, mover)
            assert [enc.actions[i] for i in ids] == list(state.legal_actions(mover))
            assert len(set(ids)) == len(ids)
    assert checked > 20


class Reading(dict):
    """A view that remembers which keys were read."""

    def __init__(self, view: dict) -> None:
        super().__init__(view)
        self.read: set[str] = set()

    def __getitem__(self, key: str):
        self.read.add(key)
        return super().__getitem__(key)

    def get(self, key: str, default=None):
        self.read.add(key)
        return super().get(key, default)


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_every_view_key_is_in_the_tensor_or_said_to_be_elsewhere(name, players, options) -> None:
    """A key added to a view fails here until the encoding reads it or says where it lives."""
    enc = encoding(name, players, **options)
    keys: set[str] = set()
    read: set[str] = set()
    for state, _ in walk(name, players, options, seed=5):
        for seat in range(players):
            view = Reading(state.view(seat))
            enc.observe_view(view)
            keys |= set(view)
            read |= view.read
    unread = keys - read
    assert unread <= set(enc.elsewhere), (
        f"view keys neither encoded nor placed elsewhere: {unread - set(enc.elsewhere)}"
    )
    assert not read & set(enc.elsewhere), read & set(enc.elsewhere)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), case=st.sampled_from(CASES))
def test_any_game_every_legal_action_has_an_id(seed, case) -> None:
    name, players, options = case
    enc = encoding(name, players, **options)
    for state, mover in walk(name, players, options, seed, limit=150):
        if mover >= 0:
            enc.legal_ids(state, mover)  # a KeyError here is a play missing from the space


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_whole_games_fit_the_length_bound_and_the_information_tensor(name, players, options) -> None:
    enc = encoding(name, players, **options)
    for seed in range(3):
        *_, (state, _) = walk(name, players, options, seed, limit=10_000)
        assert state.is_over()
        steps = sum(_cards(a) if hasattr(a, "hands") else 1 for _, a in state.history)  # a deal: a step per card
        assert steps <= enc.max_length()
        out = np.empty(enc.information_size, np.float32)
        for seat in range(players):
            enc.information_tensor(state, seat, out)
            codes = enc.history_codes(state, seat)
            assert out[enc.size : enc.size + len(codes)].tolist() == codes
            assert not out[enc.size + len(codes) :].any()


def _cards(deal) -> int:
    return sum(len(h) for h in deal.hands) + len(getattr(deal, "reveal", ())) + len(getattr(deal, "hidden", ()))


@pytest.mark.parametrize(("game", "players"), [("catbox", 2), ("catbox", 4), ("catopomp", 3), ("catopomp", 4)])
def test_hidden_cards_never_reach_a_tensor_or_a_string(game, players, position) -> None:
    from bots.test_no_peeking import altered_states

    enc = encoding(game, players)
    rng = random.Random(f"rl{game}{players}")
    pairs = 0
    for _ in range(40):
        state, seat = position(game, players, rng)
        for other in altered_states(state, seat, rng):
            pairs += 1
            here, there = np.empty(enc.size, np.float32), np.empty(enc.size, np.float32)
            enc.observe(state, seat, here)
            enc.observe(other, seat, there)
            assert np.array_equal(here, there)
            assert enc.information_state(state, seat) == enc.information_state(other, seat)
            assert enc.history_codes(state, seat) == enc.history_codes(other, seat)
            assert enc.legal_ids(state, seat) == enc.legal_ids(other, seat)
            # the other seats' hidden cards did change, and their strings show it
            assert any(
                enc.information_state(state, s) != enc.information_state(other, s) for s in range(players) if s != seat
            )
        if pairs >= 6:
            break
    assert pairs >= 4


def test_information_state_is_the_redacted_history_and_pending_discard() -> None:
    game = get_game("catbox")
    state = game.new_game(3)
    state.act(-1, "start 0")
    state.act(-1, "deal 1 1 1 1 1 2 2 2 2 2 | 3 3 3 3 3 4 4 4 4 4 | 5 5 5 5 5 6 6 6 6 6")
    enc = encoding("catbox", 3)
    state.act(0, "discard 2")
    mine, theirs = enc.information_state(state, 0), enc.information_state(state, 1)
    assert mine.splitlines()[1:] == [
        "chance: start 0",
        "chance: deal 1 1 1 1 1 2 2 2 2 2 | ? ? ? ? ? ? ? ? ? ? | ? ? ? ? ? ? ? ? ? ?",
        '* round_started 0 {"round":1}',
        "0: discard 2",
    ]
    assert "discard 2" not in theirs and "3 3 3 3 3 4 4 4 4 4" in theirs
    assert "seq" not in mine


def test_catopomp_action_features_count_cards() -> None:
    enc = encoding("catopomp", 4, extra_cards="both")
    layout = __import__("nekobako.games.catopomp.encoding", fromlist=["FEATURES"]).FEATURES
    row = layout.slices(enc.action_features(enc.id_of_text("play 5 M=5 +d2+3")))
    assert row["kind"][0] == 1 and row["cards"][4] == 1 and row["cards"][20] == 1 and sum(row["cards"]) == 2
    assert row["values"][5] == 3 and row["dice"] == [0, 1, 1, 0, 0, 0] and row["spare"] == [0] * 6
    assert row["combo"] == [0, 0, 1] and row["rank"] == [5] and row["size"] == [3] and row["mitch_as"] == [1]
    give = layout.slices(enc.action_features(enc.id_of_text("give C")))
    assert give["kind"][6] == 1 and give["cards"][21] == 1
    assert enc.features([0, 1]).shape == (2, layout.size)
