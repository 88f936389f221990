"""`nekobako.rl.rllib`: the games as RLlib multi-agent envs with action masks, checked by RLlib's own
checker and played to the end under RLlib's turn-based conventions; the masked PPO module; bad
input in the reader's words; and self-play PPO for a few iterations on a local Ray cluster that
listens on loopback only and is gone after (the longer run that must beat `random` is `slow`).

Ray is not imported when this module is collected (the Ray simulation tests, in the same xdist
group, check that they import it first, after setting its environment)."""

from __future__ import annotations

import importlib
import importlib.util
import math
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nekobako.engine import InvalidOptions, NekobakoError, UnknownGame, game_names, get_game

pytestmark = [
    pytest.mark.xdist_group("ray"),
    pytest.mark.skipif(
        importlib.util.find_spec("ray") is None or importlib.util.find_spec("torch") is None,
        reason="RLlib and torch are an extra: pip install 'nekobako[rllib]'",
    ),
]

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_rllib_selfplay.py"
PLAYER_COUNTS = [(g, p) for g in game_names() for p in range(get_game(g).min_players, get_game(g).max_players + 1)]
TABLES = [("shutbox", 2), ("shutbox", 3), ("catbox", 2), ("catbox", 4), ("catopomp", 2), ("catopomp", 4)]


@pytest.fixture(scope="module")
def rllib() -> Any:
    return importlib.import_module("nekobako.rl.rllib")


@pytest.mark.parametrize(("game", "players"), PLAYER_COUNTS, ids=[f"{g}-{p}p" for g, p in PLAYER_COUNTS])
def test_rllibs_own_checker_accepts_every_game_and_player_count(rllib: Any, game: str, players: int) -> None:
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    env = rllib.make_env(game, {"players": players})
    check_multiagent_environments(env)  # reset, one unmasked random action, the shapes of every dict
    assert env.possible_agents == [f"seat_{s}" for s in range(players)]


@pytest.mark.parametrize(("game", "players"), TABLES, ids=[f"{g}-{p}p" for g, p in TABLES])
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1))
def test_whole_games_follow_rllibs_turn_based_conventions(rllib: Any, game: str, players: int, seed: int) -> None:
    """Only the agent to act is observed, its mask is the engine's legal set, every action gets its
    reward before the agent's next observation, and the end pays `State.returns()` to the seats
    that acted; the same seed plays the same game."""

    def play() -> list[tuple[str, int]]:
        env = rllib.make_env(game, {"players": players})
        table = env.table
        rng = np.random.default_rng(seed)
        obs, _ = env.reset(seed=seed)
        acted: set[str] = set()
        moves: list[tuple[str, int]] = []
        while True:
            (agent,) = obs
            seat = int(agent.removeprefix("seat_"))
            assert seat == table.seat
            assert env.observation_spaces[agent].contains(obs[agent])
            legal = sorted(table.encoding.legal_ids(table.state, seat))
            assert np.flatnonzero(obs[agent]["action_mask"]).tolist() == legal
            action = int(rng.choice(legal))
            moves.append((agent, action))
            acted.add(agent)
            obs, rewards, terminateds, truncateds, _ = env.step({agent: action})
            assert truncateds == {"__all__": False}
            if terminateds["__all__"]:
                break
            assert rewards == {agent: 0.0}
            assert terminateds == {"__all__": False}
        returns = table.state.returns()
        assert set(obs) == acted == set(rewards) == set(terminateds) - {"__all__"}
        assert rewards == {a: returns[int(a.removeprefix("seat_"))] for a in acted}
        assert all(env.observation_spaces[a].contains(obs[a]) for a in obs)
        return moves

    assert play() == play()


def test_an_illegal_id_changes_nothing_and_costs_the_seat(rllib: Any) -> None:
    env = rllib.make_env("catbox", {"players": 4, "illegal_reward": -0.5})
    obs, _ = env.reset(seed=7)
    (agent,) = obs
    before = obs[agent]
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    again, rewards, terminateds, _, infos = env.step({agent: illegal})
    assert list(again) == [agent] and rewards == {agent: -0.5} and infos == {agent: {"illegal": True}}
    assert terminateds == {"__all__": False}
    assert np.array_equal(again[agent]["observations"], before["observations"])
    assert np.array_equal(again[agent]["action_mask"], before["action_mask"])


