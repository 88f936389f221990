"""Playing together (issue 13), each person in their own browser context: player pages with a
rating chart, chat seen by the other player and in the replay, rematch, the lobby's filters and
deck presets, clocks that cost one turn only."""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))

from axe_audit import describe, violations
from browser_ui import shutbox_turn, switch_language, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def no_axe_violations(page, screen: str) -> None:
    """axe-core finds nothing on this screen, in English and in Japanese."""
    for _ in range(2):
        found = violations(page)
        assert not found, f"{screen}, {page.evaluate('() => document.documentElement.lang')}:\n{describe(found)}"
        switch_language(page)


def sign_up(page, name: str) -> None:
    page.goto("/")
    page.fill("#acc-name", name)
    page.fill("#acc-password", "correct horse battery")
    page.click("[data-testid=login-form] button[value=signup]")
    page.wait_for_selector("[data-testid=whoami]")


def http_of(page, server) -> httpx.Client:
    """An HTTP client holding the page's session cookie: the same person, outside the browser."""
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "nekobako_session")
    return httpx.Client(base_url=server.url, timeout=15, cookies={"nekobako_session": token})


def play_out_as(server, pages, table_id: int, seed: int = 1) -> None:
    """Every page's person plays random legal moves over their own WebSocket until the game ends."""
    rng = random.Random(seed)
    socks = []
    for page in pages:
        token = next(c["value"] for c in page.context.cookies() if c["name"] == "nekobako_session")
        url = f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}"
        socks.append(connect(url, additional_headers={"Cookie": f"nekobako_session={token}"}, legacy=True))
    answered = [-1] * len(socks)
    try:
        over = False
        while not over:
            for i, ws in enumerate(socks):
                try:
                    msg = json.loads(ws.recv(timeout=0.05))
                except TimeoutError:
                    continue
                if msg["type"] != "state" or msg["view"] is None:
                    continue
                if msg["view"]["over"]:
                    over = True
                    break
                if msg["view"]["legal"] and msg["seq"] != answered[i]:
                    answered[i] = msg["seq"]
                    action = rng.choice(msg["view"]["legal"])
                    ws.send(json.dumps({"type": "action", "seq": msg["seq"], "action": action}))
    finally:
        for ws in socks:
            ws.close()


def started_table(server, host, guest, game: str = "shutbox", seats: int = 2, **body) -> int:
    """A table `host` created and `guest` joined, started; its id."""
    host_http, guest_http = http_of(host, server), http_of(guest, server)
    created = host_http.post("/api/tables", json={"game": game, "seats": seats, **body})
    assert created.status_code == 201, created.text
    table_id = created.json()["id"]
    assert guest_http.post(f"/api/tables/{table_id}/join").status_code == 200
    assert host_http.post(f"/api/tables/{table_id}/start").status_code == 200
    return table_id


def test_a_player_page_with_a_rating_chart(new_page, server, screenshot, page_errors):
    page_errors.expect(
        r"status of 404 .*/api/players/Nobody", "the page of a player who does not exist is opened on purpose"
    )
    alice, bob = new_page(), new_page()
    sign_up(alice, "Aiko")
    sign_up(bob, "Bruno")
    for seed in (1, 2):
        play_out_as(server, [alice, bob], started_table(server, alice, bob), seed)

    bob.goto("/player/Aiko")
    bob.wait_for_selector("[data-testid=rating-chart]")
    assert bob.inner_text("[data-testid=player-name]") == "Aiko"
    chart = bob.locator(".rating-game[data-game=shutbox] [data-testid=rating-chart]")
    assert chart.get_attribute("data-points") == "3"  # the start and two rated games
    assert chart.locator("circle").count() == 3
    assert "1500" in chart.get_attribute("aria-label")
    assert bob.locator("[data-testid=win-rates] tr[data-game=shutbox] td").first.inner_text() == "2"
    games = bob.locator("[data-testid=recent-games] li")
    assert games.count() == 2
    screenshot(bob, "player-page")
    no_axe_violations(bob, "player page")

    # names link to player pages: from Aiko's recent game to Bruno's page, and its replay link
    games.first.locator("a.player-link", has_text="Bruno").click()
    bob.wait_for_url("**/player/Bruno")
    bob.wait_for_selector("[data-testid=rating-chart]")
    assert bob.inner_text("[data-testid=player-name]") == "Bruno"
    href = bob.locator("[data-testid=recent-games] li").first.locator("a", has_text="Replay").get_attribute("href")
    assert href.startswith("/replay/")

    # the lobby's rating list links there too; an unknown name says so
    alice.goto("/")
    alice.wait_for_selector(".rating-list a.player-link")
    alice.click(".rating-list a.player-link:has-text('Bruno')")
    alice.wait_for_url("**/player/Bruno")
    alice.wait_for_selector("[data-testid=rating-chart]")
    alice.goto("/player/Nobody%20here")
    wait_until(alice, "() => document.querySelector('.player-page .error') !== null")
    assert "Nobody here" in alice.inner_text(".player-page .error")


