"""The lobby in a real browser: entering as a guest, signing up, the create form with every option
and its explanation, the language switch (English / Japanese, the browser's language first)."""

from __future__ import annotations

import sys
from pathlib import Path

import httpx
import pytest

from nekobako.i18n import text

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser_ui import create_table, enter_as_guest, switch_language

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def test_every_string_exists_in_both_languages(new_page):
    page = new_page()
    page.goto("/")
    missing = page.evaluate("import('/static/i18n.js').then(m => m.missingKeys())")
    assert missing == []


def test_language_follows_the_browser_and_the_switch(new_page, screenshot):
    page = new_page(locale="en-US")
    page.goto("/")
    page.wait_for_selector("#tables-title")
    assert page.inner_text("#tables-title") == "Tables"
    assert page.get_attribute("html", "lang") == "en"

    switch_language(page)
    assert page.inner_text("#tables-title") == "テーブル"
    assert page.inner_text("#create-title") == "テーブルを作成"
    assert page.get_attribute("html", "lang") == "ja"
    page.reload()  # the choice is remembered
    page.wait_for_selector("#tables-title")
    assert page.inner_text("#tables-title") == "テーブル"
    switch_language(page)
    assert page.inner_text("#tables-title") == "Tables"

    japanese = new_page(locale="ja-JP")
    japanese.goto("/")
    japanese.wait_for_selector("#tables-title")
    assert japanese.inner_text("#tables-title") == "テーブル"
    assert "ゲストで遊ぶ" in japanese.inner_text("[data-testid=guest-form]")
    japanese.wait_for_selector("[data-option]")
    screenshot(japanese, "lobby-ja")
    japanese.set_viewport_size({"width": 390, "height": 844})
    assert japanese.is_visible("[data-key=to-create]")  # the form is far below on a phone
    # a game's name stays on one line beside its buttons (it was broken after every character)
    for name in japanese.locator(".game-name").all():
        font = float(name.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))
        assert name.bounding_box()["height"] < 2 * font, name.inner_text()
    screenshot(japanese, "lobby-ja-phone")


def test_guest_sign_up_log_in_and_the_create_form(new_page, server, screenshot, page_errors):
    page_errors.expect(
        r"status of 401 .*/api/auth/login",
        "a wrong password is tried on purpose: the server refuses it (the page says so) and Chromium logs the refusal",
    )
    page_errors.expect(
        r"status of 400 .*/api/tables\)",
        "an option the engine refuses is tried on purpose (purple at 2 players): the page words the refusal",
    )
    page = new_page()
    enter_as_guest(page, "Mika")
    assert "Mika" in page.inner_text("[data-testid=whoami]")
    page.click("#topnav button.link")  # log out
    page.wait_for_selector("[data-testid=login-form]")

    # sign up, log out, log in again
    page.fill("#acc-name", "ren")
    page.fill("#acc-password", "correct horse")
    page.click("[data-testid=login-form] button[value=signup]")
    page.wait_for_selector("[data-testid=whoami]")
    page.click("#topnav button.link")
    page.wait_for_selector("[data-testid=login-form]")
    page.fill("#acc-name", "ren")
    page.fill("#acc-password", "wrong password")
    page.click("[data-testid=login-form] button[value=login]")
    page.wait_for_selector(".toast.show.error")
    page.fill("#acc-password", "correct horse")
    page.click("[data-testid=login-form] button[value=login]")
    page.wait_for_selector("[data-testid=whoami]")

    # every option of every game is in the form, with the engine's explanation (research options
    # behind "advanced")
    games = httpx.get(server.url + "/api/games").json()["games"]
    for game in games:
        page.select_option("#create-game", game["name"])
        if any(spec["advanced"] for spec in game["options"]):
            page.click("[data-testid=advanced-options] summary")
        for spec in game["options"]:
            field = page.locator(f"[data-option={spec['name']}]")
            assert field.count() == 1, spec["name"]
            assert text(spec["help"], "en") in field.inner_text()
            if spec["choices"]:
                assert field.locator("option").count() >= len(spec["choices"])
                # every value's label is capitalised as the others are ("Off (default)", not "off")
                labels = field.locator("option").all_inner_texts()
                assert all(not label[0].islower() for label in labels), (spec["name"], labels)
        seats = page.locator("#create-seats option")
        assert seats.count() == game["max_players"] - game["min_players"] + 1
    # an option the engine refuses: its words are shown, no table is made
    page.select_option("#create-game", "catbox")
    page.select_option("#create-seats", "2")
    page.select_option("#opt-side", label="Purple")
    page.click("[data-testid=create-form] button[type=submit]")
    page.wait_for_function("() => document.querySelector('.form-error').innerText.length > 0")
    assert "purple" in page.inner_text(".form-error").lower()
    assert "#/table/" not in page.url

    # a table with a bot, seen from the lobby
    page.select_option("#opt-side", label="White")
    page.select_option("#create-seats", "3")
    page.click("[data-testid=create-form] button[type=submit]")
    page.wait_for_selector(".seat-manager")
    page.click("[data-key=add-bot-1]")
    page.wait_for_selector("[data-key=add-bot-1]", state="detached")
    page.goto("/")
    page.wait_for_selector("li[data-table] .seat-chip.kind-bot")
    assert "waiting for players" in page.inner_text("li[data-table]")
    page.select_option("#create-game", "shutbox")
    screenshot(page, "lobby")

    assert not page.is_visible("[data-key=to-create]")  # beside the list at 1280 px: no need

    phone = new_page(width=390, height=844)
    enter_as_guest(phone, "Pho")
    phone.wait_for_selector("[data-option]")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the lobby is {width}px wide on a 390px phone"
    screenshot(phone, "lobby-phone")
    # the free-seat checkbox is a box beside its label, not a field-wide input above it
    box = phone.locator("#filter-free").bounding_box()
    label = phone.locator("label[for=filter-free]").bounding_box()
    assert box["width"] <= 48 and box["height"] <= 48, box
    assert abs((box["y"] + box["height"] / 2) - (label["y"] + label["height"] / 2)) < 8, (box, label)
    assert box["x"] + box["width"] <= label["x"], (box, label)
    # on a phone the form comes after the whole table list: a button on the first screen brings it
    jump = phone.locator("[data-key=to-create]")
    assert jump.is_visible() and jump.bounding_box()["y"] + jump.bounding_box()["height"] <= 844
    jump.click()
    assert phone.evaluate("document.activeElement.id") == "create-game"
    heading = phone.locator("#create-title").bounding_box()
    assert 0 <= heading["y"] < 844, heading
    phone.select_option("#create-game", "catbox")  # and a table is made from there
    create_table(phone, "catbox", 3)


