"""Speed measurements behind `nekobako bench` (and the scripts in `benchmarks/`).

Everything runs in this one process, pinned to one core where the OS allows it, so the figures
say what one core of this machine does; each figure is the median of several repeats. A
measurement that raises is reported as missing, with its reason, instead of failing the run.

* throughput: random playouts through the public API (`new_game`, `legal_actions`, `apply`,
  `sample_chance`, i.e. `engine.random_playout`), in actions applied per second, chance included;
* ISMCTS: iterations per second of `make_bot("ismcts", iterations=1000)` choosing the first
  decision of a round (after the deal);
* solver: seconds to solve Shut the Box from scratch (caches cleared) for 9, 10 and 12 tiles;
* rl: agent-steps per CPU second of the PettingZoo env (`nekobako.rl.pettingzoo`, needs the `rl`
  extra) under a random policy reading the action mask: observation, mask, step, chance. CPU time
  of this process, not wall time, so other work on a shared machine does not lower the figure.
"""

from __future__ import annotations

import contextlib
import os
import platform
import random
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

from ..engine import fill_chance, get_game, random_playout

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


@dataclass(frozen=True)
class Settings:
    repeats: int  # medians of this many measurements
    seconds: float  # playout time per throughput repeat
    ismcts_iterations: int  # search budget per ISMCTS repeat (make_bot's default is 1000)
    solver_repeats: int


FULL = Settings(repeats=5, seconds=1.0, ismcts_iterations=1000, solver_repeats=3)
QUICK = Settings(repeats=1, seconds=0.02, ismcts_iterations=20, solver_repeats=1)


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


# -- measurements ------------------------------------------------------------------------------------
def playout_rate(game: str, players: int, seconds: float, seed: int = 0) -> float:
    """Actions per second of random playouts from new games, for about `seconds`."""
    rules = get_game(game)
    rng = random.Random(seed)
    actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        actions += random_playout(rules.new_game(players), rng)
        now = time.perf_counter()
        if now >= deadline:
            return actions / (now - start)


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

    make_bot("ismcts", game=game, iterations=1).choose(view, legal, random.Random(seed))  # load compiled code
    bot = make_bot("ismcts", game=game, iterations=iterations)
    start = time.perf_counter()
    bot.choose(view, legal, random.Random(seed))
    elapsed = time.perf_counter() - start
    return getattr(bot, "last_iterations", iterations) / elapsed


def solver_seconds(tiles: int) -> float:
    """Seconds to solve Shut the Box from scratch: the solver's memoized tables are dropped first,
    so every repeat measures a full solve."""
    from ..games.shutbox import solver

    for name in dir(solver):
        clear = getattr(getattr(solver, name), "cache_clear", None)
        if callable(clear):
            clear()
    start = time.perf_counter()
    solver.solve(tiles)
    return time.perf_counter() - start


def rl_rate(game: str, players: int, seconds: float, seed: int = 0) -> float:
    """Agent-steps per CPU second of the PettingZoo env: the loop a researcher writes, with a
    uniformly random legal id from the observation's action mask."""
    import numpy as np

    from ..rl.pettingzoo import env as make_env

    env = make_env(game, players)
    rng = random.Random(seed)
    steps = 0
    env.reset(seed=seed)
    start = time.process_time()
    while True:
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return steps / elapsed
        env.reset()


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


def _seeded(measure: Callable[[str, int, Any, int], float], game: str, players: int, amount: Any, seed: int) -> float:
    return measure(game, players, amount, seed)


def _unseeded(measure: Callable[[int], float], tiles: int, _repeat: int) -> float:
    return measure(tiles)


def plan(settings: Settings) -> list[Step]:
    steps = []
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
    return steps


def run(settings: Settings = FULL, on_progress: Callable[[Step, int], None] | None = None) -> dict[str, Any]:
    """Take every measurement; `on_progress(step, n)` reports `n` more repeats done (0 when a
    step starts), for a progress bar.

    The result is the JSON of `nekobako bench --json`: the issue's keys (a missing figure is
    null, with the reason under `missing`), plus `targets`, `pass` and the conditions."""
    report = on_progress or (lambda step, n: None)
    result: dict[str, Any] = {
        "python": python_version(),
        "cpu": cpu_name(),
        "throughput": {game: {str(p): None for p in counts} for game, counts in THROUGHPUT_CASES.items()},
        "ismcts": dict.fromkeys(ISMCTS_CASES),
        "solver": {str(t): None for t in SOLVER_TILES},
        "rl": {game: {str(players): None} for game, players in RL_CASES.items()},
        "targets": {"throughput": dict(THROUGHPUT_TARGETS), "ismcts": dict(ISMCTS_TARGETS), "rl": dict(RL_TARGETS)},
        "pass": {},
        "missing": {},
        "repeats": {
            "throughput": settings.repeats,
            "ismcts": settings.repeats,
            "solver": settings.solver_repeats,
            "rl": settings.repeats,
        },
    }
    with one_core() as core:
        result["core"] = core
        if hasattr(os, "getloadavg"):  # other work on a shared machine shows in every figure
            result["load_before"] = [round(x, 2) for x in os.getloadavg()]
        for step in plan(settings):
            report(step, 0)
            values = []
            try:
                for repeat in range(step.repeats):
                    values.append(step.measure(repeat))
                    report(step, 1)
            except Exception as exc:  # one failing figure must not stop the others
                result["missing"][f"{step.section}.{step.key}"] = f"{type(exc).__name__}: {exc}"
                report(step, step.repeats - len(values))
                continue
            value = statistics.median(values)
            if step.section in ("throughput", "rl"):
                game, players = step.key.split(".")
                result[step.section][game][players] = value
            else:
                result[step.section][step.key] = value
            if step.target is not None:
                result["pass"][f"{step.section}.{step.key}"] = value >= step.target
    return result


def total_repeats(settings: Settings) -> int:
    return sum(step.repeats for step in plan(settings))
