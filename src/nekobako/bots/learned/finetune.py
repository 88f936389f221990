"""Second training stage of the `learned` level: policy-gradient fine-tuning of a distilled policy
against `greedy`, `python -m nekobako.bots.learned.finetune GAME --players N` (torch, the `train`
extra).

Distillation (`train.py`) copies a search that is only modestly stronger than `greedy` at three and
four players, and the copy lands below it. This stage plays the student itself: `--games` games,
one seat the student (rotating with the game number) and the others `greedy`, the student
sampling its softmax. Every `--batch` games a REINFORCE step (Adam) pushes up the actions whose
reward-to-go beat the batch's average: the reward is the seat's score minus the other seats'
mean, counted from the decision to the end of the game (tricks and bonuses in Cat in the Box,
soul gems in Catopomp, so a decision is credited only with what followed it), plus `--win` for a
won game (for a game not lost in Catopomp). A small entropy bonus keeps it exploring.
`--baseline index` subtracts, instead of the batch's one average, the batch's average at each
decision index (the student's k-th decision of its game), whose reward-to-go differs by how much
of the game is left: the same expected step, less noise. `--every` writes the file every so many
games, so a long run can be stopped and still leave the file of `--games` at its last write.

The engine is the ordinary Python one and the student plays through `network.Policy`, so what is
trained is exactly what plays. Seeded (torch on one thread): the same command gives the same file.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path
from typing import Any

import numpy as np

from ...engine import CHANCE, get_game
from ...engine.encoding import encoding_for
from . import WEIGHTS_DIR, weights_name
from .network import Policy, action_inputs


def relative(scores: list[float]) -> np.ndarray:
    """Each seat's score minus the mean of the other seats'."""
    s = np.asarray(scores, np.float64)
    return s - (s.sum() - s) / (len(s) - 1)


def episode(
    game: Any,
    enc: Any,
    policy: Policy,
    opponent: Any,
    student: int,
    rng: random.Random,
    gen: np.random.Generator,
    win: float,
) -> tuple[list[np.ndarray], list[np.ndarray], list[int], list[float], float]:
    """One game with the student at seat `student`: its observations, legal ids, chosen index and
    reward-to-go per decision, and its final reward."""
    players = enc.players
    state = game.new_initial_state(players, game.options({}, players))
    obs, legal_ids, chosen, before = [], [], [], []
    out = np.empty(enc.size, np.float32)
    while not state.is_over():
        seat = state.to_move[0]
        if seat == CHANCE:
            state.apply(CHANCE, state.sample_chance(rng))
            continue
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            state.apply(seat, legal[0])
            continue
        if seat != student:
            state.apply(seat, opponent.choose(state.view(seat), legal, rng))
            continue
        enc.observe(state, seat, out)
        ids = np.fromiter((enc.ids[str(a)] for a in legal), np.int64, len(legal))
        scores = policy.logits(out, ids)
        p = np.exp(scores - scores.max())
        k = int(gen.choice(len(legal), p=p / p.sum()))
        obs.append(out.copy())
        legal_ids.append(ids)
        chosen.append(k)
        before.append(float(relative(state.scores())[seat]))
        state.apply(seat, legal[k])
    final = float(relative(state.scores())[student]) + (win if student in state.winners() else 0.0)
    return obs, legal_ids, chosen, [final - b for b in before], final


def advantages(returns: list[float], index: list[int], baseline: str) -> np.ndarray:
    """Each decision's reward-to-go minus a baseline, scaled to unit spread: the batch's mean
    (`batch`) or the batch's mean over the decisions with the same index in their game (`index`)."""
    adv = np.asarray(returns, np.float32)
    if baseline == "batch":  # float32 throughout, as the files fine-tuned before `index` existed
        return (adv - adv.mean()) / (adv.std() + 1e-6)
    if baseline != "index":
        raise ValueError(f"unknown baseline {baseline!r}")
    idx = np.asarray(index, np.int64)
    counts = np.bincount(idx)
    centred = adv - (np.bincount(idx, weights=adv) / counts)[idx]
    return (centred / (centred.std() + 1e-6)).astype(np.float32)


