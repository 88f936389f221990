"""Deltas between consecutive state messages, as the server makes them (issue 14; not a test,
run by hand):

    .venv/bin/python benchmarks/deltas_speed.py [GAMES] [--against FILE.py]

Plays GAMES (default 20) whole 3-player Cat in the Box games at random, the way the server does
(a clone of the state with one action applied per change), keeps seat 0's view after every change
inside a message shaped like the server's (`view`, `table` with seats and notices), and times
`deltas.diff` between each message and the next: CPU microseconds per message, median of 7 passes.
`--against` times another copy of `deltas.py` (say, `git show main:src/nekobako/server/deltas.py
> /tmp/old.py`) in alternation with this one, so both see the same machine.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from nekobako.engine import get_game
from nekobako.server import deltas
from views_speed import _next

PASSES = 7


def messages(games: int) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(message, next message) pairs of seat 0 over `games` games; the table part is shared
    between versions as the server's is (`LiveTable.detail` keeps its seats and notices)."""
    seats = [{"seat": i, "kind": "human", "name": f"player {i}", "connected": True} for i in range(3)]
    notices = [{"kind": "started", "seat": None, "seq": 0, "text": "The game started."}]
    pairs = []
    for seed in range(games):
        rng = random.Random(seed)
        state = get_game("catbox").new_game(3)
        last = None
        while state.to_move:
            state = _next(state, rng)
            message = {
                "type": "state",
                "seq": len(state.history),
                "view": state.view(0),
                "table": {"seats": seats, "notices": notices, "to_move": list(state.to_move)},
            }
            if last is not None:
                pairs.append((last, message))
            last = message
    return pairs


def load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("deltas_against", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="?", type=int, default=20)
    parser.add_argument("--against", type=Path, default=None, help="another deltas.py to time by turns")
    args = parser.parse_args()
    pairs = messages(max(1, args.games))
    sides = {"this": deltas} | ({str(args.against): load(args.against)} if args.against else {})
    times: dict[str, list[float]] = {name: [] for name in sides}
    for _ in range(PASSES):
        for name, module in sides.items():
            start = time.process_time()
            for old, new in pairs:
                module.diff(old, new)
            times[name].append((time.process_time() - start) / len(pairs) * 1e6)
    for name, values in times.items():
        print(f"{name}: {statistics.median(values):.1f} µs per message ({len(pairs)} messages, median of {PASSES})")


if __name__ == "__main__":
    main()
