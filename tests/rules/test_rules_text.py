"""The rules text cannot silently fall behind the code: every table option and value, every phase a
view can name and every section link is checked in both languages; the HTML keeps raw HTML out."""

from __future__ import annotations

import importlib
import importlib.util
import random
import re

import pytest
from rich.cells import cell_len

from nekobako.engine import game_names, get_game
from nekobako.i18n import text
from nekobako.rules import LANGS, RulesNotFound, load, parse, phase_section
from nekobako.rules.html import render_body, render_page

BOOKS = [(game, lang) for game in game_names() for lang in LANGS]
CODE_BLOCK = re.compile(r"^(?:> )?```text\n(.*?)^(?:> )?```", re.S | re.M)


def _lobby_option_names(game: str, lang: str) -> dict[str, str]:
    """The option names the lobby shows (`<game>.option.<name>`), so the rules use the same words."""
    return {spec.name: text(spec.key(game), lang) for spec in get_game(game).option_specs}


def _phases(game: str) -> tuple[str, ...]:
    """The view's phase names: in the game's leaf `phases` module where it has one, else in `state`."""
    package = f"nekobako.games.{game}"
    module = "phases" if importlib.util.find_spec(f"{package}.phases") else "state"
    return importlib.import_module(f"{package}.{module}").PHASE_NAMES


def _code(value: object) -> str:
    if isinstance(value, bool):
        return "`on`" if value else "`off`"
    return f"`{value}`"


@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_every_option_and_value_is_explained(game: str, lang: str) -> None:
    options = load(game, lang).section("options").markdown
    lobby = _lobby_option_names(game, lang)
    for spec in get_game(game).option_specs:
        assert f"`{spec.name}`" in options, f"{game}/{lang}: option {spec.name} is not in the options section"
        assert lobby[spec.name] in options, f"{game}/{lang}: the lobby's name {lobby[spec.name]!r} is not used"
        choices = spec.choices or ()
        numbers = [c for c in choices if isinstance(c, int) and not isinstance(c, bool)]
        if len(numbers) > 3 and numbers == list(range(numbers[0], numbers[-1] + 1)):  # a range: 5–16
            lo, hi = numbers[0], numbers[-1]
            assert f"{lo}–{hi}" in options or f"{lo}〜{hi}" in options, f"{game}/{lang}: {spec.name} {lo}–{hi}"
            continue
        for choice in choices:
            assert _code(choice) in options, f"{game}/{lang}: {spec.name}={choice} is not in the options section"


@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_an_option_is_named_by_the_lobbys_name_wherever_its_code_appears(game: str, lang: str) -> None:
    """A player knows an option by the name the lobby's form shows ("タイル数"), not by its code
    (`tiles`): every paragraph, list or table that writes an option's code names it as well."""
    text_only = CODE_BLOCK.sub("", load(game, lang).markdown)
    lobby = _lobby_option_names(game, lang)
    for block in re.split(r"\n\s*\n", text_only):
        for name, label in lobby.items():
            if f"`{name}`" in block:
                assert label in block, f"{game}/{lang}: `{name}` without its name {label!r}: {block[:120]!r}"


@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_every_phase_has_its_section(game: str, lang: str) -> None:
    anchors = load(game, lang).anchors()
    missing = [p for p in _phases(game) if p not in anchors]
    assert not missing, f"{game}/{lang}: no section for phases {missing}"


@pytest.mark.parametrize("game", game_names())
def test_both_languages_have_the_same_sections(game: str) -> None:
    en, ja = load(game, "en"), load(game, "ja")
    assert en.anchors() == ja.anchors()
    assert [(s.anchor, s.level) for s in en.sections] == [(s.anchor, s.level) for s in ja.sections]
    assert en.title != ja.title and re.search(r"[ァ-ン]", ja.title)


@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_links_between_sections_lead_somewhere(game: str, lang: str) -> None:
    book = load(game, lang)
    for target in re.findall(r"\]\(#([a-z0-9-]+)\)", book.markdown):
        assert target in book.anchors(), f"{game}/{lang}: link to missing section #{target}"


@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_pictures_fit_a_terminal_and_stay_aligned(game: str, lang: str) -> None:
    """Text diagrams are at most 80 cells wide. A browser's monospace font may not draw Japanese
    exactly two cells wide, so a wide character may only lead every line of a block (row names
    赤 青 黄 緑) or follow the last column of its line (no run of spaces after it)."""
    blocks = CODE_BLOCK.findall(load(game, lang).markdown)
    assert blocks, f"{game}/{lang} has no picture"
    for block in blocks:
        lines = [line.removeprefix("> ").removeprefix(">") for line in block.splitlines() if line.strip("> ")]
        if all(cell_len(line[0]) == 2 for line in lines):
            lines = [line[1:] for line in lines]
        for line in lines:
            assert cell_len(line) <= 80, line
            first_wide = next((i for i, ch in enumerate(line) if cell_len(ch) == 2), None)
            if first_wide is not None:
                assert "  " not in line[first_wide:], f"{game}/{lang}: columns after Japanese text: {line!r}"


def test_a_random_game_only_ever_names_phases_that_have_a_section() -> None:
    """Follow real games: the section a front end opens for each view exists."""
    for game in game_names():
        anchors = set(load(game, "en").anchors())
        for players, seed in ((2, 1), (get_game(game).max_players, 2)):
            state = get_game(game).new_game(players)
            rng = random.Random(seed)
            seen = set()
            while True:
                view = state.view(None)
                seen.add(phase_section(view))
                if state.is_over():
                    break
                if state.is_chance():
                    state.apply(-1, state.sample_chance(rng))
                else:
                    seat = state.to_move[0]
                    state.apply(seat, rng.choice(list(state.legal_actions(seat))))
            assert seen <= anchors, (game, seen - anchors)
            assert "over" in seen


def test_sections_nest_and_code_blocks_are_not_headings() -> None:
    book = parse(
        "x", "en", "# T {#top}\n## A {#a}\ntext\n```text\n# not a heading {#no}\n```\n### B {#b}\nb\n## C\nc\n"
    )
    assert book.anchors() == ["top", "a", "b"]
    assert book.section("a").markdown.startswith("## A\n") and "### B" in book.section("a").markdown
    assert "## C" not in book.section("a").markdown
    assert "{#" not in book.markdown.replace("{#no}", "")
    with pytest.raises(RulesNotFound, match="sections: top, a, b"):
        book.section("zz")


@pytest.mark.parametrize(
    ("bad_game", "bad_lang", "words"),
    [("chess", "en", "There is no game 'chess'"), ("catbox", "fr", "There are no rules in 'fr'; languages: en, ja")],
)
def test_unknown_game_or_language_is_refused_clearly(bad_game: str, bad_lang: str, words: str) -> None:
    with pytest.raises(RulesNotFound, match=words):
        load(bad_game, bad_lang)


def test_html_has_every_anchor_and_no_raw_html() -> None:
    for game, lang in BOOKS:
        html = render_page(game, lang)
        for anchor in load(game, lang).anchors():
            assert f'id="{anchor}"' in html
        assert f'<html lang="{lang}">' in html and "<script" not in html
    evil = parse("x", "en", "# T {#top}\n<script>alert(1)</script>\n\n[x](javascript:alert(1)) <img src=x onerror=y>\n")
    body = render_body(evil)
    assert "<script" not in body and "<img" not in body and 'href="javascript' not in body
    assert "&lt;script&gt;" in body
