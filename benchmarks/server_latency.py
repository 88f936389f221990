"""Round trip of an accepted action through a real server: WebSocket frame in → engine → commit →
`state` message out. Not a test (pytest does not collect it); run it by hand:

    .venv/bin/python benchmarks/server_latency.py [POSTGRES_URL_OF_AN_EMPTY_DATABASE]
"""

from __future__ import annotations

import pathlib
import statistics
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tests" / "server"))

from server_harness import Client, ServerProcess

ACTIONS = 300


def measure(database_url: str, log: pathlib.Path) -> tuple[float, float, int]:
    server = ServerProcess(database_url, log)
    server.start()
    try:
        client = Client(server)
        client.guest("timer")
        times: list[float] = []
        while len(times) < ACTIONS:
            table = client.create("shutbox", 1)
            client.ok(client.post(f"/api/tables/{table['id']}/start"))
            sock = client.socket(table["id"])
            state = sock.wait_state(lambda m: m["view"] is not None)
            while not state["view"]["over"]:
                seq = state["seq"]
                started = time.perf_counter()
                sock.send({"type": "action", "seq": seq, "action": state["view"]["legal"][0]})
                state = sock.wait_state(lambda m, seq=seq: m["seq"] > seq, new=True)
                times.append(time.perf_counter() - started)
            sock.close()
        times.sort()
        return statistics.median(times) * 1000, times[int(len(times) * 0.95)] * 1000, len(times)
    finally:
        server.stop()


def main() -> None:
    work = pathlib.Path(tempfile.mkdtemp())
    runs = [("sqlite", f"sqlite:///{work / 'm.db'}")] + [("postgres", url) for url in sys.argv[1:2]]
    for name, url in runs:
        median, p95, count = measure(url, work / f"{name}.log")
        print(f"{name:<9} median {median:.1f} ms  p95 {p95:.1f} ms  ({count} actions)")


if __name__ == "__main__":
    main()
