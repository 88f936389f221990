"""Acceptance audit of the browser client: a turn-based clock reads in Japanese, a player name made
of HTML is shown as text, never as markup, a missing table says so (not "connecting" forever), the
replay's move list names the first move in words, a keyboard move leaves the focus on the board, and
no page preloads what it does not use (the `page_errors` fixture fails a test on any console warning)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser_ui import create_table, enter_as_guest, finished_solo_shutbox, start, switch_language
from game_states import play_to

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
    page.wait_for_function("() => !document.querySelector('[data-testid=turn]').innerText.includes('Connecting')")
    assert "Connecting" not in page.inner_text("main")
    switch_language(page)
    assert "接続中" not in page.inner_text("main")
    assert page.locator("[data-testid=game] .error").count() == 1


def test_the_replay_move_list_names_the_start_player_in_words(new_page, server):
    table_id = finished_solo_shutbox(server)
    for locale, words in (("en-US", "Solo starts"), ("ja-JP", "Solo から開始")):
        page = new_page(locale=locale)
        page.goto(f"/replay/{table_id}")
        page.wait_for_selector("[data-testid=move-list] li")
        first = page.inner_text("[data-testid=move-list] li >> nth=0")
        assert first == words, first


def test_after_a_keyboard_move_the_focus_stays_on_the_board(new_page):
    page = new_page()
    enter_as_guest(page, "Keys")
    create_table(page, "shutbox", 1)
    start(page)
    roll = "[data-testid=controls] [data-action='roll']:enabled"
    page.wait_for_selector(roll)
    page.focus(roll)
    page.keyboard.press("Enter")
    # the roll button is gone once the dice are shown; the focus is on a tile, not the page's top
    page.wait_for_selector(".player-board.mine button[data-tile]:enabled")
    page.wait_for_function("() => document.activeElement.matches('[data-testid=game] button:enabled')", timeout=5000)
    assert page.evaluate("document.activeElement.dataset.tile") is not None
    page.keyboard.press("Space")  # and the keyboard goes on from there
    assert page.evaluate("document.activeElement.getAttribute('aria-pressed')") == "true"


def test_no_page_preloads_what_it_does_not_use(new_page, server):
    """Chromium warns when a preloaded answer is not used within a few seconds of the load event:
    the lobby's preloaded `/api/games` on a running table opened at `/#/table/ID` did. Each page
    stays open past that moment; a warning fails the test (conftest.py `PageErrors`)."""
    seated = play_to(server, "shutbox", 2, lambda view: True, again=10)
    finished = finished_solo_shutbox(server)
    for path in (f"/#/table/{seated.table}", f"/table/{seated.table}", "/", f"/replay/{finished}"):
        page = new_page()
        seated.open_in(page.context, server)
        page.goto(path, wait_until="load")
        page.wait_for_selector("h1")
        page.wait_for_timeout(4000)  # Chromium's check runs 3 s after the load event
        page.close()
