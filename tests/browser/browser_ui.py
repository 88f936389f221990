"""What a person does in the browser, as small functions over a Playwright page: enter the lobby,
create and fill a table, and take one turn of each game through the controls the client offers
(never by sending notation directly). Each `*_turn` returns True when it acted."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable

import httpx
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page
from websockets.sync.client import connect

from nekobako.server.deltas import apply

GAME_TIMEOUT = 150.0  # seconds for one whole game in a test


class Frames:
    """Every WebSocket `state` message a page received, parsed (to check what reached the page);
    `delta` messages are applied to the state before them, as the page does (web/delta.js)."""

    def __init__(self, page: Page):
        self.states: list[dict] = []
        page.on("websocket", self._attach)

    def _attach(self, ws) -> None:
        ws.on("framereceived", self._frame)

    def _frame(self, payload) -> None:
        if isinstance(payload, bytes):
            return
        try:
            msg = json.loads(payload)
        except ValueError:
            return
        if isinstance(msg, dict) and msg.get("type") == "delta" and self.states:
            if self.states[-1].get("version") == msg["base"]:
                self.states.append({**apply(self.states[-1], msg["patch"]), "clock": msg["clock"]})
        elif isinstance(msg, dict) and msg.get("type") == "state":
            self.states.append(msg)

    def legal_at(self, seq: int) -> set[str] | None:
        """The legal actions of the view sent with `seq` (None if no such message)."""
        for msg in reversed(self.states):
            if msg.get("seq") == seq and msg.get("view") is not None:
                return set(msg["view"]["legal"])
        return None

    def check_offered(self, page: Page) -> None:
        """Every action a control on the page would send is legal in the view it was drawn from."""
        drawn = page.evaluate(
            """() => {
              const game = document.querySelector('[data-testid=game]');
              const actions = [...game.querySelectorAll('[data-action]')].map((e) => e.dataset.action);
              return {seq: game.dataset.seq, actions: actions.filter(Boolean)};
            }"""
        )
        if drawn["seq"] in (None, "", "undefined"):
            return
        legal = self.legal_at(int(drawn["seq"]))
        if legal is not None:
            assert set(drawn["actions"]) <= legal, (set(drawn["actions"]) - legal, drawn["seq"])

    @property
    def last_view(self) -> dict | None:
        for msg in reversed(self.states):
            if msg.get("view") is not None:
                return msg["view"]
        return None


def switch_language(page: Page) -> None:
    """Press the language switch and wait for the page to speak the other language (its words
    may be fetched first: the page holds only its own language's)."""
    before = page.evaluate("() => document.documentElement.lang")
    page.click("#lang-switch")
    page.wait_for_function("(before) => document.documentElement.lang !== before", arg=before)


def enter_as_guest(page: Page, name: str) -> None:
    page.goto("/")
    page.fill("#guest-name", name)
    page.click("[data-testid=guest-form] button[type=submit]")
    page.wait_for_selector("[data-testid=whoami]")


def create_table(page: Page, game: str, seats: int) -> int:
    """Create a table from the lobby form (default options); returns its id."""
    page.select_option("#create-game", game)
    page.wait_for_selector(f"#create-game option[value={game}]:checked", state="attached")
    page.select_option("#create-seats", str(seats))
    page.click("[data-testid=create-form] button[type=submit]")
    page.wait_for_url(re.compile(r".*#/table/\d+$"))
    page.wait_for_selector(".seat-manager")
    return int(page.url.rsplit("/", 1)[1])


def finished_solo_shutbox(server) -> int:
    """A one-player Shut the Box played to the end over the WebSocket; its table id."""
    http = httpx.Client(base_url=server.url, timeout=15)
    http.post("/api/auth/guest", json={"name": "Solo"}).raise_for_status()
    table_id = http.post("/api/tables", json={"game": "shutbox", "seats": 1}).json()["id"]
    http.post(f"/api/tables/{table_id}/start").raise_for_status()
    cookie = {"Cookie": f"nekobako_session={http.cookies.get('nekobako_session')}"}
    rng = random.Random(7)
    answered = -1
    with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}", additional_headers=cookie) as ws:
        while True:
            msg = json.loads(ws.recv(timeout=15))
            if msg["type"] != "state" or msg["view"] is None:
                continue
            if msg["view"]["over"]:
                return table_id
            if msg["view"]["legal"] and msg["seq"] != answered:
                answered = msg["seq"]
                ws.send(json.dumps({"type": "action", "seq": msg["seq"], "action": rng.choice(msg["view"]["legal"])}))


