"""The `learned` level: shipped weights fit today's encodings, it plays from the view alone with
NumPy only (no torch imported), a weights file for another table or game is refused with one
message in the reader's language (exit code 2 on the command line), and, in a slow run, it beats
`greedy` where docs/strength.md says it does. (Legal moves from views and no peeking:
test_legal_and_deterministic.py and test_no_peeking.py run every level of `bot_names`, `learned`
among them.)"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import nekobako
from nekobako.bots import make_bot
from nekobako.bots.learned import WEIGHTS_DIR, shipped_tables, weights_name
from nekobako.bots.learned.network import Policy, fingerprint
from nekobako.engine import CHANCE, InvalidOptions, get_game
from nekobako.engine.encoding import encoding

SOURCE = str(Path(nekobako.__file__).resolve().parents[1])
WEIGHTS = Path(nekobako.__file__).parent / "bots" / "learned" / WEIGHTS_DIR
TABLES = {"shutbox": range(1, 13), "catbox": range(2, 6), "catopomp": range(2, 5)}


def run(*code_or_args: str, cli: bool = False) -> subprocess.CompletedProcess:
    argv = ["-c", "from nekobako.cli import main; main()", *code_or_args] if cli else ["-c", *code_or_args]
    return subprocess.run(
        [sys.executable, *argv],
        capture_output=True,
        text=True,
        timeout=300,
        env={"COLUMNS": "200", "PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8", "PYTHONPATH": SOURCE},
    )


@pytest.mark.parametrize("game", sorted(TABLES))
def test_every_table_has_weights_that_fit_its_encoding(game: str) -> None:
    assert shipped_tables(game) == list(TABLES[game])
    for players in TABLES[game]:
        path = WEIGHTS / weights_name(game, players)
        assert path.stat().st_size < 400_000
        policy = Policy.load(path)
        assert (policy.game, policy.players) == (game, players)
        assert policy.fingerprint == fingerprint(encoding(game, players))


def test_a_weights_file_for_another_table_is_refused() -> None:
    four = str(WEIGHTS / weights_name("catbox", 4))
    bot = make_bot("learned", game="catbox", weights=four)
    bot.check_table(4, {})
    with pytest.raises(InvalidOptions, match=r"does not match .* 3 players: it was trained for .* 4 players"):
        bot.check_table(3, {})
    with pytest.raises(InvalidOptions, match="trained for Cat in the Box, not"):
        make_bot("learned", game="catopomp", weights=four)
    with pytest.raises(InvalidOptions, match="no parameter 'depth'"):
        make_bot("learned", game="catbox", depth=2)


def test_a_file_that_is_not_weights_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    other = tmp_path / "other.npz"
    np.savez(other, meta=np.array('{"format": 1, "game": "catbox", "players": 4}'))
    for path in (bad, other, tmp_path / "missing.npz"):
        with pytest.raises(InvalidOptions, match="is not a weights file"):
            make_bot("learned", game="catbox", weights=str(path))


def test_a_changed_encoding_is_refused(tmp_path: Path) -> None:
    policy = Policy.load(WEIGHTS / weights_name("shutbox", 2))
    policy.fingerprint = "0" * 16  # what a file trained before the encoding changed carries
    path = tmp_path / "old.npz"
    policy.save(path)
    with pytest.raises(InvalidOptions, match="another version of the game's encoding"):
        make_bot("learned", game="shutbox", weights=str(path)).check_table(2, {})


@pytest.mark.parametrize(("lang", "words"), [("en", "does not match"), ("ja", "合いません")])
def test_the_command_line_refuses_a_mismatch_in_one_message(lang: str, words: str) -> None:
    four = str(WEIGHTS / weights_name("catbox", 4))
    proc = run("simulate", "catbox", "-p", "3", "-b", f"learned:weights={four}", "-n", "2", "--lang", lang, cli=True)
    assert proc.returncode == 2, proc.stderr
    assert words in proc.stderr and "Traceback" not in proc.stderr
    proc = run("play", "catbox", "-p", "3", "--bots", f"learned:weights={four}", "--lang", lang, cli=True)
    assert proc.returncode == 2 and words in proc.stderr and "Traceback" not in proc.stderr


def test_play_time_imports_numpy_but_no_deep_learning_library() -> None:
    code = """
