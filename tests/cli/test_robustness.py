"""Odd input to every command, as a new user types it, gets one clear line and a non-zero exit,
never a traceback; nothing played or simulated is lost. Real processes throughout."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from nekobako import __version__
from nekobako.engine import Record, replay

from .conftest import CLI, run_cli

SOLO = ["play", "shutbox", "--players", "1", "--seed", "21"]


def assert_clean_failure(proc: subprocess.CompletedProcess, code: int, *words: str) -> None:
    assert proc.returncode == code, (proc.returncode, proc.stdout[-500:], proc.stderr[-2000:])
    assert "Traceback" not in proc.stdout + proc.stderr
    said = " ".join(proc.stderr.replace("│", " ").split())  # words a terminal box may have wrapped
    for word in words:
        assert word in said, proc.stderr


def a_record(tmp_path: Path) -> tuple[Path, dict]:
    proc = run_cli(*SOLO, "--record", str(tmp_path / "solo.json"), input="1\n" * 3)
    assert proc.returncode == 0, proc.stderr
    path = tmp_path / "solo.json"
    return path, json.loads(path.read_text(encoding="utf-8"))


# -- record files in other encodings ----------------------------------------------------------------------


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8-sig", "utf-32"])
def test_replay_reads_a_record_saved_with_a_byte_order_mark(tmp_path, encoding):
    path, _ = a_record(tmp_path)
    plain = run_cli("replay", str(path), "--json")
    other = tmp_path / f"{encoding}.json"
    other.write_text(path.read_text(encoding="utf-8"), encoding=encoding)  # PowerShell's `>` writes UTF-16
    again = run_cli("replay", str(other), "--json")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout) == json.loads(plain.stdout)


def test_invalid_utf8_or_no_json_is_one_line_not_a_traceback(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"game": "shutbox\xff", "players": 1}')
    assert_clean_failure(run_cli("replay", str(bad)), 2, "not UTF-8 text", "offset 17")
    assert_clean_failure(run_cli("play", "--resume", str(bad)), 2, "not UTF-8 text")
    (tmp_path / "text.json").write_text("hello", encoding="utf-8")
    assert_clean_failure(run_cli("replay", str(tmp_path / "text.json")), 2, "not JSON (line 1, column 1)")
    assert_clean_failure(run_cli("replay", str(tmp_path)), 2, "is a directory")
    assert_clean_failure(run_cli("replay", str(tmp_path / "missing.json")), 2, "There is no file")


# -- where records go --------------------------------------------------------------------------------------


def test_simulate_checks_where_records_go_before_simulating(tmp_path):
    taken = tmp_path / "taken.json"
    taken.write_text("{}", encoding="utf-8")
    for target, why in ((taken, "is a file"), (taken / "below", "cannot write there")):
        proc = run_cli("simulate", "shutbox", "-p", "2", "-n", "3", "--records", str(target))
        assert_clean_failure(proc, 2, why)
        assert "simulating" not in proc.stderr  # refused before the first game
    assert taken.read_text(encoding="utf-8") == "{}"  # nothing overwritten
    proc = run_cli("simulate", "shutbox", "-p", "2", "-n", "3", "-w", "1", "--records", str(tmp_path / "new" / "dir"))
    assert proc.returncode == 0, proc.stderr
    assert len(list((tmp_path / "new" / "dir").glob("shutbox-s0-*.json"))) == 3


def test_play_record_may_name_a_directory_and_is_refused_at_the_start_if_unwritable(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    proc = run_cli(*SOLO, "--record", str(folder), input="1\n")
    assert proc.returncode == 0, proc.stderr
    saved = list(folder.glob("shutbox-*-s21.json"))
    assert len(saved) == 1 and Record.from_json(saved[0].read_text(encoding="utf-8")).game == "shutbox"
    proc = run_cli(*SOLO, "--record", str(tmp_path / "new-folder") + "/", input="1\n")
    assert proc.returncode == 0 and len(list((tmp_path / "new-folder").glob("*.json"))) == 1
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    proc = run_cli(*SOLO, "--record", str(blocker / "game.json"), input="1\n" * 50)
    assert_clean_failure(proc, 2, "Cannot save a record")
    assert "Your legal actions" not in proc.stdout  # refused before the first move, not after the game


# -- serve ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "why"),
    [
        (["--database-url", "nonsense://x"], "sqlite:///FILE or postgresql://"),
        (["--port", "99999"], "--port"),
        (["--port", "0"], "--port"),
        (["--bot-delay", "-1"], "--bot-delay"),
    ],
)
def test_serve_refuses_bad_settings_with_one_clear_line(args, why):
    proc = run_cli("serve", *args, timeout=60)
    assert_clean_failure(proc, 2, why)
    assert "Uvicorn running" not in proc.stdout + proc.stderr


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_ctrl_c_stops_serve_cleanly_with_status_130(tmp_path):
    port = free_port()
    server = subprocess.Popen(
        [*CLI, "serve", "--port", str(port), "--database-url", f"sqlite:///{tmp_path / 'db.sqlite'}"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
                break
            time.sleep(0.1)
        server.send_signal(signal.SIGINT)
        out, _ = server.communicate(timeout=30)
    finally:
        if server.poll() is None:
            server.kill()
    assert server.returncode == 130
    assert "Application shutdown complete" in out and "Traceback" not in out


# -- every command: --lang, --version, -h, Ctrl-C ----------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ["play", "shutbox"],
        ["replay", "-"],
        ["rules", "shutbox"],
        ["solve", "shutbox"],
        ["simulate", "shutbox", "-p", "2"],
        ["bench", "--quick"],
    ],
)
def test_every_command_checks_lang(command):
    proc = run_cli(*command, "--lang", "fr", input="")
    assert_clean_failure(proc, 2, "--lang", "en or ja, not 'fr'")


def test_version_and_short_help():
    version = run_cli("--version")
    assert version.returncode == 0 and version.stdout.strip() == f"nekobako {__version__}"
    for args in (["-h"], ["play", "-h"], ["simulate", "-h"]):
        proc = run_cli(*args)
        assert proc.returncode == 0 and "Usage: nekobako" in proc.stdout, args


def test_solve_says_which_options_it_ignores():
    proc = run_cli("solve", "shutbox", "--scoring", "count")
    assert proc.returncode == 0 and "--scoring is ignored" in proc.stderr
    assert "ignored" not in run_cli("solve", "shutbox", "--objective", "score", "--scoring", "count").stderr
    assert "--langは使われません" in run_cli("solve", "shutbox", "--json", "--lang", "ja").stderr  # said in ja
    assert run_cli("solve", "shutbox").stderr == ""


def test_ctrl_c_in_play_saves_the_record_and_exits_130(tmp_path):
    path = tmp_path / "interrupted.json"
    proc = subprocess.Popen(
        [*CLI, *SOLO, "--record", str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={"COLUMNS": "120", "PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8"},
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("1\n")
    proc.stdin.flush()
    seen = b""
    deadline = time.monotonic() + 60
    while seen.count(b"Your move") < 2 and time.monotonic() < deadline:  # 1 answer played, the next awaited
        seen += os.read(proc.stdout.fileno(), 4096)  # the prompt has no newline: read what is there
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    out = seen.decode("utf-8", "replace") + out
    assert proc.returncode == 130, err
    assert "Traceback" not in out + err and "Record saved" in out
    state = replay(Record.from_json(path.read_text(encoding="utf-8")))
    assert [str(a) for s, a in state.history if s == 0] == ["roll"]


# -- play --resume, replay --moves --------------------------------------------------------------------------


def test_resume_continues_a_game_exactly_where_it_stopped(tmp_path):
    # A solo game played through, and the same answers split over two sittings: the same game,
    # dice included (the dice stream continues where the first sitting left it).
    answers = ["1"] * 60
    whole = tmp_path / "whole.json"
    assert run_cli(*SOLO, "--record", str(whole), input="\n".join(answers) + "\n").returncode == 0
    part = tmp_path / "part.json"
    first = run_cli(*SOLO, "--record", str(part), input="\n".join(answers[:5]) + "\n")
    assert "End of input" in first.stdout
    assert not replay(Record.from_json(part.read_text(encoding="utf-8"))).is_over()
    second = run_cli("play", "--resume", str(part), input="\n".join(answers[5:]) + "\n")
    assert second.returncode == 0, second.stderr
    assert "Continuing the game" in second.stdout and "Game over" in second.stdout
    resumed = json.loads(part.read_text(encoding="utf-8"))  # saved back into the same file
    assert resumed["actions"] == json.loads(whole.read_text(encoding="utf-8"))["actions"]
    assert resumed["seats"] == ["human"] and resumed["seed"] == 21


def test_resume_against_bots_keeps_seats_and_bots(tmp_path):
    path = tmp_path / "catbox.json"
    args = ["play", "catbox", "-p", "3", "--seat", "1", "--bots", "random,greedy", "--seed", "8", "--record", str(path)]
    assert run_cli(*args, input="1\n").returncode == 0
    before = json.loads(path.read_text(encoding="utf-8"))
    proc = run_cli("play", "--resume", str(path), "--record", str(tmp_path / "more.json"), input="1\n" * 200)
    assert proc.returncode == 0, proc.stderr
    after = json.loads((tmp_path / "more.json").read_text(encoding="utf-8"))
    assert after["seats"] == before["seats"] == ["random", "human", "greedy"]
    assert after["actions"][: len(before["actions"])] == before["actions"]
    assert replay(Record.from_json(after)).is_over()


def test_resume_refuses_what_it_cannot_continue(tmp_path):
    done = tmp_path / "done.json"
    assert run_cli(*SOLO, "--record", str(done), input="1\n" * 60).returncode == 0
    assert_clean_failure(run_cli("play", "--resume", str(done)), 2, "is over")
    path, _ = a_record(tmp_path)
    assert_clean_failure(
        run_cli("play", "catbox", "--resume", str(path)), 2, "a record of Shut the Box, not of Cat in the Box"
    )
    assert_clean_failure(run_cli("play", "--resume", str(path), "--seed", "3"), 2, "seed 21")
    assert_clean_failure(run_cli("play"), 2, "Name the game")


def test_replay_lists_the_moves_with_the_players_names(tmp_path):
    path = tmp_path / "game.json"
    record = {
        "game": "shutbox",
        "players": 2,
        "seed": 1,
        "names": ["alice", None],
        "actions": ["start 1", "1: roll", "dice 6 6", "1: shut 3 9"],
    }
    path.write_text(json.dumps(record), encoding="utf-8")
    proc = run_cli("replay", str(path), "--moves")
    assert proc.returncode == 0, proc.stderr
    lines = [line.split() for line in proc.stdout.splitlines()]
    assert ["2", "Seat", "1", "roll"] in lines and ["4", "Seat", "1", "shut", "3", "9"] in lines
    assert any(line[:2] == ["1", "chance"] for line in lines)
    assert "alice (Seat 0)" in proc.stdout  # the name the record gives
    listed = json.loads(run_cli("replay", str(path), "--json", "--moves").stdout)["moves"]
    assert listed[1] == {"seat": 1, "action": "roll"}
    ja = run_cli("replay", str(path), "--moves", "--lang", "ja")
    assert "席1" in ja.stdout and "偶然" in ja.stdout
