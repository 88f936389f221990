"""Convergence on a small research configuration (docs/research.md, *Small research configurations*):
OpenSpiel's tabular CFR and external-sampling MCCFR on a Shut the Box or a Cat in the Box that a
solver walks whole, with `exploitability.nash_conv` (the sum over seats of what a best response
gains; 0 at a Nash equilibrium) after 1, 2, 4, … iterations.

    nice -n 10 .venv/bin/python benchmarks/research_convergence.py --players 2 --tiles 2 --cfr 32 --mccfr 4096
    nice -n 10 .venv/bin/python benchmarks/research_convergence.py --game catbox --cfr 32 --mccfr 4096
"""

from __future__ import annotations

import argparse
import time

import pyspiel
from open_spiel.python.algorithms import cfr, exploitability, external_sampling_mccfr

from nekobako.rl import openspiel


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("shutbox", "catbox"), default="shutbox")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--tiles", type=int, default=2, help="Shut the Box's tiles")
    parser.add_argument("--cfr", type=int, default=32, help="CFR iterations (the table doubles up to it)")
    parser.add_argument("--mccfr", type=int, default=4096, help="external-sampling MCCFR iterations")
    args = parser.parse_args()
    if args.game == "catbox" and args.players != 2:
        parser.error("the small Cat in the Box is for 2 players only (--players 2)")
    openspiel.register()
    if args.game == "shutbox":
        params = {"players": args.players, "tiles": args.tiles, "length": "one", "scoring": "digits"}
    else:  # the small Cat in the Box is for 2 players only
        params = {"players": 2, "side": "small"}
    game = pyspiel.load_game(f"nekobako_{args.game}", params)
    print(f"nekobako_{args.game} {params}")
    print("| algorithm | iterations | NashConv | seconds |")
    print("|---|---|---|---|")
    start = time.process_time()
    solver = cfr.CFRSolver(game)
    for i in range(1, args.cfr + 1):
        solver.evaluate_and_update_policy()
        if i & (i - 1) == 0:
            conv = exploitability.nash_conv(game, solver.average_policy())
            print(f"| CFR | {i} | {conv:.5f} | {time.process_time() - start:.0f} |", flush=True)
    start = time.process_time()
    mccfr = external_sampling_mccfr.ExternalSamplingSolver(game, external_sampling_mccfr.AverageType.SIMPLE)
    done = 0
    step = 64
    while step <= args.mccfr:
        for _ in range(step - done):
            mccfr.iteration()
        done = step
        conv = exploitability.nash_conv(game, mccfr.average_policy())
        print(f"| external-sampling MCCFR | {done} | {conv:.5f} | {time.process_time() - start:.0f} |", flush=True)
        step *= 4


if __name__ == "__main__":
    main()
