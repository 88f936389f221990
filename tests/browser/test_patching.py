"""Pages are patched, not rebuilt (issue 17): an element that is still drawn after an update stays
the same element — the focused control keeps the focus, a line keeps a reader's place. Each test
marks a node with a JavaScript property (a drawing cannot copy it) and checks it survives."""

from __future__ import annotations

import sys
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser_ui import create_table, enter_as_guest, finished_solo_shutbox

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

MARK = "(el) => { el.__marked = true; }"
MARKED = "(el) => el.__marked === true"


def test_stepping_a_replay_keeps_its_controls_and_lists(new_page, server):
    table = finished_solo_shutbox(server)
    page = new_page()
    page.goto(f"/replay/{table}")
    page.wait_for_selector("[data-testid=move-list] li")
    page.click("[data-key=first]")
    page.wait_for_function("() => document.querySelector('[data-key=first]').disabled")
    step = page.locator("[data-key=next]")
    step.focus()
    step.evaluate(MARK)
    page.locator("[data-testid=move-list]").evaluate(MARK)
    page.locator("[data-testid=scores]").evaluate(MARK)
    for n in (1, 2, 3):
        page.keyboard.press("Enter")
        page.wait_for_selector(f"[data-testid=move-list] li:nth-child({n}).current")
    assert page.evaluate("() => document.activeElement.__marked === true"), "the focused Next button was rebuilt"
    assert page.locator("[data-testid=move-list]").evaluate(MARKED)
    assert page.locator("[data-testid=scores]").evaluate(MARKED)


def test_the_seats_and_the_chat_keep_their_elements_when_others_act(new_page, server):
    host = new_page()
    enter_as_guest(host, "Keeper")
    table = create_table(host, "catbox", 3)
    level = host.locator("[data-key=bot-level-2]")
    level.focus()
    level.evaluate(MARK)

    # another person joins seat 1: the seats are drawn again from the new state message
    guest = httpx.Client(base_url=server.url, timeout=15)
    guest.post("/api/auth/guest", json={"name": "Joiner"}).raise_for_status()
    guest.post(f"/api/tables/{table}/join", json={"seat": 1}).raise_for_status()
    host.wait_for_function("() => document.querySelector('.seat-manager').innerText.includes('Joiner')")
    assert host.evaluate("() => document.activeElement.__marked === true"), "the focused bot level was rebuilt"

    # the chat: the first line stays itself when the next one comes
    host.fill("[data-testid=chat-input]", "first line")
    host.press("[data-testid=chat-input]", "Enter")
    host.wait_for_selector(".chat-message >> text=first line")
    host.locator(".chat-message").first.evaluate(MARK)
    host.fill("[data-testid=chat-input]", "second line")
    host.press("[data-testid=chat-input]", "Enter")
    host.wait_for_selector(".chat-message >> text=second line")
    assert host.locator(".chat-message").first.evaluate(MARKED)
