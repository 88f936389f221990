"""`nekobako rules` as a person runs it (a real process), and `rules` / `?` inside `nekobako play`."""

from __future__ import annotations

import pytest

from nekobako.rules import load

from .conftest import run_cli


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_rules_print_every_section_title(lang: str) -> None:
    done = run_cli("rules", "catopomp", "--lang", lang)
    assert done.returncode == 0, done.stderr
    for section in load("catopomp", lang).sections:
        assert section.title in done.stdout
    assert "{#" not in done.stdout and "(#" not in done.stdout  # anchors and section links are not shown
    assert "7-7-7-7" in done.stdout  # the strength ladder picture


def test_the_pager_gets_the_whole_text() -> None:
    """Without a terminal, Python's pager writes the text straight out (pydoc's plain pager)."""
    done = run_cli("rules", "catbox", "--pager")
    assert done.returncode == 0, done.stderr
    assert "Cat in the Box" in done.stdout and "Moves in the terminal" in done.stdout


def test_one_section() -> None:
    done = run_cli("rules", "shutbox", "--section", "over")
    assert done.returncode == 0, done.stderr
    assert "End of the game" in done.stdout and "45" in done.stdout
    assert "Table options" not in done.stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["rules", "chess"], "There is no game 'chess'; games: shutbox, catbox, catopomp."),
        (["rules", "catbox", "--lang", "fr"], "the language is en or ja, not 'fr'"),
        (["rules", "catbox", "--section", "nowhere"], "There is no section 'nowhere' in the rules of Cat in the Box"),
    ],
)
def test_bad_input_is_a_clear_error(args: list[str], words: str) -> None:
    done = run_cli(*args)
    assert done.returncode == 2
    assert words in " ".join(done.stderr.split())
    assert "Traceback" not in done.stderr + done.stdout and done.stdout == ""


def test_rules_inside_play_show_the_current_phase() -> None:
    """Cat in the Box starts with the discard: `?` shows that section, `help` the commands, and the
    game goes on afterwards."""
    done = run_cli(
        "play", "catbox", "-p", "3", "--seed", "4", "--record", "/dev/null", "--lang", "ja",
        input="?\nrules scoring\nrules nowhere\nhelp\nquit\n",
    )  # fmt: skip
    out = " ".join(done.stdout.split())
    assert "カードを伏せる" in out and "ラウンドが終わると全員の捨て札が公開されます" in out
    assert "ラウンドの終わりと得点" in out and "勝利予測ボーナス" in out
    assert "節「nowhere」はありません" in out
    assert "「board」で盤面を再表示" in out
    assert "Traceback" not in done.stderr
