"""Each tutorial played through in Chromium, in English and Japanese, at 1280 and 390 px: opened
from the lobby's "Learn to play", every step's move made with the keyboard on the real table UI,
a wrong move answered with why, the table part concerned outlined and described by the step's
words, axe-clean at a step and at the end, resumed where it was left after a reload."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from axe_audit import describe, violations

from nekobako.i18n import text
from nekobako.tutorial import load, tutorial_games

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

LOCALES = {"en": "en-US", "ja": "ja-JP"}


def press(page, selector: str) -> None:
    """Reach a control with the keyboard's focus and press Enter, as a keyboard player does."""
    control = page.locator(selector).first
    control.focus()
    page.keyboard.press("Enter")


def select_catopomp(page, move: str) -> None:
    """Catopomp: select the play's cards (hand or hell) and dice, then its button is offered."""
    kind, *parts = move.split()
    where = "[data-testid=hand] button[data-card='{}']" if kind == "play" else ".hell-area.mine button[data-hell='{}']"
    for part in parts:
        if part.startswith("+"):
            for boost in part[1:].split("+"):
                if boost.startswith("s"):
                    press(page, "[data-key=spare][aria-pressed=false]")
                else:
                    press(page, f"[data-testid=dice] button[data-die='{boost[1:]}'][aria-pressed=false]")
        else:
            press(page, where.format(part) + "[aria-pressed=false]")


def make(page, game: str, move: str) -> None:
    """The step's move through the game's own controls (no notation typed anywhere)."""
    words = move.split()
    if game == "catopomp" and words[0] in ("play", "hell"):
        select_catopomp(page, move)
    elif words[0] in ("discard", "play"):  # Cat in the Box: a card of that number first
        press(page, f"[data-testid=hand] .hand-card[data-card='{words[1]}']:not(:disabled)")
    if words[0] == "shut" and not page.locator(f"[data-action='{move}']:visible").count():
        press(page, "details.choices summary")  # Shut the Box: every legal choice, listed
    press(page, f"[data-action='{move}']:visible")


def step_shown(page, done: int, steps: int, lang: str) -> None:
    """The panel stands at the step after `done` steps, its heading in the page's language."""
    page.wait_for_selector(f"[data-testid=tutorial][data-step='{done}']")
    heading = text("tutorial.step", lang, step=min(done + 1, steps), steps=steps)
    assert page.inner_text("#tutorial-step") == heading


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", tutorial_games())
def test_a_tutorial_in_the_browser(new_page, screenshot, game: str, lang: str, width: int) -> None:
    script = load(game)
    page = new_page(locale=LOCALES[lang], width=width)
    page.goto("/")
    press(page, f"[data-key=learn-{game}]")
    page.wait_for_url(f"**/tutorial/{game}")
    steps = len(script.steps)
    failures = []
    for i, step in enumerate(script.steps):
        step_shown(page, i, steps, lang)
        words = page.inner_text("[data-testid=tutorial-text]")
        assert words == text(step.text, lang, move=step.move), words
        pointed = page.locator(".tutorial-point")
        assert pointed.count() == 1 and pointed.get_attribute("aria-describedby") == "tutorial-text"
        if i == 0:
            wrong = "discard 1" if game == "catbox" else None
            if wrong:  # a legal move that is not the step's: why not, and nothing changes
                make(page, game, wrong)
                page.wait_for_selector("[data-testid=tutorial-refusal]")
                assert step.move in page.inner_text("[data-testid=tutorial-refusal]")
        if i == 2:
            found = violations(page)
            if found:
                failures.append(f"step {i}: {describe(found)}")
            if width == 1280 and lang == "en":
                screenshot(page, f"tutorial-{game}", full_page=False)
        if i == 3:  # resumable: a reload opens the same step
            page.reload()
            step_shown(page, i, steps, lang)
        make(page, game, step.move or "")
    step_shown(page, steps, steps, lang)
    assert page.inner_text("[data-testid=tutorial-text]") == text(script.finish.text, lang)
    page.wait_for_selector("[data-key=tutorial-lobby]")
    found = violations(page)
    if found:
        failures.append(f"the end: {describe(found)}")
    assert not failures, "\n".join(failures)
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page is {overflow} px wider than the screen"
