"""One person plays Cat in the Box and Catopomp against bots to the end. Meanwhile a spectator
watches (their page never shows a hand, and no hand reaches it over the WebSocket), the player
reloads in the middle of the game and carries on, and the replay of the finished game steps."""

from __future__ import annotations

import sys
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser_ui import (
    Frames,
    add_bot,
    catbox_turn,
    catopomp_turn,
    create_table,
    enter_as_guest,
    play_until_over,
    position_of,
    start,
    wait_for_next_position,
    wait_until,
)
from playwright.sync_api import Error as PlaywrightError

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def _spectator_checks(spectator, frames: Frames) -> None:
    assert spectator.locator("[data-testid=hand]").count() == 0
    assert spectator.locator(".hand-card, .my-hand").count() == 0
    assert "You are watching" in spectator.inner_text(".table-header")
    views = [m["view"] for m in frames.states if m.get("view")]
    assert views, "the spectator received no view"
    for view in views:
        assert view["seat"] is None
        assert "hand" not in view and "hands" not in view
        assert view["legal"] == []


def _reload_and_resume(page, game_class: str) -> None:
    """Reload the page: the same game comes back (own hand unchanged unless a new round was dealt).
    The hand is read once no move of this seat is on its way: a move sent while the board still
    showed earlier positions (paced) is answered after them, and the reload would show it played."""
    page.wait_for_selector(f".{game_class} [data-testid=hand]")
    wait_until(page, "document.querySelector('[data-testid=game]').getAttribute('aria-busy') === 'false'")
    hand_before = page.inner_text("[data-testid=hand] .hand")
    round_before = page.inner_text("[data-testid=turn] .round")
    page.reload()
    page.wait_for_selector(f".{game_class} [data-testid=hand]")
    hand_after = page.inner_text("[data-testid=hand] .hand")
    round_after = page.inner_text("[data-testid=turn] .round")
    assert hand_after == hand_before or round_after.split("·")[0] != round_before.split("·")[0]


def _check_replay(page, server_url: str, table: int, game_class: str, screenshot, name: str) -> None:
    record = httpx.get(f"{server_url}/api/tables/{table}/record").json()
    page.click("[data-testid=replay-link]")
    page.wait_for_url(f"**/replay/{table}")
    page.wait_for_selector("[data-testid=move-list] li")
    assert page.locator("[data-testid=move-list] li").count() == len(record["actions"])
    total = len(record["actions"])
    assert page.inner_text("[data-testid=replay-position]") == f"Move {total} of {total}"
    page.wait_for_selector(f"[data-testid=replay-board] .{game_class}")
    if game_class == "catbox":  # the final position with every remaining hand visible
        assert page.locator("[data-testid=all-hands] .hand-row").count() == record["players"]
    screenshot(page, name)
    page.keyboard.press("Home")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=replay-position]').innerText === 'Start of the game'"
    )
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.wait_for_function(
        f"() => document.querySelector('[data-testid=replay-position]').innerText === 'Move 3 of {total}'"
    )
    page.wait_for_selector("[data-testid=move-list] li.current:nth-child(3)")
    steps = httpx.get(f"{server_url}/api/tables/{table}/replay", params={"step": 3})
    assert steps.status_code == 200, steps.text  # the server gives each position: the board for move 3
    page.wait_for_selector(f"[data-testid=replay-board] .{game_class}")
    assert page.locator("[data-testid=replay-no-position]").count() == 0
    if game_class == "catbox":
        assert page.locator("[data-testid=all-hands] .hand-row").count() == record["players"]
    page.keyboard.press("End")
    page.wait_for_selector(f"[data-testid=replay-board] .{game_class}")
    middle = total // 2  # the middle of the game, every hand visible, for the picture
    page.click(f"[data-key=move-{middle}]")
    page.wait_for_function(
        f"() => document.querySelector('[data-testid=replay-position]').innerText === 'Move {middle} of {total}'"
    )
    page.wait_for_selector(f"[data-testid=replay-board] .{game_class}")
    screenshot(page, f"{name}-middle")


