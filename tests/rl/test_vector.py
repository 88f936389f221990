"""Batched tables (`nekobako.rl.vector`) against the per-table encodings of `nekobako.rl`.

At every step of random batched games, for every table, the kernel's observation and legal mask
equal `encoding.observe` and `encoding.legal_ids` of the pure state the array unpacks to, at every
player count and option of every game that has a kernel; rewards are `State.returns`. The
Gymnasium vector env is held to Gymnasium's rules for vector envs (1.4 ships no checker for them:
its spaces must be `batch_space` of the single spaces, its outputs those of the library's own
`SyncVectorEnv` in type and shape, same-step autoreset as documented, seeds that repeat, and
the library's vector wrappers must accept it).
"""

from __future__ import annotations

import itertools
import random
import warnings
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nekobako.engine import InvalidOptions, game_names, get_game
from nekobako.engine.kernel import OVER, pure_reason

if (_reason := pure_reason()) is not None:
    pytest.skip(f"the kernels are off: {_reason}", allow_module_level=True)

import nekobako.rl  # registers the ids
from nekobako.rl.vector import NekobakoVectorEnv, Tables, vector_reason

GAMES = [g for g in game_names() if vector_reason(g) is None]
WITHOUT = [g for g in game_names() if vector_reason(g) is not None]
ENV_IDS = {game: env_id for env_id, (game, _) in nekobako.rl.GYM_IDS.items()}


SAMPLED = 12
"""Tables per game where its whole option table is larger (Shut the Box, Catopomp)."""