def enter_guest(page, name: str) -> None:
    page.goto("/")
    page.fill("#guest-name", name)
    page.click("[data-testid=guest-form] button[type=submit]")
    page.wait_for_selector("[data-testid=whoami]")


def test_a_chat_message_reaches_the_other_player_and_the_replay(new_page, server, screenshot):
    alice, bob, carol = new_page(), new_page(), new_page()
    for page, name in ((alice, "Alice"), (bob, "Bob"), (carol, "Carol")):
        enter_guest(page, name)
    table_id = started_table(server, alice, bob)
    for page in (alice, bob, carol):
        page.goto(f"/table/{table_id}")
        page.wait_for_selector("[data-testid=chat-input]")
    assert alice.inner_text("label[for=chat-input]") == "Message to the table"
    assert carol.inner_text("label[for=chat-input]") == "Message to the other spectators"

    alice.fill("[data-testid=chat-input]", "good luck <b>Bob</b>")
    alice.press("[data-testid=chat-input]", "Enter")
    for page in (bob, carol):
        page.wait_for_selector("[data-testid=chat-log] .chat-text")
        assert page.inner_text("[data-testid=chat-log] .chat-text") == "good luck <b>Bob</b>"  # text, not HTML
        assert page.locator("[data-testid=chat-log] b").count() == 0
    assert alice.input_value("[data-testid=chat-input]") == ""

    carol.fill("[data-testid=chat-input]", "go Bob")
    carol.click("[data-testid=chat] button[type=submit]")
    carol.wait_for_selector(".chat-spectators")
    bob.fill("[data-testid=chat-input]", "thanks")
    bob.press("[data-testid=chat-input]", "Enter")
    alice.wait_for_selector(".chat-message:has-text('thanks')")
    assert alice.locator(".chat-spectators").count() == 0  # players do not read the gallery
    screenshot(bob, "table-chat")
    no_axe_violations(carol, "table with chat, spectator")

    play_out_as(server, [alice, bob], table_id)
    bob.wait_for_selector("[data-testid=results]:not([hidden])")
    bob.wait_for_selector(".chat-spectators")  # after the end, both channels

    alice.goto(f"/replay/{table_id}")
    alice.wait_for_selector("[data-testid=replay-position]")
    log = alice.locator(".side [data-testid=chat-log]")
    wait_until(alice, "() => document.querySelectorAll('.side .chat-message').length === 3")
    assert [log.locator(".chat-text").nth(i).inner_text() for i in range(3)] == [
        "good luck <b>Bob</b>",
        "go Bob",
        "thanks",
    ]
    alice.click("[data-key=first]")  # at the start, only what was written before the first move
    wait_until(alice, "() => document.querySelectorAll('.side .chat-message').length === 0")
    assert "No messages yet" in alice.inner_text(".side [data-testid=chat-log]")


