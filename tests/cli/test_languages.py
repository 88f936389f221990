"""Every command in both languages, as a real process: its normal output and each kind of bad input
(unknown game, bad option, bad bot, missing file, bad record, bad argument). In `--lang ja` a
person reads Japanese with no English words but names and notation; in English, no Japanese and
the right number ("1 player"); a mistake is one clear line and exit status 2, never a traceback."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from nekobako import tutorial
from nekobako.bots import LEVELS
from nekobako.engine import Record, game_names, get_game, replay
from nekobako.rules import load
from nekobako.sim.bench import cpu_name, python_version
from worded import HELP_NOTATION, english_words

from .conftest import run_cli

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
BAD_ENGLISH = re.compile(r"\b1 (players|games|actions)\b|\bYou (is|has|wins|scores|holds|moves)\b")
# names and notation a Japanese reader meets as they are: the games' and bots' names, the usage
# line's placeholders (Typer's), options and their values as typed, Cat in the Box's colours in its
# action notation (`play 7 blue`), the machine's name in the bench table
SPECS = [spec for game in game_names() for spec in get_game(game).option_specs]
OPTIONS = {spec.name for spec in SPECS} | {str(value) for spec in SPECS for value in spec.choices or ()}
SECTIONS = {anchor for game in game_names() for anchor in load(game, "ja").anchors()}
COMMANDS = {"serve", "play", "tutorial", "rules", "replay", "review", "solve", "simulate", "ladder", "bench", "reports"}
MACHINE = [cpu_name(), python_version()]
NAMES = {*game_names(), *LEVELS, *OPTIONS, *SECTIONS, *COMMANDS, "OPTIONS", "COMMAND", "ARGS", "record_file"}
NAMES |= {"blue", "green", "yellow"}
SOLO = ["play", "shutbox", "--players", "1", "--seed", "5"]


def said(proc: subprocess.CompletedProcess, paths: tuple[Path, ...] = ()) -> str:
    """Everything printed, with the files named in it taken out (they are names)."""
    out = proc.stdout + proc.stderr
    for path in paths:
        out = out.replace(str(path), " ")
    return re.sub(r"0x[0-9a-f]+", " ", out)  # a byte, as the system names it


def assert_voiced(proc: subprocess.CompletedProcess, lang: str, code: int, *paths: Path) -> None:
    """`proc.args` are what the person typed: quoted back to them, they read as typed."""
    out = said(proc, paths)
    assert proc.returncode == code, (proc.returncode, out[-2000:])
    assert "Traceback" not in out and out.strip(), out[-2000:]
    if lang == "ja":
        assert JAPANESE.search(out), out[-2000:]
        names = {word for name in [*NAMES, *proc.args[3:]] for word in re.findall(r"[A-Za-z]{2,}", name)}
        english = english_words(out, MACHINE) - names
        assert not english, (english, out[-3000:])
    else:
        assert not JAPANESE.search(out), out[-2000:]
        assert not BAD_ENGLISH.search(out), BAD_ENGLISH.search(out)


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A finished solo game, an unfinished Cat in the Box game, and files that are not records."""
    folder = tmp_path_factory.mktemp("records")
    done = folder / "done.json"
    assert run_cli(*SOLO, "--record", str(done), input="1\n" * 80).returncode == 0
    part = folder / "part.json"
    args = ["play", "catbox", "-p", "3", "--seed", "2", "--record", str(part)]
    assert run_cli(*args, input="1\n1\n").returncode == 0
    refused = folder / "refused.json"
    refused.write_text(json.dumps({"game": "shutbox", "players": 1, "actions": ["0: shut 1 2 3 4"]}), encoding="utf-8")
    (folder / "text.json").write_text("hello", encoding="utf-8")
    (folder / "latin1.json").write_bytes(b'{"game": "caf\xe9"}')
    (folder / "list.json").write_text("[1, 2]", encoding="utf-8")
    return {"done": done, "part": part, "refused": refused, "folder": folder}


LANGS = ("en", "ja")

