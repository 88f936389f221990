"""Muting and reporting from the table page's chat (issue 32), on a 390 px phone, by keyboard:
a muted player's lines go at once and no new ones come, in every session, until unmuted; a
report reaches the operator's list with its reason and the chat lines; axe finds nothing, in
English and Japanese."""

from __future__ import annotations

import sys
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from axe_audit import describe, violations
from browser_ui import enter_as_guest, switch_language, wait_until

from nekobako.store import open_database
from nekobako.store.moderation import list_reports

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def http_of(page, server) -> httpx.Client:
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "nekobako_session")
    return httpx.Client(base_url=server.url, timeout=15, cookies={"nekobako_session": token})


def lines(page) -> list[str]:
    return page.locator("[data-testid=chat-log] .chat-text").all_inner_texts()


def test_mute_and_report_from_the_chat_by_keyboard_on_a_phone(new_page, server, screenshot):
    alice, bob = new_page(width=390, height=844), new_page()
    enter_as_guest(alice, "Hana")
    enter_as_guest(bob, "Ren")
    a, b = http_of(alice, server), http_of(bob, server)
    table_id = a.post("/api/tables", json={"game": "shutbox", "seats": 2}).json()["id"]
    assert b.post(f"/api/tables/{table_id}/join").status_code == 200
    assert a.post(f"/api/tables/{table_id}/start").status_code == 200
    alice.goto(f"/table/{table_id}")
    alice.wait_for_selector("[data-testid=chat-input]")
    assert alice.locator("[data-testid=chat-moderation]").is_hidden()  # nobody else wrote yet
    assert b.post(f"/api/tables/{table_id}/chat", json={"text": "you play badly"}).status_code == 201
    alice.wait_for_selector(".chat-message:has-text('you play badly')")

    # keyboard: the writer is chosen in one select, then Tab to "Mute" and Enter
    alice.focus("[data-testid=chat-who]")
    assert alice.inner_text("label[for=chat-who]") == "Player"
    assert alice.locator("[data-testid=chat-who] option").all_inner_texts() == ["Ren"]
    alice.keyboard.press("Tab")
    assert alice.evaluate("() => document.activeElement.textContent") == "Mute"
    alice.keyboard.press("Enter")
    alice.wait_for_selector("[data-key=muted-list]")
    assert "Muted at every table: Ren" in alice.inner_text("[data-testid=chat-moderation]")
    assert alice.inner_text("[data-key=chat-mute]") == "Unmute"
    assert lines(alice) == []  # the line shown before the mute is gone at once
    assert b.post(f"/api/tables/{table_id}/chat", json={"text": "still there?"}).status_code == 201
    assert a.post(f"/api/tables/{table_id}/chat", json={"text": "mine"}).status_code == 201
    alice.wait_for_selector(".chat-message:has-text('mine')")
    assert lines(alice) == ["mine"]
    assert alice.evaluate("() => document.documentElement.scrollWidth") <= 390  # nothing sticks out
    screenshot(alice, "chat-muted-phone")

    # a report, by keyboard: its form opens under the button, the reason is optional
    alice.focus("[data-key=chat-report]")
    alice.keyboard.press("Enter")
    assert alice.evaluate("() => document.activeElement.id") == "chat-reason"
    assert alice.get_attribute("[data-key=chat-report]", "aria-expanded") == "true"
    alice.keyboard.type("insults after every move")
    found = violations(alice)
    assert not found, describe(found)
    switch_language(alice)
    assert alice.inner_text("[data-key=chat-mute]") == "ミュート解除"
    assert "すべてのテーブルでミュート中：Ren" in alice.inner_text("[data-testid=chat-moderation]")
    found = violations(alice)
    assert not found, describe(found)
    switch_language(alice)
    alice.click("[data-key=chat-report-send]")
    alice.wait_for_selector("text=Your report on Ren went to the operator.")
    assert alice.locator("[data-key=report-form]").count() == 0
    engine = open_database(f"sqlite:///{server.db}")
    try:
        (report,) = list_reports(engine)
    finally:
        engine.dispose()
    assert report["reported"]["name"] == "Ren" and report["reporter"]["name"] == "Hana"
    assert report["reason"] == "insults after every move" and report["table"] == table_id
    assert [m["text"] for m in report["context"]] == ["you play badly", "still there?", "mine"]

    # kept across sessions: a fresh page still hides Ren; unmuting brings every line back
    alice.reload()
    alice.wait_for_selector("[data-key=muted-list]")
    assert lines(alice) == ["mine"]
    alice.click("[data-key=chat-mute]")
    wait_until(alice, "() => document.querySelectorAll('[data-testid=chat-log] .chat-text').length === 3")
    assert lines(alice) == ["you play badly", "still there?", "mine"]
    assert alice.locator("[data-key=muted-list]").count() == 0
    a.close()
    b.close()
