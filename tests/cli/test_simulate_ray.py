"""`nekobako simulate --ray`: games as Ray tasks on a real two-node cluster on this machine (loopback
only, stopped by the test) give the results of one worker, a worker killed mid-run changes nothing,
and a cluster that is missing or goes away is one clear message, exit code 2 and no records."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import CLI, SOURCE, run_cli

pytestmark = [
    pytest.mark.xdist_group("ray"),
    pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="Ray is an extra: pip install 'nekobako[ray]'"),
]

# what every process of these tests needs: no usage report, a cluster bound to loopback (Ray
# binds a single machine's services there), and no token (a token in ~/.ray would switch it on)
RAY_ENV = {"RAY_USAGE_STATS_ENABLED": "0", "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_AUTH_MODE": "disabled"}
GAMES = ("catbox", "--players", "4", "--bots", "greedy", "--seed", "3")


def cli_env() -> dict[str, str]:
    """The tests' own `nekobako` (a worktree's `src`), not whichever one is installed."""
    path = os.environ.get("PATH", "/usr/bin:/bin")
    return {"COLUMNS": "120", "PATH": path, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": SOURCE, **RAY_ENV}


def simulate(*args: str, timeout: float = 300, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    run_env = {**cli_env(), **(env or {})}
    return subprocess.run([*CLI, "simulate", *args], capture_output=True, text=True, timeout=timeout, env=run_env)


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A head node and one more node, one CPU each, as `ray start` makes them (separate raylets)."""
    old = {key: os.environ.get(key) for key in RAY_ENV}
    os.environ.update(RAY_ENV)  # before Ray's first import: it reads them then
    assert "ray" not in sys.modules, "Ray was imported before its settings were made"
    from ray.cluster_utils import Cluster

    made = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    try:
        made.add_node(num_cpus=1)
        made.wait_for_nodes()
        assert len(made.list_all_nodes()) == 2
        yield made.address
    finally:
        made.shutdown()
        for key, value in old.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def listening_addresses(pids: set[int]) -> set[str]:
    """Local addresses of the TCP sockets these processes listen on (`ss`, from iproute2)."""
    out = subprocess.run(["ss", "-ltnpH"], capture_output=True, text=True, check=True).stdout
    found = set()
    for line in out.splitlines():
        if any(f"pid={pid}," in line for pid in pids):
            found.add(line.split()[3].rsplit(":", 1)[0])
    return found


def command_lines() -> dict[int, bytes]:
    lines = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                lines[int(entry.name)] = (entry / "cmdline").read_bytes()
            except OSError:
                continue
    return lines


def ray_pids(title: bytes = b"") -> set[int]:
    """Ray's processes (workers are titled `ray::…` by what they run), or those titled `title`."""
    pids = set()
    for pid, line in command_lines().items():
        command = line.split(b"\0")[0]
        if title:
            if command.startswith(title):
                pids.add(pid)
        elif command.startswith(b"ray::") or command.endswith((b"/raylet", b"/gcs_server")):
            pids.add(pid)
    return pids


def kill_new_ray_processes(others: set[int]) -> None:
    for pid in ray_pids() - others:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_two_node_cluster_gives_the_results_of_one_worker_and_listens_on_loopback_only(cluster):
    alone = run_cli("simulate", *GAMES, "--games", "24", "--workers", "1", "--json")
    assert alone.returncode == 0, alone.stderr
    on_ray = simulate(*GAMES, "--games", "24", "--ray-address", cluster, "--json")
    assert on_ray.returncode == 0, on_ray.stderr
    assert json.loads(on_ray.stdout) == json.loads(alone.stdout)
    addresses = listening_addresses(ray_pids())
    assert addresses, "the cluster's processes listen somewhere"
    assert addresses <= {"127.0.0.1", "[::ffff:127.0.0.1]", "[::1]"}, addresses