NORMAL = {
    "play shutbox": (SOLO, "1\n" * 80),
    "play catbox": (["play", "catbox", "-p", "2", "--seed", "3"], "1\n" * 60),
    "play catopomp": (["play", "catopomp", "-p", "3", "--seed", "3"], "1\n" * 30 + "help\nlog\nboard\nquit\n"),
    "tutorial catbox": (
        ["tutorial", "catbox"],
        "help\n?\nplay 1 red\n" + "\n".join(s.move or "" for s in tutorial.load("catbox").steps),
    ),
    "simulate": (["simulate", "catopomp", "-p", "3", "--bots", "greedy,random,random", "-n", "6", "-w", "1"], ""),
    "simulate one game": (["simulate", "shutbox", "-p", "1", "-n", "1", "-w", "1"], ""),
    "solve": (["solve", "shutbox", "--objective", "score", "--max-close", "any"], ""),
    "bench": (["bench", "--quick"], ""),
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", sorted(NORMAL))
def test_normal_output_in_each_language(name: str, lang: str, tmp_path: Path) -> None:
    args, answers = NORMAL[name]
    if args[0] == "play":
        args = [*args, "--record", str(tmp_path) + "/"]
    if args[0] == "tutorial":
        args = [*args, "--save", str(tmp_path) + "/"]
    proc = run_cli(*args, "--lang", lang, input=answers, timeout=300)
    assert_voiced(proc, lang, 0, tmp_path)
    if name == "simulate one game":
        assert ("1 player · 1 game" if lang == "en" else "1人 · 1ゲーム") in proc.stdout


@pytest.mark.parametrize("lang", LANGS)
def test_replay_and_resume_in_each_language(lang: str, records: dict[str, Path], tmp_path: Path) -> None:
    for args in (["replay", str(records["done"])], ["replay", str(records["part"]), "--moves"]):
        assert_voiced(run_cli(*args, "--lang", lang), lang, 0, records["folder"])
    more = tmp_path / "more.json"
    resumed = run_cli("play", "--resume", str(records["part"]), "--record", str(more), "--lang", lang, input="quit\n")
    assert_voiced(resumed, lang, 0, records["folder"], tmp_path)
    n = len(replay(Record.from_json(records["part"].read_text(encoding="utf-8"))).history)
    assert (f"after its {n} actions" if lang == "en" else f"{n}手目の後から") in resumed.stdout


@pytest.mark.parametrize("lang", LANGS)
def test_rules_in_each_language(lang: str) -> None:
    proc = run_cli("rules", "catbox", "--section", "discard", "--lang", lang)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    assert bool(JAPANESE.search(proc.stdout)) == (lang == "ja")


BAD_INPUT = {
    "unknown game": [
        ["play", "chess"],
        ["simulate", "chess", "-p", "2"],
        ["rules", "chess"],
        ["solve", "catbox"],
        ["tutorial", "chess"],
    ],
    "bad option": [
        ["play", "shutbox", "-o", "tiles=7"],
        ["play", "shutbox", "-o", "speed=fast"],
        ["play", "shutbox", "-o", "tiles"],
        ["play", "catbox", "-p", "9"],
        ["simulate", "shutbox", "-p", "2", "-o", "scoring=most"],
        ["simulate", "shutbox", "-p", "2", "-n", "0"],
        ["solve", "shutbox", "--tiles", "7"],
        ["rules", "catbox", "--section", "nowhere"],
        ["play", "shutbox", "-p", "2", "--seat", "5"],
    ],
    "bad bot": [
        ["play", "shutbox", "-p", "2", "--bots", "nobody"],
        ["play", "shutbox", "-p", "3", "--bots", "random,random,random"],
        ["play", "catbox", "-p", "2", "--bots", "optimal"],
        ["simulate", "shutbox", "-p", "2", "--bots", "greedy:depth=3"],
        ["simulate", "catbox", "-p", "2", "--bots", "ismcts:iterations=0"],
        ["simulate", "catbox", "-p", "2", "--bots", "ismcts:speed=9"],
        ["simulate", "catbox", "-p", "2", "--bots", "ismcts:iterations"],
        ["simulate", "shutbox", "-p", "2", "--bots", "no_such_module:Bot"],
        ["simulate", "shutbox", "-p", "2", "--bots", "json:JSONDecoder"],
        ["simulate", "shutbox", "-p", "2", "--bots", "json:NoSuchClass"],
    ],
    "missing file": [
        ["replay", "{folder}/nothing.json"],
        ["replay", "{folder}"],
        ["play", "--resume", "{folder}/nothing.json"],
        ["play", "shutbox", "--record", "{done}/below.json"],
        ["simulate", "shutbox", "-p", "2", "--records", "{done}"],
    ],
    "bad record": [
        ["replay", "{folder}/text.json"],
        ["replay", "{folder}/latin1.json"],
        ["replay", "{folder}/list.json"],
        ["replay", "{refused}"],
        ["play", "--resume", "{folder}/text.json"],
        ["play", "--resume", "{refused}"],
        ["play", "--resume", "{done}"],
        ["play", "catbox", "--resume", "{done}"],
        ["play", "--resume", "{part}", "--seed", "99"],
    ],
    "bad argument": [
        ["play", "--players", "x"],
        ["play", "--players"],
        ["play", "--frob"],
        ["play", "--player", "2"],
        ["tutorial"],
        ["play", "shutbox", "extra", "words"],
        ["simulate"],
        ["simulate", "shutbox"],
        ["solve", "shutbox", "--tiles", "1.5"],
        ["bench", "--quick=3"],
        ["sing"],
    ],
}
CASES = [(kind, args) for kind, cases in BAD_INPUT.items() for args in cases]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("kind", "args"), CASES, ids=[f"{k}: {' '.join(a)}" for k, a in CASES])
def test_bad_input_is_one_clear_line_in_each_language(
    kind: str, args: list[str], lang: str, records: dict[str, Path]
) -> None:
    filled = [arg.format(**{k: str(v) for k, v in records.items()}) for arg in args]
    proc = run_cli(*filled, "--lang", lang, input="1\n")
    assert_voiced(proc, lang, 2, records["folder"])
    assert proc.stdout == "", proc.stdout  # refused before anything is played
    error = [
        line for line in proc.stderr.splitlines() if line.startswith(("error:", "bad record:", "エラー", "記録の誤り"))
    ]
    assert len(error) == 1, proc.stderr