def test_cat_in_the_box_against_bots(new_page, server, screenshot):
    player = new_page()
    frames = Frames(player)
    enter_as_guest(player, "Neko")
    table = create_table(player, "catbox", 3)
    add_bot(player, 1, "random")
    add_bot(player, 2, "random")
    start(player)
    player.wait_for_selector(".catbox .research-board")

    spectator = new_page(width=390, height=844)
    spectator_frames = Frames(spectator)
    spectator.goto(f"/#/table/{table}")
    spectator.wait_for_selector(".catbox .research-board")

    # discard and predict, then a reload in the middle of the game (round 1 cannot be over yet)
    for _ in range(2):
        player.wait_for_selector(".my-hand .hand-card:enabled, [data-action^=predict]", timeout=15000)
        seq = position_of(player)
        assert catbox_turn(player, frames)
        wait_for_next_position(player, seq)
    _reload_and_resume(player, "catbox")
    player.wait_for_selector(".my-hand .hand-card:enabled", timeout=15000)
    assert "Your turn" in player.inner_text("[data-testid=turn]")
    # a card chosen: only its legal colours are offered, on the buttons and on the board
    player.click(".my-hand .hand-card:enabled >> nth=0")
    player.wait_for_selector(".colour-choices button")
    offered = player.locator(".colour-choices button")
    cells = player.locator(".research-board button.cell-button")
    assert offered.count() == cells.count() > 0
    assert {offered.nth(i).get_attribute("data-action") for i in range(offered.count())} == {
        cells.nth(i).get_attribute("data-action") for i in range(cells.count())
    }
    screenshot(player, "catbox")
    screenshot(spectator, "catbox-spectator-phone")
    width = spectator.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the Cat in the Box table is {width}px wide on a 390px phone"
    assert player.locator(".research-board td.cell").count() == 4 * 6

    # the same play with the keyboard only: Tab from the chosen card reaches the colour buttons
    player.focus(".my-hand .hand-card[aria-pressed=true]")
    for _ in range(12):
        player.keyboard.press("Tab")
        if player.evaluate("document.activeElement.classList.contains('colour-button')"):
            break
    played = player.evaluate("document.activeElement.dataset.action")
    assert played and played.startswith("play ")
    player.keyboard.press("Enter")
    player.wait_for_function(
        f"() => [...document.querySelectorAll('[data-testid=trick] li, [data-testid=log] li')]"
        f".some(li => li.innerText.includes('You play {played.split()[1]} as {played.split()[2]}'))"
    )

    play_until_over([player], lambda p: catbox_turn(p, frames))
    spectator.wait_for_selector("[data-testid=results]:not([hidden])")
    _spectator_checks(spectator, spectator_frames)
    # the score table has one column per round (3 rounds at 3 players) and the total
    assert player.locator("[data-testid=scores] thead th").count() == 1 + 3 + 1
    screenshot(player, "catbox-over")
    _check_replay(player, server.url, table, "catbox", screenshot, "replay-catbox")


def test_catopomp_against_bots(new_page, server, screenshot):
    player = new_page()
    frames = Frames(player)
    enter_as_guest(player, "Pom")
    table = create_table(player, "catopomp", 3)
    add_bot(player, 1, "random")
    add_bot(player, 2, "random")
    start(player)
    player.wait_for_selector(".catopomp")

    spectator = new_page()
    spectator_frames = Frames(spectator)
    spectator.goto(f"/#/table/{table}")
    spectator.wait_for_selector(".catopomp")

    for _ in range(3):
        seq = position_of(player)
        catopomp_turn(player, frames)
        wait_for_next_position(player, seq)  # this seat's move landed, or the bots moved
    _reload_and_resume(player, "catopomp")
    # get to a position where a play can be built, for the picture
    try:
        player.wait_for_selector(".my-hand button.cp-card:enabled", timeout=6000)
        player.click(".my-hand button.cp-card:enabled >> nth=0")
    except PlaywrightError:
        pass  # no play to build in this position: the picture shows it as it is
    screenshot(player, "catopomp")
    screenshot(spectator, "catopomp-spectator")

    play_until_over([player], lambda p: catopomp_turn(p, frames), timeout=170)
    spectator.wait_for_selector("[data-testid=results]:not([hidden])")
    _spectator_checks(spectator, spectator_frames)
    assert frames.last_view is not None and frames.last_view["over"]
    screenshot(player, "catopomp-over")
    _check_replay(player, server.url, table, "catopomp", screenshot, "replay-catopomp")