def test_a_timeout_costs_one_turn_only_and_a_replaced_player_comes_back(new_page, server, screenshot):
    alice, bob = new_page(), new_page()
    enter_guest(alice, "Tama")
    enter_guest(bob, "Kuro")
    # Tama creates a real-time table in the lobby: a 5 s bank, 20 s per move, 3 timeouts in a row
    # (after a timeout the bank is the grace: the increment here, time enough on a busy machine)
    alice.select_option("#create-game", "shutbox")
    alice.select_option("#create-clock", "realtime")
    alice.fill("#create-seconds", "5")
    alice.fill("#create-increment", "20")
    assert alice.input_value("#create-timeouts") == "3"
    alice.click("[data-testid=create-form] button[type=submit]")
    alice.wait_for_selector(".seat-manager")
    table_id = int(alice.url.rsplit("/", 1)[1])
    # the clock is shown in the lobby and on the table before anyone else joins
    bob.goto("/")
    card = bob.locator(f"li[data-table='{table_id}'] [data-testid=clock-line]")
    assert card.inner_text() == "Real-time: 0:05 + 20 s per move · 3 timeouts in a row hand the seat to a bot"
    bob.goto(f"/table/{table_id}")
    bob.wait_for_selector(".seat-manager")
    assert "Real-time: 0:05" in bob.inner_text("[data-testid=clock]")
    bob.click(".seat-manager button:has-text('Join')")
    alice.wait_for_selector("[data-key=start]")
    alice.click("[data-key=start]")

    for page in (alice, bob):
        page.wait_for_selector("[data-testid=clock] .clock-item")
    mover = alice if alice.locator("[data-testid=controls] [data-action=roll]").count() else bob
    mover.wait_for_selector("[data-testid=controls] [data-action=roll]")
    name = "Tama" if mover is alice else "Kuro"
    # the mover lets the clock run out: a bot plays that one decision, the seat stays theirs (the
    # table says so to them in the second person, to the other player by name)
    log = "[data-testid=log] :text('You ran out of time; the greedy bot played this turn for you (1 of 3 in a row).')"
    mover.wait_for_selector(log, timeout=15000)
    watcher = bob if mover is alice else alice
    watcher.wait_for_selector(
        f"[data-testid=log] :text('({name}) ran out of time; the greedy bot played this turn for them')"
    )
    assert mover.locator("[data-key=reclaim]").count() == 0
    assert f"You are {name}" in mover.inner_text(".table-header")
    wait_until(mover, "() => document.querySelector('[data-testid=clock]').textContent.includes('timeouts 1/3')")
    # and they play their next decision themselves, which forgets the timeout
    mover.wait_for_selector(
        ".choices button[data-action]:enabled, [data-testid=controls] [data-action=roll]:enabled", state="attached"
    )
    seq = mover.evaluate("() => document.querySelector('[data-testid=game]').dataset.seq")
    assert shutbox_turn(mover)
    wait_until(mover, f"() => document.querySelector('[data-testid=game]').dataset.seq !== '{seq}'")
    wait_until(mover, "() => !document.querySelector('[data-testid=clock]').textContent.includes('timeouts')")
    screenshot(mover, "table-clock-timeout")

    # a table where one timeout hands the seat over: the player takes it back with one click
    other = started_table(server, bob, alice, clock={"kind": "realtime", "bank": 5, "timeouts": 1})
    for page in (alice, bob):
        page.goto(f"/table/{other}")
        page.wait_for_selector("[data-testid=clock] .clock-item")
    mover = alice if alice.locator("[data-testid=controls] [data-action=roll]").count() else bob
    mover.wait_for_selector("[data-key=reclaim]", timeout=15000)
    assert "A bot plays your seat." in mover.inner_text(".table-header")
    mover.click("[data-key=reclaim]")
    mover.wait_for_selector("[data-key=reclaim]", state="detached")
    mover.wait_for_selector("[data-testid=log] :text('You are back and play again.')")


