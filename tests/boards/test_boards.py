"""Board drawings: drawn from a view alone, nothing hidden leaks, odd views still show something."""

from __future__ import annotations

import random

import pytest
from rich.console import Console

from nekobako.boards import render
from nekobako.engine import fill_chance, get_game


def text_of(renderable) -> str:
    console = Console(width=120, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def started(game: str, players: int, seed: int = 3):
    state = get_game(game).new_game(players)
    fill_chance(state, random.Random(seed))
    return state


@pytest.mark.parametrize(("game", "players"), [("catbox", 4), ("catopomp", 3)])
def test_own_hand_shown_to_its_seat_and_to_nobody_else(game, players):
    state = started(game, players)
    hand = state.view(0)["hand"]
    mine = text_of(render(state.view(0), "en", [f"P{s}" for s in range(players)]))
    spectator = text_of(render(state.view(None), "en", [f"P{s}" for s in range(players)]))
    assert "your hand" in mine
    assert " ".join(str(c) for c in hand[:3]) in mine.replace("  ", " ")
    assert "your hand" not in spectator
    assert "plain view" not in mine and "plain view" not in spectator


def test_shutbox_board_shows_open_tiles_and_names():
    state = started("shutbox", 2)
    out = text_of(render(state.view(0), "en", ["Alice", "Bob"]))
    assert "Alice" in out and "Bob" in out
    assert "1 2 3 4 5 6 7 8 9" in out
    ja = text_of(render(state.view(0), "ja", ["Alice", "Bob"]))
    assert "タイル" in ja


def test_a_view_of_unexpected_shape_falls_back_to_a_listing():
    view = {"game": "catbox", "players": 2, "board": "?", "mystery": 42}
    out = text_of(render(view))
    assert "plain view" in out and "mystery" in out and "42" in out
