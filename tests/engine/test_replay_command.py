"""`nekobako replay RECORD.json [--json]` as a user runs it: a real process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

CLI = [sys.executable, "-c", "from nekobako.cli import main; main()"]

FINISHED = {
    "game": "shutbox",
    "players": 2,
    "options": {"tiles": 9},
    "seed": 7,
    "actions": [
        "start 0",
        *["0: roll", "dice 1 1", "0: shut 2", "0: roll", "dice 1 1"],
        *["1: roll", "dice 6 6", "1: shut 3 9", "1: roll", "dice 6 6", "1: shut 4 8", "1: roll", "dice 6 6"],
        *["1: shut 5 7", "1: roll", "dice 3 6", "1: shut 1 2 6"],
    ],
}


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    env = {"COLUMNS": "120"}
    return subprocess.run([*CLI, *args], input=stdin, capture_output=True, text=True, timeout=60, env=env)


def write(tmp_path: Path, data: object) -> str:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_json_summary_of_a_finished_game(tmp_path):
    done = run("replay", write(tmp_path, FINISHED), "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["game"] == "shutbox" and out["over"] is True
    assert out["to_move"] == [] and out["legal"] == {}
    assert out["scores"] == [43, 0] and out["round_scores"] == [[43, 0]]
    assert out["winners"] == [1]
    assert [e["kind"] for e in out["events"]] == ["start", "turn_over", "box_shut", "round_scored", "game_over"]


def test_json_summary_mid_game_lists_legal_actions_per_seat(tmp_path):
    data = {**FINISHED, "actions": FINISHED["actions"][:8]}  # seat 1 has rolled 6 6
    out = json.loads(run("replay", write(tmp_path, data), "--json").stdout)
    assert out["over"] is False and out["to_move"] == [1] and out["winners"] == []
    assert out["legal"]["1"][:3] == ["shut 3 9", "shut 4 8", "shut 5 7"]
    rolled = json.loads(run("replay", "-", "--json", stdin=json.dumps({**data, "actions": data["actions"][:7]})).stdout)
    assert rolled["to_move"] == "chance" and rolled["legal"] == {}


def test_table_output_names_the_winner(tmp_path):
    done = run("replay", write(tmp_path, FINISHED))
    assert done.returncode == 0, done.stderr
    assert "winner: Seat 1" in done.stdout and "Seat 1 shut the box!" in done.stdout
    ja = run("replay", write(tmp_path, FINISHED), "--lang", "ja")
    assert "シャット・ザ・ボックス" in ja.stdout


def test_a_bad_action_exits_non_zero_naming_action_index_and_why(tmp_path):
    data = {**FINISHED, "actions": ["start 0", "0: roll", "dice 3 4", "0: shut 2 4"]}
    done = run("replay", write(tmp_path, data), "--json")
    assert done.returncode != 0 and done.stdout == ""
    assert "Action 3 '0: shut 2 4'" in done.stderr and "not the dice total 7" in done.stderr
    malformed = run("replay", write(tmp_path, {**FINISHED, "actions": ["start 0", "0: shut two"]}), "--json")
    assert malformed.returncode != 0
    assert "Action 1 '0: shut two'" in malformed.stderr and "in digits" in malformed.stderr


def test_unreadable_or_invalid_files_are_refused(tmp_path):
    missing = run("replay", str(tmp_path / "nope.json"), "--json")
    assert missing.returncode == 2 and "There is no file" in missing.stderr
    path = tmp_path / "broken.json"
    path.write_text("{", encoding="utf-8")
    broken = run("replay", str(path), "--json")
    assert broken.returncode == 2 and "not JSON" in broken.stderr