def add_bot(page: Page, seat: int, level: str = "random") -> None:
    page.select_option(f"[data-key=bot-level-{seat}]", level)
    page.click(f"[data-key=add-bot-{seat}]")
    page.wait_for_selector(f"[data-key=add-bot-{seat}]", state="detached")


def start(page: Page) -> None:
    page.click("[data-key=start]")
    page.wait_for_selector("[data-testid=game] > div:not(.seat-manager)")


def game_over(page: Page) -> bool:
    return page.locator("[data-testid=results]:not([hidden])").count() > 0


def play_until_over(pages: list[Page], turn: Callable[[Page], bool], timeout: float = GAME_TIMEOUT) -> None:
    """Let each page take its turns until every page shows the results."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(game_over(p) for p in pages):
            return
        acted = False
        for p in pages:
            if game_over(p):
                continue
            acted = take_turn(p, turn) or acted
        if not acted:
            pages[0].wait_for_timeout(60)
    raise AssertionError("the game did not finish in time")


def position_of(page: Page) -> str | None:
    """The `seq` of the server message the game board shows (the client writes it on the board)."""
    return page.evaluate("() => document.querySelector('[data-testid=game]')?.dataset.seq ?? null")


def wait_until(page: Page, expression: str, timeout: float = 15.0) -> None:
    """Poll a JavaScript expression from here until it is true. `evaluate` is always allowed, while
    a string predicate that `wait_for_function` polls inside the page can be refused by the page's
    Content-Security-Policy (an EvalError as soon as the condition is not true at once)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"not true within {timeout} s: {expression}")
        page.wait_for_timeout(50)


def log_text(page: Page) -> str:
    """The game log once it shows the position the board shows: the scores and the log are drawn a
    frame after the board (table.js renderSideSoon), so a page whose results just appeared may
    still show the log of the move before."""
    wait_until(
        page,
        "(() => { const side = document.querySelector('aside.side'); const board = "
        "document.querySelector('[data-testid=game]'); return Boolean(side && board && board.dataset.seq "
        "&& side.dataset.seq === board.dataset.seq && document.querySelector('[data-testid=log]')); })()",
    )
    return page.inner_text("[data-testid=log]")


def wait_for_next_position(page: Page, seq: str | None, timeout: float = 15.0) -> None:
    """Wait until the board shows a newer position than `seq` (an action landed, or anyone moved);
    polled from here, as `wait_until` explains."""
    deadline = time.monotonic() + timeout
    while position_of(page) == seq:
        if time.monotonic() > deadline:
            raise AssertionError(f"the board stayed at position {seq} for {timeout} s")
        page.wait_for_timeout(50)


def take_turn(page: Page, turn: Callable[[Page], bool], attempts: int = 3) -> bool:
    """`turn(page)`. A Playwright error is forgiven when the board moved to a new position under
    the click (the caller looks again); on the same position it is tried again — a busy machine may
    be slow to draw — and raised if it keeps failing there: that is a real UI error."""
    for attempt in range(attempts):
        before = position_of(page)
        try:
            return turn(page)
        except PlaywrightError:
            if position_of(page) != before:
                return True
            if attempt == attempts - 1:
                raise
            page.wait_for_timeout(200)
    return False


def _first_action(page: Page, selector: str) -> str | None:
    loc = page.locator(selector)
    if loc.count() == 0:
        return None
    return loc.first.get_attribute("data-action")


