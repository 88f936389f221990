"""`nekobako replay` reads Cat in the Box records written in the rules' notation."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from nekobako.cli import app

RECORD = {
    "game": "catbox",
    "players": 2,
    "options": {"side": "white"},
    "seed": 3,
    "actions": [
        "start 0",
        "deal 1 1 1 1 1 2 2 2 2 2 | 3 3 3 3 4 4 4 4 5 5 | reveal 3 4 5 | hidden 5 5",
        "0: discard 1",
        "1: discard 5",
        "0: play 2 blue",
    ],
}


def test_replay_command_shows_legal_plays(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(RECORD), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["to_move"] == [1]
    # seat 1 holds 3 3 3 3 4 4 4 4 5; green 3, 4, 5 are blocked; red is not broken but a
    # follower may declare it
    assert "play 3 red" in out["legal"]["1"] and "play 5 green" not in out["legal"]["1"]


def test_replay_command_names_a_refused_entry(tmp_path):
    bad = dict(RECORD, actions=[*RECORD["actions"][:4], "0: play 2 red"])
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert result.exit_code == 2  # bad input, as every other command answers it
    assert "Action 4" in result.output and "red" in result.output