import random, sys
from nekobako.bots import make_bot
from nekobako.engine import CHANCE, get_game
rng = random.Random(3)
for name, players in (("catbox", 4), ("catopomp", 3), ("shutbox", 2)):
    state = get_game(name).new_game(players)
    bot = make_bot("learned", game=name)
    while not state.is_over():
        seat = state.to_move[0]
        if seat == CHANCE:
            state.apply(CHANCE, state.sample_chance(rng))
        else:
            legal = state.legal_actions(seat)
            action = bot.choose(state.view(seat), legal, rng)
            assert action in legal
            state.apply(seat, action)
print(sorted(m for m in ("torch", "tensorflow", "jax") if m in sys.modules), "numpy" in sys.modules)
"""
    proc = run(code)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["[]", "True"]


def test_the_policy_scores_from_the_view_alone() -> None:
    """Two positions with equal views get the same action whatever else differs (and the bot
    never sees a state): the views of one seat, replayed, are the bot's only input."""
    game = get_game("catbox")
    rng = random.Random(5)
    state = game.new_game(4)
    bot = make_bot("learned", game="catbox")
    decisions = 0
    while not state.is_over() and decisions < 40:
        seat = state.to_move[0]
        if seat == CHANCE:
            state.apply(CHANCE, state.sample_chance(rng))
            continue
        legal = state.legal_actions(seat)
        view = state.view(seat)
        action = bot.choose(view, legal, random.Random(1))
        assert bot.choose(view, list(legal), random.Random(99)) == action  # no randomness, no state
        decisions += 1
        state.apply(seat, action)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "players", "bots", "check"),
    [
        ("catbox", 2, "learned,greedy", "wins"),
        ("catbox", 4, "learned,greedy,greedy,greedy", "wins"),  # fine-tuned against greedy
        ("catbox", 5, "learned,greedy,greedy,greedy,greedy", "wins"),  # imitation of greedy, fine-tuned
        ("catopomp", 4, "learned,greedy,greedy,greedy", "loses less"),  # fine-tuned against greedy
        ("catopomp", 3, "learned,greedy,greedy", "loses less"),  # 2,000 games: 400 are too few to tell
        ("shutbox", 1, "learned", "shut"),
    ],
)
def test_learned_beats_greedy(game: str, players: int, bots: str, check: str) -> None:
    from nekobako.sim import simulate

    games = {"shutbox": 4000}.get(game, 2000 if (game, players) == ("catopomp", 3) else 400)
    report, _ = simulate(game, players, bots, games=games, seed=11, workers=2)
    row = report["bots"][0]
    if check == "wins":
        assert row["ci95"][0] > 1 / players, row
    elif check == "loses less":  # loses clearly less often than a fair share (docs/strength.md)
        assert row["loss_ci95"][1] < 1 / players, row
    else:
        assert row["shut_rate"] > 0.33, row  # optimal: 35.0% exactly; greedy 34.6% measured


needs_torch = pytest.mark.skipif(
    __import__("importlib").util.find_spec("torch") is None,
    reason="training needs the train extra: pip install 'nekobako[train]'",
)


@needs_torch
def test_fine_tuning_starts_from_the_distilled_network_exactly() -> None:
    """`load_net` and `to_arrays` round-trip a shipped file and the torch twin scores as NumPy
    does: fine-tuning starts from the policy that was distilled and trains what plays."""
    import torch

    from nekobako.bots.learned.train import load_net, scorer, to_arrays

    enc = encoding("catbox", 3)
    policy = Policy.load(WEIGHTS / weights_name("catbox", 3))
    net = load_net(policy)
    a = policy.arrays
    back = to_arrays(net, a["mean"], a["scale"])
    for name, array in back.items():
        assert np.array_equal(array, a[name]), name
    game = get_game("catbox")
    rng = random.Random(3)
    state = game.new_game(3)
    while state.is_chance():
        state.apply(CHANCE, state.sample_chance(rng))
    seat = state.to_move[0]
    out = np.empty(enc.size, np.float32)
    enc.observe(state, seat, out)
    ids = np.array([enc.ids[str(x)] for x in state.legal_actions(seat)])
    policy.prepare(enc)
    from nekobako.bots.learned.network import action_inputs

    torch_logits = scorer(net, a["mean"], a["scale"], torch.from_numpy(action_inputs(enc)))(torch.from_numpy(out[None]))
    assert np.allclose(torch_logits.detach().numpy()[0, ids], policy.logits(out, ids), atol=1e-4)


