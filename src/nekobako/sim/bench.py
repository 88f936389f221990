"""Speed measurements behind `nekobako bench` (and the scripts in `benchmarks/`).

Everything runs in this one process, pinned to one core where the OS allows it, so the figures
say what one core of this machine does; each figure is the median of several repeats. A
measurement that raises is reported as missing, with its reason, instead of failing the run.

* machine: this machine's speed on one core, greedy Cat in the Box decisions per CPU second
  (`benchmarks/views_speed.py`'s measure, quoted by `benchmarks/load.py`); a figure below its
  target on a machine slower than the one the targets were set on (`REFERENCE_SPEED`) is told
  apart from a slow build (`verdict`: pass, slow_machine, fail);
* throughput: random playouts through the public API (`new_game`, `legal_actions`, `apply`,
  `sample_chance`, i.e. `engine.random_playout`), in actions applied per CPU second, chance included;
* ISMCTS: iterations per second of `make_bot("ismcts", iterations=1000)` choosing the first
  decision of a round (after the deal);
* solver: seconds to solve Shut the Box from scratch (caches cleared) for 9, 10 and 12 tiles;
* rl: agent-steps per CPU second of the PettingZoo env (`nekobako.rl.pettingzoo`, needs the `rl`
  extra) under a random policy reading the action mask: observation, mask, step, chance;
* rl_vector: agent-steps per CPU second of the batched environments (`nekobako.rl.vector`, the
  compiled kernel) at the same tables, self-play over `VECTOR_TABLES` tables under a uniformly
  random legal policy in numpy (every seat's action is an agent-step, as in the PettingZoo loop);
* kernel: random playouts in each game's compiled kernel (`engine.kernel_for`), actions per CPU
  second, against the pure engine at the same table (and for Cat in the Box against the C loop
  `benchmarks/catbox_reference.c` where a source checkout and gcc are here), the first compile
  (a new process with an empty `NUMBA_CACHE_DIR`) and a later process's start-up from that cache.

Rates are in CPU time of this process (other work on a shared machine does not lower them), and
every measure does its first-use work (imports, tables built on first use, a compile) once before
its clock starts: `--quick`'s short samples then measure what the full run measures.
"""

from __future__ import annotations

import contextlib
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from ..engine import CHANCE, fill_chance, get_game, random_playout
from ..i18n import text as say

THROUGHPUT_CASES: dict[str, tuple[int, int]] = {"shutbox": (2, 12), "catbox": (2, 5), "catopomp": (2, 4)}
ISMCTS_CASES: dict[str, int] = {"catbox": 4, "catopomp": 4}
SOLVER_TILES: tuple[int, ...] = (9, 10, 12)
RL_CASES: dict[str, int] = {"shutbox": 2, "catbox": 4, "catopomp": 4}

THROUGHPUT_TARGETS: dict[str, float] = {"shutbox": 500_000, "catbox": 150_000, "catopomp": 50_000}
"""Actions per second, at every player count (issue 7)."""
ISMCTS_TARGETS: dict[str, float] = {"catbox": 2_000}
"""Iterations per second (issue 7 sets one for 4-player Cat in the Box only)."""
RL_TARGETS: dict[str, float] = {"catbox": 20_000, "catopomp": 10_000}
"""PettingZoo agent-steps per second with a random policy (issue 15)."""
VECTOR_TARGETS: dict[str, float] = {"shutbox": 1_000_000, "catbox": 300_000, "catopomp": 100_000}
"""Batched-environment agent-steps per second with a random policy, at `RL_CASES` (issue 28)."""
VECTOR_TABLES = 1024
KERNEL_CASES: dict[str, int] = {"catbox": 4, "catopomp": 4, "shutbox": 2}
KERNEL_TARGETS: dict[str, dict[str, float]] = {
    "catbox": {"ratio_c": 0.6},
    "catopomp": {"ratio_pure": 20.0},
    "shutbox": {"ratio_pure": 20.0},
}
"""Kernel playouts against the C loop or the pure engine (issue 28)."""
STARTUP_TARGET = 1.0
"""Seconds at most for a new process to load a kernel from numba's cache and run it (issue 28)."""
REFERENCE_SPEED = 16_000.0
"""Greedy Cat in the Box decisions per CPU second on one core of the machine the speed targets were
checked on (a quiet 2-core Xeon, 15,312–16,960: docs/deploy.md). A figure that misses its target
but meets it scaled by this machine's speed over this one is `slow_machine`, not `fail`."""
MACHINE_GAMES = 10  # 3-player games per sample of the machine's speed, as load.py