def finetune(
    game_name: str,
    players: int,
    start: Policy,
    games: int,
    seed: int,
    batch: int = 64,
    lr: float = 1e-3,
    entropy: float = 0.01,
    win: float = 2.0,
    sharpen: float = 1.0,
    baseline: str = "batch",
    every: int = 0,
    out: Path | None = None,
) -> Policy:
    import torch

    from .train import load_net, scorer, to_arrays

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    game = get_game(game_name)
    enc = encoding_for(game_name, players, game.options({}, players))
    start.check(enc)
    from ..registry import make_bot

    opponent = make_bot("greedy", game_name)
    arrays = dict(start.arrays)
    for name in ("W3", "b3", "u"):  # every logit times `sharpen`: the same argmax, a surer sampler
        arrays[name] = arrays[name] * sharpen
    start = Policy(start.game, start.players, start.fingerprint, arrays, start.source)
    net = load_net(start)
    mean, scale = start.arrays["mean"], start.arrays["scale"]
    logits = scorer(net, mean, scale, torch.from_numpy(action_inputs(enc)))
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    rng = random.Random(seed)
    gen = np.random.default_rng(seed)
    policy = Policy(start.game, start.players, start.fingerprint, dict(start.arrays), "finetuned")
    policy.prepare(enc)
    clock = time.perf_counter()
    for first in range(0, games, batch):
        obs, ids, chosen, ret, finals = [], [], [], [], []
        index: list[int] = []  # each decision's number within its game (`--baseline index`)
        for g in range(first, min(first + batch, games)):
            o, i, c, r, f = episode(game, enc, policy, opponent, g % players, rng, gen, win)
            obs += o
            ids += i
            chosen += c
            ret += r
            index += range(len(r))
            finals.append(f)
        adv = advantages(ret, index, baseline)
        n = len(obs)
        mask = np.zeros((n, enc.num_actions), bool)
        taken = np.empty(n, np.int64)
        for j, (legal, k) in enumerate(zip(ids, chosen, strict=True)):
            mask[j, legal] = True
            taken[j] = legal[k]
        scored = logits(torch.from_numpy(np.stack(obs))).masked_fill(~torch.from_numpy(mask), -1e9)
        logp = torch.log_softmax(scored, 1)
        picked = logp[torch.arange(n), torch.from_numpy(taken)]
        probs = logp.exp()
        ent = -(probs * logp.masked_fill(~torch.from_numpy(mask), 0.0)).sum(1).mean()
        loss = -(torch.from_numpy(adv) * picked).mean() - entropy * ent
        opt.zero_grad()
        loss.backward()
        opt.step()
        policy = Policy(start.game, start.players, start.fingerprint, to_arrays(net, mean, scale), "finetuned")
        policy.prepare(enc)
        done = min(first + batch, games)
        print(
            f"games {done}/{games}: mean reward {np.mean(finals):+.2f}, entropy {float(ent.detach()):.2f}, "
            f"{time.perf_counter() - clock:.0f} s",
            flush=True,
        )
        if every and out is not None and done % every == 0 and done < games:
            policy.save(out)
    return Policy(start.game, start.players, start.fingerprint, to_arrays(net, mean, scale), "finetuned")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m nekobako.bots.learned.finetune", description=__doc__)
    parser.add_argument("game", choices=("catbox", "catopomp"))
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--start", type=Path, required=True, help="the distilled weights (train.py --out)")
    parser.add_argument("--games", type=int, default=8000)
    parser.add_argument("--batch", type=int, default=64, help="games per policy-gradient step")
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--win", type=float, default=2.0, help="reward for a won game, on top of the score")
    parser.add_argument("--sharpen", type=float, default=1.0, help="scale the start's logits by this first")
    parser.add_argument(
        "--baseline",
        choices=("batch", "index"),
        default="batch",
        help="subtract the batch's mean reward, or its mean at each decision index",
    )
    parser.add_argument(
        "--every", type=int, default=0, help="also write the file every this many games (0: only at the end)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="weights file (default: the shipped one)")
    args = parser.parse_args(argv)
    shipped = Path(__file__).parent / WEIGHTS_DIR / weights_name(args.game, args.players)
    start = Policy.load(args.start)
    out = args.out or shipped
    out.parent.mkdir(parents=True, exist_ok=True)
    policy = finetune(
        args.game,
        args.players,
        start,
        args.games,
        args.seed,
        args.batch,
        args.lr,
        args.entropy,
        args.win,
        args.sharpen,
        args.baseline,
        args.every,
        out,
    )
    policy.save(out)
    print(f"wrote {out} ({out.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
