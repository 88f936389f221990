"""The one catalogue (`nekobako.i18n`): every key in both languages, the same placeholders in each,
second-person forms beside their base, Japanese without English words, and every key the code
names present."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from nekobako.i18n import LANGS, Message, catalogue, negotiate, text
from nekobako.i18n.catalogue import Catalogue, po_files
from worded import HELP_NOTATION, english_words

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "nekobako"
PLACEHOLDER = re.compile(r"\{(\w+)\}")
ENTRIES = catalogue().entries


def forms(words: str | tuple[str, ...]) -> tuple[str, ...]:
    return words if isinstance(words, tuple) else (words,)


def placeholders(words: str | tuple[str, ...]) -> set[str]:
    return {name for form in forms(words) for name in PLACEHOLDER.findall(form)}


def test_the_catalogue_is_read_from_every_domain() -> None:
    names = {p.relative_to(PACKAGE).as_posix() for p in po_files()}
    assert {"i18n/core.po", "i18n/web.po", "games/shutbox/messages.po", "games/catbox/messages.po"} <= names
    assert len(ENTRIES) > 300


@pytest.mark.parametrize("key", sorted(ENTRIES))
def test_every_key_has_both_languages(key: str) -> None:
    entry = ENTRIES[key]
    assert all(forms(entry.en)) and all(forms(entry.ja)), f"{key}: a language is empty"
    assert not entry.fuzzy, f"{key}: the translation is marked fuzzy (the English changed): check it"
    assert placeholders(entry.ja) <= placeholders(entry.en) | {"n"}, (
        f"{key}: Japanese names a placeholder English lacks"
    )
    missing = placeholders(entry.en) - placeholders(entry.ja) - {"n", "who"}
    assert not missing, f"{key}: Japanese drops {missing}"


def test_plural_entries_have_english_one_and_other() -> None:
    plurals = {k: e for k, e in ENTRIES.items() if isinstance(e.en, tuple)}
    assert plurals, "some message has plural forms"
    for key, entry in plurals.items():
        assert len(forms(entry.en)) == 2 and len(forms(entry.ja)) == 1, key


def test_second_person_forms_stand_beside_their_base() -> None:
    yous = [k for k in ENTRIES if k.endswith(".you") and re.search(r"\.(event|prompt|refusal|act)\.", k)]
    assert len(yous) >= 15
    for key in yous:
        base = key.removesuffix(".you")
        assert base in ENTRIES, f"{key} has no base form"
        assert "{who}" not in str(ENTRIES[key].en), f"{key}: the second person does not name the reader"
        assert re.match(
            r"(You|Round \{round\}: you|Paradox! You|Everyone passed: .*you|Game over: you)", str(ENTRIES[key].en)
        )
        assert "あなた" in str(ENTRIES[key].ja), key


@pytest.mark.parametrize("key", sorted(ENTRIES))
def test_japanese_has_no_english_words(key: str) -> None:
    for form in forms(ENTRIES[key].ja):
        words = english_words(form, notation=HELP_NOTATION if key.startswith("cli.help.") else set())
        assert not words, f"{key}: {form!r} has English {words}"


def test_a_key_is_in_one_file_only(tmp_path: Path) -> None:
    entry = 'msgctxt "words.none"\nmsgid "none"\nmsgstr "なし"\n'
    (tmp_path / "a.po").write_text(entry, encoding="utf-8")
    (tmp_path / "b.po").write_text(entry, encoding="utf-8")
    with pytest.raises(ValueError, match=r"also in a\.po"):
        Catalogue([tmp_path / "a.po", tmp_path / "b.po"])


def test_words_plurals_and_nested_messages() -> None:
    assert text("words.players", "en", n=1) == "1 player"
    assert text("words.players", "en", n=2) == "2 players"
    assert text("words.games", "en", n=1) == "1 game"
    assert text("words.players", "ja", n=1) == "1人"
    red = Message("catbox.colour.red")
    assert (
        text("catbox.event.trick_won", "ja", who="Ann", trick=2, colour=red, number=5) == "Annが赤の5でトリック2を獲得"
    )
    assert Message("words.seat", n=3).to_json() == {"key": "words.seat", "params": {"n": 3}}
    assert str(Message("words.seat", n=3)) == "Seat 3"
    assert text("no.such.key", "ja") == "no.such.key"


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("ja", "ja"),
        ("ja-JP,ja;q=0.9,en;q=0.8", "ja"),
        ("en-US,ja;q=0.9", "en"),
        ("fr, ja;q=0.5", "ja"),
        ("", "en"),
        (None, "en"),
        ("ja;q=0", "en"),
        ("ja;q=x", "en"),
    ],
)
def test_accept_language_is_negotiated(header: str | None, lang: str) -> None:
    assert negotiate(header) == lang


def _static_keys(pattern: str, suffixes: tuple[str, ...]) -> dict[str, str]:
    found = {}
    for path in PACKAGE.rglob("*"):
        if path.suffix in suffixes:
            for key in re.findall(pattern, path.read_text(encoding="utf-8")):
                found[key] = path.name
    return found


def test_every_key_the_browser_names_is_in_the_catalogue() -> None:
    used = _static_keys(r'\bt\("([a-z][\w]*(?:\.[\w]+)+)"', (".js",))
    missing = {k: f for k, f in used.items() if k not in ENTRIES}
    assert len(used) > 150 and not missing, missing


def test_every_key_python_names_is_in_the_catalogue() -> None:
    used = _static_keys(
        r'(?:Message|text|_refuse|refusal|Refusal|ApiError)\([^"\n]*"([a-z][\w]*(?:\.[\w]+)+)"', (".py",)
    )
    missing = {k: f for k, f in used.items() if k not in ENTRIES and not k.startswith("no.such")}
    assert not missing, missing


def test_langs() -> None:
    assert LANGS == ("en", "ja")