def _tables(game: str) -> list[tuple[int, dict[str, Any]]]:
    """Every player count with every option combination the game's option table accepts; where
    that is more than `SAMPLED`, `SAMPLED` seeded random ones in which every player count and every
    value of every option appear (each a shuffled column of its values repeated; a combination the
    table refuses is drawn again)."""
    spec = get_game(game)
    counts = list(range(spec.min_players, spec.max_players + 1))
    specs = [o for o in spec.option_specs if o.choices]
    columns: list[list[Any]] = [counts, *(list(o.choices) for o in specs)]
    rows = list(itertools.product(*columns))
    rng = random.Random(game)
    if len(rows) > SAMPLED:
        drawn = [rng.sample(c * -(-SAMPLED // len(c)), SAMPLED) for c in columns]
        rows = list(zip(*drawn, strict=True))
    out = []
    for row in rows:
        for _ in range(100 if len(rows) == SAMPLED else 1):
            players, *values = row
            raw = dict(zip((o.name for o in specs), values, strict=True))
            try:
                out.append((players, spec.options(raw, players).to_json()))
                break
            except InvalidOptions:
                row = (players, *(rng.choice(c) for c in columns[1:]))
    return out


CASES = [(g, p, o) for g in GAMES for p, o in _tables(g)]
CASE_IDS = [
    f"{g}-{p}p-" + "-".join(f"{k}={v}" for k, v in sorted(o.items()) if not isinstance(v, list)) for g, p, o in CASES
]


def _expected(tables: Tables, i: int, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """The per-table encoding of table `i`'s position for `seat`: observation and mask."""
    enc = tables.encoding
    state = tables.state(i)
    obs = np.empty(enc.size, np.float32)
    enc.observe(state, seat, obs)
    mask = np.zeros(enc.num_actions, np.bool_)
    if seat in state.to_move:
        mask[enc.legal_ids(state, seat)] = True
    return obs, mask


def _check_tables(tables: Tables) -> None:
    kernel = tables.kernel
    for i in range(tables.num_tables):
        a = tables.arrays[i]
        assert np.array_equal(kernel.pack(kernel.unpack(a)), a)
        seat = int(tables.seats[i])
        state = tables.state(i)
        if seat == OVER:
            assert tables.seat is not None and state.is_over()
            seat = tables.seat
        else:
            assert state.to_move and seat == state.to_move[0], (i, seat, state.to_move)
            assert tables.seat is None or seat == tables.seat
        obs, mask = _expected(tables, i, seat)
        assert np.array_equal(tables.observations[i], obs), (i, np.flatnonzero(tables.observations[i] != obs))
        assert np.array_equal(tables.masks[i], mask), i


def _random_actions(tables: Tables, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal id per table (0 where nothing is legal: a finished game)."""
    noise = rng.random(tables.masks.shape) + tables.masks
    return np.asarray(noise.argmax(axis=1), np.int64)


@pytest.mark.parametrize(("game", "players", "options"), CASES, ids=CASE_IDS)
@pytest.mark.parametrize("seat", [None, "last"])
def test_observations_and_masks_are_the_encodings_at_every_step(
    game: str, players: int, options: dict[str, Any], seat: str | None
) -> None:
    learner = None if seat is None else players - 1
    tables = Tables(game, players, 5, seat=learner, seed=players, **options)
    rng = np.random.default_rng(players)
    ended = 0
    _check_tables(tables)
    for _ in range(3000):  # until several games have ended (and been started again)
        if ended >= 6 and not (tables.seats == OVER).any():
            break
        before = tables.arrays.copy()
        finished = tables.seats == OVER
        rewards, terminated = tables.step(_random_actions(tables, rng))
        for i in np.flatnonzero(terminated):
            ended += 1
            if learner is not None:  # next-step: the finished game is still there
                assert list(rewards[i]) == tables.state(int(i)).returns()
            else:  # same-step: 1 split among the winners (a solo game may have none), a new game under way
                assert rewards[i].sum() in (pytest.approx(1.0), 0.0) and not tables.state(int(i)).is_over()
                assert set(rewards[i]) <= {0.0, rewards[i].max()}
        for i in np.flatnonzero(finished):  # the autoreset step: a new game, whatever the action
            assert not terminated[i] and not rewards[i].any() and not tables.illegal[i]
            assert not np.array_equal(tables.arrays[i], before[i]) and tables.masks[i].any()
        assert not tables.illegal.any()
        _check_tables(tables)
    assert ended >= 6


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**64), players=st.integers(2, 5))
def test_a_seed_repeats_the_same_games(seed: int, players: int) -> None:
    game = GAMES[0] if GAMES else pytest.skip("no game has a kernel")
    spec = get_game(game)
    players = min(max(players, spec.min_players), spec.max_players)
    runs = []
    for _ in range(2):
        tables = Tables(game, players, 3, seed=seed)
        rng = np.random.default_rng(seed)
        trace = [tables.observations.copy()]
        for _ in range(30):
            tables.step(_random_actions(tables, rng))
            trace += [tables.observations.copy(), tables.rewards.copy()]
        runs.append(trace)
    assert all(np.array_equal(x, y) for x, y in zip(*runs, strict=True))


@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_id_changes_nothing_and_costs_the_illegal_reward(game: str) -> None:
    players = get_game(game).min_players
    tables = Tables(game, players, 4, seat=0, illegal_reward=-2.5, seed=3)
    before = (tables.arrays.copy(), tables.observations.copy(), tables.masks.copy())
    actions = np.argmin(tables.masks, axis=1)  # a non-legal id on every table
    rewards, terminated = tables.step(actions)
    assert tables.illegal.all() and not terminated.any() and (rewards[:, 0] == -2.5).all()
    for kept, now in zip(before, (tables.arrays, tables.observations, tables.masks), strict=True):
        assert np.array_equal(kept, now)


# -- Gymnasium ---------------------------------------------------------------------------------------
def _play(env: gym.vector.VectorEnv, steps: int, seed: int) -> list[Any]:
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    out: list[Any] = [obs, info["action_mask"]]
    for _ in range(steps):
        mask = info["action_mask"]
        noise = rng.random(mask.shape) + mask
        obs, reward, term, trunc, info = env.step(noise.argmax(axis=1))
        out += [obs, reward, term, trunc, info["action_mask"]]
    return out


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_vector_env_keeps_gymnasiums_rules(game: str) -> None:
    from gymnasium.utils.env_checker import data_equivalence
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector.utils import batch_space

    seat = min(1, nekobako.rl.GYM_IDS[ENV_IDS[game]][1] - 1)  # Shut the Box's id is a solo table
    env = gym.make_vec(ENV_IDS[game], num_envs=3, opponents="random", seat=seat)
    assert isinstance(env, NekobakoVectorEnv)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert env.observation_space == batch_space(env.single_observation_space, 3)
    assert env.action_space == batch_space(env.single_action_space, 3)
    # the library's own vector env over the single env: the same types and shapes at every output
    sync = gym.make_vec(ENV_IDS[game], num_envs=3, vectorization_mode="sync", opponents="random", seat=seat)
    assert sync.single_observation_space == env.single_observation_space
    assert sync.single_action_space == env.single_action_space
    for ours, theirs in zip(_play(env, 5, 0), _play(sync, 5, 0), strict=True):
        assert (type(ours), ours.dtype, ours.shape) == (type(theirs), theirs.dtype, theirs.shape)
    # spaces hold what it returns; a seed repeats; returned arrays are not reused
    assert data_equivalence(_play(env, 80, 7), _play(env, 80, 7))
    obs, info = env.reset(seed=1)
    assert env.observation_space.contains(obs)
    again, *_ = env.step(env.action_space.sample())
    assert obs is not again and not np.shares_memory(obs, again)
    # same-step autoreset: the step that ends a game shows the next one, its observation and mask
    rng = np.random.default_rng(2)
    seen = 0
    for _ in range(400):
        mask = info["action_mask"]
        obs, _reward, term, trunc, info = env.step((rng.random(mask.shape) + mask).argmax(axis=1))
        assert env.observation_space.contains(obs) and not trunc.any()
        assert info["action_mask"].any(axis=1).all()
        assert ("final_obs" in info) == term.any()
        for i in np.flatnonzero(term):
            seen += 1
            assert info["_final_obs"][i] and env.single_observation_space.contains(info["final_obs"][i])
            assert not info["final_info"]["action_mask"][i].any()  # the finished game: nothing is legal
            state = env.tables.state(int(i))
            assert not state.is_over() and seat in state.to_move
            expect = np.zeros(env.single_action_space.n, np.bool_)
            expect[env.tables.encoding.legal_ids(state, seat)] = True
            assert np.array_equal(info["action_mask"][i], expect)
    assert seen
    # the library's vector wrappers take it (they read autoreset_mode) and count its episodes
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        wrapped = gym.wrappers.vector.RecordEpisodeStatistics(env)
        _play(wrapped, 300, 3)
        assert len(wrapped.return_queue) > 0
        # the observation wrappers take next-step autoreset only: it is there for them
        nxt = gym.make_vec(ENV_IDS[game], num_envs=3, opponents="random", seat=seat, autoreset_mode="NextStep")
        assert nxt.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
        assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
        wrapped = gym.wrappers.vector.RecordEpisodeStatistics(gym.wrappers.vector.NormalizeObservation(nxt))
        _play(wrapped, 300, 3)
        assert len(wrapped.return_queue) > 0
    # reset_mask: only the tables asked for start again
    env.reset(seed=5)
    before = env.tables.arrays.copy()
    obs, _ = env.reset(options={"reset_mask": np.array([False, True, False])})
    assert np.array_equal(env.tables.arrays[[0, 2]], before[[0, 2]])
    # a list of seeds seeds each table: equal seeds deal equal games
    obs, _ = env.reset(seed=[9, 9, 4])
    assert np.array_equal(obs[0], obs[1]) and np.array_equal(env.tables.arrays[0], env.tables.arrays[1])
    assert data_equivalence(env.reset(seed=[9, 9, 4])[0], obs)
    env.close()
    sync.close()


@pytest.mark.parametrize("game", GAMES)
def test_make_vec_with_bots_is_the_sync_env_of_nekobako_env(game: str) -> None:
    env = gym.make_vec(ENV_IDS[game], num_envs=2)  # greedy bots, as before the kernels
    assert isinstance(env, gym.vector.SyncVectorEnv)
    env.close()


PATHS = {
    "kernel": {"opponents": "random"},
    "bots": {"opponents": "random" if not GAMES else "greedy"},
    "sync": {"opponents": "random", "vectorization_mode": "sync",
             "vector_kwargs": {"autoreset_mode": gym.vector.AutoresetMode.SAME_STEP}},
}  # fmt: skip


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("env_id", nekobako.rl.GYM_IDS)
def test_a_learner_samples_from_the_mask_through_episode_ends(env_id: str, path: str) -> None:
    """What a learner does with `make_vec` as is: sample each action from `info["action_mask"]`
    (a zero mask would make the probabilities NaN) through several ends of games, on every path."""
    game = nekobako.rl.GYM_IDS[env_id][0]
    if path == "kernel" and game not in GAMES:
        pytest.skip(f"{game} has no kernel")
    env = gym.make_vec(env_id, num_envs=3, **PATHS[path])
    assert env.metadata["autoreset_mode"] == gym.vector.AutoresetMode.SAME_STEP
    _, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    ends = 0
    for _ in range(2000):
        mask = info["action_mask"]
        probs = mask / mask.sum(axis=1, keepdims=True)
        actions = np.array([rng.choice(len(p), p=p) for p in probs])
        _, _, term, trunc, info = env.step(actions)
        assert not info.get("illegal", np.zeros(3, bool)).any()
        ends += int(term.sum() + trunc.sum())
        if ends >= 6:
            break
    assert ends >= 6
    env.close()


def test_bad_arguments_are_refused_in_the_users_language() -> None:
    if not GAMES:
        pytest.skip("no game has a kernel")
    game = GAMES[0]
    players = get_game(game).min_players
    for kwargs, key in (
        ({"seat": players}, "rl.seat"),
        ({"num_tables": 0}, "rl.vector.num_tables"),
        ({"autoreset": "later"}, "rl.vector.autoreset"),
    ):
        args = {"num_tables": 2, **kwargs}
        with pytest.raises(InvalidOptions) as error:
            Tables(game, players, **args)
        assert error.value.message.key == key
        assert error.value.message.text("ja")
    with pytest.raises(InvalidOptions) as error:
        NekobakoVectorEnv(game, players, 2, opponents="greedy")
    assert error.value.message.key == "rl.vector.opponents"
    for kwargs in ({"opponents": "random"}, {"opponents": "greedy"}):
        with pytest.raises(InvalidOptions) as error:
            gym.make_vec(ENV_IDS[game], num_envs=2, autoreset_mode="Disabled", **kwargs)
        assert error.value.message.key == "rl.vector.autoreset"


@pytest.mark.parametrize("game", WITHOUT or ["-"])
def test_a_game_without_a_kernel_is_refused_with_why(game: str) -> None:
    if game == "-":
        pytest.skip("every game has a kernel")
    with pytest.raises(InvalidOptions) as error:
        Tables(game, get_game(game).min_players, 2)
    assert error.value.message.key == "rl.vector.no_kernel"
    assert "kernel" in error.value.message.text("en")
