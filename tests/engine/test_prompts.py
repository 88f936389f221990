"""Every view says what to do now (`prompt`) and how the game is won (`goal`), as messages of the
game's own catalogue in English and Japanese (docs/views.md)."""

from __future__ import annotations

import random

import pytest

from nekobako.engine import CHANCE, get_game, random_step

TABLES = [("shutbox", 1, {}), ("shutbox", 3, {"simultaneous": True}), ("catbox", 2, {}), ("catbox", 4, {})]
TABLES += [("catopomp", 2, {}), ("catopomp", 3, {"casual": True})]


def words(game, message, lang: str) -> str:
    return game.describe_prompt(message, lang, ["Ann", "Bob", "Cy", "Dee"])


@pytest.mark.parametrize(("name", "players", "options"), TABLES)
def test_every_seat_is_told_what_to_do_in_both_languages(name: str, players: int, options: dict) -> None:
    game = get_game(name)
    rng = random.Random(7)
    seen = set()
    for _ in range(3):
        state = game.new_game(players, options)
        while not state.is_over():
            for seat in [None, *range(players)]:
                view = state.view(seat)
                prompt = view["prompt"]
                assert view["goal"]["kind"] in game.messages
                acting = seat is not None and bool(view["legal"])
                if state.to_move == (CHANCE,):
                    assert prompt is None
                    continue
                assert prompt is not None or (name == "shutbox" and not acting)
                if prompt is None:
                    continue
                assert prompt["kind"] in game.messages, prompt
                # a seat with something to do is told to do it; every other seat is told who acts
                assert prompt["kind"].startswith("do_") == acting, (prompt, seat, view["to_move"])
                en, ja = words(game, prompt, "en"), words(game, prompt, "ja")
                assert en != ja and "{" not in en + ja
                seen.add(prompt["kind"])
            random_step(state, rng)
        assert state.view(0)["prompt"] is None
    assert any(k.startswith("do_") for k in seen) and any(not k.startswith("do_") for k in seen)
