"""Every tutorial replays through the engine, step by step, as a learner would play it: a rule
change that breaks a script fails here. And the driver refuses anything but the step's move,
saying why, without changing the position."""

from __future__ import annotations

import pytest

from nekobako.engine import UnknownGame, replay
from nekobako.i18n import catalogue
from nekobako.rules import load as load_rules
from nekobako.tutorial import Tutorial, TutorialNotFound, load, tutorial_games

GAMES = tutorial_games()


def test_the_games_with_a_tutorial() -> None:
    assert set(GAMES) == {"shutbox", "catbox", "catopomp"}


@pytest.mark.parametrize("game", GAMES)
def test_a_tutorial_plays_through_and_matches_its_record(game: str) -> None:
    script = load(game)
    tutorial = Tutorial(script)
    while not tutorial.over:
        lesson = tutorial.lesson()
        assert script.seat in tutorial.state.to_move, "the learner is to move at every step"
        assert tutorial.attempt(lesson.expected or "") is None
    assert tutorial.lesson().over and tutorial.state.history == replay(script.record()).history


@pytest.mark.parametrize("game", GAMES)
def test_every_step_has_words_and_a_rules_section(game: str) -> None:
    script = load(game)
    for step in (*script.steps, script.finish):
        assert step.text in catalogue()
        for lang in ("en", "ja"):
            load_rules(game, lang).section(step.rules)  # raises for a section that is not there


@pytest.mark.parametrize("game", GAMES)
def test_resuming_at_any_step_is_the_same_position(game: str) -> None:
    script = load(game)
    walked = Tutorial(script)
    for done in range(len(script.steps) + 1):
        resumed = Tutorial(script, done)
        assert resumed.state.full_view() == walked.state.full_view() and resumed.lesson() == walked.lesson()
        if not walked.over:
            walked.attempt(walked.lesson().expected or "")


def _refusal(tutorial: Tutorial, text: str) -> str:
    before = tutorial.state.full_view()
    answer = tutorial.attempt(text)
    assert answer is not None and tutorial.state.full_view() == before
    return answer.key


def test_catbox_refusals_say_why() -> None:
    lead = Tutorial(load("catbox"), 2)  # the learner leads the first trick
    assert _refusal(lead, "play 5 red") == "catbox.refusal.red_not_broken"  # illegal: the game's reason
    assert _refusal(lead, "play 4 blue") == "tutorial.other_move"  # legal, not the step's
    assert _refusal(lead, "play 9 blue") == "catbox.refusal.not_in_hand"
    assert _refusal(lead, "fly") == "catbox.notation.unknown"  # not notation at all
    assert _refusal(lead, "1: play 4 blue") == "tutorial.not_your_seat"
    assert _refusal(lead, "99") == "tutorial.bad_number"


def test_shutbox_refusals_say_why() -> None:
    tutorial = Tutorial(load("shutbox"), 1)  # dice 5 4 rolled: shut 9 asked
    assert _refusal(tutorial, "shut 4 5") == "tutorial.other_move"
    assert _refusal(tutorial, "shut 8") == "shutbox.refusal.wrong_total"
    assert _refusal(tutorial, "roll") == "shutbox.refusal.shut_first"


def test_over_and_bad_steps() -> None:
    script = load("shutbox")
    done = Tutorial(script, len(script.steps))
    assert done.over and done.attempt("roll") is not None
    with pytest.raises(Exception, match="no step"):
        Tutorial(script, len(script.steps) + 1)


def test_no_tutorial_and_no_game() -> None:
    with pytest.raises(UnknownGame):
        load("chess")
    if "catopomp" not in GAMES:
        with pytest.raises(TutorialNotFound):
            load("catopomp")