@dataclass(frozen=True)
class Settings:
    repeats: int  # medians of this many measurements
    seconds: float  # playout time per throughput repeat
    ismcts_iterations: int  # search budget per ISMCTS repeat (make_bot's default is 1000)
    solver_repeats: int


FULL = Settings(repeats=5, seconds=1.0, ismcts_iterations=1000, solver_repeats=3)
QUICK = Settings(repeats=1, seconds=0.1, ismcts_iterations=1000, solver_repeats=1)
"""One short sample of the same measures (the same search budget: an iteration's cost grows with
the tree); the full run's first-ever kernel compile is not repeated (tens of seconds)."""


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def python_version() -> str:
    return f"{platform.python_implementation()} {platform.python_version()}"


@contextlib.contextmanager
def one_core() -> Iterator[int | None]:
    """Pin this process to one of its allowed cores for the measurements (restored after)."""
    if not hasattr(os, "sched_getaffinity"):
        yield None
        return
    before = os.sched_getaffinity(0)
    core = min(before)
    try:
        os.sched_setaffinity(0, {core})
    except OSError:
        yield None
        return
    try:
        yield core
    finally:
        os.sched_setaffinity(0, before)


class Unavailable(Exception):
    """A measure that cannot run here (no kernel, no C compiler, no source checkout): its reason,
    worded in the CLI catalogue (`cli.bench.why.<key>`); `str()` is the English (the JSON's)."""

    def __init__(self, key: str, **params: str):
        self.key = key
        self.params = params
        super().__init__(say(f"cli.bench.why.{key}", "en", **params))


# -- measurements ------------------------------------------------------------------------------------
def greedy_rate(games: int = MACHINE_GAMES, players: int = 3) -> float:
    """The machine's speed: greedy Cat in the Box decisions (the seat's view + `choose`) per CPU
    second over `games` whole games (`benchmarks/views_speed.py`'s `greedy_rate`)."""
    from ..bots import make_bot

    clock, decisions, spent = time.process_time, 0, 0.0
    bot = make_bot("greedy", "catbox")
    for seed in range(games):
        rng = random.Random(seed)
        state = get_game("catbox").new_game(players)
        while state.to_move:
            seat = state.to_move[0]
            state = state.clone()
            if seat == CHANCE:
                state.apply(CHANCE, state.sample_chance(rng))
                continue
            start = clock()
            action = bot.choose(state.view(seat), state.legal_actions(seat), rng)
            spent += clock() - start
            decisions += 1
            state.apply(seat, action)
    return decisions / spent


def _machine_rate(repeat: int) -> float:
    if repeat == 0:
        greedy_rate(1)  # first use: imports, the bot's tables
    return greedy_rate()


def playout_rate(game: str, players: int, seconds: float, seed: int = 0) -> float:
    """Actions per CPU second of random playouts from new games, for about `seconds`. One game is
    played before the clock starts: the rules' tables are built on first use (Shut the Box's for a
    tile count take a tenth of a second), which a short sample would otherwise count."""
    rules = get_game(game)
    rng = random.Random(seed)
    random_playout(rules.new_game(players), random.Random(seed))
    actions = 0
    start = time.process_time()
    while True:
        actions += random_playout(rules.new_game(players), rng)
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return actions / elapsed


def round_start(game: str, players: int, seed: int) -> Any:
    """A new game after its first chance steps (start player, deal, dice): a round's first decision."""
    state = get_game(game).new_game(players)
    fill_chance(state, random.Random(seed))
    return state


