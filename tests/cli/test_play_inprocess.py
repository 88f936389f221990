"""`nekobako play` paths that need a stand-in bot: a crashing bot, forced moves with --auto."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from nekobako.cli import app
from nekobako.engine import Record, replay
from nekobako.sim import runner


class CrashingBot:
    name = "crash"

    def choose(self, view, legal, rng):
        raise RuntimeError("bot fell over")


def test_a_crashing_bot_stops_the_game_with_a_message_and_keeps_the_record(tmp_path, monkeypatch):
    monkeypatch.setattr(runner.BotSpec, "make", lambda self, game: CrashingBot())
    path = tmp_path / "crash.json"
    result = CliRunner().invoke(
        app,
        ["play", "shutbox", "--players", "2", "--seed", "1", "--seat", "1", "--record", str(path)],
        input="1\n" * 50,
    )
    assert result.exit_code == 1
    assert "bot fell over" in result.output
    record = json.loads(path.read_text())
    assert not replay(Record.from_json(record)).is_over()


def test_auto_plays_forced_moves(tmp_path):
    plain, auto = tmp_path / "plain.json", tmp_path / "auto.json"
    args = ["play", "shutbox", "--players", "2", "--seed", "5", "--bots", "random"]
    first = CliRunner().invoke(app, [*args, "--record", str(plain)], input="1\n" * 3000)
    second = CliRunner().invoke(app, [*args, "--record", str(auto), "--auto"], input="1\n" * 3000)
    assert first.exit_code == 0 and second.exit_code == 0
    # Forced moves need no answer with --auto, so fewer prompts for the same game.
    assert second.output.count("Your move") < first.output.count("Your move")
    assert json.loads(auto.read_text())["actions"] == json.loads(plain.read_text())["actions"]