def test_a_rematch_accepted_by_both_starts_a_new_table(new_page, server, screenshot):
    alice, bob = new_page(), new_page()
    enter_guest(alice, "Ume")
    enter_guest(bob, "Sakura")
    table_id = started_table(server, alice, bob, options={"tiles": 10})
    for page in (alice, bob):
        page.goto(f"/table/{table_id}")
        page.wait_for_selector(".shutbox")
    play_out_as(server, [alice, bob], table_id, seed=4)
    for page in (alice, bob):
        page.wait_for_selector("[data-testid=rematch] [data-key=rematch]")

    assert alice.locator("[data-testid=results] a.player-link").count() == 2  # names link to player pages
    alice.click("[data-key=rematch]")  # one click offers it to everyone who played
    bob.wait_for_selector("[data-key=rematch-accept]")
    assert "Ume offers a rematch with the same seats and options." in bob.inner_text("[data-testid=rematch]")
    assert "Waiting for: Sakura" in alice.inner_text("[data-testid=rematch]")
    assert alice.locator("[data-key=rematch-accept]").count() == 0  # the one who offered has accepted
    assert bob.inner_text("[data-testid=rematch-expires]").startswith("Unless everyone accepts by ")  # 10 min
    screenshot(bob, "rematch-offer")
    no_axe_violations(bob, "rematch offer")
    bob.click("[data-key=rematch-accept]")

    # both pages go to the new table, which is already running with the same seats and options
    for page in (alice, bob):
        page.wait_for_url(re.compile(r".*#/table/\d+$"))
        page.wait_for_selector(".shutbox")
    new_id = int(alice.url.rsplit("/", 1)[1])
    assert new_id != table_id and bob.url.endswith(f"#/table/{new_id}")
    new = http_of(alice, server).get(f"/api/tables/{new_id}").json()
    assert new["status"] == "running" and new["options"]["tiles"] == 10
    assert [s["user"]["name"] for s in new["seats"]] == ["Ume", "Sakura"]


def finish_solo_games(server, page, count: int) -> list[int]:
    """`count` one-player Shut the Box games the page's person played to the end (over a socket)."""
    http = http_of(page, server)
    token = http.cookies.get("nekobako_session")
    done = []
    rng = random.Random(11)
    for _ in range(count):
        table_id = http.post("/api/tables", json={"game": "shutbox", "seats": 1}).json()["id"]
        http.post(f"/api/tables/{table_id}/start").raise_for_status()
        url = f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}"
        with connect(url, additional_headers={"Cookie": f"nekobako_session={token}"}) as ws:
            answered = -1
            while True:
                msg = json.loads(ws.recv(timeout=15))
                if msg["type"] != "state" or msg["view"] is None:
                    continue
                if msg["view"]["over"]:
                    break
                if msg["view"]["legal"] and msg["seq"] != answered:
                    answered = msg["seq"]
                    action = rng.choice(msg["view"]["legal"])
                    ws.send(json.dumps({"type": "action", "seq": msg["seq"], "action": action}))
        done.append(table_id)
    return done


