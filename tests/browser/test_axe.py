"""axe-core finds nothing on any screen of the web client (issue 17): the lobby signed out and in,
the rules dialog and page, a table's seats before the start, each game while it is your turn (a
Cat in the Box card chosen with its colours offered, the round summary), each game's results, a
spectator's view, the replays and a missing table — each in English and Japanese, at 1280 and
390 px wide. axe-core is the version pinned in package.json (axe_audit.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from axe_audit import describe, violations
from browser_ui import create_table, enter_as_guest
from game_states import play_to

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

WIDTHS = (1280, 390)
LANGS = ("en", "ja")


def set_lang(page, lang: str) -> None:
    if page.evaluate("() => document.documentElement.lang") != lang:
        page.evaluate("() => document.querySelector('dialog[open]')?.close()")  # a modal hides the switch
        page.click("#lang-switch")
        page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")


def scan(page, screen: str, ready: str, failures: list[str], prepare=None) -> None:
    """axe on this screen in both languages at both widths; `prepare(page)` puts the screen back
    after a redraw (a chosen card, an open dialog)."""
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        for lang in LANGS:
            set_lang(page, lang)
            if prepare:
                prepare(page)
            page.wait_for_selector(ready)
            found = violations(page)
            if found:
                failures.append(f"--- {screen}, {lang}, {width} px:\n{describe(found)}")
    set_lang(page, "en")


def table_page(new_page, server, seated, ready: str):
    page = new_page()
    seated.open_in(page.context, server)
    page.goto(f"/#/table/{seated.table}")
    page.wait_for_selector(ready)
    return page


def results_and_replay(new_page, server, game: str, players: int, name: str, failures: list[str]) -> None:
    """A whole game played to its end: its results and its replay."""
    over = play_to(server, game, players, lambda v: False, seed=players + 5)
    page = table_page(new_page, server, over, "[data-testid=results]:not([hidden])")
    scan(page, f"{name}, results", "[data-testid=replay-link]", failures)
    page.goto(f"/replay/{over.table}")
    scan(page, f"{name}, replay", "[data-testid=move-list] li", failures)


def test_the_scan_finds_what_is_wrong(new_page):
    """The audit is not empty: a control without a name is reported."""
    page = new_page()
    page.goto("/")
    page.wait_for_selector("#guest-name")
    page.evaluate("() => document.querySelector('main').append(document.createElement('button'))")
    assert "button-name" in {v["id"] for v in violations(page)}


def test_lobby_rules_and_seats(new_page):
    failures: list[str] = []
    page = new_page()
    page.goto("/")
    scan(page, "lobby, signed out", "#guest-name", failures)
    enter_as_guest(page, "Axel")
    create_table(page, "catbox", 4)
    scan(page, "table seats before the start", ".seat-manager [data-key=add-bot-1]", failures)
    page.goto("/")
    scan(page, "lobby, signed in, with a table", ".table-card", failures)

    def rules_open(p):
        if not p.locator("[data-testid=rules-dialog][open]").count():
            p.click("[data-testid=games] [data-testid=rules-button] >> nth=0")

    scan(page, "rules dialog", "[data-testid=rules-dialog][open]", failures, prepare=rules_open)
    for lang in LANGS:
        page.goto(f"/rules/catbox?lang={lang}")
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            found = violations(page)
            if found:
                failures.append(f"--- rules page, {lang}, {width} px:\n{describe(found)}")
    page.goto("/#/table/987654")
    scan(page, "a missing table", "[data-testid=game] .error", failures)
    assert not failures, "\n".join(failures)


def _choose_a_card(page) -> None:
    if not page.locator(".colour-choices button").count():
        page.locator(".my-hand .hand-card:enabled").first.click()
        page.wait_for_selector(".colour-choices button")


def test_cat_in_the_box(new_page, server):
    failures: list[str] = []
    playing = play_to(server, "catbox", 4, lambda v: v["phase"] == "play" and len(v["trick"]) >= 2, again=10)
    page = table_page(new_page, server, playing, ".my-hand .hand-card:enabled")
    scan(page, "Cat in the Box, a card chosen", ".colour-choices button", failures, prepare=_choose_a_card)
    spectator = new_page()
    spectator.goto(f"/#/table/{playing.table}")
    scan(spectator, "Cat in the Box, a spectator", "[data-testid=trick]", failures)

    summary = play_to(server, "catbox", 4, lambda v: v.get("last_round") is not None, seed=4, again=10)
    page = table_page(new_page, server, summary, "[data-testid=round-summary]")
    scan(page, "Cat in the Box, round summary", "[data-testid=round-summary]", failures)

    results_and_replay(new_page, server, "catbox", 4, "Cat in the Box", failures)
    assert not failures, "\n".join(failures)


def test_shut_the_box(new_page, server):
    failures: list[str] = []
    rolled = play_to(server, "shutbox", 2, lambda v: any(a.startswith("shut") for a in v["legal"]), again=10)
    page = table_page(new_page, server, rolled, ".player-board.mine button[data-tile]:enabled")
    scan(page, "Shut the Box, tiles to shut", ".player-board.mine button[data-tile]", failures)
    results_and_replay(new_page, server, "shutbox", 2, "Shut the Box", failures)
    assert not failures, "\n".join(failures)


def test_catopomp(new_page, server):
    failures: list[str] = []
    playing = play_to(server, "catopomp", 3, lambda v: any(a.startswith("play") for a in v["legal"]), again=10)
    page = table_page(new_page, server, playing, ".my-hand button.cp-card")

    def select_a_card(p):
        if not p.locator(".my-hand button.cp-card[aria-pressed=true]").count():
            p.locator(".my-hand button.cp-card:enabled").first.click()

    scan(page, "Catopomp, a card selected", ".my-hand button.cp-card[aria-pressed=true]", failures, select_a_card)
    results_and_replay(new_page, server, "catopomp", 3, "Catopomp", failures)
    assert not failures, "\n".join(failures)
