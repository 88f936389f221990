"""Browser tests: a real `nekobako serve` process (free port, temp SQLite file) driven by Debian's
chromium through Playwright. Every test module here is marked `browser` and puts its tests in one
xdist group, so `make test` never runs two browsers at once on the machine's two cores.

Screenshots go to a temp folder; with NEKOBAKO_SCREENSHOTS=1 they replace docs/screenshots/*.png."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from server_harness import START_SECONDS

CHROMIUM = os.environ.get("NEKOBAKO_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DOC_SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`nekobako serve` in a child process; `url` is its address, `log` its output file."""

    def __init__(self, tmp: Path):
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tmp / "server.log"
        self.db = tmp / "nekobako.db"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        exe = shutil.which("nekobako", path=str(Path(sys.executable).parent)) or "nekobako"
        cmd = [exe, "serve", "--port", str(self.port), "--database-url", f"sqlite:///{self.db}", "--bot-delay", "0.05"]
        self.proc = subprocess.Popen(cmd, stdout=self.log.open("wb"), stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()}")
            try:
                if httpx.get(self.url + "/api/games", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"server did not answer in {START_SECONDS} s: {self.log.read_text()}")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("web"))
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"chromium not found at {CHROMIUM} (make system-deps installs Debian's)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


class PageErrors:
    """Collects what the pages a test opens say is wrong: uncaught JavaScript errors, and every
    console error or warning (what the Content-Security-Policy refused, a preload never used, a
    deprecated API, …). A test ends with none, but for what it `expect`s: an answer it provokes on
    purpose (a refused log-in, a missing table) that Chromium reports as a failed resource."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.expected: list[tuple[re.Pattern[str], str]] = []

    def watch(self, page) -> None:
        page.on("pageerror", lambda exc: self.errors.append(f"{page.url}: {exc}"))
        page.on("console", lambda msg: self._console(page, msg))

    def expect(self, pattern: str, reason: str) -> None:
        """A console message matching `pattern` (a regular expression, searched in the message and
        the address it names) is part of what the test does; `reason` says why it cannot be avoided."""
        assert reason, "an expected console message needs its reason"
        self.expected.append((re.compile(pattern), reason))

    def _console(self, page, msg) -> None:
        if msg.type not in ("error", "warning", "assert"):
            return
        said = f"{msg.type}: {msg.text} ({msg.location.get('url', '')})"
        if not any(pattern.search(said) for pattern, _ in self.expected):
            self.errors.append(f"{page.url}: {said}")


@pytest.fixture
def page_errors() -> Iterator[PageErrors]:
    errors = PageErrors()
    yield errors
    assert not errors.errors, "JavaScript errors and console warnings:\n" + "\n".join(errors.errors)


@pytest.fixture
def new_page(browser, server, page_errors):
    """`new_page(locale="en-US", width=1280, height=900, paced=False)` → a page in a fresh browser
    context (its own cookies: one person); `paced` keeps the table's pause between others' moves."""
    contexts = []

    def make(locale: str = "en-US", width: int = 1280, height: int = 900, paced: bool = False):
        ctx = browser.new_context(viewport={"width": width, "height": height}, locale=locale, base_url=server.url)
        ctx.set_default_timeout(15000)
        if not paced:  # the table shows others' moves one by one; tests go at full speed unless they ask
            ctx.add_init_script("localStorage.setItem('nekobako.pace', '0')")
        contexts.append(ctx)
        page = ctx.new_page()
        page_errors.watch(page)
        return page

    yield make
    for ctx in contexts:
        ctx.close()


@pytest.fixture(scope="session")
def screenshot(tmp_path_factory: pytest.TempPathFactory):
    """`screenshot(page, "name")`: a full-page PNG (docs/screenshots/ with NEKOBAKO_SCREENSHOTS=1);
    `full_page=False`: the screen as the person sees it."""
    folder = DOC_SCREENSHOTS if os.environ.get("NEKOBAKO_SCREENSHOTS") == "1" else tmp_path_factory.mktemp("shots")

    def take(page, name: str, full_page: bool = True) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page, animations="disabled")
        return path

    return take
