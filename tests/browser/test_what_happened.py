"""What just happened stays on the table (issue 10): a completed Cat in the Box trick after its
fourth card, the round summary with the final board and each seat's breakdown, a Catopomp play
with its dice, the prompt of the phase, the whole log by round — in English and Japanese."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser_ui import (
    GAME_TIMEOUT,
    add_bot,
    catbox_turn,
    catopomp_turn,
    create_table,
    enter_as_guest,
    play_until_over,
    start,
    take_turn,
)

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def until(page, done, turn, timeout: float = GAME_TIMEOUT) -> None:
    """Take turns until `done(page)`; fail if the game ends first or time runs out."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if done(page):
            return
        assert page.locator("[data-testid=results]:not([hidden])").count() == 0, "the game ended first"
        if not take_turn(page, turn):  # a UI error on a position that did not move on is raised
            page.wait_for_timeout(50)  # poll: the bots are to move
    raise AssertionError("not seen in time")


def table_with_bots(page, game: str, seats: int, level: str = "random") -> None:
    create_table(page, game, seats)
    for seat in range(1, seats):
        add_bot(page, seat, level)
    start(page)


def test_a_completed_trick_stays_visible_with_its_winner(new_page, screenshot):
    page = new_page()
    enter_as_guest(page, "Ada")
    table_with_bots(page, "catbox", 4)

    seen: dict = {}

    def shown(p) -> bool:
        if p.locator("[data-key=last-trick][aria-pressed=false]").count():
            p.click("[data-key=last-trick]")  # during the next trick, the control shows it again
        # read the trick area at one instant (the bots play on while the test looks)
        seen.update(
            p.evaluate(
                """() => {
                  const last = document.querySelector('[data-testid=last-trick]');
                  return last ? {cards: last.querySelectorAll('.trick-cards li').length,
                                 won: last.querySelectorAll('li.won').length, text: last.innerText} : {cards: 0};
                }"""
            )
        )
        return seen["cards"] == 4

    until(page, shown, catbox_turn)
    assert seen["won"] == 1  # the winner's card is marked
    assert "won trick" in seen["text"]
    assert page.inner_text("[data-testid=prompt]").strip()  # what to do now, in words
    assert "most points wins" in page.inner_text("[data-testid=goal]")
    # every symbol of the players' table is explained
    assert "leads this trick" in page.inner_text(".catbox-players .legend")
    screenshot(page, "catbox-last-trick")


WATCH_SUMMARIES = """() => {
  window.__summaries = [];
  new MutationObserver(() => {
    const el = document.querySelector('[data-testid=round-summary]');
    if (!el) return;
    const title = el.querySelector('h2').textContent;
    if (!window.__summaries.some((s) => s.title === title))
      window.__summaries.push({
        title,
        text: el.innerText,
        cells: el.querySelectorAll('[data-testid=final-board] td').length,
        rows: el.querySelectorAll('[data-testid=breakdown] tbody tr').length,
        headings: el.querySelector('[data-testid=breakdown] thead').innerText,
      });
  }).observe(document.body, {childList: true, subtree: true});
}"""

# Every trick outcome the page shows ("… won trick 3"), in the order shown.
WATCH_OUTCOMES = """() => {
  window.__outcomes = [];
  new MutationObserver(() => {
    for (const el of document.querySelectorAll('.trick-outcome'))
      if (!window.__outcomes.includes(el.textContent)) window.__outcomes.push(el.textContent);
  }).observe(document.body, {childList: true, subtree: true, characterData: true});
}"""


