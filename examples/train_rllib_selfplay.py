"""Self-play PPO with RLlib on a local Ray cluster, then the policy's strength against the bots.

    pip install -e '.[rllib]'
    python examples/train_rllib_selfplay.py                                   # Shut the Box, 2 players
    python examples/train_rllib_selfplay.py --game catbox --players 2 --iterations 100
    python examples/train_rllib_selfplay.py --game shutbox --option tiles=12 --lang ja

One policy plays every seat (`nekobako.rl.rllib.ppo_config`); the env is the registered
`nekobako_<game>` multi-agent env with action masks, its env runners are Ray actors on a cluster
of `--cpus` CPUs started for the run on loopback and stopped after. The report gives the trained
policy's share of wins against each bot level in every other seat (its seat rotating; a fair
seat's share is 1/players) with a 95% Wilson interval. Bad input (an unknown game, option or bot)
is one line in `--lang`'s language and exit code 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any


def option(text: str) -> tuple[str, Any]:
    """`KEY=VALUE`; the value is read as JSON where it is (12, true), else kept as text (purple)."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, not {text!r}")
    try:
        return key, json.loads(value)
    except ValueError:
        return key, value


def refuse(exc: Any, lang: str) -> int:
    """One line on stderr in `lang` (the catalogue's words), and exit code 2."""
    from nekobako.i18n import text

    print(text("cli.label", lang, label=text("cli.error", lang)) + exc.text(lang), file=sys.stderr)
    return 2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="shutbox")
    parser.add_argument("--players", type=int, default=None, help="default: 2 for shutbox, else 4")
    parser.add_argument("--option", type=option, action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--iterations", type=int, default=25)
    parser.add_argument("--batch", type=int, default=2000, help="env steps per training iteration")
    parser.add_argument("--cpus", type=int, default=2)
    parser.add_argument("--env-runners", type=int, default=1)
    parser.add_argument("--opponents", default="random,greedy", help="bot levels to measure against")
    parser.add_argument("--eval-games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", default=None, help="a folder for RLlib's checkpoint")
    parser.add_argument("--lang", choices=["en", "ja"], default="en")
    args = parser.parse_args(argv)

    from nekobako.bots import make_bot
    from nekobako.engine import NekobakoError, check_game_name
    from nekobako.rl.table import Table

    game = args.game
    options = dict(args.option)
    opponents = [name.strip() for name in args.opponents.split(",") if name.strip()]
    try:  # checked before Ray, torch and RLlib load (they take a while)
        check_game_name(game)
        players = (2 if game == "shutbox" else 4) if args.players is None else args.players
        Table(game, players, **options)
        for name in opponents:
            make_bot(name, game)
    except NekobakoError as exc:
        return refuse(exc, args.lang)

    from nekobako.rl import rllib

    training = rllib.Training(env_runners=args.env_runners, batch=args.batch, minibatch=min(500, args.batch))
    config = rllib.ppo_config(game, players, training, seed=args.seed, **options)

    start = time.perf_counter()
    try:
        with rllib.local_cluster(args.cpus):
            algo = config.build_algo()
            for i in range(1, args.iterations + 1):
                result = algo.train()
                steps = int(result["num_env_steps_sampled_lifetime"])
                elapsed = time.perf_counter() - start
                print(f"iteration {i}/{args.iterations}: {steps:,} env steps, {elapsed:,.0f} s", flush=True)
            trained = time.perf_counter() - start
            if args.save:
                algo.save_to_path(args.save)
            module = algo.get_module(rllib.POLICY)
            algo.stop()
    except NekobakoError as exc:  # a cluster that would not start
        return refuse(exc, args.lang)
    setting = ", ".join([f"{players} players", *(f"{k}={v}" for k, v in options.items())])
    print(f"\n{game}, {setting}: self-play PPO, {steps:,} env steps in {trained / 60:.1f} min (wall)", flush=True)
    for name in opponents:
        s = rllib.evaluate(module, game, players, name, args.eval_games, seed=args.seed, **options)
        print(
            f"  against {name:<7} wins {s.share:6.1%}  [{s.low:.1%} – {s.high:.1%}] of {s.games} games"
            f"  (a fair seat: {s.fair:.1%})",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