@needs_torch
def test_a_fine_tuning_run_is_seeded_and_writes_a_file_that_plays(tmp_path: Path) -> None:
    from nekobako.bots.learned.finetune import finetune, relative

    assert relative([3, 1, 2]).tolist() == [1.5, -1.5, 0.0]
    start = Policy.load(WEIGHTS / weights_name("catbox", 2))
    one, two = (finetune("catbox", 2, start, games=4, seed=7, batch=2, sharpen=2.0) for _ in range(2))
    for name in one.arrays:
        assert np.array_equal(one.arrays[name], two.arrays[name]), name
    assert not np.array_equal(one.arrays["W1"], start.arrays["W1"])
    path = tmp_path / "tuned.npz"
    one.save(path)
    done = run("simulate", "catbox", "-p", "2", "-b", f"learned:weights={path},greedy", "-n", "2", "-w", "1", cli=True)
    assert done.returncode == 0, done.stderr


def test_the_index_baseline_centres_each_decision_index_and_batch_is_unchanged() -> None:
    from nekobako.bots.learned.finetune import advantages

    returns = [4.0, 1.0, 2.0, -1.0, 0.0]  # two games: decisions 0, 1, 2 and 0, 1
    index = [0, 1, 2, 0, 1]
    adv = advantages(returns, index, "index")
    # index 0: 4 and -1 around 1.5; index 1: 1 and 0 around 0.5; index 2 alone: 0
    centred = np.array([2.5, 0.5, 0.0, -2.5, -0.5])
    assert np.allclose(adv, centred / centred.std(), atol=1e-5)
    old = np.asarray(returns, np.float32)
    assert np.array_equal(advantages(returns, index, "batch"), (old - old.mean()) / (old.std() + 1e-6))
    with pytest.raises(ValueError):
        advantages(returns, index, "value")


@needs_torch
def test_fine_tuning_with_the_index_baseline_writes_its_checkpoints(tmp_path: Path) -> None:
    """`--every` leaves, at each write, the file a run of that many games gives."""
    from nekobako.bots.learned.finetune import finetune

    start = Policy.load(WEIGHTS / weights_name("catbox", 2))
    path = tmp_path / "tuned.npz"
    finetune("catbox", 2, start, games=4, seed=7, batch=2, baseline="index", every=2, out=path)
    assert path.exists()  # written after 2 games, not at the end (the caller writes that)
    half = finetune("catbox", 2, start, games=2, seed=7, batch=2, baseline="index")
    half.save(tmp_path / "half.npz")
    written, expected = Policy.load(path), Policy.load(tmp_path / "half.npz")
    for name in expected.arrays:
        assert np.array_equal(written.arrays[name], expected.arrays[name]), name
    assert not np.array_equal(written.arrays["W1"], start.arrays["W1"])


def test_greedy_can_be_the_teacher_of_the_self_play(tmp_path: Path) -> None:
    """`--teacher greedy`: the target is greedy's own move, one-hot, in shards of their own name."""
    from nekobako.bots.learned.selfplay import play
    from nekobako.bots.learned.train import shard_path

    shard = play("catbox", 3, 1, seed=5, teacher_name="greedy")
    arrays = shard.arrays()
    assert len(shard.obs) > 10
    assert set(np.unique(arrays["weights"]).tolist()) <= {0.0, 1.0}
    assert np.all(np.add.reduceat(arrays["weights"], arrays["start"][:-1]) == 1.0)
    again = play("catbox", 3, 1, seed=5, teacher_name="greedy").arrays()
    assert all(np.array_equal(arrays[k], again[k]) for k in arrays)
    assert shard_path(tmp_path, "catbox", 3, 500, 2, "greedy").name == "catbox_3_greedy_2.npz"
    assert shard_path(tmp_path, "catbox", 3, 500, 2).name == "catbox_3_500_2.npz"
