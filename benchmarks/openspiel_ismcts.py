"""Peer comparison: our `ismcts` against OpenSpiel's `ISMCTSBot` on 4-player Cat in the Box, at
the same time per move (docs/strength.md).

Both play through the OpenSpiel game `nekobako_catbox`: our bot reads the seat's view (as
everywhere), OpenSpiel's bot searches with `resample_from_infostate` (our `determinize`) and
random rollouts to the end of the game, its own defaults. Our bot gets `--seconds` per move; the
OpenSpiel bot gets a number of simulations calibrated first so that its mean time per move is
the same. Seats alternate (ours at 0 and 2 in even games, at 1 and 3 in odd ones).

    .venv/bin/python benchmarks/openspiel_ismcts.py --games 40 --seconds 0.1 --json out.json

`--iterations N` is the same-budget comparison instead: both bots get N iterations (simulations)
a move, and OpenSpiel's bot rolls out with our rollout (`SameRollout`: random play to the end of
the round, our margin value in [0, 1], as `ismcts` does), so only the search differs; time is not
equal there (OpenSpiel's Python bot is far slower per simulation).

    .venv/bin/python benchmarks/openspiel_ismcts.py --games 20 --iterations 100 --players 2
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from nekobako.bots.ismcts import ISMCTSBot as OurBot
from nekobako.rl import openspiel
from nekobako.sim.stats import wilson


class SameRollout(mcts.Evaluator):
    """OpenSpiel's evaluator with our `ismcts` rollout and value: random play from the engine state
    to the end of the current round, each seat's margin value in [0, 1] (a finished game: returns)."""

    def __init__(self, seed: int):
        self.bot = OurBot("catbox", iterations=1, kernel=False)
        self.rng = random.Random(seed)

    def evaluate(self, state: pyspiel.State) -> np.ndarray:
        engine = state.p.engine.clone()
        rounds = len(engine.round_scores())
        return np.array(self.bot._rollout(engine, rounds, self.bot.horizon == "round", self.rng))

    def prior(self, state: pyspiel.State) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def their_bot(game: pyspiel.Game, simulations: int, seed: int, same_rollout: bool = False) -> ismcts.ISMCTSBot:
    rng = np.random.RandomState(seed)
    evaluator = SameRollout(seed) if same_rollout else mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    return ismcts.ISMCTSBot(game, evaluator, 0.7, simulations, random_state=rng, allow_inconsistent_action_sets=True)


def chance(state: pyspiel.State, rng: np.random.RandomState) -> None:
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(actions, p=probs)))


def calibrate(game: pyspiel.Game, seconds: float, seed: int) -> tuple[int, float]:
    """Simulations giving OpenSpiel's bot `seconds` per move, from timed moves of a probe game."""
    probe, rng = 50, np.random.RandomState(seed)
    bot = their_bot(game, probe, seed)
    state = game.new_initial_state()
    spent = moves = 0.0
    while moves < 24 and not state.is_terminal():
        chance(state, rng)
        if len(state.legal_actions()) > 1:
            start = time.perf_counter()
            action = bot.step(state)
            spent += time.perf_counter() - start
            moves += 1
        else:
            action = state.legal_actions()[0]
        state.apply_action(action)
    per_simulation = spent / moves / probe
    return max(1, round(seconds / per_simulation)), 1 / per_simulation


def play(
    game: pyspiel.Game, index: int, seconds: float, simulations: int, seed: int, iterations: int | None = None
) -> dict:
    n = game.num_players()
    ours_at = tuple(s for s in range(n) if s % 2 == index % 2)
    if iterations is None:
        ours = OurBot("catbox", seconds=seconds)
        theirs = their_bot(game, simulations, seed + index)
    else:  # the same budget: iterations, rollout horizon and value
        ours = OurBot("catbox", iterations=iterations)
        theirs = their_bot(game, iterations, seed + index, same_rollout=True)
    rng = np.random.RandomState(seed + index)
    py_rng = random.Random(seed + index)
    state = game.new_initial_state()
    enc = game.encoding
    time_used = {"ours": 0.0, "theirs": 0.0}
    moves = {"ours": 0, "theirs": 0}
    iterations = 0
    while True:
        chance(state, rng)
        if state.is_terminal():
            break
        seat = state.current_player()
        legal = state.legal_actions()
        side = "ours" if seat in ours_at else "theirs"
        start = time.perf_counter()
        if len(legal) == 1:
            action = legal[0]
        elif side == "ours":
            engine = state.p.engine
            action = enc.action_id(ours.choose(engine.view(seat), engine.legal_actions(seat), py_rng))
            iterations += ours.last_iterations
        else:
            action = theirs.step(state)
        if len(legal) > 1:
            time_used[side] += time.perf_counter() - start
            moves[side] += 1
        state.apply_action(action)
    returns = state.returns()
    scores = state.p.engine.scores()
    return {
        "ours_at": list(ours_at),
        "ours": sum(returns[s] for s in ours_at),
        "theirs": sum(returns[s] for s in range(n) if s not in ours_at),
        "ours_points": sum(scores[s] for s in ours_at) / len(ours_at),
        "theirs_points": sum(scores[s] for s in range(n) if s not in ours_at) / (n - len(ours_at)),
        "time": time_used,
        "moves": moves,
        "our_iterations": iterations,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--iterations", type=int, help="the same-budget comparison: iterations a move for both")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    openspiel.register()
    game = pyspiel.load_game("nekobako_catbox", {"players": args.players})
    if args.iterations is None:
        simulations, rate = calibrate(game, args.seconds, args.seed)
        print(f"OpenSpiel ISMCTS: {rate:.1f} simulations/s → {simulations} simulations per move", file=sys.stderr)
    else:
        simulations, rate = args.iterations, 0.0
    games = []
    for index in range(args.games):
        games.append(play(game, index, args.seconds, simulations, args.seed * 1000, args.iterations))
        ours = sum(g["ours"] for g in games)
        share = ours / len(games)
        print(f"game {index + 1}/{args.games}: our side has won {share:.1%} so far", file=sys.stderr)
    n = len(games)
    ours = sum(g["ours"] for g in games)  # our two seats' share of each game's win, 0…1
    low, high = wilson(ours, n)
    our_moves = sum(g["moves"]["ours"] for g in games)
    their_moves = sum(g["moves"]["theirs"] for g in games)
    result = {
        "games": n,
        "players": args.players,
        "seconds_per_move": None if args.iterations else args.seconds,
        "iterations_per_move": args.iterations,
        "openspiel_simulations_per_move": simulations,
        "openspiel_simulations_per_second": rate,
        "ours_games_won": ours / n,
        "ours_interval": [low, high],
        "theirs_games_won": sum(g["theirs"] for g in games) / n,
        "ours_mean_points": sum(g["ours_points"] for g in games) / n,
        "theirs_mean_points": sum(g["theirs_points"] for g in games) / n,
        "ours_seconds_per_move": sum(g["time"]["ours"] for g in games) / our_moves,
        "theirs_seconds_per_move": sum(g["time"]["theirs"] for g in games) / their_moves,
        "ours_iterations_per_second": sum(g["our_iterations"] for g in games) / sum(g["time"]["ours"] for g in games),
        "seed": args.seed,
    }
    print(json.dumps(result, indent=2))
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"summary": result, "games": games}, out, indent=1)


if __name__ == "__main__":
    main()
