"""`greedy` beats `random` clearly in small simulations (seats rotate; fixed seeds)."""

from __future__ import annotations

import random

import pytest

from nekobako.bots import make_bot
from nekobako.engine import get_game, play_out


def play(game: str, levels: list[str], seed: int, options=None) -> list[float]:
    """One game; returns each seat's share of the win."""
    state = get_game(game).new_game(len(levels), options)
    bots = [make_bot(level, game=game) for level in levels]
    rngs = [random.Random(seed * 10 + seat) for seat in range(len(levels))]
    chance = random.Random(seed)
    play_out(state, lambda seat: bots[seat].choose(state.view(seat), state.legal_actions(seat), rngs[seat]), chance)
    return state.returns()


def greedy_share(game: str, players: int, games: int) -> tuple[float, int]:
    """Greedy's mean win share against random opponents, and how often it alone lost."""
    share = 0.0
    lost = 0
    for i in range(games):
        seat = i % players
        levels = ["random"] * players
        levels[seat] = "greedy"
        returns = play(game, levels, seed=i)
        share += returns[seat]
        lost += returns[seat] == 0
    return share / games, lost


@pytest.mark.parametrize(("game", "players", "games", "at_least"), [("shutbox", 2, 120, 0.7), ("catbox", 4, 40, 0.5)])
def test_greedy_wins_far_more_than_its_share(game: str, players: int, games: int, at_least: float) -> None:
    share, _ = greedy_share(game, players, games)
    assert share >= at_least, f"greedy won {share:.0%} of {game}, fair share {1 / players:.0%}"


def test_greedy_catopomp_rarely_loses_to_random() -> None:
    """Catopomp has one loser and shared winners: the fair loser rate at 4 players is 25%."""
    _, lost = greedy_share("catopomp", 4, 60)
    assert lost <= 6, f"greedy lost {lost} of 60 games"
