"""`nekobako play` over plain pipes: a scripted full game, bad input refused, EOF saves."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from nekobako.engine import Record, replay

from .conftest import run_cli

FIRST_ALWAYS = "1\n" * 2000  # more answers than any Shut the Box game needs


def play(tmp_path: Path, script: str, *extra: str, name: str = "game.json", seed: int = 11):
    path = tmp_path / name
    proc = run_cli(
        "play",
        "shutbox",
        "--players",
        "2",
        "--seed",
        str(seed),
        "--bots",
        "greedy",
        "--record",
        str(path),
        *extra,
        input=script,
    )
    return proc, path


def test_scripted_full_game_ends_with_results_and_a_replayable_record(tmp_path):
    proc, path = play(tmp_path, FIRST_ALWAYS)
    assert proc.returncode == 0, proc.stderr
    assert "Game over" in proc.stdout
    assert "Your legal actions" in proc.stdout
    record = json.loads(path.read_text())
    assert record["game"] == "shutbox" and record["players"] == 2 and record["seed"] == 11
    assert record["seats"] == ["human", "greedy"]
    state = replay(Record.from_json(record))
    assert state.is_over()
    assert state.winners()
    assert any(entry.startswith("0: ") for entry in record["actions"])
    # The dice come from Random(seed) as `replay` fills them: the moves alone rebuild the game
    # (up to the last move; chance after it is not written by anyone).
    actions = record["actions"]
    last = max(i for i, a in enumerate(actions) if a[:1].isdigit() and ":" in a)
    moves = [a for a in actions[: last + 1] if a[:1].isdigit() and ":" in a]
    again = replay(Record.from_json({**record, "actions": moves}))
    upto = replay(Record.from_json({**record, "actions": actions[: last + 1]}))
    assert again.history == upto.history


def test_bad_input_is_answered_and_changes_nothing(tmp_path):
    clean, clean_path = play(tmp_path, FIRST_ALWAYS, name="clean.json")
    assert clean.returncode == 0, clean.stderr
    junk = "foo bar\n999\nshut 1 2 3 4 5 6 7 8 9\n0\n\n?\nboard\n"
    noisy, noisy_path = play(tmp_path, junk + FIRST_ALWAYS, name="noisy.json")
    assert noisy.returncode == 0, noisy.stderr
    assert "Not understood" in noisy.stdout  # malformed notation: the engine's reason
    assert "There is no action numbered 999" in noisy.stdout
    assert "Not allowed" in noisy.stdout  # well-formed but illegal now
    assert "notation" in noisy.stdout  # the help text
    # The same seed and the same real decisions give the same game: refused input left no trace.
    assert json.loads(noisy_path.read_text())["actions"] == json.loads(clean_path.read_text())["actions"]


def test_input_in_notation_is_accepted(tmp_path):
    proc, path = play(tmp_path, "0: roll\n1: roll\n", "--seat", "1", seed=2)  # seed 2: the bot does not shut
    assert proc.returncode == 0, proc.stderr
    assert "You play seat 1 only" in proc.stdout
    actions = json.loads(path.read_text())["actions"]
    assert "1: roll" in actions


def test_end_of_input_saves_the_game_so_far(tmp_path):
    proc, path = play(tmp_path, "1\n")
    assert proc.returncode == 0, proc.stderr
    assert "End of input" in proc.stdout
    state = replay(Record.from_json(path.read_text()))
    assert not state.is_over()
    shown = run_cli("replay", str(path))
    assert shown.returncode == 0 and "in progress" in shown.stdout


def test_default_record_path_is_under_records(tmp_path):
    proc = run_cli("play", "shutbox", "--players", "2", "--seed", "4", "--bots", "random", input="", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    saved = list((tmp_path / "records").glob("shutbox-*-s4.json"))
    assert len(saved) == 1


def test_japanese_text(tmp_path):
    proc, _ = play(tmp_path, "1\n", "--lang", "ja")
    assert "あなたの手" in proc.stdout


def test_bad_arguments_exit_non_zero(tmp_path):
    for args in (
        ("play", "chess", "--players", "2"),
        ("play", "shutbox", "--players", "2", "--seat", "5"),
        ("play", "shutbox", "--players", "2", "--bots", "nobody"),
        ("play", "shutbox", "--players", "2", "--options", "tiles=7"),
        ("play", "shutbox", "--players", "3", "--bots", "random,random,random"),
    ):
        proc = run_cli(*args, "--record", str(tmp_path / "x.json"))
        assert proc.returncode != 0, args
        assert "error" in proc.stderr.lower(), (args, proc.stderr)
        assert not (tmp_path / "x.json").exists()


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("shutbox", 4, "tiles=12"),
        ("shutbox", 3, "simultaneous=on scoring=digits"),
        ("catbox", 2, ""),
        ("catbox", 4, ""),
        ("catbox", 5, ""),
        ("catopomp", 3, ""),
        ("catopomp", 4, "extra_cards=both"),
    ],
)
def test_every_game_plays_to_the_end_with_its_own_board(tmp_path, game, players, options):
    path = tmp_path / f"{game}.json"
    proc = run_cli(
        "play",
        game,
        "--players",
        str(players),
        "--seed",
        "1",
        "--bots",
        "random",
        "--record",
        str(path),
        "--options",
        options,
        input="1\n" * 5000,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Game over" in proc.stdout
    assert "(plain view" not in proc.stdout  # the game's own drawing worked at every step
    state = replay(Record.from_json(path.read_text()))
    assert state.is_over()
    if game == "catbox":  # every round's discards and each paradox hand are in the log as they happen
        paradoxes = sum(e.kind == "paradox" for e in state.events)
        assert proc.stdout.count("Discards revealed: You: ") == players and paradoxes
        shown = proc.stdout.count("shows their hand (") + proc.stdout.count("show your hand (")
        assert shown == paradoxes


def test_catopomp_moves_are_grouped_and_numbered_in_order_and_the_round_summary_is_shown(tmp_path):
    path = tmp_path / "catopomp.json"
    proc = run_cli(
        "play", "catopomp", "--players", "3", "--seed", "3", "--bots", "greedy", "--record", str(path),
        input="1\n" * 400,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    first = out.index("Your legal actions")
    menu = out[first : out.index("Your move", first)]
    assert "from your hand:" in menu and "with dice:" in menu
    assert menu.index("from your hand:") < menu.index("with dice:")
    numbers = [int(n) for n in re.findall(r"(\d+) (?:play|hell|pass|bury|give|keep|spare|discard)\b", menu)]
    assert numbers == list(range(1, len(numbers) + 1))  # numbered in the order shown
    assert "Lead a combination" in out and "Round 1 is over" in out and "lost a soul gem" in out
    # the number typed is the number shown: the first move played is the first one listed
    record = json.loads(path.read_text())
    first_move = next(a for a in record["actions"] if a.startswith("0: "))
    assert first_move == "0: " + re.search(r"\s1 ((?:play|hell) [^\n]*?)\s{2,}", menu).group(1).strip()


@pytest.mark.parametrize(("game", "players"), [("shutbox", 2), ("catbox", 3), ("catopomp", 2)])
def test_the_learned_level_plays_a_whole_game_at_the_terminal(tmp_path, game, players):
    """`--bots learned` seats the shipped policy of this table (issue 30: selectable in the terminal)."""
    path = tmp_path / f"{game}.json"
    args = ("play", game, "--players", str(players), "--seed", "1", "--bots", "learned", "--record", str(path))
    proc = run_cli(*args, input="1\n" * 5000)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Game over" in proc.stdout and "(learned)" in proc.stdout
    record = Record.from_json(path.read_text())
    assert json.loads(path.read_text())["seats"] == ["human", *["learned"] * (players - 1)]
    assert replay(record).is_over()
