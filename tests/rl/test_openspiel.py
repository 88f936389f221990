"""OpenSpiel: the games pass `pyspiel.random_sim_test`, deal card by card with the right odds,
keep each seat's information-state string equal to the encoding's, and OpenSpiel's own ISMCTS
plays them through `resample_from_infostate`."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from nekobako.engine.encoding import encoding
from nekobako.rl import openspiel

openspiel.register()

SIMS = [
    ("nekobako_shutbox", {"players": 1}),
    ("nekobako_shutbox", {"players": 3, "simultaneous": True}),
    ("nekobako_shutbox", {"players": 5, "scoring": "digits"}),
    ("nekobako_catbox", {"players": 2}),
    ("nekobako_catbox", {"players": 3, "side": "purple"}),
    ("nekobako_catbox", {"players": 4}),
    ("nekobako_catbox", {"players": 5}),
    ("nekobako_catopomp", {"players": 2}),
    ("nekobako_catopomp", {"players": 3, "casual": True, "extra_cards": "both"}),
    ("nekobako_catopomp", {"players": 4}),
]


@pytest.mark.parametrize(("name", "params"), SIMS, ids=[f"{n}-{p['players']}p" for n, p in SIMS])
def test_random_sim_test(name: str, params: dict) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(name, params), num_sims=2, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4, 6, 8, 12])
def test_random_sim_test_shutbox_every_size(players: int) -> None:
    """Twelve players check every seat's strings and tensors at every step: minutes, not seconds."""
    game = pyspiel.load_game("nekobako_shutbox", {"players": players, "scoring": "digits"})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_parameters_are_the_game_options() -> None:
    game = pyspiel.load_game("nekobako_catopomp", {"players": 3, "deck": "1-10x4", "hand_size": 8})
    assert game.num_players() == 3
    assert game.encoding.options.deck == tuple((n, 4) for n in range(1, 11))
    with pytest.raises(Exception, match="cards"):
        pyspiel.load_game("nekobako_catopomp", {"players": 4, "deck": "1-3x2"})


def test_a_deal_is_card_by_card_with_its_odds() -> None:
    game = pyspiel.load_game("nekobako_catbox", {"players": 3})
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])  # start 0
    base = len(game.encoding.chance_actions)
    first = dict(state.chance_outcomes())
    assert first == {base + card: 5 / 30 for card in range(1, 7)}  # 3 players: 1-6, five of each
    for _ in range(5):
        state.apply_action(base + 1)
    assert dict(state.chance_outcomes()).get(base + 1) is None  # all five 1s are gone
    assert dict(state.chance_outcomes())[base + 2] == pytest.approx(5 / 25)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    hand = state.p.engine.view(0)["hand"]
    assert hand == [1, 1, 1, 1, 1, 2, 2, 2, 2, 2]


@pytest.mark.parametrize(("name", "players"), [("catbox", 4), ("catopomp", 3), ("shutbox", 2)])
def test_information_state_strings_follow_the_encoding(name: str, players: int) -> None:
    game = pyspiel.load_game(f"nekobako_{name}", {"players": players})
    enc = encoding(name, players)
    rng = np.random.default_rng(1)
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal() and steps < 300:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        if not state.p.dealt:
            for seat in range(players):
                assert state.information_state_string(seat) == enc.information_state(state.p.engine, seat)
            tensor = np.empty(enc.size, np.float32)
            enc.observe(state.p.engine, state.current_player(), tensor)
            assert state.observation_tensor() == pytest.approx(tensor.tolist())
            information = np.empty(enc.information_size, np.float32)
            enc.information_tensor(state.p.engine, state.current_player(), information)
            assert state.information_state_tensor() == pytest.approx(information.tolist())
        state.apply_action(int(rng.choice(state.legal_actions())))
        steps += 1


@pytest.mark.parametrize(("name", "players"), [("catbox", 4), ("catopomp", 3)])
def test_resampled_worlds_keep_the_seat_information_state(name: str, players: int) -> None:
    game = pyspiel.load_game(f"nekobako_{name}", {"players": players})
    rng = np.random.default_rng(2)
    state = game.new_initial_state()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = 0
    while not state.is_terminal() and checked < 40:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        seat = state.current_player()
        world = state.resample_from_infostate(seat, sampler)
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.observation_tensor(seat) == state.observation_tensor(seat)
        assert world.information_state_tensor(seat) == state.information_state_tensor(seat)
        assert world.legal_actions() == state.legal_actions()
        checked += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked == 40


@pytest.mark.parametrize("name", ["catbox", "catopomp", "shutbox"])
def test_openspiel_ismcts_bot_plays(name: str) -> None:
    game = pyspiel.load_game(f"nekobako_{name}", {"players": 3})
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, 0.7, 30, random_state=rng, allow_inconsistent_action_sets=True)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal() and moves < 6:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves == 6


def test_a_world_resampled_in_the_spare_phase_reveals_the_faces_when_it_closes() -> None:
    """Seat 1 chose its spare face and seat 0 has not: a resampled world reads seat 1's choice as
    `spare ?`, as the real game does, and once seat 0 chooses it reads the world's face, as the
    view then does, in the string and the codes (no `spare ?` carried over from before)."""
    import scenario

    game = pyspiel.load_game("nekobako_catopomp", {"players": 2, "hand_size": 5})
    actions = [*scenario.CATOPOMP_ROUND_1, *scenario.CATOPOMP_ROUND_2, "deal 1 2 3 4 5 | 6 7 8 9 10", "dice 3"]
    engine = scenario.run("catopomp", 2, [*actions, "1: spare 2"], hand_size=5)
    state = openspiel.NekobakoState(game, engine, open_entries=len(engine.history))  # lines from the start
    enc = game.encoding
    assert state.information_state_string(0).splitlines()[-1] == "1: spare ?"
    world = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.information_state_string(0) == state.information_state_string(0)
    assert world.information_state_tensor(0) == state.information_state_tensor(0)
    for one in (state, world):
        one.apply_action(enc.ids["spare 5"])
    face = world.p.engine.spare[1]
    for one, theirs in ((state, 2), (world, face)):
        entries = [line for line in one.information_string(0).splitlines() if not line.startswith("* ")]
        assert entries[-2:] == ["0: spare 5", f"1: spare {theirs}"] and "1: spare ?" not in entries
        codes = one.p.codes(enc, 0, 0)
        assert codes[-4:] == [1, enc.ids["spare 5"] + 1, 2, enc.ids[f"spare {theirs}"] + 1]
    assert world.information_string(0).splitlines()[:-4] == state.information_string(0).splitlines()[:-4]
