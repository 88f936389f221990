"""Train the `learned` level's policy for one table: `python -m nekobako.bots.learned.train GAME
--players N` (needs the `train` extra, `pip install nekobako[train]`, for torch).

1. Self-play (`selfplay.play`): `--games` games in shards of 25, shard k seeded
   `seed * 100000 + k` and kept in `--data` (a shard already there is reused, so an interrupted
   run resumes and a rerun only trains). The teacher is the compiled `ismcts` at `--iterations`
   for the card games, the exact solver (`optimal`) for Shut the Box; `--teacher greedy` imitates
   `greedy` instead (its move as the target; shards named `…_greedy_k`), a start for fine-tuning.
2. Distillation: the network of `network.py` learns the teacher's policy (cross-entropy against
   the root's visit shares, over the legal ids only), with Adam, `--epochs` passes, the last shard
   held out to report agreement with the teacher.
3. The weights are written in float16 to `--out` (default: the package's shipped file).

The card games' shipped files then go through a second stage, `finetune.py` (policy gradient
against `greedy`, started from this stage's file): distillation alone left them below `greedy`.

Seeded throughout (torch on one thread): the same command gives the same file.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import numpy as np

from ...engine import get_game
from ...engine.encoding import encoding_for
from . import WEIGHTS_DIR, weights_name
from .network import Policy, action_inputs, fingerprint
from .selfplay import play

SHARD_GAMES = 25


def shard_path(data: Path, game: str, players: int, iterations: int, k: int, teacher: str = "ismcts") -> Path:
    if teacher == "greedy":
        return data / f"{game}_{players}_greedy_{k}.npz"
    return data / f"{game}_{players}_{iterations}_{k}.npz"


def generate(
    game: str, players: int, games: int, iterations: int, seed: int, data: Path, teacher: str = "ismcts"
) -> list[Path]:
    data.mkdir(parents=True, exist_ok=True)
    paths = []
    for k in range(-(-games // SHARD_GAMES)):
        path = shard_path(data, game, players, iterations, k, teacher)
        if not path.exists():
            start = time.perf_counter()
            shard = play(game, players, SHARD_GAMES, seed * 100_000 + k, iterations, teacher_name=teacher)
            tmp = path.with_suffix(".tmp.npz")
            np.savez_compressed(tmp, **shard.arrays())  # type: ignore[arg-type]
            tmp.replace(path)
            print(f"shard {k}: {len(shard.obs)} positions in {time.perf_counter() - start:.0f} s", flush=True)
        paths.append(path)
    return paths


def load(paths: list[Path]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Observations, and the legal ids / target weights / owning position of every (position, id)."""
    obs, ids, weights, owner = [], [], [], []
    base = 0
    for path in paths:
        with np.load(path) as d:
            obs.append(d["obs"])
            ids.append(d["ids"])
            weights.append(d["weights"])
            counts = np.diff(d["start"])
            owner.append(base + np.repeat(np.arange(len(counts)), counts))
            base += len(counts)
    return np.concatenate(obs), np.concatenate(ids), np.concatenate(weights), np.concatenate(owner)


def build_net(size: int, features: int, hidden: int) -> Any:
    """The torch twin of `network.py`'s network (layer names map to its arrays in `to_arrays`)."""
    import torch

    return torch.nn.ModuleDict(
        {
            "l1": torch.nn.Linear(size, hidden),
            "l2": torch.nn.Linear(hidden, hidden),
            "l3": torch.nn.Linear(hidden, hidden),
            "la": torch.nn.Linear(features, hidden),
            "u": torch.nn.Linear(features, 1, bias=False),
        }
    )


def scorer(net: Any, mean: np.ndarray, scale: np.ndarray, inputs: Any, dropout: float = 0.0) -> Any:
    """Observations (batch × size) → logits over every action id, as `Policy.logits` computes them."""
    import torch

    mean_t, scale_t = torch.from_numpy(mean), torch.from_numpy(scale)
    drop = torch.nn.Dropout(dropout)

    def logits(x: torch.Tensor) -> torch.Tensor:
        x = torch.clamp((x - mean_t) / scale_t, -10, 10)
        z = net["l3"](drop(torch.relu(net["l2"](drop(torch.relu(net["l1"](x)))))))
        g = torch.relu(net["la"](inputs))
        return z @ g.T + net["u"](inputs).squeeze(1)

    return logits


def to_arrays(net: Any, mean: np.ndarray, scale: np.ndarray) -> dict[str, np.ndarray]:
    def arr(t: Any) -> np.ndarray:
        return t.detach().numpy().astype(np.float32)

    return {
        "mean": mean.astype(np.float32),
        "scale": scale.astype(np.float32),
        "W1": arr(net["l1"].weight),
        "b1": arr(net["l1"].bias),
        "W2": arr(net["l2"].weight),
        "b2": arr(net["l2"].bias),
        "W3": arr(net["l3"].weight),
        "b3": arr(net["l3"].bias),
        "Wa": arr(net["la"].weight).T.copy(),
        "ba": arr(net["la"].bias),
        "u": arr(net["u"].weight)[0],
    }


