"""A later process's start-up from numba's cache (not a test; run by hand, issue 28):

    PYTHONPATH=src .venv/bin/python benchmarks/kernel_startup.py [runs] [OLD_SRC]

CPU seconds of `sim.bench._kernel_child` in a new process, the figure `nekobako bench` reports as
`startup_seconds` (numba's import, the kernel module, each compiled function loaded from the
cache and run once), for every game at the table size of its `kernel` section. With `OLD_SRC` (the
`src` folder of another checkout, e.g. `git worktree add /tmp/old main`), the same child from
that source in the same run, old and new alternating, so both see the same load on a shared
machine. One untimed run of each first fills numba's cache (compiling takes a minute). Medians.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
from pathlib import Path

from nekobako.sim.bench import KERNEL_CASES, STARTUP_TARGET

NEW_SRC = str(Path(__file__).resolve().parents[1] / "src")


def child_seconds(src: str, game: str, players: int) -> float:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["PYTHONPATH"] = src
    code = f"from nekobako.sim.bench import _kernel_child; _kernel_child({game!r}, {players})"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return float(done.stdout.split()[-1])


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    sources = {"new": NEW_SRC}
    if len(sys.argv) > 2:
        sources["old"] = str(Path(sys.argv[2]).resolve())
    print(f"start-up from the cache, CPU s, median of {runs} (target < {STARTUP_TARGET} s)")
    for game, players in KERNEL_CASES.items():
        for src in sources.values():
            child_seconds(src, game, players)  # fills the cache where it is stale
        times: dict[str, list[float]] = {name: [] for name in sources}
        for _ in range(runs):
            for name, src in sources.items():
                times[name].append(child_seconds(src, game, players))
        figures = "  ".join(
            f"{name} {statistics.median(t):.2f} ({' · '.join(f'{x:.2f}' for x in t)})" for name, t in times.items()
        )
        ratio = ""
        if "old" in times:
            ratio = f"  new/old {statistics.median(times['new']) / statistics.median(times['old']):.2f}"
        print(f"{game} {players} p: {figures}{ratio}")


if __name__ == "__main__":
    main()
