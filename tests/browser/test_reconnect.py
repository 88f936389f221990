"""The page survives the server going away: stop `nekobako serve` in the middle of a game, start it
again on the same database and port, and the open page reconnects by itself and plays on."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser_ui import (
    add_bot,
    create_table,
    enter_as_guest,
    game_over,
    play_until_over,
    position_of,
    shutbox_turn,
    start,
    wait_for_next_position,
    wait_until,
)

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def test_the_page_reconnects_after_a_server_restart(new_page, server, page_errors):
    page_errors.expect(
        r"WebSocket connection to .*/ws/tables/\d+.* failed.*ERR_CONNECTION_REFUSED",
        "the server is stopped on purpose: the page's tries to reconnect are refused until it is back",
    )
    page = new_page()
    enter_as_guest(page, "Ren")
    to_act = "[data-testid=controls] [data-action]:enabled"
    for _ in range(5):
        create_table(page, "shutbox", 2)
        add_bot(page, 1, "greedy")
        start(page)
        page.wait_for_selector(".shutbox")
        for _ in range(4):
            seq = position_of(page)
            shutbox_turn(page)
            wait_for_next_position(page, seq)  # this seat's move landed, or the bot moved
        # stop the server while this seat is to act: then nothing moves on its own (the bot waits)
        page.wait_for_selector(f"{to_act}, [data-testid=results]:not([hidden])")
        if not game_over(page):
            break
        # the bot began and shut the box in its first turn (about one game in twenty): another table
        page.goto("/")
    page.wait_for_selector(to_act)
    # no move of this seat on its way, and the log (drawn a frame after the board) settled
    wait_until(page, "document.querySelector('[data-testid=game]').getAttribute('aria-busy') === 'false'")
    before = ""
    for _ in range(50):
        page.wait_for_timeout(200)
        now = page.inner_text("[data-testid=log]")
        if now == before:
            break
        before = now

    server.stop()
    wait_until(page, "document.querySelector('[data-testid=turn]').innerText.includes('reconnecting')")
    server.start()
    wait_until(page, "!document.querySelector('[data-testid=turn]').innerText.includes('reconnecting')", 30)
    after = page.inner_text("[data-testid=log]")
    assert before.splitlines()[-3:] == after.splitlines()[-3:], "the game did not come back where it was"
    play_until_over([page], shutbox_turn)
    assert "Game over" in page.inner_text("[data-testid=results]")
