"""The review on the replay page in Chromium: asked for, its progress, then the chart of the
seat's value with each decision marked; stored (a reload shows it at once); both languages,
axe-clean at 1280 and 390 px; linked from the table's results."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from axe_audit import describe, violations
from browser_ui import enter_as_guest, finished_solo_shutbox

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def set_lang(page, lang: str) -> None:
    if page.evaluate("() => document.documentElement.lang") != lang:
        page.click("#lang-switch")
        page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")


def test_a_review_is_drawn_on_the_replay_page(new_page, server, screenshot) -> None:
    table_id = finished_solo_shutbox(server)
    page = new_page()
    enter_as_guest(page, "Reviewer")
    page.goto(f"/replay/{table_id}#review")
    page.click("[data-key=review-start]")
    chart = page.wait_for_selector("[data-testid=review-chart]", timeout=60000)
    decisions = int(chart.get_attribute("data-decisions"))
    assert decisions == page.locator(".review-mark").count() > 0
    labels = set(page.locator(".review-mark").evaluate_all("els => els.map(e => e.dataset.label)"))
    assert labels <= {"best", "good", "inaccuracy", "mistake", "blunder"}
    assert "Accuracy" in page.inner_text("[data-testid=review-accuracy]")
    assert chart.get_attribute("role") == "img" and str(decisions) in chart.get_attribute("aria-label")

    failures = []
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        for lang in ("en", "ja"):
            set_lang(page, lang)
            page.wait_for_selector("[data-testid=review-chart]")
            if lang == "ja":
                assert "正確さ" in page.inner_text("[data-testid=review-accuracy]")
            found = violations(page)
            if found:
                failures.append(f"--- review, {lang}, {width} px:\n{describe(found)}")
            if width == 390:  # nothing wider than the phone's screen
                assert page.evaluate("() => document.querySelector('[data-testid=review]').scrollWidth") <= 390
    assert not failures, "\n".join(failures)
    set_lang(page, "en")
    page.set_viewport_size({"width": 1280, "height": 900})
    page.locator("[data-testid=review-chart]").scroll_into_view_if_needed()
    screenshot(page, "review-chart", full_page=False)

    # stored with the game: anyone opening the replay later sees it at once, without asking
    other = new_page()
    other.goto(f"/replay/{table_id}")
    other.wait_for_selector("[data-testid=review-chart]")
    assert other.locator("[data-key=review-start]").count() == 0


def test_the_results_link_to_the_review(new_page, server) -> None:
    table_id = finished_solo_shutbox(server)
    page = new_page()
    page.goto(f"/#/table/{table_id}")
    link = page.wait_for_selector("[data-testid=review-link]")
    assert link.get_attribute("href") == f"/replay/{table_id}#review"
    link.click()
    page.wait_for_selector("[data-testid=review]")
    assert page.locator("[data-key=review-start]").count() == 0  # asking needs a session
    assert "Log in" in page.inner_text("[data-testid=review]")


def test_a_hint_at_a_table_with_the_option(new_page, server) -> None:
    page = new_page()
    enter_as_guest(page, "Hinted")
    table_id = page.evaluate(
        """async () => {
            const post = (path, body) => fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
                body: body === undefined ? undefined : JSON.stringify(body)}).then((r) => r.json());
            const table = await post("/api/tables", {game: "shutbox", seats: 1, options: {hints: true}});
            await post(`/api/tables/${table.id}/start`);
            return table.id;
        }"""
    )
    page.goto(f"/#/table/{table_id}")
    page.click("[data-key=hint]")
    assert page.inner_text("[data-testid=hint]").strip() == "Hint: roll"
