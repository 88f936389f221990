"""Acceptance audit of the browser client: a turn-based clock reads in Japanese, a player name made
of HTML is shown as text, never as markup, and a missing table says so (not "connecting" forever)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser_ui import enter_as_guest

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

HTML_NAME = '<b id="injected">x</b>'


def _post(page, path: str, body: dict) -> dict:
    """A REST call from inside the page (its session cookie)."""
    return page.evaluate(
        """async ([path, body]) => {
          const r = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
                                       body: JSON.stringify(body)});
          return await r.json();
        }""",
        [path, body],
    )


def test_turn_based_clock_in_japanese_and_html_names_as_text(new_page):
    page = new_page(locale="ja-JP")
    enter_as_guest(page, HTML_NAME)
    table = _post(page, "/api/tables", {"game": "shutbox", "seats": 2, "clock": {"kind": "turn", "days": 2}})
    _post(page, f"/api/tables/{table['id']}/bots", {"level": "random", "seat": 1})
    started = _post(page, f"/api/tables/{table['id']}/start", {})
    assert started["status"] == "running", started
    page.goto(f"/#/table/{table['id']}")
    page.wait_for_selector(".shutbox")
    page.wait_for_selector("[data-testid=clock] .clock-item")
    clock = page.inner_text("[data-testid=clock]")
    assert "日" in clock and "時間" in clock, clock  # "1日23時間", not "1d 23h"
    assert "d " not in clock and not clock.rstrip().endswith("h"), clock
    # the name is text wherever it is shown; no element came out of it
    assert page.locator("#injected").count() == 0
    assert HTML_NAME in page.inner_text("[data-testid=scores]")
    assert HTML_NAME in page.inner_text("[data-testid=whoami]")


def test_a_table_that_does_not_exist_says_so_in_the_header(new_page):
    page = new_page(locale="en-US")
    page.goto("/#/table/987654")
    page.wait_for_selector("[data-testid=game] .error")
    page.wait_for_function("!document.querySelector('[data-testid=turn]').innerText.includes('Connecting')")
    assert "Connecting" not in page.inner_text("main")
    page.click("#lang-switch")
    assert "接続中" not in page.inner_text("main")
    assert page.locator("[data-testid=game] .error").count() == 1