def test_keyboard_reaches_the_guest_form(new_page):
    page = new_page()
    page.goto("/")
    page.wait_for_selector("#guest-name")
    page.focus("#guest-name")
    page.keyboard.type("Kei")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=whoami]")
    assert "Kei" in page.inner_text("[data-testid=whoami]")


def test_event_words_from_the_engine_templates(new_page):
    """The log formats the engine's en/ja event templates (as /api/games may send them): `{who}` is
    the seat's name, seat lists become names, Cat in the Box colours are translated."""
    page = new_page()
    page.goto("/")
    page.wait_for_selector("#tables-title")
    words = page.evaluate(
        """async () => {
        const w = await import('/static/words.js');
        const i18n = await import('/static/i18n.js');
        const info = {name: 'catbox'};
        const names = ['Ann', 'Bo', 'Cy'];
        const say = () => [
          w.describeEvent({kind: 'trick_won', seat: 1, data: {trick: 2, number: 5, colour: 'red'}}, info, names),
          w.describeEvent({kind: 'game_over', seat: null, data: {winners: [0, 2]}}, info, names),
          w.describeEvent({kind: 'spares_set', seat: null, data: {faces: {'0': 4}}}, null, names),
          w.describeEvent({kind: 'trick_won', seat: 1, data: {trick: 2, number: 5, colour: 'red'}}, info, names, 1),
        ];
        const en = say();
        await i18n.setLang('ja');
        const ja = say();
        await i18n.setLang('en');
        return [...en, ...ja];
      }"""
    )
    assert words[0] == "Bo wins trick 2 with red 5"
    assert words[1] == "Game over: Ann and Cy won"
    assert words[2] == "spares set (faces Ann: 4)"  # no template: still readable
    assert words[3] == "You win trick 2 with red 5"  # the reader's own trick, in the second person
    assert words[4] == "Boが赤の5でトリック2を獲得"
    assert words[5] == "ゲーム終了：勝者 Ann、Cy"
    assert words[7] == "あなたが赤の5でトリック2を獲得"


def test_a_table_made_elsewhere_appears_without_reload_and_the_focus_stays(new_page):
    """The lobby is pushed (/ws/lobby) and patched: a table another person creates shows up in an
    open lobby told by its socket (not by the slow poll), and the control the reader's focus is on
    stays the same element when the new table's card comes in above it."""
    reader = new_page()
    frames: list[str] = []
    reader.on(
        "websocket",
        lambda ws: ws.on("framereceived", lambda frame: frames.append(frame)) if ws.url.endswith("/ws/lobby") else None,
    )
    enter_as_guest(reader, "Reader")
    maker = new_page()
    enter_as_guest(maker, "Maker")
    first = create_table(maker, "shutbox", 2)
    card = f"li[data-table='{first}']"
    reader.wait_for_selector(card)
    assert frames, "the table came by a poll, not by the lobby's socket"

    watch = reader.locator(f"{card} button", has_text="Watch")
    watch.focus()
    reader.evaluate("() => { document.activeElement.__marked = true; }")
    maker.goto("/")
    second = create_table(maker, "catbox", 3)
    reader.wait_for_selector(f"li[data-table='{second}']")
    order = reader.evaluate("() => [...document.querySelectorAll('li[data-table]')].map((li) => +li.dataset.table)")
    assert order.index(second) < order.index(first)  # the new card came in above the focused one
    assert reader.evaluate("() => document.activeElement.__marked === true"), "the focused button was rebuilt"
    assert reader.evaluate(f'() => document.querySelector("{card}").contains(document.activeElement)')