def test_lobby_filters_pages_winners_deck_presets_and_advanced_options(new_page, server, screenshot):
    alice, bob = new_page(), new_page()
    enter_guest(alice, "Hana")
    enter_guest(bob, "Jiro")

    # Catopomp: the deck from a preset, then card by card; never JSON
    alice.select_option("#create-game", "catopomp")
    alice.wait_for_selector("#opt-deck")
    assert alice.locator("#opt-deck option").first.inner_text().startswith("Default: 1–12 ×4")
    alice.select_option("#opt-deck", label="Short: 1–12 ×3 (36 cards)")
    alice.select_option("#create-seats", "2")
    alice.click("[data-testid=create-form] button[type=submit]")
    alice.wait_for_selector(".seat-manager")
    short = int(alice.url.rsplit("/", 1)[1])
    alice.goto("/")
    alice.select_option("#create-game", "catopomp")
    alice.select_option("#opt-deck", "custom")
    alice.wait_for_selector("#opt-deck-n13")
    alice.fill("#opt-deck-n13", "4")
    assert alice.inner_text("[data-testid=deck-total]") == "1–13 ×4 (52 cards)"
    no_axe_violations(alice, "create form with the deck editor")
    assert alice.inner_text("[data-testid=deck-total]") == "1–13 ×4 (52 cards)"  # kept through redraws
    alice.select_option("#create-seats", "2")
    alice.click("[data-testid=create-form] button[type=submit]")
    alice.wait_for_selector(".seat-manager")
    custom = int(alice.url.rsplit("/", 1)[1])
    assert http_of(alice, server).get(f"/api/tables/{custom}").json()["options"]["deck"][-1] == [13, 4]

    # Shut the Box: research options wait behind "advanced"
    alice.goto("/")
    alice.select_option("#create-game", "shutbox")
    assert not alice.locator("#opt-max_close").is_visible()
    alice.click("[data-testid=advanced-options] summary")
    alice.select_option("#opt-max_close", label="Up to 2")
    alice.click("[data-testid=create-form] button[type=submit]")
    alice.wait_for_selector(".seat-manager")
    research = int(alice.url.rsplit("/", 1)[1])

    # Jiro's lobby: deck in words, research options only when changed, filters by game and free seat
    bob.goto("/")
    bob.wait_for_selector(f"li[data-table='{short}']")
    assert "1–12 ×3 (36 cards)" in bob.inner_text(f"li[data-table='{short}'] .options-line")
    assert "[[" not in bob.inner_text("[data-testid=table-list]")
    assert "Up to 2" in bob.inner_text(f"li[data-table='{research}'] .options-line")
    screenshot(bob, "lobby-filters")
    no_axe_violations(bob, "lobby with filters")
    bob.select_option("#filter-game", "catopomp")
    wait_until(bob, f"() => !document.querySelector(\"li[data-table='{research}']\")")
    assert bob.locator("[data-testid=table-list] li").count() == 2
    bob.click(f"li[data-table='{short}'] button:has-text('Join')")
    bob.goto("/")
    bob.select_option("#filter-game", "catopomp")
    bob.check("#filter-free")
    # the list loads after the page: wait for the table that must stay, then for the one that must go
    bob.wait_for_selector(f"li[data-table='{custom}']")
    wait_until(bob, f"() => !document.querySelector(\"li[data-table='{short}']\")")
    assert bob.locator(f"li[data-table='{custom}']").count() == 1

    # finished tables with their winners, 20 to a page, "More tables" for the rest
    finished = finish_solo_games(server, bob, 21)
    bob.uncheck("#filter-free")
    bob.select_option("#filter-game", "shutbox")
    bob.select_option("#filter-status", "finished")
    wait_until(bob, "() => document.querySelectorAll('[data-testid=table-list] li').length === 20")
    newest = bob.locator("[data-testid=table-list] li").first
    assert newest.get_attribute("data-table") == str(finished[-1])
    won = http_of(bob, server).get(f"/api/tables/{finished[-1]}").json()["winners"]
    assert newest.locator("[data-testid=winners]").count() == (1 if won else 0)  # solo: won by shutting the box
    assert bob.locator(f"li[data-table='{finished[0]}']").count() == 0  # the 21st newest: on the next page
    bob.click("[data-key=more-tables]")
    bob.wait_for_selector(f"li[data-table='{finished[0]}']")
    wait_until(bob, "() => document.querySelectorAll('[data-testid=table-list] li').length > 20")

    # a two-player game's winner, named on its card
    http_of(alice, server).post(f"/api/tables/{research}/join")  # Hana sits already; Jiro joins
    http_of(bob, server).post(f"/api/tables/{research}/join").raise_for_status()
    http_of(alice, server).post(f"/api/tables/{research}/start").raise_for_status()
    play_out_as(server, [alice, bob], research, seed=6)
    detail = http_of(bob, server).get(f"/api/tables/{research}").json()
    names = [detail["seats"][seat]["name"] for seat in detail["winners"]]
    bob.reload()
    bob.select_option("#filter-status", "finished")
    # the finished list drawn first: counted on the active list, a "More" answered meanwhile would
    # take the button away before the click
    bob.wait_for_selector(f"li[data-table='{finished[-1]}']")
    while not bob.locator(f"li[data-table='{research}']").count():  # older than the 21 solo games
        count = bob.locator("[data-testid=table-list] li").count()
        bob.click("[data-key=more-tables]")
        wait_until(bob, f"() => document.querySelectorAll('[data-testid=table-list] li').length > {count}")
    bob.wait_for_selector(f"li[data-table='{research}'] [data-testid=winners]")
    line = bob.inner_text(f"li[data-table='{research}'] [data-testid=winners]")
    assert line == ("★ Winner: " if len(names) == 1 else "★ Winners: ") + " and ".join(names)
