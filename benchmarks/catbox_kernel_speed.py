"""Random playouts of Cat in the Box: the compiled kernel against the pure engine and a C loop
(not a test; run by hand, issue 28):

    PYTHONPATH=src .venv/bin/python benchmarks/catbox_kernel_speed.py [seconds per sample]

Pinned to one core (`sim.bench.one_core`; the C program inherits it). Prints medians over 5
samples of actions/s (chance steps count, as in `engine.random_playout`; per second of CPU time)
for every player count, kernel `playout` against `engine.random_playout`; then, at 4 players
(white side, the default), the kernel against `benchmarks/catbox_reference.c`, compiled here with
`gcc -O2` (and `-O2 -march=native`, as numba compiles for this processor) into a temporary
directory and run from the same generator state, samples interleaved with the kernel's. Both draw
the same random numbers in the same order, so they must play the same games: the actions,
paradoxes and final points of each are printed and compared. Target: kernel/C -O2 ≥ 0.6.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np
from numba import njit

from nekobako.engine import random_playout
from nekobako.engine.kernel import OVER, kernel_for, pure_reason
from nekobako.engine.kernel_rng import new_rng
from nekobako.games.catbox import GAME
from nekobako.games.catbox.kernel import DEAL, PARADOX, PHASE, first_to_move, playout, scores
from nekobako.sim.bench import one_core

SAMPLES = 5
SEED = 28
REFERENCE = Path(__file__).with_name("catbox_reference.c")


@njit(cache=True)
def _playouts(start: np.ndarray, rng: np.ndarray, games: int) -> int:
    """`games` playouts from `start`, one generator; actions applied."""
    a = start.copy()
    actions = 0
    for _ in range(games):
        a[:] = start
        actions += playout(a, rng, 1_000_000)
    return actions


@njit(cache=True)
def _counted(start: np.ndarray, rng: np.ndarray, games: int, players: int) -> tuple[int, int, int]:
    """The same games one action at a time (a `playout` of 1 draws what the whole one draws):
    actions, rounds ended by a paradox (the slot holds the last round's until the next deal), and
    the sum of every final score."""
    a = start.copy()
    totals = np.empty(players, dtype=np.float64)
    actions = paradoxes = points = 0
    for _ in range(games):
        a[:] = start
        while first_to_move(a) != OVER:
            if a[PHASE] == DEAL and a[PARADOX] >= 0:
                paradoxes += 1
            actions += playout(a, rng, 1)
        paradoxes += a[PARADOX] >= 0
        scores(a, totals)
        points += int(totals.sum())
    return actions, paradoxes, points


def _median_rate(sample: Callable[[], tuple[int, float]]) -> float:
    """Median over SAMPLES of actions per second; `sample()` gives (actions, CPU seconds)."""
    rates = []
    for _ in range(SAMPLES):
        actions, seconds = sample()
        rates.append(actions / seconds)
    return statistics.median(rates)


def _kernel_sample(start: np.ndarray, seconds: float) -> tuple[int, float]:
    rng = new_rng(SEED)
    actions = 0
    began = time.process_time()
    while (spent := time.process_time() - began) < seconds:
        actions += _playouts(start, rng, 500)
    return actions, spent


def _pure_sample(players: int, seconds: float) -> tuple[int, float]:
    rng = random.Random(SEED)
    actions = 0
    began = time.process_time()
    while (spent := time.process_time() - began) < seconds:
        actions += random_playout(GAME.new_game(players), rng)
    return actions, spent


C_BUILDS = {"C, gcc -O2": ["-O2"], "C, gcc -O2 -march=native": ["-O2", "-march=native"]}
"""The issue's yardstick is `gcc -O2`; numba compiles for this machine's processor (popcnt, tzcnt),
so the C built for it too is the stricter comparison."""


def _compile(folder: str, flags: list[str]) -> str:
    binary = str(Path(folder) / f"catbox_reference{len(flags)}")
    subprocess.run(["gcc", *flags, "-o", binary, str(REFERENCE)], check=True)
    return binary


def _c_run(binary: str, games: int) -> tuple[int, int, int, float]:
    """One run of the C loop: actions, paradoxes, points, CPU seconds."""
    s0, s1 = (int(x) for x in new_rng(SEED))
    words = subprocess.run([binary, str(games), str(s0), str(s1)], check=True, capture_output=True, text=True).stdout
    _, actions, paradoxes, points, seconds, _ = words.split()
    return int(actions), int(paradoxes), int(points), float(seconds)


def main(seconds: float) -> None:
    if (reason := pure_reason()) is not None:
        sys.exit(f"the kernels are off: {reason}")
    starts = {}
    for players in range(GAME.min_players, GAME.max_players + 1):
        kernel = kernel_for("catbox", players, GAME.options({}, players))
        assert kernel is not None
        starts[players] = kernel.pack(GAME.new_game(players))
        _playouts(starts[players], new_rng(SEED), 1)  # compiled (or loaded from the cache) before timing
    pure = {}
    print(f"{'players':>7} {'kernel actions/s':>17} {'pure actions/s':>15} {'kernel/pure':>12}")
    for players, start in starts.items():
        fast = _median_rate(partial(_kernel_sample, start, seconds))
        slow = _median_rate(partial(_pure_sample, players, seconds / 2))
        pure[players] = slow
        print(f"{players:>7} {fast:>17,.0f} {slow:>15,.0f} {fast / slow:>12.1f}")

    start = starts[4]
    games = max(1000, int(seconds * 100_000))  # about `seconds` of C at 12M actions/s
    with tempfile.TemporaryDirectory() as folder:
        binaries = {name: _compile(folder, flags) for name, flags in C_BUILDS.items()}
        rates: dict[str, list[float]] = {name: [] for name in ("kernel", *binaries)}
        runs = {}
        for _ in range(SAMPLES):  # interleaved, so a change in the machine's load hits both alike
            actions, spent = _kernel_sample(start, seconds)
            rates["kernel"].append(actions / spent)
            for name, binary in binaries.items():
                runs[name] = _c_run(binary, games)
                rates[name].append(runs[name][0] / runs[name][3])
    counted = {"kernel": _counted(start, new_rng(SEED), games, 4)} | {n: r[:3] for n, r in runs.items()}
    kernel_rate = statistics.median(rates["kernel"])
    print(f"\n4 players, white side; counts over {games:,} games from seed {SEED}:")
    print(f"{'':>26} {'actions/s':>12} {'kernel/this':>12} {'actions':>11} {'paradoxes':>10} {'points':>9}")
    for name, (actions, paradoxes, points) in counted.items():
        rate = statistics.median(rates[name])
        print(f"{name:>26} {rate:>12,.0f} {kernel_rate / rate:>12.2f} {actions:>11,} {paradoxes:>10,} {points:>9,}")
    print(f"{'pure engine':>26} {pure[4]:>12,.0f} {kernel_rate / pure[4]:>12.0f}")
    same = len(set(counted.values())) == 1
    print(f"the kernel and C played the same games: {'yes' if same else 'NO'} (target: kernel/C -O2 >= 0.6)")
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    with one_core():  # the C program inherits the pinning
        main(float(sys.argv[1]) if len(sys.argv) > 1 else 1.0)