def ismcts_rate(game: str, players: int, iterations: int, seed: int = 0) -> float:
    """ISMCTS iterations per second on a round's first decision, with a fixed budget: the cost of
    an iteration grows with the tree, so a fixed count keeps figures comparable between runs."""
    from ..bots import make_bot

    state = round_start(game, players, seed)
    seat = state.to_move[0]
    view, legal = state.view(seat), state.legal_actions(seat)
    if len(legal) < 2:
        raise RuntimeError("the first decision is forced; nothing to search")

    make_bot("ismcts", game=game, iterations=10).choose(view, legal, random.Random(seed))  # first use: compiled code
    bot = make_bot("ismcts", game=game, iterations=iterations)
    start = time.process_time()
    bot.choose(view, legal, random.Random(seed))
    elapsed = time.process_time() - start
    return getattr(bot, "last_iterations", iterations) / elapsed


def solver_seconds(tiles: int) -> float:
    """Seconds to solve Shut the Box from scratch: the solver's memoized tables are dropped first,
    so every repeat measures a full solve."""
    from ..games.shutbox import solver

    for name in dir(solver):
        clear = getattr(getattr(solver, name), "cache_clear", None)
        if callable(clear):
            clear()
    start = time.process_time()
    solver.solve(tiles)
    return time.process_time() - start


def rl_rate(game: str, players: int, seconds: float, seed: int = 0) -> float:
    """Agent-steps per CPU second of the PettingZoo env: the loop a researcher writes, with a
    uniformly random legal id from the observation's action mask."""
    import numpy as np

    from ..rl.pettingzoo import env as make_env

    env = make_env(game, players)
    rng = random.Random(seed)

    def episode() -> int:
        steps = 0
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
        return steps

    env.reset(seed=seed)
    episode()  # first use: the encoding's tables, the observation's buffers
    steps = 0
    start = time.process_time()
    while True:
        env.reset()
        steps += episode()
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return steps / elapsed


def random_legal_ids(rng: Any, masks: Any) -> Any:
    """A uniformly random legal id per row of `masks` (0 where nothing is legal), picked among
    the set bits: the cost grows with the legal ids, not with the action space (a random number
    per id of Catopomp's 1,746 would cost more than the kernel's step)."""
    import numpy as np

    counts = np.count_nonzero(masks, axis=1)
    legal = np.flatnonzero(masks)
    if not len(legal):
        return np.zeros(len(counts), np.int64)
    pick = np.cumsum(counts) - counts + (rng.random(len(counts)) * counts).astype(np.int64)
    out = legal[np.minimum(pick, len(legal) - 1)] % masks.shape[1]
    out[counts == 0] = 0
    return out


def vector_rate(game: str, players: int, seconds: float, seed: int = 0) -> float:
    """Agent-steps per CPU second of `VECTOR_TABLES` batched self-play tables (`rl.vector.Tables`)
    under `random_legal_ids`, or `Unavailable` where the game cannot be batched here."""
    from ..engine.kernel import pure_reason

    reason = pure_reason()
    if reason is not None:
        raise Unavailable("kernels_off", reason=reason)
    import numpy as np

    from ..rl.vector import Tables, vector_reason

    if vector_reason(game) is not None:
        raise Unavailable("no_vector", game=game)
    tables = Tables(game, players, VECTOR_TABLES, seed=seed)
    rng = np.random.default_rng(seed)
    tables.step(random_legal_ids(rng, tables.masks))  # first use: the loops compile (or load)
    steps = 0
    start = time.process_time()
    while True:
        for _ in range(10):
            tables.step(random_legal_ids(rng, tables.masks))
        steps += 10 * VECTOR_TABLES
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return steps / elapsed


def _kernel(game: str, players: int) -> Any:
    """The kernel of the default table, or `Unavailable` saying why there is none."""
    from ..engine.kernel import kernel_for, pure_reason

    rules = get_game(game)
    kernel = kernel_for(game, players, rules.options({}, players))
    if kernel is None:
        reason = pure_reason()
        if reason is not None:
            raise Unavailable("kernels_off", reason=reason)
        raise Unavailable("no_kernel", game=game)
    return kernel


