"""The web client on a slow phone (issue 17), in Debian's chromium through Playwright, with the
DevTools protocol's throttling: 150 ms latency, 1.6 Mbit/s each way, the CPU 4× slower.

* time to usable — from navigation to the moment a person can act: the lobby (the guest form and
  the games list drawn) and a table (a signed-in player's turn in a 4-player Cat in the Box game,
  their hand drawn with playable cards), with an empty cache (first visit) and a warm one;
* state-message bytes per game — the text a viewer's socket receives over a whole game, per game,
  the whole messages (no `?deltas=1`) against deltas (the browser client), and gzip'd (what
  permessage-deflate would roughly send);
* render time per message — each state message drawn by a spectator's page on the slow phone
  (the `nekobako:render` User Timing entries table.js records; then `nekobako:render-side`, the
  scores and log a frame later), and frames over 50 ms (long tasks).

* with `--waterfall`: one first visit of the table page, request by request (when each was asked
  for, answered and done, ms since the navigation began), the socket, and when the page module
  started drawing — to count the round trips in a row before a phone can play.

    .venv/bin/python benchmarks/web.py [--runs N] [--json] [--waterfall]

Targets: a table usable in < 1.2 s on the slow phone; ≤ 250 KB of state messages per 4-player Cat
in the Box game. Needs chromium (make system-deps) and the package installed (make install-test).
"""

from __future__ import annotations

import argparse
import json
import pathlib
import random
import statistics
import sys
import tempfile
import time
import zlib

import httpx
from websockets.sync.client import connect

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tests" / "server"))

from server_harness import Client, ServerProcess

CHROMIUM = "/usr/bin/chromium"
LATENCY_MS = 150
THROUGHPUT = 1_600_000 / 8  # bytes per second, each way
CPU_SLOWDOWN = 4
TARGET_TABLE_S = 1.2
TARGET_CATBOX_KB = 250
GAMES = (("catbox", 4), ("catbox", 3), ("shutbox", 2), ("catopomp", 3), ("catopomp", 4))

# Records, in the page, the first moment a condition holds (performance.now(): ms since the
# navigation began) and every long task. Installed by the DevTools protocol, so the page's
# Content-Security-Policy does not apply to it.
PROBE = """
window.__usable = null; window.__long = [];
const usable = () => document.querySelector(%s);
const check = () => { if (window.__usable === null && usable()) window.__usable = performance.now(); };
new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true });
try { new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__long.push(e.duration)))
        .observe({ type: "longtask", buffered: true }); } catch {}
localStorage.setItem("nekobako.pace", "0");
"""
LOBBY_READY = "[data-testid=games] li[data-game]"  # the guest form is drawn before it
TABLE_READY = "[data-first-stop] .hand-card:enabled"


def slow_phone(page) -> None:
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": LATENCY_MS, "downloadThroughput": THROUGHPUT, "uploadThroughput": THROUGHPUT},
    )
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})


def usable_after(context, path: str, ready: str, timeout: float = 30.0) -> float:
    """Seconds from navigation to `ready` on a new page of `context` (its cache as it is)."""
    page = context.new_page()
    page.add_init_script(PROBE % json.dumps(ready))
    slow_phone(page)
    page.goto(path, wait_until="commit")
    deadline = time.monotonic() + timeout
    while (at := page.evaluate("() => window.__usable")) is None:
        if time.monotonic() > deadline:
            raise RuntimeError(f"{path}: not usable in {timeout} s")
        time.sleep(0.02)
    page.close()
    return at / 1000


def table_at_my_turn(server: ServerProcess) -> tuple[int, str]:
    """A 4-player Cat in the Box table (3 random bots) played by a guest until a card is to be played."""
    client = Client(server)
    client.guest(f"Phone{random.getrandbits(16)}")
    table = client.create("catbox", 4)["id"]
    for bot in (1, 2, 3):
        client.ok(client.post(f"/api/tables/{table}/bots", {"level": "random", "seat": bot}))
    client.ok(client.post(f"/api/tables/{table}/start"))
    player = client.socket(table)
    rng = random.Random(table)
    while True:
        player.receive(0.05)
        view = player.view
        if view and view["legal"] and view["phase"] == "play":
            break
        player.act_if_asked(rng)
    player.close()
    return table, client.http.cookies.get("nekobako_session") or ""


