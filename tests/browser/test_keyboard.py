"""A whole Cat in the Box game with the keyboard alone, what a screen reader hears (issue 17), and
a phone's view: from the lobby to the results by Tab, arrow keys and Enter; the focus moves to the
next control or heading after every page change (never back to <body>); the hand is one Tab stop
and a chosen card's choices come right after it; the live region says "your turn" once per turn,
who won each trick and round, a refusal, and the winner; at 390 px every control is at least
44 × 44 px and the trick, your hand and its controls fit on one screen."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser_ui import GAME_TIMEOUT, position_of, wait_until
from game_states import play_to

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

# Every line the page's live region says, in order (installed before the page's own scripts run).
HEARD = """
window.__heard = [];
document.addEventListener("DOMContentLoaded", () => {
  const region = document.getElementById("announcer");
  new MutationObserver(() => region.textContent && window.__heard.push(region.textContent))
    .observe(region, { childList: true, subtree: true, characterData: true });
});
"""

FOCUS = """() => {
  const e = document.activeElement;
  return {tag: e.tagName, id: e.id, key: e.dataset.key || null, action: e.dataset.action || null,
          inHand: Boolean(e.closest("[data-first-stop]")), disabled: Boolean(e.disabled),
          text: e.textContent.trim().slice(0, 40)};
}"""


def focus(page) -> dict:
    return page.evaluate(FOCUS)


def tab_to(page, test, limit: int = 80) -> dict:
    """Press Tab until the focused element passes `test(focus)`; fail after `limit` presses."""
    for _ in range(limit):
        now = focus(page)
        if test(now):
            return now
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached the control (last: {focus(page)})")


def choose_by_keys(page, select: str, value: str) -> None:
    """Change a focused <select> with the arrow keys until it shows `value`."""
    page.keyboard.press("Home")
    for _ in range(12):
        if page.evaluate(f"() => document.querySelector('{select}').value") == value:
            return
        page.keyboard.press("ArrowDown")
    raise AssertionError(f"{select} has no {value}")


def not_lost(page) -> dict:
    """The focus is on something of the page, not thrown back to <body>."""
    wait_until(page, "document.activeElement !== document.body", timeout=5)
    return focus(page)


def my_turn_kind(page) -> str | None:
    return page.evaluate(
        """() => {
          if (document.querySelector("[data-testid=controls] button[data-action^=predict]:enabled")) return "predict";
          if (document.querySelector("[data-first-stop] .hand-card:enabled")) return "card";
          return null;
        }"""
    )


def test_a_whole_cat_in_the_box_game_by_keyboard_alone(new_page):
    page = new_page()
    page.context.add_init_script(HEARD)
    page.goto("/")
    page.wait_for_selector("#guest-name")
    tab_to(page, lambda f: f["id"] == "guest-name")
    page.keyboard.type("Kei")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=whoami]")
    assert not_lost(page)["id"] == "create-game"  # signed in: on to creating a table

    choose_by_keys(page, "#create-game", "catbox")
    page.keyboard.press("Tab")
    assert focus(page)["id"] == "create-seats"
    choose_by_keys(page, "#create-seats", "3")
    tab_to(page, lambda f: f["tag"] == "BUTTON" and f["text"] == "Create table")
    page.keyboard.press("Enter")
    page.wait_for_selector(".seat-manager")
    assert not_lost(page)["tag"] == "H1"  # a new page: its heading

    for _ in range(2):  # a bot in each empty seat; the focus goes on to the next control each time
        tab_to(page, lambda f: (f["key"] or "").startswith("add-bot-"))
        before = page.locator(".seat-manager [data-key^=add-bot-]").count()
        page.keyboard.press("Enter")
        wait_until(page, f"document.querySelectorAll('.seat-manager [data-key^=add-bot-]').length < {before}")
        assert not_lost(page)["tag"] in ("BUTTON", "SELECT")
    assert focus(page)["key"] == "start"
    page.keyboard.press("Enter")
    page.wait_for_selector(".catbox")
    assert not_lost(page)["tag"] in ("BUTTON", "H1")

    moves = 0
    deadline = time.monotonic() + GAME_TIMEOUT
    while not page.locator("[data-testid=results]:not([hidden])").count():
        assert time.monotonic() < deadline, "the game did not finish in time"
        kind = my_turn_kind(page)
        if kind is None:
            page.wait_for_timeout(50)
            continue
        seq = position_of(page)
        # waiting since the last move (parked on the title or a button such as "Last trick" that
        # may go away), the focus comes to this move by itself
        ready = focus(page)
        assert ready["inHand"] or (ready["action"] or "").startswith("predict"), (moves, ready)
        if kind == "predict":
            tab_to(page, lambda f: (f["action"] or "").startswith("predict") and not f["disabled"])
        else:
            # the hand is one Tab stop: Tab reaches one card, the arrow keys move along the hand
            card = tab_to(page, lambda f: f["inHand"] and not f["disabled"])
            page.keyboard.press("End")
            page.keyboard.press("Home")
            assert focus(page)["inHand"]
            page.keyboard.press("Enter")  # choose it
            page.keyboard.press("Tab")  # its choices come right after the chosen card
            choice = focus(page)
            assert choice["key"] == "discard" or (choice["action"] or "").startswith("play"), (card, choice)
        page.keyboard.press("Enter")
        moves += 1
        deadline_move = time.monotonic() + 15
        while position_of(page) == seq and time.monotonic() < deadline_move:
            page.wait_for_timeout(30)
    page.wait_for_selector("[data-testid=results] h2")
    wait_until(page, "document.activeElement.dataset.key === 'results-title'", timeout=5)  # the results' heading

    heard = page.evaluate("() => window.__heard")
    turns = [line for line in heard if "Your turn" in line]
    assert 1 <= len(turns) <= moves + 1, (len(turns), moves)  # once per turn, not once per message
    assert any(" won trick " in line for line in heard), heard
    assert any("Round 1 is over" in line for line in heard), heard
    assert "Game over." in heard[-1] and ("Winner" in heard[-1] or "You win!" in heard[-1]), heard[-3:]
    assert len(heard) < 4 * moves, (len(heard), moves)


def test_a_refusal_is_announced(new_page, page_errors):
    page_errors.expect(r"status of 400 .*/api/auth/guest", "the empty name is sent on purpose; the server refuses it")
    page = new_page()
    page.context.add_init_script(HEARD)
    page.goto("/")
    page.fill("#guest-name", "   ")  # passes the form's `required`; the server refuses an empty name
    page.click("[data-testid=guest-form] button[type=submit]")
    wait_until(page, "window.__heard.length > 0")
    assert page.evaluate("() => window.__heard")[-1] == page.inner_text("#toast")


SMALL_TARGETS = """() => [...document.querySelectorAll(
    "button:not(:disabled), select, input, a.button, summary")]
  .filter((e) => e.offsetParent !== null && !e.closest("dialog:not([open])"))
  .map((e) => { const r = e.getBoundingClientRect();
                return {what: e.dataset.key || e.id || e.className || e.tagName, w: r.width, h: r.height}; })
  .filter((r) => r.w < 44 || r.h < 44)"""


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_on_a_phone_the_hand_sits_by_the_trick_and_every_target_is_44_px(
    new_page, server, screenshot, page_errors, locale
):
    """A 4-player table on a 390 × 844 phone: the trick, the hand and the colour buttons of the card
    chosen are on one screen, in English and in Japanese (whose longer header and prompt once
    pushed the colour buttons below the screen)."""
    seated = play_to(server, "catbox", 4, lambda v: v["phase"] == "play" and len(v["trick"]) >= 1, again=10)
    page = new_page(width=390, height=844, locale=locale)
    seated.open_in(page.context, server)
    page.goto(f"/#/table/{seated.table}")
    page.wait_for_selector(".my-hand .hand-card:enabled")
    page.locator(".my-hand .hand-card:enabled").first.click()
    page.wait_for_selector(".colour-choices button")
    box = page.evaluate(
        """() => {
          const r = (q) => document.querySelector(q).getBoundingClientRect();
          return {trick: r("[data-testid=trick]"), hand: r("[data-testid=hand]"),
                  controls: r("[data-testid=controls]"), colours: r(".colour-choices"), height: innerHeight};
        }"""
    )
    assert 0 <= box["hand"]["top"] - box["trick"]["bottom"] <= 16, box  # right under the trick
    assert box["controls"]["bottom"] - box["trick"]["top"] <= box["height"], box  # one screen
    assert box["hand"]["top"] < box["height"], box  # in view when the page opens
    assert box["colours"]["top"] >= 0 and box["colours"]["bottom"] <= box["height"], box  # the colours in view
    # a bot's label ("Bot 3 · random") is one line in the players' table, never broken in two
    bots = page.evaluate(
        """() => [...document.querySelectorAll('.players-table .bot-name')]
                 .map((e) => ({text: e.textContent, lines: e.getClientRects().length}))"""
    )
    assert len(bots) == 3 and all(b["lines"] == 1 for b in bots), bots
    screenshot(page, f"catbox-colours-phone-{locale[:2]}", full_page=False)  # the screen as it is
    assert page.evaluate(SMALL_TARGETS) == []
    page.set_viewport_size({"width": 1280, "height": 900})
    screenshot(page, f"catbox-4-players-{locale[:2]}")
    page.set_viewport_size({"width": 390, "height": 844})
    page_errors.expect(
        r"status of 409 .*/api/tables/\d+/record",
        "the replay page of a game still being played is opened for its controls' sizes: the server "
        "refuses the record until the game ends (the page says so), and Chromium logs the refusal",
    )
    for path in ("/", f"/replay/{seated.table}"):
        page.goto(path)
        page.wait_for_selector("h1")
        assert page.evaluate(SMALL_TARGETS) == [], path