def test_the_round_summary_shows_the_final_board_and_breakdown_until_closed(new_page, screenshot):
    page = new_page()
    enter_as_guest(page, "Bea")
    table_with_bots(page, "catbox", 2)
    headers = page.inner_text("[data-testid=players] thead")
    assert "Pred." not in headers  # no predictions at 2 players: no empty column
    assert "(" not in page.inner_text("[data-testid=players] tbody th")  # "Bot 1 · random", no brackets
    page.evaluate(WATCH_SUMMARIES)  # every summary the page shows, even if answered by a quick move
    page.evaluate(WATCH_OUTCOMES)
    play_until_over([page], catbox_turn)
    outcomes = page.evaluate("window.__outcomes")
    assert outcomes and not [o for o in outcomes if "Bea" in o], outcomes  # one's own trick: "You won trick 2"
    assert "Bea" not in page.inner_text("[data-testid=results] .winners")  # "You win!" or the others' names
    seen = page.evaluate("window.__summaries")
    assert [s["title"] for s in seen] == ["Round 1 is over", "Round 2 is over"]
    for summary in seen:
        assert summary["cells"] == 24 and summary["rows"] == 2  # the final 4 × 6 board, one row per seat
        for heading in ("Discard", "Tricks", "Bonus", "Points", "Total"):
            assert heading in summary["headings"]
    # after the last round nothing is due: the summary stays with the results until it is closed
    summary = page.locator("[data-testid=round-summary]")
    page.wait_for_timeout(1500)  # an observation window, not synchronisation: it must not go by itself
    assert "Round 2 is over" in summary.inner_text()
    screenshot(page, "catbox-round-summary")
    page.set_viewport_size({"width": 390, "height": 844})  # on a phone the breakdown fits the page
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide on a 390px phone"
    page.set_viewport_size({"width": 1280, "height": 900})
    # the log holds the whole game, grouped by round, each move before what it caused
    titles = page.locator("[data-testid=log] .log-round-title").all_inner_texts()
    assert titles == ["Round 1", "Round 2"]
    summary.locator("[data-key=close-summary]").click()
    assert page.locator("[data-testid=round-summary]").count() == 0


def test_the_round_summary_in_japanese_on_a_phone(new_page, screenshot):
    page = new_page(locale="ja-JP", width=390, height=844)
    enter_as_guest(page, "千代")
    table_with_bots(page, "catbox", 2)
    page.evaluate(WATCH_SUMMARIES)
    until(page, lambda p: p.evaluate("window.__summaries.length") > 0, catbox_turn)
    text = page.evaluate("window.__summaries[0].text")
    assert "第1ラウンド終了" in text and "最終盤面" in text
    assert page.inner_text("[data-testid=goal]").startswith("全2ラウンド")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 400, f"the page is {width}px wide on a 390px phone"
    screenshot(page, "catbox-round-summary-ja-phone")


def catopomp_dice_turn(page) -> bool:
    """Lead with a dice boost when the client offers one (a centre die and a hand card), else a
    normal turn."""
    lead = page.locator(".catopomp [data-testid=table-combo] .muted").count() > 0
    die = page.locator("[data-testid=dice] button.die:enabled[aria-pressed=false]")
    if lead and die.count() and page.locator(".my-hand button.cp-card:enabled").count():
        die.first.click(timeout=2000)
        for _ in range(3):
            boosted = page.locator(".play-buttons button.primary[data-action*='+']:enabled")
            if boosted.count():
                boosted.first.click(timeout=2000)
                return True
            card = page.locator(".my-hand button.cp-card:enabled[aria-pressed=false]")
            if not card.count():
                break
            card.first.click(timeout=2000)
        if page.locator("[data-key=clear]").count():
            page.click("[data-key=clear]", timeout=2000)
    return catopomp_turn(page)


def test_a_catopomp_dice_play_shows_its_dice_and_strength(new_page, screenshot):
    page = new_page()
    enter_as_guest(page, "Cleo")
    table_with_bots(page, "catopomp", 3, "greedy")
    seen: dict = {}

    def dice_play_shown(p) -> bool:
        # read the combination at one instant: the bots play over it while the test looks
        seen.update(
            p.evaluate(
                """() => {
                  const combo = document.querySelector('[data-testid=combination]');
                  return {dice: combo ? combo.querySelectorAll('.combo-die').length : 0,
                          faces: combo ? combo.querySelectorAll('.die').length : 0,
                          text: combo ? combo.innerText : '',
                          strength: combo?.querySelector('[data-testid=strength]')?.innerText ?? ''};
                }"""
            )
        )
        texts.append(seen["text"])
        return seen["dice"] > 0

    texts: list[str] = []
    until(page, dice_play_shown, catopomp_dice_turn)
    assert not [x for x in texts if "played by Cleo" in x]  # one's own play: "played by you"
    assert "centre die" in seen["text"] or "spare die" in seen["text"]
    assert seen["faces"] >= 1
    assert seen["strength"].startswith("Strength: a ")
    assert "soul gem" in page.inner_text("[data-testid=goal]")
    assert "spare die" in page.inner_text("[data-testid=dice] .legend")
    screenshot(page, "catopomp-dice-play")
