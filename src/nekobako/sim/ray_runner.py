"""The same games as `runner.run_games`, sent as Ray tasks to a cluster (`simulate --ray`).

Each task plays a chunk of games with `runner._play_chunk`, a pure function of its tasks, so the
results are those of `--workers 1` whatever the cluster's size or which node ran what. Ray runs a
task again when the worker running it dies (`max_retries`), which cannot change a result either.

The code travels with the tasks (`runtime_env` `py_modules`: this process's `nekobako` package),
so every node plays by exactly the caller's rules; the nodes need only the dependencies
(`pip install 'nekobako[ray]'`). A local cluster (no address) listens on loopback only.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import os
import socket
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..i18n import Message
from .runner import GameResult, GameTask, SimulationError, _play_chunk, chunk_tasks

LOCAL = "local"  # `--ray` without an address: start a local cluster for this run
RETRIES = 5  # runs of a task whose worker died, before the simulation gives up
CONNECT_SECONDS = 5.0  # a cluster that does not answer this fast is reported as unreachable
WAIT_SECONDS = 1.0  # between looks at the head node while no chunk finishes
LOST_SECONDS = 10.0  # a head node silent this long is gone (Ray's driver gives up after 60 s)
PACKAGE = Path(__file__).resolve().parents[1]
SHIPPED_EXCLUDES = ["__pycache__", "*.pyc", "*.nbi", "*.nbc"]  # numba's cache is per machine


class ClusterError(SimulationError):
    """No Ray, a bad or unreachable address, or a cluster that went away (exit code 2)."""


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ClusterError(Message("sim.ray.missing")) from None
    return ray


def parse_address(address: str) -> tuple[str, int]:
    """`HOST:PORT` of a cluster's head (what `ray start --head` prints), checked before Ray sees it:
    Ray itself waits a long time on an address nothing answers."""
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ClusterError(Message("sim.ray.bad_address", address=address))
    return host.strip("[]"), int(port)


def is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(socket.gethostbyname(host)).is_loopback
    except (OSError, ValueError):
        return False


def check_reachable(address: str) -> None:
    host, port = parse_address(address)
    try:
        with socket.create_connection((host, port), timeout=CONNECT_SECONDS):
            pass
    except OSError as exc:
        raise ClusterError(Message("sim.ray.unreachable", address=address, reason=str(exc))) from None


def prepare_environment(address: str) -> None:
    """Ray's settings from the environment, read when `ray` is first imported."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    if address == LOCAL or is_loopback(parse_address(address)[0]):
        # a cluster on this machine: Ray then binds (and looks for) its services on loopback only
        os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")


def connect(ray: Any, address: str, workers: int) -> None:
    """Join the cluster at `address`, or start a local one of `workers` CPUs (loopback only)."""
    runtime_env = {"py_modules": [str(PACKAGE)], "excludes": SHIPPED_EXCLUDES}
    quiet: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.ERROR, "include_dashboard": False}
    if address == LOCAL:
        try:
            ray.init(address=LOCAL, num_cpus=workers, runtime_env=runtime_env, **quiet)
        except Exception as exc:  # Ray raises bare Exceptions and OSErrors (a node that timed out, no temp dir)
            ray.shutdown()  # whatever part of the cluster did start
            raise ClusterError(Message("sim.ray.no_local", reason=str(exc).strip() or type(exc).__name__)) from None
        return
    check_reachable(address)
    try:
        ray.init(address=address, runtime_env=runtime_env, **quiet)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise ClusterError(Message("sim.ray.unreachable", address=address, reason=str(exc))) from None


class HeadWatch:
    """Notices a head node that stopped answering. Ray's own driver gives a lost head a minute and
    then ends the process without a word; this says so after `LOST_SECONDS`, while it still can."""

    def __init__(self, gcs_address: str) -> None:
        self.address = gcs_address
        self.host, self.port = parse_address(gcs_address)
        self.answered = time.monotonic()

    def check(self) -> None:
        try:
            with socket.create_connection((self.host, self.port), timeout=1.0):
                self.answered = time.monotonic()
        except OSError as exc:
            if time.monotonic() - self.answered > LOST_SECONDS:
                raise ClusterError(Message("sim.ray.lost", reason=f"{self.address}: {exc}")) from None


def run_games_on_ray(
    tasks: Sequence[GameTask],
    address: str = LOCAL,
    workers: int = 1,
    on_done: Callable[[int], None] | None = None,
) -> list[GameResult]:
    """Play every task on the cluster at `address` (or a local one); results come back in task order."""
    prepare_environment(address)
    ray = _ray()
    # Ray's driver prints its nodes' notices ("a worker died …") on standard output, where `--json`
    # writes the report: they go to standard error, beside the progress bar
    with contextlib.redirect_stdout(sys.stderr):
        connect(ray, address, workers)
        try:
            return _play_on_cluster(ray, tasks, workers, on_done)
        finally:
            ray.shutdown()


def _play_on_cluster(
    ray: Any, tasks: Sequence[GameTask], workers: int, on_done: Callable[[int], None] | None
) -> list[GameResult]:
    try:
        play = ray.remote(max_retries=RETRIES, num_cpus=1)(_play_chunk).options(name="nekobako_games")
        cpus = max(1, int(ray.cluster_resources().get("CPU", workers)))
        pending = [play.remote(chunk) for chunk in chunk_tasks(tasks, cpus)]
        results: list[GameResult] = []
        watch = HeadWatch(ray.get_runtime_context().gcs_address)
        while pending:
            done, pending = ray.wait(pending, num_returns=1, timeout=WAIT_SECONDS)
            if not done:
                watch.check()
                continue
            chunk_results = ray.get(done[0])
            results.extend(chunk_results)
            if on_done:
                on_done(len(chunk_results))
    except ray.exceptions.RayTaskError as exc:
        if isinstance(exc.cause, SimulationError):  # a game failed: said as without Ray
            raise exc.cause from None
        raise ClusterError(Message("sim.ray.lost", reason=str(exc).splitlines()[0])) from None
    except ray.exceptions.RayError as exc:  # the cluster, a node or the retries gave out
        raise ClusterError(Message("sim.ray.lost", reason=str(exc).splitlines()[0])) from None
    results.sort(key=lambda r: r.index)
    return results
