"""`nekobako review` as a person runs it: a real process, both languages, refusals with exit 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import nekobako

SRC = str(Path(nekobako.__file__).resolve().parent.parent)
HERE = Path(__file__).parent


def run(*args: str, input: str = "") -> subprocess.CompletedProcess[str]:
    env = {"COLUMNS": "120", "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONIOENCODING": "utf-8"}
    env["PYTHONPATH"] = SRC
    command = [sys.executable, "-c", "from nekobako.cli import main; main()", "review", *args]
    return subprocess.run(command, input=input, capture_output=True, text=True, env=env, timeout=120)


SHUTBOX = {
    "game": "shutbox",
    "players": 1,
    "seed": 1,
    "actions": ["0: roll", "dice 3 4", "0: shut 1 2 4", "0: roll", "dice 6 6", "0: shut 3 9"],
}


def test_a_shutbox_review_is_a_table_in_both_languages(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(SHUTBOX))
    en = run(str(path), "--seat", "0")
    assert en.returncode == 0, en.stderr
    assert "exact, by the solver" in en.stdout and "shut 1 2 4" in en.stdout and "Accuracy:" in en.stdout
    ja = run(str(path), "--seat", "0", "--lang", "ja")
    assert ja.returncode == 0 and "正確さ" in ja.stdout and "ソルバー" in ja.stdout


def test_json_output_carries_every_decision() -> None:
    out = run("-", "--seat", "0", "--json", input=json.dumps(SHUTBOX))
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["method"] == "solver" and data["decisions"][0]["chosen"] == "shut 1 2 4"
    assert set(data["counts"]) == {"best", "good", "inaccuracy", "mistake", "blunder"}


def test_a_card_game_review_with_a_small_budget() -> None:
    out = run(str(HERE / "catbox_paradox.json"), "--seat", "0", "--budget", "100", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["iterations"] == 100 and data["decisions"]


def test_bad_input_is_answered_in_words_with_exit_2(tmp_path: Path) -> None:
    bad_seat = run("-", "--seat", "4", "--lang", "ja", input=json.dumps(SHUTBOX))
    assert bad_seat.returncode == 2 and "席4" in bad_seat.stderr and "Traceback" not in bad_seat.stderr
    broken = run("-", "--seat", "0", input=json.dumps({**SHUTBOX, "actions": ["0: shut 12"]}))
    assert broken.returncode == 2 and "bad record" in broken.stderr
    missing = run(str(tmp_path / "none.json"), "--seat", "0")
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
    budget = run("-", "--seat", "0", "--budget", "0", input=json.dumps(SHUTBOX))
    assert budget.returncode == 2 and "budget" in budget.stderr


def test_the_hint_command_in_a_terminal_game(tmp_path: Path) -> None:
    env = {
        "COLUMNS": "120",
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONIOENCODING": "utf-8",
        "PYTHONPATH": SRC,
    }
    base = [sys.executable, "-c", "from nekobako.cli import main; main()", "play", "shutbox", "-p", "1", "--seed", "3"]
    record = ["--record", str(tmp_path / "game.json")]
    on = subprocess.run(
        [*base, "-o", "hints=on", *record], input="hint\nquit\n", capture_output=True, text=True, env=env, timeout=120
    )
    assert "Hint: roll" in on.stdout
    off = subprocess.run([*base, *record], input="hint\nquit\n", capture_output=True, text=True, env=env, timeout=120)
    assert "Hints are off" in off.stdout
