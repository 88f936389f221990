"""The RL libraries' own checkers on every game: PettingZoo's `api_test` for every player count,
Gymnasium's `check_env` on every registered env, OpenSpiel's `random_sim_test` (test_openspiel.py)."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import nekobako.rl
from nekobako.engine import game_names, get_game
from nekobako.rl.pettingzoo import env

PLAYER_COUNTS = [(g, p) for g in game_names() for p in range(get_game(g).min_players, get_game(g).max_players + 1)]


@pytest.mark.parametrize(("game", "players"), PLAYER_COUNTS, ids=[f"{g}-{p}p" for g, p in PLAYER_COUNTS])
def test_pettingzoo_api_test(game: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice for Dict observations with action masks
        api_test(env(game, players), num_cycles=300)


@pytest.mark.parametrize("game", game_names())
def test_pettingzoo_seeds_make_games_repeat(game: str) -> None:
    seed_test(lambda: env(game, 3 if game != "shutbox" else 2), num_cycles=50)


@pytest.mark.parametrize("env_id", list(nekobako.rl.GYM_IDS))
def test_gymnasium_check_env(env_id: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's warnings count as failures here
        check_env(gym.make(env_id).unwrapped, skip_render_check=False)


def test_gymnasium_env_plays_whole_games_against_any_level() -> None:
    env_ = gym.make("nekobako/Catopomp-v0", players=3, seat=1, opponents=["random", "greedy"])
    rng = np.random.default_rng(0)
    for seed in range(3):
        obs, info = env_.reset(seed=seed)
        done = False
        while not done:
            assert env_.observation_space.contains(obs)
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, reward, done, _, info = env_.step(action)
        assert reward in (0.0, 0.5)  # Catopomp: everyone but the loser wins


def test_gymnasium_illegal_action_changes_nothing() -> None:
    env_ = gym.make("nekobako/CatInTheBox-v0", opponents="random")
    obs, info = env_.reset(seed=4)
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    again, reward, done, _, info2 = env_.step(illegal)
    assert np.array_equal(obs, again) and reward == -1.0 and not done and info2["illegal"]


def test_gymnasium_refuses_bad_settings() -> None:
    from nekobako.engine import InvalidOptions

    with pytest.raises(InvalidOptions):
        gym.make("nekobako/CatInTheBox-v0", opponents=["greedy"])
    with pytest.raises(InvalidOptions):
        gym.make("nekobako/CatInTheBox-v0", seat=4)
    with pytest.raises(InvalidOptions):
        gym.make("nekobako/CatInTheBox-v0", side="blue")


def test_ansi_render_is_the_terminal_board_of_the_seat_to_move() -> None:
    game = env("catbox", 3, render_mode="ansi")
    game.reset(seed=2)
    text = game.render()
    assert "research board" in text and "Seat 0 ◀" in text  # seat 0 discards first
    gym_env = gym.make("nekobako/ShutTheBox-v0", render_mode="ansi")
    gym_env.reset(seed=1)
    assert "1" in gym_env.render()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gym.make("nekobako/ShutTheBox-v0", render_mode="ansi").unwrapped)