# what happened when, in the page (performance.now(): ms since the navigation began)
TIMELINE = """() => ({
  usable: window.__usable,
  html: performance.getEntriesByType("navigation").map((e) => [e.responseStart, e.responseEnd, e.domInteractive])[0],
  requests: performance.getEntriesByType("resource").map((e) =>
    [e.name.replace(location.origin, ""), e.startTime, e.responseStart, e.responseEnd, e.transferSize]),
  marks: performance.getEntriesByType("mark").map((e) => [e.name, e.startTime]),
  renders: performance.getEntriesByName("nekobako:render").map((e) => [e.startTime, e.duration]),
})"""
SOCKETS = """(() => { const Real = window.WebSocket; window.__sockets = [];
  window.WebSocket = function (url, protocols) {
    const socket = new Real(url, protocols); const seen = { url, created: performance.now() };
    window.__sockets.push(seen);
    socket.addEventListener("open", () => (seen.open = performance.now()));
    socket.addEventListener("message", () => (seen.first ??= performance.now()));
    return socket; };
  window.WebSocket.prototype = Real.prototype;
  Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 }); })();"""


def waterfall(browser, server: ServerProcess) -> dict:
    """One first visit of a table page on the slow phone, request by request."""
    table, cookie = table_at_my_turn(server)
    context = browser.new_context(base_url=server.base, viewport={"width": 390, "height": 844})
    context.add_cookies([{"name": "nekobako_session", "value": cookie, "url": server.base}])
    page = context.new_page()
    page.add_init_script(PROBE % json.dumps(TABLE_READY) + SOCKETS)
    slow_phone(page)
    page.goto(f"/table/{table}", wait_until="commit")
    deadline = time.monotonic() + 30
    while page.evaluate("() => window.__usable") is None and time.monotonic() < deadline:
        time.sleep(0.02)
    timeline = page.evaluate(TIMELINE)
    timeline["sockets"] = page.evaluate("() => window.__sockets")
    context.close()
    return timeline


def print_waterfall(w: dict) -> None:
    print(f"first visit of a table page, ms since the navigation began (usable at {w['usable']:.0f}):")
    start, end, parsed = w["html"]
    print(f"  {0:6.0f} {start:6.0f} {end:6.0f}  page (parsed at {parsed:.0f})")
    for name, asked, answered, done, size in sorted(w["requests"], key=lambda r: r[1]):
        late = "  (after usable)" if asked > w["usable"] else ""
        print(f"  {asked:6.0f} {answered:6.0f} {done:6.0f}  {name} ({size} B){late}")
    for s in w["sockets"]:
        print(f"  socket: made {s['created']:.0f}, open {s.get('open', 0):.0f}, first message {s.get('first', 0):.0f}")
    print("  marks: " + ", ".join(f"{n} {t:.0f}" for n, t in w["marks"]))
    print("  drawn: " + ", ".join(f"at {t:.0f} for {d:.0f}" for t, d in w["renders"]))


def times_to_usable(browser, server: ServerProcess, runs: int) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, list[float]]] = {"lobby": {"cold": [], "warm": []}, "table": {"cold": [], "warm": []}}
    for _ in range(runs):
        table, cookie = table_at_my_turn(server)
        for name, path, ready in (("lobby", "/", LOBBY_READY), ("table", f"/table/{table}", TABLE_READY)):
            context = browser.new_context(base_url=server.base, viewport={"width": 390, "height": 844})
            context.add_cookies([{"name": "nekobako_session", "value": cookie, "url": server.base}])
            if name == "lobby":
                context.clear_cookies()
            out[name]["cold"].append(usable_after(context, path, ready))
            out[name]["warm"].append(usable_after(context, path, ready))
            context.close()
    return {k: {c: statistics.median(v) for c, v in d.items()} for k, d in out.items()}


def bytes_per_game(server: ServerProcess, game: str, players: int, seed: int) -> dict[str, int]:
    """One game (a random guest, random bots), received at once by a whole-message socket and a
    deltas socket of the same seat: bytes of text each received, and gzip'd per message."""
    client = Client(server)
    client.guest(f"Bytes{seed}")
    table = client.create(game, players)["id"]
    for seat in range(1, players):
        client.ok(client.post(f"/api/tables/{table}/bots", {"level": "random", "seat": seat}))
    client.ok(client.post(f"/api/tables/{table}/start"))
    player = client.socket(table)
    token = client.http.cookies.get("nekobako_session")
    deltas = connect(
        f"{server.ws_base}/ws/tables/{table}?deltas=1",
        additional_headers={"Cookie": f"nekobako_session={token}"},
        legacy=True,
    )
    sizes = {"whole": 0, "whole_gzip": 0, "deltas": 0, "deltas_gzip": 0, "messages": 0}
    rng = random.Random(seed)
    over = False
    deadline = time.monotonic() + 300
    try:
        while time.monotonic() < deadline:
            message = player.receive(0.01)
            if message is not None and message["type"] == "state":
                text = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()
                sizes["whole"] += len(text)
                sizes["whole_gzip"] += len(zlib.compress(text, 6))
            try:
                raw = deltas.recv(timeout=0.01)
            except TimeoutError:
                raw = None
            if raw is not None:
                parsed = json.loads(raw)
                if parsed["type"] in ("state", "delta"):
                    text = raw.encode() if isinstance(raw, str) else raw
                    sizes["deltas"] += len(text)
                    sizes["deltas_gzip"] += len(zlib.compress(text, 6))
                    sizes["messages"] += 1
            if player.view and player.view["over"]:
                if over and raw is None and message is None:
                    break
                over = True
            player.act_if_asked(rng)
    finally:
        player.close()
        deltas.close()
    return sizes