def test_a_worker_killed_mid_run_has_its_games_played_again(cluster, tmp_path):
    games = ("--games", "160")
    alone = run_cli("simulate", *GAMES, *games, "--workers", "1", "--json")
    assert alone.returncode == 0, alone.stderr
    killed: list[int] = []

    def kill_one_busy_worker() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            for pid in ray_pids(b"ray::nekobako_games"):
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
                return
            time.sleep(0.05)

    killer = threading.Thread(target=kill_one_busy_worker)
    killer.start()
    on_ray = simulate(*GAMES, *games, "--ray-address", cluster, "--json", "--records", str(tmp_path))
    killer.join()
    assert killed, "no worker was found playing games"
    assert on_ray.returncode == 0, on_ray.stderr
    assert on_ray.stdout.startswith("{") and alone.stdout.startswith("{"), (on_ray.stdout[:400], alone.stdout[:300])
    assert json.loads(on_ray.stdout) == json.loads(alone.stdout)
    assert len(list(tmp_path.glob("*.json"))) == 160


@pytest.mark.parametrize(
    ("address", "lang", "words"),
    [
        ("nothere", "en", "HOST:PORT"),
        ("127.0.0.1:99999", "en", "HOST:PORT"),
        ("127.0.0.1:1", "en", "No Ray cluster answers at 127.0.0.1:1"),
        ("127.0.0.1:1", "ja", "Ray クラスタが応答しません"),
    ],
)
def test_a_bad_or_silent_address_is_one_message_and_exit_code_2(address, lang, words, tmp_path):
    records = tmp_path / "records"
    proc = simulate(*GAMES, "--games", "4", "--ray-address", address, "--records", str(records), "--lang", lang)
    assert proc.returncode == 2
    assert words in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not list(records.glob("*.json"))


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "Ray could not start a local cluster"), ("ja", "Ray がローカルクラスタを起動できませんでした")],
)
def test_a_local_cluster_that_cannot_start_is_one_message_and_exit_code_2(lang, words, tmp_path):
    """`--ray` with no address starts a cluster; here Ray's temporary folder is a file, so it cannot."""
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")
    records = tmp_path / "records"
    others = ray_pids()
    proc = simulate(
        *GAMES, "--games", "4", "--ray", "--records", str(records), "--lang", lang, env={"RAY_TMPDIR": str(blocked)}
    )
    assert proc.returncode == 2, proc.stderr
    assert words in proc.stderr and "Not a directory" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr
    assert not list(records.glob("*.json"))
    deadline = time.monotonic() + 30  # a failed start's processes take a moment to exit
    while started_here(others, blocked) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not started_here(others, blocked), "nothing of the cluster is left running"


def started_here(others: set[int], temp: Path) -> set[int]:
    """Ray's new processes of the cluster given `temp` as its folder (they inherit `RAY_TMPDIR`);
    another test's cluster, on the other test worker, is not this one's."""
    marker = f"RAY_TMPDIR={temp}".encode()
    mine = set()
    for pid in ray_pids() - others:
        with contextlib.suppress(OSError):
            if marker in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0"):
                mine.add(pid)
    return mine


def test_a_cluster_that_goes_away_mid_run_is_reported_and_nothing_is_written(tmp_path):
    """A cluster of its own, whose processes the test kills while games run."""
    port = free_port()
    temp = Path(tempfile.mkdtemp(prefix="nkray-", dir="/tmp"))  # Ray's socket paths must be short
    others = ray_pids()
    head = subprocess.run(
        [sys.executable, "-m", "ray.scripts.scripts", "start", "--head", "--node-ip-address=127.0.0.1",
         f"--port={port}", "--num-cpus=1", "--include-dashboard=false", "--disable-usage-stats",
         f"--temp-dir={temp}"],
        capture_output=True, text=True, env=cli_env(), timeout=120,
    )  # fmt: skip
    assert head.returncode == 0, head.stderr

    records = tmp_path / "records"
    run = subprocess.Popen(
        [*CLI, "simulate", *GAMES, "--games", "5000", "--ray-address", f"127.0.0.1:{port}", "--records", str(records)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=cli_env(),
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while not ray_pids(b"ray::nekobako_games") - others:  # a game on this cluster, not the fixture's
            assert time.monotonic() < deadline, "no game started on the cluster"
            time.sleep(0.2)
    finally:
        kill_new_ray_processes(others)  # the head, its services and its workers
    _, err = run.communicate(timeout=120)
    kill_new_ray_processes(others)  # any its dying raylet left behind
    shutil.rmtree(temp, ignore_errors=True)
    assert run.returncode == 2, err
    assert "The Ray cluster went away" in err
    assert "Traceback" not in err
    assert not list(records.glob("*.json"))