# ---------------------------------------------------------------------------------------- Shut the Box
def shutbox_turn(page: Page, frames: Frames | None = None) -> bool:
    """Roll when the client offers it; otherwise pick a legal combination by clicking its tiles
    one by one on your own board, then press the shut button."""
    if frames is not None:
        frames.check_offered(page)
    if page.locator("[data-testid=controls] [data-action='roll']:enabled").count():
        page.click("[data-testid=controls] [data-action='roll']:enabled", timeout=2000)
        return True
    if page.locator("[data-testid=controls] [data-action='roll 1']:enabled").count():
        page.click("[data-testid=controls] [data-action='roll 1']:enabled", timeout=2000)
        return True
    action = _first_action(page, ".choices button[data-action]:enabled")
    if not action:
        return False
    # a try cut short (a slow click on a busy machine, tried again by take_turn) may have left tiles
    # selected: clicking them again would deselect them, so the selection is made to match
    wanted = set(action.split()[1:])
    for tile in page.locator(".player-board.mine button[data-tile][aria-pressed=true]").all():
        if tile.get_attribute("data-tile") not in wanted:
            tile.click(timeout=2000)
    for tile in action.split()[1:]:
        button = page.locator(f".player-board.mine button[data-tile='{tile}']")
        if button.get_attribute("aria-pressed") != "true":
            button.click(timeout=2000)
    shut = page.locator("[data-key=shut]")
    assert shut.get_attribute("data-action") == action
    shut.click(timeout=2000)
    return True


# ---------------------------------------------------------------------------------------- Cat in the Box
def catbox_turn(page: Page, frames: Frames | None = None) -> bool:
    """Predict the first value offered; discard / play by picking a hand card and then the first
    colour (or the discard button) the client offers for it."""
    if frames is not None:
        frames.check_offered(page)
    action = _first_action(page, "[data-testid=controls] button[data-action^='predict']:enabled")
    if action:
        page.click(f"[data-testid=controls] button[data-action='{action}']", timeout=2000)
        return True
    cards = page.locator(".my-hand .hand-card:enabled")
    if cards.count() == 0:
        return False
    card = cards.first
    number = card.get_attribute("data-card")
    if card.get_attribute("aria-pressed") != "true":
        card.click(timeout=2000)
    discard = _first_action(page, "[data-key=discard]:enabled")
    if discard:
        page.click("[data-key=discard]", timeout=2000)
        return True
    colours = page.locator(".colour-choices button[data-action]:enabled")
    if colours.count() == 0:
        return False
    offered = {colours.nth(i).get_attribute("data-action") for i in range(colours.count())}
    if frames is not None and frames.last_view is not None:
        legal = {a for a in frames.last_view["legal"] if a.startswith(f"play {number} ")}
        if legal:  # the same position: the colours offered are exactly the legal plays of that card
            assert offered == legal, (offered, legal)
    page.click(f".colour-choices button[data-action='{sorted(offered)[0]}']", timeout=2000)
    return True


# ---------------------------------------------------------------------------------------- Catopomp
def catopomp_turn(page: Page, frames: Frames | None = None) -> bool:
    """Choose spare / bury / keep-or-give by the first button offered; otherwise build a play by
    selecting hand cards (then hell cards) until the client offers a matching play, or pass."""
    if frames is not None:
        frames.check_offered(page)
    for selector in (
        "[data-testid=controls] button[data-action^='spare']:enabled",
        "[data-testid=controls] button[data-action^='bury']:enabled",
        "[data-testid=controls] button[data-action='keep']:enabled",
        "[data-testid=controls] button[data-action^='give']:enabled",
        "[data-testid=controls] button[data-action^='discard']:enabled",
    ):
        action = _first_action(page, selector)
        if action:
            page.click(f"[data-testid=controls] button[data-action='{action}']", timeout=2000)
            return True
    play_buttons = ".play-buttons button.primary[data-action]:enabled"
    for source in (".my-hand button.cp-card:enabled", ".hell-area.mine button.cp-card:enabled"):
        for _ in range(4):
            if page.locator(play_buttons).count():
                if frames is not None:
                    frames.check_offered(page)  # the play buttons match legal strings
                page.click(play_buttons, timeout=2000)
                return True
            unselected = page.locator(f"{source}[aria-pressed=false]")
            if unselected.count() == 0:
                break
            unselected.first.click(timeout=2000)
        if page.locator(play_buttons).count():
            page.click(play_buttons, timeout=2000)
            return True
        if page.locator("[data-key=clear]").count():
            page.click("[data-key=clear]", timeout=2000)
    if page.locator("[data-action=pass]:enabled").count():
        page.click("[data-action=pass]:enabled", timeout=2000)
        return True
    return False