def test_an_unknown_language_is_refused_in_english_naming_the_languages() -> None:
    proc = run_cli("simulate", "chess", "--lang", "fr")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "Invalid value for '--lang': the language is en or ja, not 'fr'." in proc.stderr
    assert not JAPANESE.search(proc.stderr)


def test_the_last_lang_given_words_a_mistake_as_it_words_the_rest() -> None:
    proc = run_cli("play", "--lang", "en", "--players", "x", "--lang", "ja")
    assert "「x」は整数ではありません" in proc.stderr and proc.returncode == 2


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("command", ["", *sorted(COMMANDS)])
def test_help_is_in_the_readers_language(command: str, lang: str) -> None:
    """`-h` of the top level and of every command: its summary, options and headings."""
    proc = run_cli("--lang", lang, *command.split(), "--help")  # serve has no --lang of its own
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    page = proc.stdout
    if lang == "ja":
        assert "使い方：" in page and "オプション" in page, page
        names = {word for name in NAMES for word in re.findall(r"[A-Za-z]{2,}", name)}
        english = english_words(page, notation=HELP_NOTATION) - names
        assert not english, (english, page)
    else:
        assert "Usage:" in page and "Options" in page and not JAPANESE.search(page), page
        assert "cli.help." not in page, page  # every key worded


def test_the_last_lang_words_the_help_and_the_command() -> None:
    """`nekobako --lang ja play …` plays in Japanese: the language read before parsing is every
    `--lang`'s default."""
    proc = run_cli("--lang", "ja", *SOLO, input="1\n" * 80)
    assert proc.returncode == 0 and JAPANESE.search(proc.stdout), proc.stdout[-2000:]
    assert "キャット・イン・ザ・ボックス" in run_cli("--lang", "ja", "-h").stdout