def load_net(policy: Policy) -> Any:
    """A distilled policy's arrays back into `build_net`'s modules, to fine-tune them."""
    import torch

    a = policy.arrays
    net = build_net(a["W1"].shape[1], a["Wa"].shape[0], a["W3"].shape[0])
    with torch.no_grad():
        for layer, w, b in (("l1", "W1", "b1"), ("l2", "W2", "b2"), ("l3", "W3", "b3")):
            net[layer].weight.copy_(torch.from_numpy(a[w]))
            net[layer].bias.copy_(torch.from_numpy(a[b]))
        net["la"].weight.copy_(torch.from_numpy(a["Wa"].T.copy()))
        net["la"].bias.copy_(torch.from_numpy(a["ba"]))
        net["u"].weight.copy_(torch.from_numpy(a["u"][None, :]))
    return net


def train(
    game: str,
    players: int,
    paths: list[Path],
    hidden: int,
    epochs: int,
    seed: int,
    lr: float = 2e-3,
    dropout: float = 0.0,
    sharpen: float = 1.0,
) -> tuple[Policy, float]:
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    options = get_game(game).options({}, players)
    enc = encoding_for(game, players, options)
    held = paths[-1:] if len(paths) > 1 else []
    obs, ids, weights, owner = load(paths[:-1] if held else paths)
    mean = obs.mean(0)
    scale = np.maximum(obs.std(0), 0.05)
    n, size = obs.shape
    num = enc.num_actions
    target = np.zeros((n, num), np.float32)
    target[owner, ids] = weights**sharpen
    target /= target.sum(1, keepdims=True)
    legal = np.zeros((n, num), bool)
    legal[owner, ids] = True

    inputs = torch.from_numpy(action_inputs(enc))
    net = build_net(size, inputs.shape[1], hidden)
    logits = scorer(net, mean, scale, inputs, dropout)

    def agreement(x: np.ndarray, t: np.ndarray, m: np.ndarray) -> float:
        net.eval()
        with torch.no_grad():
            out = logits(torch.from_numpy(x)).masked_fill(~torch.from_numpy(m), -1e9)
            return float((out.argmax(1).numpy() == t.argmax(1)).mean())

    opt = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=1e-5)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, epochs)
    x_all, t_all, m_all = torch.from_numpy(obs), torch.from_numpy(target), torch.from_numpy(legal)
    gen = torch.Generator().manual_seed(seed)
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(n, generator=gen)
        total = 0.0
        for i in range(0, n, 256):
            batch = order[i : i + 256]
            out = logits(x_all[batch]).masked_fill(~m_all[batch], -1e9)
            loss = -(t_all[batch] * torch.log_softmax(out, 1)).sum(1).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(batch)
        sched.step()
        print(f"epoch {epoch + 1}/{epochs}: loss {total / n:.4f}", flush=True)
    score = agreement(obs[:5000], target[:5000], legal[:5000])
    if held:
        hobs, hids, hweights, howner = load(held)
        ht = np.zeros((len(hobs), num), np.float32)
        ht[howner, hids] = hweights
        hm = np.zeros((len(hobs), num), bool)
        hm[howner, hids] = True
        score = agreement(hobs, ht, hm)
    print(f"agreement with the teacher's first choice ({'held-out' if held else 'training'}): {score:.3f}")

    return Policy(game, players, fingerprint(enc), to_arrays(net, mean, scale), "trained"), score


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m nekobako.bots.learned.train", description=__doc__)
    parser.add_argument("game", choices=("catbox", "catopomp", "shutbox"))
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, default=1000, help="self-play games (shards of 25)")
    parser.add_argument("--iterations", type=int, default=2000, help="the ismcts teacher's iterations a move")
    parser.add_argument(
        "--teacher",
        choices=("ismcts", "greedy"),
        default="ismcts",
        help="ismcts (optimal for Shut the Box), or greedy to imitate it",
    )
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--data", type=Path, default=Path("selfplay"), help="folder of self-play shards")
    parser.add_argument("--out", type=Path, default=None, help="weights file (default: the shipped one)")
    args = parser.parse_args(argv)
    iterations = 0 if args.game == "shutbox" else args.iterations
    paths = generate(args.game, args.players, args.games, iterations, args.seed, args.data, args.teacher)
    policy, _ = train(args.game, args.players, paths, args.hidden, args.epochs, args.seed)
    out = args.out or Path(__file__).parent / WEIGHTS_DIR / weights_name(args.game, args.players)
    out.parent.mkdir(parents=True, exist_ok=True)
    policy.save(out)
    print(f"wrote {out} ({out.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