def kernel_rate(game: str, players: int, seconds: float, seed: int = 0) -> float:
    """Actions per CPU second of the kernel's random `playout` from the start of the default table
    (a copy of the packed new game each time), for about `seconds`."""
    from ..engine.kernel_rng import new_rng

    kernel = _kernel(game, players)
    exercise_kernel(kernel, game, players)  # the first use compiles (or loads) every function
    start_array = kernel.pack(get_game(game).new_game(players))
    rng = new_rng(seed)
    actions = 0
    start = time.process_time()
    while True:
        for _ in range(20):
            actions += kernel.playout(start_array.copy(), rng, 1_000_000)
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return actions / elapsed


def c_reference_source() -> Path | None:
    """`benchmarks/catbox_reference.c` of the source checkout this package runs from (or of the
    current directory's), read where it lies: the installed package does not ship it."""
    here = Path(__file__).resolve()
    for root in (here.parents[3], Path.cwd()):
        source = root / "benchmarks" / "catbox_reference.c"
        if source.is_file():
            return source
    return None


def c_reference_rate(seconds: float, seed: int = 0) -> float:
    """Actions per CPU second of the C loop of 4-player Cat in the Box playouts (the kernel's
    yardstick), built with `gcc -O2` in a temporary directory; it prints `games actions paradoxes
    points seconds actions/s` for `GAMES S0 S1` (the seed's generator state, as `new_rng`)."""
    from ..engine.kernel_rng import new_rng

    source = c_reference_source()
    if source is None:
        raise Unavailable("no_c_source", file="benchmarks/catbox_reference.c")
    gcc = shutil.which("gcc")
    if gcc is None:
        raise Unavailable("no_gcc", tool="gcc")
    s0, s1 = (int(x) for x in new_rng(seed))
    with tempfile.TemporaryDirectory(prefix="nekobako-bench-") as folder:
        binary = Path(folder) / "catbox_reference"
        built = subprocess.run([gcc, "-O2", "-o", str(binary), str(source)], capture_output=True, text=True)
        if built.returncode != 0:
            raise Unavailable("gcc_failed", tool="gcc", error=built.stderr.strip()[-300:])

        def run(games: int) -> tuple[float, float]:
            proc = subprocess.run(
                [str(binary), str(games), str(s0), str(s1)], capture_output=True, text=True, timeout=300
            )
            fields = proc.stdout.split()
            if proc.returncode != 0 or len(fields) < 6:
                raise Unavailable("c_output", output=f"{proc.stdout.strip()!r} {proc.stderr.strip()!r}")
            return float(fields[4]), float(fields[5])  # CPU seconds, actions per second

        games = 1000
        spent, rate = run(games)
        while spent < seconds:  # enough games for `seconds` of CPU (and a timer that can see them)
            games = int(games * min(100.0, max(2.0, 1.2 * seconds / max(spent, 1e-6))))
            spent, rate = run(games)
        return rate


def exercise_kernel(kernel: Any, game: str, players: int) -> None:
    """Call each compiled function of `kernel` once (compiling it, or loading it from numba's
    cache), through a game from its start to the end."""
    import numpy as np

    from ..engine.kernel import OVER
    from ..engine.kernel_rng import new_rng

    a = kernel.pack(get_game(game).new_game(players))
    out = np.empty(max(kernel.num_actions, 256), dtype=np.int64)
    rng = new_rng(0)
    kernel.to_move(a, out)
    first = True
    while (seat := kernel.first_to_move(a)) == CHANCE:
        if first:
            kernel.chance(a, rng)
            first = False
        else:
            kernel.apply_chance(a, out, kernel.draw_chance(a, rng, out))
    if seat != OVER:
        kernel.apply(a, seat, out[0] if kernel.legal(a, seat, out) else 0)
    if kernel.first_to_move(a) == CHANCE:
        kernel.apply_chance(a, out, kernel.draw_chance(a, rng, out))
    kernel.scores(a, np.empty(players))
    kernel.rounds_done(a)
    kernel.playout(a, rng, 1_000_000)


def _kernel_child(game: str, players: int) -> None:
    """In a new process: CPU seconds from asking for a kernel to having run each of its compiled
    functions once (numba's import, the kernel module, compiling or loading each from the cache).
    CPU time, as every rate here: on a shared machine the wall time is mostly other processes'."""
    start = time.process_time()
    exercise_kernel(_kernel(game, players), game, players)
    print(time.process_time() - start)