@pytest.mark.parametrize(
    ("config", "error", "en", "ja"),
    [
        ({"game": "chess"}, UnknownGame, "There is no game 'chess'", "ゲーム'chess'はありません"),
        ({"game": "catbox", "players": 9}, InvalidOptions, "2–5 players, not 9", "2〜5人用"),
        ({"game": "catbox", "side": "pink"}, InvalidOptions, "pink", "pink"),
        ({"game": "shutbox", "nonsense": 1}, InvalidOptions, "nonsense", "nonsense"),
    ],
)
def test_a_bad_game_or_option_is_refused_in_the_readers_words(
    rllib: Any, config: dict[str, Any], error: type, en: str, ja: str
) -> None:
    with pytest.raises(error) as caught:
        rllib.NekobakoMultiAgentEnv(config)
    assert en in caught.value.text("en") and ja in caught.value.text("ja")
    if config["game"] != "chess":  # the registered creator and the PPO config refuse it alike
        from ray.tune.registry import ENV_CREATOR, _global_registry

        rllib.register()
        settings = {k: v for k, v in config.items() if k != "game"}
        with pytest.raises(error):
            _global_registry.get(ENV_CREATOR, rllib.ENV_NAMES[config["game"]])(settings)
        with pytest.raises(error):
            rllib.ppo_config(config["game"], settings.pop("players", 2), **settings)
    import ray

    assert not ray.is_initialized(), "refused before Ray started anything"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--game", "chess"], "error: There is no game 'chess'"),
        (["--game", "catbox", "--option", "side=pink", "--lang", "ja"], "エラー："),
        (["--opponents", "random,nobody"], "nobody"),
    ],
)
def test_the_example_refuses_bad_input_with_one_line_and_exit_code_2(args: list[str], words: str) -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.run([sys.executable, str(EXAMPLE), *args], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 2
    assert words in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(("game", "players"), [("catbox", 4), ("catopomp", 4)])
def test_the_masked_module_gives_illegal_ids_no_probability(rllib: Any, game: str, players: int) -> None:
    import torch
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    env = rllib.make_env(game, {"players": players})
    agent = env.possible_agents[0]
    spec = RLModuleSpec(
        module_class=rllib.MaskedPPOModule,
        observation_space=env.observation_spaces[agent],
        action_space=env.action_spaces[agent],
        model_config={"fcnet_hiddens": [32]},
    )
    module = spec.build()
    rows = []
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(1)
    while len(rows) < 40:
        ((agent, seen),) = obs.items()
        rows.append(seen)
        obs, _, terminateds, _, _ = env.step({agent: int(rng.choice(np.flatnonzero(seen["action_mask"])))})
        if terminateds["__all__"]:
            obs, _ = env.reset()
    masks = torch.from_numpy(np.stack([r["action_mask"] for r in rows]))

    def batch() -> dict[str, Any]:
        return {
            Columns.OBS: {
                "observations": torch.from_numpy(np.stack([r["observations"] for r in rows])),
                "action_mask": masks.clone(),
            }
        }

    for forward in (module.forward_inference, module.forward_exploration, module.forward_train):
        logits = forward(batch())[Columns.ACTION_DIST_INPUTS]
        probabilities = torch.softmax(logits.detach(), dim=-1)
        assert float(probabilities[masks == 0].max()) == 0.0
        assert torch.allclose(probabilities[masks == 1].sum() / len(rows), torch.tensor(1.0))
    values = module.compute_values(batch())
    assert values.shape == (len(rows),)


def descendants(root: int) -> set[int]:
    """Every process started under `root` (a Ray driver's cluster: head services and workers)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = set(), [root]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "error: Ray could not start a local cluster"),
        ("ja", "エラー：Ray がローカルクラスタを起動できませんでした"),
    ],
)
def test_the_example_says_so_in_one_line_when_its_cluster_cannot_start(lang: str, words: str, tmp_path: Path) -> None:
    """Ray's temporary folder is a file here, so the example's local cluster cannot start."""
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "RAY_TMPDIR": str(blocked)}
    args = ["--game", "catbox", "--players", "2", "--iterations", "1", "--lang", lang]
    proc = subprocess.run([sys.executable, str(EXAMPLE), *args], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 2, proc.stderr
    [line] = proc.stderr.strip().splitlines()
    assert line.startswith(words) and "Not a directory" in line, line


def listening_addresses(pids: set[int]) -> set[str]:
    """Local addresses of the TCP sockets these processes listen on (`ss`, from iproute2)."""
    out = subprocess.run(["ss", "-ltnpH"], capture_output=True, text=True, check=True).stdout
    return {line.split()[3].rsplit(":", 1)[0] for line in out.splitlines() if any(f"pid={p}," in line for p in pids)}


def test_self_play_ppo_trains_on_a_local_cluster_bound_to_loopback(rllib: Any) -> None:
    """A few PPO iterations of every seat's shared policy, on a 2-CPU cluster on this machine:
    env steps sampled on a Ray worker, losses that are numbers, a policy that plays legal moves
    whole games through against `random`, nothing listening beyond loopback, nothing left after."""
    if os.environ.get("NEKOBAKO_PURE") == "1":
        pytest.skip("the env steps the pure engine either way: trained once, in the pass with the kernels")
    import ray

    started = time.perf_counter()
    small = rllib.Training(env_runners=1, envs_per_runner=2, batch=300, minibatch=150, epochs=2, hidden=(64,))
    config = rllib.ppo_config("catbox", 2, small, seed=3)
    with rllib.local_cluster(2):
        cluster = descendants(os.getpid())
        algo = config.build_algo()
        try:
            results = [algo.train() for _ in range(2)]
            addresses = listening_addresses(descendants(os.getpid()))
            module = algo.get_module(rllib.POLICY)
            strength = rllib.evaluate(module, "catbox", 2, "random", 6, seed=1)
        finally:
            algo.stop()
    assert not ray.is_initialized()
    assert results[-1]["num_env_steps_sampled_lifetime"] >= 2 * 300
    learner = results[-1]["learners"][rllib.POLICY]
    assert math.isfinite(learner["policy_loss"]) and math.isfinite(learner["vf_loss"])
    assert addresses, "the cluster's processes listen somewhere"
    assert addresses <= {"127.0.0.1", "[::ffff:127.0.0.1]", "[::1]"}, addresses
    assert strength.games == 6 and 0.0 <= strength.low <= strength.share <= strength.high <= 1.0
    deadline = time.monotonic() + 30
    while cluster & descendants(os.getpid()) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not cluster & descendants(os.getpid()), "the cluster's processes are gone"
    print(f"smoke training: {time.perf_counter() - started:.1f} s")


@pytest.mark.slow
def test_self_play_ppo_beats_random_at_shut_the_box(rllib: Any) -> None:
    """The documented run, shorter: 2-player Shut the Box, 25 iterations of 2,000 steps, then 400
    games against `random`; the policy must win clearly more than a fair seat's half."""
    config = rllib.ppo_config("shutbox", 2, rllib.Training(batch=2000, minibatch=500), seed=0)
    with rllib.local_cluster(2):
        algo = config.build_algo()
        try:
            for _ in range(25):
                algo.train()
            module = algo.get_module(rllib.POLICY)
        finally:
            algo.stop()
    strength = rllib.evaluate(module, "shutbox", 2, "random", 400, seed=0)
    assert strength.low > 0.5, strength


def test_errors_name_the_family(rllib: Any) -> None:
    """Every refusal above is a NekobakoError, so a caller (the example, a CLI) words it for its reader."""
    with pytest.raises(NekobakoError):
        rllib.make_env("shutbox", {"players": 0})
