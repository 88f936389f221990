"""Two people play a whole game of Shut the Box against each other, each in their own browser
context, through the lobby (create, join, start) and the table page (roll, select tiles, shut)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser_ui import (
    Frames,
    create_table,
    enter_as_guest,
    log_text,
    play_until_over,
    shutbox_turn,
    start,
    switch_language,
)

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def test_two_people_play_shut_the_box(new_page, screenshot):
    alice = new_page()
    bob = new_page(width=390, height=844)  # Bob plays on a phone-sized screen
    frames = {alice: Frames(alice), bob: Frames(bob)}
    enter_as_guest(alice, "Alice")
    enter_as_guest(bob, "Bob")

    table = create_table(alice, "shutbox", 2)
    # Bob finds the table in the lobby and joins it
    bob.click(f"li[data-table='{table}'] button:has-text('Join')")
    bob.wait_for_url(f"**/#/table/{table}")
    alice.wait_for_selector("[data-key=start]")
    start(alice)

    for page in (alice, bob):
        page.wait_for_selector(".shutbox")
        assert page.locator(".player-board").count() == 2

    # whoever is to move: the turn line says so on both screens
    alice.wait_for_selector("[data-action=roll], .player-board.active")
    mover, waiter = (alice, bob) if alice.locator("[data-action=roll]").count() else (bob, alice)
    mover.wait_for_selector("[data-action=roll]")
    assert "Your turn" in mover.inner_text("[data-testid=turn]")
    assert "Your turn" not in waiter.inner_text("[data-testid=turn]")

    # keyboard: the roll button takes Enter, a tile takes Space
    mover.focus("[data-action=roll]")
    mover.keyboard.press("Enter")
    mover.wait_for_selector(
        ".choices button[data-action]:enabled, [data-action=roll]:enabled", state="attached", timeout=10000
    )
    choices = mover.locator(".choices button[data-action]:enabled")
    action = choices.first.get_attribute("data-action") if choices.count() else None
    if action:
        first_tile = action.split()[1]
        mover.focus(f".player-board.mine button[data-tile='{first_tile}']")
        mover.keyboard.press("Space")
        assert mover.get_attribute(f".player-board.mine button[data-tile='{first_tile}']", "aria-pressed") == "true"
        # the board was drawn again, and the keyboard focus stayed on the same tile
        assert mover.evaluate("document.activeElement.dataset.key") == f"tile-{first_tile}"
        # tiles that cannot complete any legal combination with the selection are not offered
        open_tiles = mover.locator(".player-board.mine button.tile")
        legal = [a.split()[1:] for a in _legal_shuts(mover)]
        for i in range(open_tiles.count()):
            tile = open_tiles.nth(i)
            number = tile.get_attribute("data-tile")
            possible = any(first_tile in combo and number in combo for combo in legal)
            assert tile.is_enabled() == (possible or number == first_tile), number
        screenshot(mover, "shutbox")
        mover.click("[data-key=clear]")

    # Bob switches to Japanese in the middle of the game: the table is redrawn in Japanese
    switch_language(bob)
    assert "ボード" in bob.get_attribute(".player-board", "aria-label")
    assert "減点合計" in bob.inner_text(".player-board")
    screenshot(bob, "shutbox-ja-phone")
    switch_language(bob)

    play_until_over([alice, bob], lambda p: shutbox_turn(p, frames[p]))

    logs = {}
    for page in (alice, bob):
        results = page.locator("[data-testid=results]")
        assert "Game over" in results.inner_text()
        assert page.locator("[data-testid=replay-link]").get_attribute("href") == f"/replay/{table}"
        logs[page] = log_text(page)  # the log of the last position (drawn a frame after the results)
    # one's own moves read in the second person, the other player's in the third; a player who
    # shuts the box on the first turn ends the game before the other one has moved at all
    for page, other, name in ((alice, bob, "Alice"), (bob, alice, "Bob")):
        assert ("You roll two dice" in logs[page]) == (f"{name} rolls two dice" in logs[other])
        assert ("You shut" in logs[page]) == (f"{name} shuts" in logs[other])
    assert any("You roll two dice" in log and "You shut" in log for log in logs.values())
    screenshot(alice, "shutbox-over")
    screenshot(bob, "shutbox-over-phone")


def _legal_shuts(page) -> list[str]:
    buttons = page.locator(".choices button[data-action]")
    return [buttons.nth(i).get_attribute("data-action") for i in range(buttons.count())]


def test_simultaneous_shut_the_box(new_page):
    """Simultaneous mode: both players take their turn of the round at the same time."""
    alice = new_page()
    bob = new_page()
    enter_as_guest(alice, "Aki")
    enter_as_guest(bob, "Ben")
    alice.select_option("#create-game", "shutbox")
    alice.select_option("#opt-simultaneous", label="On")
    alice.select_option("#opt-quick", label="On")
    alice.select_option("#create-clock", "realtime")
    alice.fill("#create-seconds", "120")
    table = create_table(alice, "shutbox", 2)
    bob.goto(f"/#/table/{table}")
    bob.click(".seat-manager button:has-text('Join')")
    alice.wait_for_selector("[data-key=start]")
    start(alice)
    # both may roll at once
    for page in (alice, bob):
        page.wait_for_selector("[data-testid=controls] [data-action=roll]")
    # each is told it is their turn and who else plays, not named among the players in the third person
    assert alice.inner_text("[data-testid=turn] .turn") == "Your turn · also playing: Ben"
    assert bob.inner_text("[data-testid=turn] .turn") == "Your turn · also playing: Aki"
    # a shared win and a shared best round address the reader ("and you" tacked on a list did not)
    said = alice.evaluate(
        """async () => {
        const table = await import('/static/table.js');
        const common = await import('/static/games/common.js');
        const i18n = await import('/static/i18n.js');
        const names = ['Aki', 'Ben'];
        const out = [];
        for (const lang of ['en', 'ja']) {
          await i18n.setLang(lang);
          out.push(
            table.winnersLine({winners: [0, 1], seat: 1}, names),
            table.winnersLine({winners: [0], seat: 0}, names),
            table.winnersLine({winners: [0, 1], seat: null}, names),
            common.roundBestText(3, [0, 1], names, 1),
            common.roundBestText(3, [1], names, 1),
            common.roundBestText(3, [0], names, 1),
          );
        }
        await i18n.setLang('en');
        return out;
      }"""
    )
    assert said == [
        "You share the win with Aki!",
        "You win!",
        "Winners: Aki and Ben",
        "Round 3 is over: you and Aki had the best round.",
        "Round 3 is over: you had the best round.",
        "Round 3 is over: best this round, Aki.",
        "あなたとAkiの勝ちです！",
        "あなたの勝ちです！",
        "勝者：Aki、Ben",
        "第3ラウンド終了：このラウンドの最高はあなたとAki。",
        "第3ラウンド終了：このラウンドの最高はあなた。",
        "第3ラウンド終了：このラウンドの最高はAki。",
    ]
    # the real-time clock counts down for both seats to move
    clock = alice.inner_text("[data-testid=clock]")
    assert re.search(r"Aki: [12]:\d\d", clock) and re.search(r"Ben: [12]:\d\d", clock), clock
    play_until_over([alice, bob], shutbox_turn)
    assert "Game over" in bob.inner_text("[data-testid=results]")