def kernel_process_seconds(game: str, players: int, cache: str | None) -> float:
    """`_kernel_child`'s seconds in a new Python process with `NUMBA_CACHE_DIR=cache` (numba's own
    place when None)."""
    import nekobako

    env = dict(os.environ)
    package_root = str(Path(nekobako.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH", "")) if p)
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = cache
    code = f"from nekobako.sim.bench import _kernel_child; _kernel_child({game!r}, {players})"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=900)
    if proc.returncode != 0:
        last = proc.stderr.strip().splitlines()[-1:] or ["no output"]
        raise Unavailable("process", reason=last[0].removeprefix("nekobako.sim.bench.Unavailable: "))
    return float(proc.stdout.split()[-1])


class KernelCache:
    """A fresh `NUMBA_CACHE_DIR` for one run's first-ever compiles, that later start-ups load from."""

    def __init__(self) -> None:
        self.folder: str | None = None  # made by the first compile
        self.compiled: set[tuple[str, int]] = set()

    def compile_seconds(self, game: str, players: int, _repeat: int = 0) -> float:
        if self.folder is None:
            self.folder = tempfile.mkdtemp(prefix="nekobako-numba-")
        seconds = kernel_process_seconds(game, players, self.folder)
        self.compiled.add((game, players))
        return seconds

    def startup_seconds(self, game: str, players: int, _repeat: int = 0) -> float:
        """From this run's cache once it compiled the kernel (the full run), else from numba's own
        place (`--quick`, after `kernel_rate` compiled it there)."""
        folder = self.folder if (game, players) in self.compiled else None
        return kernel_process_seconds(game, players, folder)

    def close(self) -> None:
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)


# -- the whole run ---------------------------------------------------------------------------------
@dataclass
class Step:
    """One figure: where it goes in the JSON, and how to take one measurement of it."""

    section: str
    key: str
    measure: Callable[[int], float]  # repeat index → value
    repeats: int
    unit: str
    target: float | None = None
    lower_is_better: bool = False
    needs: str | None = None  # a step whose figure this one cannot go without (its path)

    @property
    def path(self) -> str:
        return f"{self.section}.{self.key}"


def _seeded(measure: Callable[[str, int, Any, int], float], game: str, players: int, amount: Any, seed: int) -> float:
    return measure(game, players, amount, seed)


def _unseeded(measure: Callable[[int], float], tiles: int, _repeat: int) -> float:
    return measure(tiles)


def _c_seeded(seconds: float, seed: int) -> float:
    return c_reference_rate(seconds, seed)


KERNEL_FIELDS = {
    "kernel": "actions_per_second",
    "pure": "pure_actions_per_second",
    "c": "c_actions_per_second",
    "compile": "compile_seconds",
    "startup": "startup_seconds",
}
"""A kernel step's last key part → its field in `result["kernel"][game][players]`."""


def kernel_steps(settings: Settings, cache: KernelCache) -> list[Step]:
    steps = []
    for game, players in KERNEL_CASES.items():
        base = f"{game}.{players}"
        needs = f"kernel.{base}.kernel"
        steps.append(
            Step(
                "kernel",
                f"{base}.kernel",
                partial(_seeded, kernel_rate, game, players, settings.seconds),
                settings.repeats,
                "actions/s",
            )
        )
        if players not in THROUGHPUT_CASES.get(game, ()):  # else the throughput figure is the engine's
            steps.append(
                Step(
                    "kernel",
                    f"{base}.pure",
                    partial(_seeded, playout_rate, game, players, settings.seconds),
                    settings.repeats,
                    "actions/s",
                    needs=needs,
                )
            )
        if "ratio_c" in KERNEL_TARGETS.get(game, {}):
            steps.append(
                Step("kernel", f"{base}.c", partial(_c_seeded, settings.seconds), settings.repeats, "actions/s")
            )
        if settings is not QUICK:
            steps.append(
                Step(
                    "kernel",
                    f"{base}.compile",
                    partial(cache.compile_seconds, game, players),
                    1,
                    "s",
                    None,
                    True,
                    needs,
                )
            )
        steps.append(
            Step(
                "kernel",
                f"{base}.startup",
                partial(cache.startup_seconds, game, players),
                settings.solver_repeats,
                "s",
                STARTUP_TARGET,
                True,
                needs,
            )
        )
    return steps


