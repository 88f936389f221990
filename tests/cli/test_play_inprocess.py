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


def test_the_log_shows_other_spare_faces_once_the_view_does(tmp_path):
    """Catopomp round 3, both seats choose a spare face at once: the bot's choice reads `spare ?`
    while the phase is open, and once both are set the log shows it as the view does."""
    import scenario

    state = scenario.run(
        "catopomp",
        2,
        [*scenario.CATOPOMP_ROUND_1, *scenario.CATOPOMP_ROUND_2, "deal 1 2 3 4 5 | 6 7 8 9 10", "dice 3"],
        hand_size=5,
    )
    record = state.record(seed=4).to_json()
    record["seats"] = ["human", "random"]
    path = tmp_path / "round3.json"
    path.write_text(json.dumps(record))
    result = CliRunner().invoke(app, ["play", "--resume", str(path)], input="spare 5\n")
    assert result.exit_code == 0, result.output
    after = replay(Record.from_json(json.loads(path.read_text())))
    assert after.view(0)["history"][-2:] == [[0, "spare 5"], [1, f"spare {after.spare[1]}"]]
    log = result.output[result.output.index("spare 5") :]
    assert "spare ?" in log  # the bot's choice as it came, while the phase was open
    assert f"spare {after.spare[1]} (shown now)" in log


def test_a_resumed_game_is_the_game_played_in_one_sitting(tmp_path):
    """The same seed and the same answers, straight through and stopped after a few answers then
    resumed: the same record, bots' choices included (random bots draw on every decision)."""
    args = ["play", "catbox", "-p", "3", "--seat", "1", "--bots", "random,random", "--seed", "12"]
    whole, part = tmp_path / "whole.json", tmp_path / "part.json"
    first = CliRunner().invoke(app, [*args, "--record", str(whole)], input="1\n" * 400)
    assert first.exit_code == 0, first.output
    stopped = CliRunner().invoke(app, [*args, "--record", str(part)], input="1\n" * 4)
    assert stopped.exit_code == 0 and "End of input" in stopped.output
    before = json.loads(part.read_text())
    assert not replay(Record.from_json(before)).is_over()
    resumed = CliRunner().invoke(app, ["play", "--resume", str(part)], input="1\n" * 400)
    assert resumed.exit_code == 0, resumed.output
    after, straight = json.loads(part.read_text()), json.loads(whole.read_text())
    assert replay(Record.from_json(straight)).is_over()
    assert (
        len(after["actions"]) > len(before["actions"])
        and after["actions"][: len(before["actions"])] == before["actions"]
    )
    assert after == straight
