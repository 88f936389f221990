from __future__ import annotations

import random

import pytest

from nekobako.bots import Bot, bot_names, default_bot, make_bot
from nekobako.engine import InvalidOptions, UnknownGame


def test_levels_by_name() -> None:
    assert bot_names() == ["random", "greedy", "learned", "ismcts", "optimal"]
    assert all("learned" in bot_names(game) for game in ("shutbox", "catbox", "catopomp"))
    assert "optimal" not in bot_names("catbox")
    assert bot_names("catbox")[0] == "random"
    assert "ismcts" in bot_names("catopomp")


@pytest.mark.parametrize("bad", ["", "alphazero", "optimal"])
def test_unknown_or_unavailable_levels_are_refused(bad: str) -> None:
    with pytest.raises(InvalidOptions):
        make_bot(bad, game="catbox")


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(InvalidOptions, match="no parameter"):
        make_bot("ismcts", game="shutbox", depth=3)
    with pytest.raises(InvalidOptions, match="iterations"):
        make_bot("ismcts", game="shutbox", iterations=0)
    with pytest.raises(InvalidOptions, match="takes no parameters"):
        make_bot("random", game="shutbox", iterations=5)
    with pytest.raises(UnknownGame, match="no game 'chess'"):
        bot_names("chess")


def test_random_bot_is_a_bot_and_picks_from_legal() -> None:
    bot = make_bot("random")
    assert isinstance(bot, Bot)
    legal = ["a", "b", "c", "d"]
    picks = {bot.choose({}, legal, random.Random(seed)) for seed in range(50)}
    assert picks == set(legal)
    assert bot.choose({}, legal, random.Random(3)) == bot.choose({}, legal, random.Random(3))


def test_text_parameters_from_the_command_line_are_accepted() -> None:
    bot = make_bot("ismcts", game="shutbox", iterations="200", exploration="0.5")
    assert bot.iterations == 200 and bot.exploration == 0.5


def test_default_bot_is_the_games_heuristic_where_there_is_one() -> None:
    assert default_bot("catbox") == "greedy" and default_bot("shutbox") == "greedy"
    assert all(default_bot(game) in bot_names(game) for game in ("shutbox", "catbox", "catopomp"))