def plan(settings: Settings, cache: KernelCache | None = None) -> list[Step]:
    steps = [Step("machine", "greedy", _machine_rate, settings.repeats, "decisions/s")]
    for game, counts in THROUGHPUT_CASES.items():
        for players in counts:
            steps.append(
                Step(
                    "throughput",
                    f"{game}.{players}",
                    partial(_seeded, playout_rate, game, players, settings.seconds),
                    settings.repeats,
                    "actions/s",
                    THROUGHPUT_TARGETS.get(game),
                )
            )
    for game, players in ISMCTS_CASES.items():
        steps.append(
            Step(
                "ismcts",
                game,
                partial(_seeded, ismcts_rate, game, players, settings.ismcts_iterations),
                settings.repeats,
                "iterations/s",
                ISMCTS_TARGETS.get(game),
            )
        )
    for game, players in RL_CASES.items():
        steps.append(
            Step(
                "rl",
                f"{game}.{players}",
                partial(_seeded, rl_rate, game, players, settings.seconds),
                settings.repeats,
                "agent-steps/s",
                RL_TARGETS.get(game),
            )
        )
        steps.append(
            Step(
                "rl_vector",
                f"{game}.{players}",
                partial(_seeded, vector_rate, game, players, settings.seconds),
                settings.repeats,
                "agent-steps/s",
                VECTOR_TARGETS.get(game),
            )
        )
    for tiles in SOLVER_TILES:
        steps.append(
            Step(
                "solver",
                str(tiles),
                partial(_unseeded, solver_seconds, tiles),
                settings.solver_repeats,
                "s",
                lower_is_better=True,
            )
        )
    return steps + kernel_steps(settings, cache or KernelCache())


def verdict(value: float, target: float, lower_is_better: bool, speed: float | None) -> str:
    """`pass`, `fail`, or `slow_machine`: missed, but met once the target is scaled by how much
    slower than `REFERENCE_SPEED` this machine is (`speed`, greedy decisions per CPU second)."""
    met = value <= target if lower_is_better else value >= target
    if met:
        return "pass"
    scale = min(1.0, speed / REFERENCE_SPEED) if speed else 1.0
    if scale < 1.0 and (value <= target / scale if lower_is_better else value >= target * scale):
        return "slow_machine"
    return "fail"


def _empty_kernel() -> dict[str, Any]:
    table: dict[str, Any] = {}
    for game, players in KERNEL_CASES.items():
        fields = dict.fromkeys(
            ["actions_per_second", "pure_actions_per_second", "ratio_pure", "compile_seconds", "startup_seconds"]
        )
        if "ratio_c" in KERNEL_TARGETS.get(game, {}):
            fields.update(c_actions_per_second=None, ratio_c=None)
        table[game] = {str(players): fields}
    return table


def _kernel_ratios(result: dict[str, Any]) -> None:
    """Kernel ÷ engine and kernel ÷ C from the figures of this run, judged against issue 28."""
    for game, players in KERNEL_CASES.items():
        row = result["kernel"][game][str(players)]
        if row["pure_actions_per_second"] is None:
            row["pure_actions_per_second"] = result["throughput"].get(game, {}).get(str(players))
        kernel, pure, c = row["actions_per_second"], row["pure_actions_per_second"], row.get("c_actions_per_second")
        if kernel and pure:
            row["ratio_pure"] = kernel / pure
        if kernel and c:
            row["ratio_c"] = kernel / c
        for field, target in KERNEL_TARGETS.get(game, {}).items():
            value = row.get(field)
            if value is not None:
                path = f"kernel.{game}.{players}.{field}"
                result["pass"][path] = value >= target
                result["verdict"][path] = "pass" if value >= target else "fail"  # ratios: any machine


