"""`nekobako tutorial GAME` as a real process: each tutorial played to its end in both languages
by typing the steps' moves (with a wrong try answered on the way), and resumed where it stopped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nekobako.i18n import text
from nekobako.tutorial import load, tutorial_games

from .conftest import run_cli


def moves(game: str) -> list[str]:
    return [step.move or "" for step in load(game).steps]


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", tutorial_games())
def test_a_tutorial_to_its_end(game: str, lang: str, tmp_path: Path) -> None:
    answers = ["help", "?", "not a move", *moves(game)]
    proc = run_cli("tutorial", game, "--lang", lang, "--save", str(tmp_path) + "/", input="\n".join(answers) + "\n")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    out = proc.stdout
    closing = text(load(game).finish.text, lang)
    assert closing[:30] in out.replace("\n", "")  # the last step's words
    assert text("cli.tutorial.refused", lang, reason="")[:6] in out  # the wrong try was answered
    saved = json.loads((tmp_path / f"tutorial-{game}.json").read_text(encoding="utf-8"))
    assert saved["tutorial"] == len(load(game).steps)


def test_the_tutorial_resumes_where_it_stopped(tmp_path: Path) -> None:
    save = tmp_path / "progress.json"
    first = run_cli("tutorial", "shutbox", "--save", str(save), input="roll\nshut 9\nquit\n")
    assert first.returncode == 0 and "run nekobako tutorial shutbox again" in first.stdout
    assert json.loads(save.read_text())["tutorial"] == 2
    again = run_cli("tutorial", "shutbox", "--save", str(save), input="shut 9\n")
    assert "Continuing the tutorial at step 3 of 11" in again.stdout
    assert "Step 3 of 11" in again.stdout and "Not this:" in again.stdout  # 9 is closed, a roll is asked
    fresh = run_cli("tutorial", "shutbox", "--save", str(save), "--restart", input="")
    assert "Step 1 of 11" in fresh.stdout and "Continuing" not in fresh.stdout


@pytest.mark.parametrize("args", [["tutorial", "chess"], ["tutorial"], ["tutorial", "shutbox", "--step", "3"]])
def test_bad_arguments_exit_2_with_one_line(args: list[str]) -> None:
    proc = run_cli(*args)
    assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr
    assert proc.stderr.strip().startswith(("error:", "Usage", "Error")), proc.stderr
