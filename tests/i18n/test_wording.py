"""Every event kind, prompt and refusal in words, in both languages, for the person it is about,
another player and a bot: every placeholder filled, Japanese free of English words other than the
names and notation, English in the right person and number."""

from __future__ import annotations

import re

import pytest

from nekobako.engine import get_game
from nekobako.i18n import catalogue, text
from worded import english_words
from wording_samples import NAMES, prompts, samples

ENGLISH_GRAMMAR = re.compile(r"\bYou (is|has|wins|scores|holds|still holds|moves|discards|swaps|shows|starts)\b")
EVENTS = samples()
PROMPTS = prompts()


def check(en: str, ja: str, names: list[str]) -> None:
    for words in (en, ja):
        assert words and not re.search(r"\{\w+\}", words), words
    assert not ENGLISH_GRAMMAR.search(en), en
    assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", ja), ja
    assert not english_words(ja, names), (ja, english_words(ja, names))


def test_the_samples_cover_every_event_kind_of_every_game() -> None:
    kinds = {(g, e.kind) for g, _, e in EVENTS}
    declared = {tuple(k.split(".")[::2]) for k in catalogue().entries if re.fullmatch(r"\w+\.event\.\w+", k)}
    rare = {("shutbox", "box_shut"), ("catopomp", "catleton_swap"), ("catopomp", "hell_discarded")}
    assert declared - rare <= kinds, declared - kinds


@pytest.mark.parametrize(("game", "players", "event"), EVENTS, ids=lambda v: getattr(v, "kind", str(v)))
def test_every_event_reads_in_both_languages_for_everyone(game: str, players: int, event) -> None:
    rules = get_game(game)
    names = NAMES[:players]
    seat = event.seat if event.seat is not None and 0 <= event.seat < players else None
    readers = {None, *range(players)} if seat is None else {seat, (seat + 1) % players, None}
    about = "{who}" in str(catalogue().entries[f"{game}.event.{event.kind}"].en)
    for viewer in readers:
        en = rules.describe(event, "en", names, viewer)
        ja = rules.describe(event, "ja", names, viewer)
        check(en, ja, names)
        if about and seat is not None and seat == viewer:  # about the reader: in the second person
            assert "You" in en or "you" in en, en
            assert "あなた" in ja, ja
        elif about and seat is not None:
            assert names[seat] in en and names[seat] in ja, (en, ja)


@pytest.mark.parametrize(("game", "players", "seat", "message"), PROMPTS, ids=lambda v: str(v)[:40])
def test_every_prompt_and_goal_reads_in_both_languages(game, players, seat, message) -> None:
    rules = get_game(game)
    names = NAMES[:players]
    check(
        rules.describe_prompt(message, "en", names, seat),
        rules.describe_prompt(message, "ja", names, seat),
        names,
    )


REFUSALS = sorted(k for k in catalogue().entries if re.search(r"\.(refusal|notation|options)\.|^error\.", k))


@pytest.mark.parametrize("key", REFUSALS)
def test_every_refusal_reads_in_both_languages(key: str) -> None:
    entry = catalogue().entries[key]
    forms = entry.en if isinstance(entry.en, tuple) else (entry.en,)
    params = {name: 7 for form in forms for name in re.findall(r"\{(\w+)\}", form)}
    for n in (1, 2):
        params["n"] = n
        check(text(key, "en", **params), text(key, "ja", **params), [])
    if isinstance(entry.en, tuple):
        assert text(key, "en", **{**params, "n": 1}) != text(key, "en", **{**params, "n": 2}), key


def test_plural_and_person_in_the_words_the_issue_names() -> None:
    shut = get_game("shutbox")
    state = shut.new_game(1)
    assert text("words.players", "en", n=1) == "1 player" and text("words.games", "en", n=1) == "1 game"
    assert shut.title.text("en") == "Shut the Box" and shut.title.text("ja") == "シャット・ザ・ボックス"
    catbox = get_game("catbox")
    from nekobako.engine import Event

    won = Event("trick_won", 0, {"trick": 5, "colour": "red", "number": 7})
    assert catbox.describe(won, "en", ["Ann", "Bo"], viewer=0) == "You win trick 5 with red 7"
    assert catbox.describe(won, "en", ["Ann", "Bo"], viewer=1) == "Ann wins trick 5 with red 7"
    assert catbox.describe(won, "ja", ["Ann", "Bo"], viewer=0) == "あなたが赤の7でトリック5を獲得"
    assert state.players == 1