def run(settings: Settings = FULL, on_progress: Callable[[Step, int], None] | None = None) -> dict[str, Any]:
    """Take every measurement; `on_progress(step, n)` reports `n` more repeats done (0 when a
    step starts), for a progress bar.

    The result is the JSON of `nekobako bench --json`: the issue's keys (a missing figure is
    null, with the reason under `missing`), plus `machine`, `targets`, `pass` (target met),
    `verdict` (pass, slow_machine, fail) and the conditions."""
    report = on_progress or (lambda step, n: None)
    result: dict[str, Any] = {
        "python": python_version(),
        "cpu": cpu_name(),
        "machine": {"greedy_decisions_per_second": None, "reference": REFERENCE_SPEED},
        "throughput": {game: {str(p): None for p in counts} for game, counts in THROUGHPUT_CASES.items()},
        "ismcts": dict.fromkeys(ISMCTS_CASES),
        "solver": {str(t): None for t in SOLVER_TILES},
        "rl": {game: {str(players): None} for game, players in RL_CASES.items()},
        "rl_vector": {game: {str(players): None} for game, players in RL_CASES.items()},
        "kernel": _empty_kernel(),
        "targets": {
            "throughput": dict(THROUGHPUT_TARGETS),
            "ismcts": dict(ISMCTS_TARGETS),
            "rl": dict(RL_TARGETS),
            "rl_vector": dict(VECTOR_TARGETS),
            "kernel": {**{g: dict(t) for g, t in KERNEL_TARGETS.items()}, "startup_seconds": STARTUP_TARGET},
        },
        "pass": {},
        "verdict": {},
        "missing": {},
        "missing_words": {},  # path → [key, params] of a reason of ours, for the table's language
        "repeats": {
            "throughput": settings.repeats,
            "ismcts": settings.repeats,
            "solver": settings.solver_repeats,
            "rl": settings.repeats,
            "rl_vector": settings.repeats,
            "kernel": settings.repeats,
        },
    }
    if settings is QUICK:
        for game, players in KERNEL_CASES.items():
            skipped = Unavailable("quick_compile")
            result["missing"][f"kernel.{game}.{players}.compile"] = str(skipped)
            result["missing_words"][f"kernel.{game}.{players}.compile"] = [skipped.key, skipped.params]
    cache = KernelCache()
    with one_core() as core:
        result["core"] = core
        if hasattr(os, "getloadavg"):  # other work on a shared machine shows in every figure
            result["load_before"] = [round(x, 2) for x in os.getloadavg()]
        try:
            for step in plan(settings, cache):
                _take(step, settings, result, report)
        finally:
            cache.close()
    _kernel_ratios(result)
    return result


def _take(step: Step, settings: Settings, result: dict[str, Any], report: Callable[[Step, int], None]) -> None:
    """Measure one step into `result` (or say under `missing` why not)."""
    report(step, 0)
    reason = result["missing"].get(step.needs) if step.needs else None
    words = result["missing_words"].get(step.needs) if step.needs else None
    values: list[float] = []
    if reason is None:
        try:
            for repeat in range(step.repeats):
                values.append(step.measure(repeat))
                report(step, 1)
        except Unavailable as exc:
            reason, words = str(exc), [exc.key, exc.params]
        except Exception as exc:  # one failing figure must not stop the others
            reason = f"{type(exc).__name__}: {exc}"
    if reason is not None:
        result["missing"][step.path] = reason
        if words is not None:
            result["missing_words"][step.path] = words
        report(step, step.repeats - len(values))
        return
    value = statistics.median(values)
    if step.section == "machine":
        result["machine"]["greedy_decisions_per_second"] = value
    elif step.section == "kernel":
        game, players, part = step.key.split(".")
        result["kernel"][game][players][KERNEL_FIELDS[part]] = value
    elif step.section in ("throughput", "rl", "rl_vector"):
        game, players = step.key.split(".")
        result[step.section][game][players] = value
    else:
        result[step.section][step.key] = value
    if step.target is not None:
        speed = result["machine"]["greedy_decisions_per_second"]
        judged = verdict(value, step.target, step.lower_is_better, speed)
        result["pass"][step.path] = judged == "pass"
        result["verdict"][step.path] = judged


def total_repeats(settings: Settings) -> int:
    return sum(step.repeats for step in plan(settings))
