"""The Rules buttons in a real browser: from the lobby (every game) and from a running table, in
English and Japanese, the rules open in a dialog at the section of the current phase."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser_ui import (
    Frames,
    add_bot,
    catbox_turn,
    create_table,
    enter_as_guest,
    finished_solo_shutbox,
    start,
    switch_language,
)

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def open_rules(page, button, url_end: str):
    """Press a Rules button; return the frame once it shows the rules at `url_end` (…?lang=en#play)
    with that section's heading scrolled to the top of the frame."""
    button.click()
    page.wait_for_selector("[data-testid=rules-dialog][open]")
    frame = page.wait_for_selector("[data-testid=rules-frame]").content_frame()
    page.wait_for_function(
        """(end) => {
          const w = document.querySelector('[data-testid=rules-frame]').contentWindow;
          if (!w.location.href.endsWith(end) || w.document.readyState !== 'complete') return false;
          const el = w.document.getElementById(decodeURIComponent(w.location.hash.slice(1)));
          return !!el && Math.abs(el.getBoundingClientRect().top) < 40;
        }""",
        arg=url_end,
    )
    return frame


def shown_section(frame) -> dict:
    """Which section the frame shows: its anchor, where that heading sits and how far it scrolled."""
    return frame.evaluate(
        """() => {
          const id = decodeURIComponent(location.hash.slice(1));
          const el = document.getElementById(id);
          return {id, lang: document.documentElement.lang, title: el ? el.textContent : null,
                  top: el ? el.getBoundingClientRect().top : null, scrolled: scrollY,
                  h1: document.querySelector('h1').textContent};
        }"""
    )


def close_rules(page) -> None:
    page.click(".rules-close")
    page.wait_for_selector("[data-testid=rules-dialog]:not([open])", state="attached")


def test_every_game_in_the_lobby_has_its_rules_in_both_languages(new_page, screenshot):
    page = new_page(locale="en-US")
    page.goto("/")
    page.wait_for_selector("[data-testid=games] li[data-game=catopomp]")
    assert page.locator("[data-testid=games] li [data-testid=rules-button]").count() == 3
    for game, title in (("shutbox", "Shut the Box"), ("catbox", "Cat in the Box"), ("catopomp", "Catopomp")):
        button = page.locator(f"[data-testid=games] li[data-game={game}] [data-testid=rules-button]")
        frame = open_rules(page, button, f"/rules/{game}?lang=en#overview")
        shown = shown_section(frame)
        assert (shown["lang"], shown["h1"], shown["id"]) == ("en", title, "overview")
        assert 0 <= shown["top"] < 40 and shown["scrolled"] > 0  # opened at the section, not the top
        if game == "catbox":
            screenshot(page, "rules-lobby")
        close_rules(page)

    # the create form explains the options of the game chosen there
    page.select_option("#create-game", "catopomp")
    frame = open_rules(
        page, page.locator("[data-testid=create-form] [data-testid=rules-button]"), "catopomp?lang=en#options"
    )
    assert "`" not in frame.inner_text("#options ~ table") and "extra_cards" in frame.inner_text("#options ~ table")
    close_rules(page)

    switch_language(page)
    button = page.locator("[data-testid=games] li[data-game=catopomp] [data-testid=rules-button]")
    frame = open_rules(page, button, "/rules/catopomp?lang=ja#overview")
    shown = shown_section(frame)
    assert (shown["lang"], shown["h1"], shown["title"]) == ("ja", "キャットポンプ", "ゲームの流れ")
    assert "ソウルジェム" in frame.inner_text("main")
    assert page.inner_text("#rules-dialog-title") == "ルール — キャットポンプ"
    page.keyboard.press("Escape")  # a native dialog: Escape closes it
    page.wait_for_selector("[data-testid=rules-dialog]:not([open])", state="attached")


def test_a_table_opens_the_rules_at_the_current_phase(new_page, screenshot):
    page = new_page(locale="en-US")
    frames = Frames(page)
    enter_as_guest(page, "Reader")
    create_table(page, "catbox", 3)
    add_bot(page, 1)
    add_bot(page, 2)
    page.wait_for_selector("[data-key=start]")
    header_button = page.locator(".table-header [data-testid=rules-button]")
    open_rules(page, header_button, "/rules/catbox?lang=en#overview")  # not started yet: the overview
    close_rules(page)
    start(page)
    page.wait_for_selector(".my-hand .hand-card:enabled")
    assert frames.last_view["phase"] == "discard"

    frame = open_rules(page, header_button, "/rules/catbox?lang=en#discard")
    shown = shown_section(frame)
    assert shown["title"] == "Discard" and 0 <= shown["top"] < 40 and shown["scrolled"] > 0
    assert "every discard is revealed" in frame.inner_text("#discard + p")
    screenshot(page, "rules-table")
    close_rules(page)

    switch_language(page)
    frame = open_rules(page, header_button, "/rules/catbox?lang=ja#discard")
    shown = shown_section(frame)
    assert (shown["lang"], shown["title"]) == ("ja", "カードを伏せる")
    close_rules(page)

    # the section follows the game: after the discard comes the prediction, then the tricks
    assert catbox_turn(page, frames)
    page.wait_for_function("() => !document.querySelector('[data-key=discard]')")
    deadline = time.monotonic() + 15  # the bots discard too: wait for the view after the discards
    while time.monotonic() < deadline and (frames.last_view or {}).get("phase") == "discard":
        page.wait_for_timeout(50)
    phase = frames.last_view["phase"]
    assert phase in ("predict", "play")
    frame = open_rules(page, header_button, f"/rules/catbox?lang=ja#{phase}")
    assert shown_section(frame)["title"] in ("勝利予測", "トリック")


def test_the_rules_page_itself(server):
    page = httpx.get(f"{server.url}/rules/shutbox?lang=ja")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "script-src" not in page.headers["content-security-policy"]  # default-src 'none': no scripts
    assert '<html lang="ja">' in page.text and 'id="over"' in page.text and "<script" not in page.text
    assert re.search(r'<a href="#options">テーブルオプション</a>', page.text)  # the contents link to sections
    unknown = httpx.get(f"{server.url}/rules/chess")
    assert unknown.status_code == 404 and unknown.text == "There is no game 'chess'; games: shutbox, catbox, catopomp."
    bad_lang = httpx.get(f"{server.url}/rules/catbox?lang=fr", headers={"Accept-Language": "ja"})
    assert bad_lang.status_code == 400 and bad_lang.text == "「fr」のルールはありません。言語：en, ja。"


def test_the_replay_opens_the_rules_at_the_phase_shown(new_page, server):
    table_id = finished_solo_shutbox(server)
    page = new_page(locale="ja-JP")
    page.goto(f"/replay/{table_id}")
    page.wait_for_selector("[data-testid=replay-board] .shutbox")
    button = page.locator(".table-header [data-testid=rules-button]")
    frame = open_rules(page, button, "/rules/shutbox?lang=ja#over")  # the replay opens at the end
    assert shown_section(frame)["title"] == "ゲームの終わり"
    close_rules(page)
    at_end = page.inner_text("[data-testid=replay-position]")
    with page.expect_response(lambda r: "replay?step=0" in r.url):  # the start position arrives
        page.click("[data-key=first]")
    deadline = time.monotonic() + 15  # and is drawn
    while time.monotonic() < deadline and page.inner_text("[data-testid=replay-position]") == at_end:
        page.wait_for_timeout(50)
    assert page.inner_text("[data-testid=replay-position]") != at_end
    open_rules(page, button, "/rules/shutbox?lang=ja#play")