def render_times(browser, server: ServerProcess) -> dict[str, float]:
    """A spectator's page on the slow phone watching a whole 4-player Cat in the Box game."""
    client = Client(server)
    client.guest("Renderer")
    table = client.create("catbox", 4)["id"]
    for seat in (1, 2, 3):
        client.ok(client.post(f"/api/tables/{table}/bots", {"level": "random", "seat": seat}))
    client.ok(client.post(f"/api/tables/{table}/start"))
    context = browser.new_context(base_url=server.base, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.add_init_script(PROBE % json.dumps("[data-testid=trick]"))
    slow_phone(page)
    page.goto(f"/table/{table}")
    player = client.socket(table)
    rng = random.Random(9)
    while not (player.view and player.view["over"]):
        player.receive(0.02)
        player.act_if_asked(rng)
    player.close()
    deadline = time.monotonic() + 120
    while not page.locator("[data-testid=results]:not([hidden])").count():
        if time.monotonic() > deadline:
            raise RuntimeError("the spectator never saw the end")
        time.sleep(0.1)
    renders = page.evaluate("() => performance.getEntriesByName('nekobako:render').map((e) => e.duration)")
    sides = page.evaluate("() => performance.getEntriesByName('nekobako:render-side').map((e) => e.duration)")
    long_tasks = page.evaluate("() => window.__long")
    context.close()
    renders.sort()
    return {
        "messages": len(renders),
        "median_ms": statistics.median(renders),
        "p95_ms": renders[int(0.95 * (len(renders) - 1))],
        "max_ms": renders[-1],
        "side_median_ms": statistics.median(sides),
        "long_tasks": len(long_tasks),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="page loads per measure (median)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--waterfall", action="store_true", help="only: one table page's requests, in order")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(f"sqlite:///{tmp}/web.db", pathlib.Path(tmp) / "server.log", ("--bot-delay", "0.05"))
        server.start()
        try:
            httpx.get(server.base + "/").raise_for_status()
            if args.waterfall:
                with sync_playwright() as p:
                    browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
                    print_waterfall(waterfall(browser, server))
                    browser.close()
                return
            results: dict = {"bytes": {}}
            for i, (game, players) in enumerate(GAMES):
                results["bytes"][f"{game}-{players}"] = bytes_per_game(server, game, players, seed=i + 1)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
                results["usable_s"] = times_to_usable(browser, server, args.runs)
                results["render"] = render_times(browser, server)
                browser.close()
        finally:
            server.stop()
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(
        f"slow phone: {LATENCY_MS} ms latency, {THROUGHPUT * 8 / 1e6:.1f} Mbit/s, CPU ÷{CPU_SLOWDOWN};"
        f" medians of {args.runs}"
    )
    for page_name, timing in results["usable_s"].items():
        target = f"  (target < {TARGET_TABLE_S} s)" if page_name == "table" else ""
        print(f"  {page_name:6} usable: first visit {timing['cold']:.2f} s, cached {timing['warm']:.2f} s{target}")
    print("state messages per game (one seat's socket), KB: whole / deltas (gzip'd: whole / deltas)")
    for name, b in results["bytes"].items():
        target = f"  (target ≤ {TARGET_CATBOX_KB} KB)" if name == "catbox-4" else ""
        print(
            f"  {name:10} {b['whole'] / 1000:8.1f} / {b['deltas'] / 1000:6.1f}"
            f"   ({b['whole_gzip'] / 1000:6.1f} / {b['deltas_gzip'] / 1000:5.1f}), {b['messages']} messages{target}"
        )
    r = results["render"]
    print(
        f"render per message (spectator, 4-player Cat in the Box, slow phone): median {r['median_ms']:.1f} ms, "
        f"p95 {r['p95_ms']:.1f} ms, max {r['max_ms']:.1f} ms over {r['messages']} messages;"
        f" then the scores and log, median {r['side_median_ms']:.1f} ms; {r['long_tasks']} long tasks"
    )


if __name__ == "__main__":
    main()
