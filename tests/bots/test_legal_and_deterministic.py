"""Every bot returns one of the legal actions in positions from every phase of every game, and the
same view with the same seed gives the same action."""

from __future__ import annotations

import random

from nekobako.bots import bot_names, make_bot

SMALL = {"ismcts": {"iterations": 40}}


def test_every_bot_plays_legal_actions(game_players: tuple[str, int], position) -> None:
    game, players = game_players
    rng = random.Random(f"{game}{players}")
    for trial in range(8):
        state, seat = position(game, players, rng)
        view = state.view(seat)
        legal = state.legal_actions(seat)
        for level in bot_names(game):
            bot = make_bot(level, game=game, **SMALL.get(level, {}))
            action = bot.choose(view, legal, random.Random(trial))
            assert action in legal, (level, view["history"][-5:], action)


def test_same_view_and_seed_same_action(game_players: tuple[str, int], position) -> None:
    game, players = game_players
    rng = random.Random(f"det{game}{players}")
    for trial in range(4):
        state, seat = position(game, players, rng)
        for level in bot_names(game):
            bot = make_bot(level, game=game, **SMALL.get(level, {}))
            first = bot.choose(state.view(seat), state.legal_actions(seat), random.Random(trial))
            again = make_bot(level, game=game, **SMALL.get(level, {}))
            # a fresh bot and a used bot (warm caches) must agree
            assert again.choose(state.view(seat), state.legal_actions(seat), random.Random(trial)) == first
            assert bot.choose(state.view(seat), state.legal_actions(seat), random.Random(trial)) == first
