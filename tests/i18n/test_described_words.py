"""What the server describes in words — game titles, every table option (name, help, each value's
and preset's label) and every table notice — is in the catalogue in both languages, and what it
sends carries keys or words in one language, never both."""

from __future__ import annotations

import json
import random
import re
from datetime import UTC, datetime
from typing import Any, get_args

import pytest

from nekobako.engine import CHANCE, BadRecord, MalformedAction, NekobakoError, game_names, get_game
from nekobako.engine.encoding import encoding
from nekobako.games.catbox.determinize import _cards
from nekobako.i18n import catalogue, has, text
from nekobako.server.lobby import installed_games
from nekobako.server.notices import notice_json
from nekobako.store.games import NoticeKind, NoticeRow, Replaced
from worded import assert_worded, english_words

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
GAMES = game_names()


def both_languages(key: str) -> tuple[str, str]:
    assert has(key), f"{key} is not in the catalogue"
    en, ja = text(key, "en"), text(key, "ja")
    assert en and JAPANESE.search(ja) and not english_words(ja), f"{key}: {en!r} / {ja!r}"
    return en, ja


@pytest.mark.parametrize("game", GAMES)
def test_every_title_and_option_is_worded_in_both_languages(game: str) -> None:
    both_languages(f"game.{game}")
    for spec in get_game(game).option_specs:
        described = spec.describe(game)
        both_languages(described["label"])
        help_en, help_ja = both_languages(described["help"])
        assert help_en != help_ja
        for choice, label in zip(described["choices"] or [], described["labels"] or [], strict=True):
            if isinstance(choice, str):  # a code word ("digits", "purple") never reads as itself
                assert label is not None, f"{game}: {spec.name}={choice} has no label"
            if label is not None:
                both_languages(label)
        for preset in described.get("presets", []):
            both_languages(preset["label"])


@pytest.mark.parametrize("game", GAMES)
def test_every_option_key_belongs_to_an_option(game: str) -> None:
    """No orphan words: each `<game>.option.*` key is an option's name, help, value or preset."""
    expected = set()
    for spec in get_game(game).option_specs:
        described = spec.describe(game)
        expected |= {described["label"], described["help"], *filter(None, described["labels"] or [])}
        expected |= {p["label"] for p in described.get("presets", [])}
    assert set(catalogue().keys(f"{game}.option.")) == expected


def test_what_the_lobby_is_sent_carries_keys_only() -> None:
    """`/api/games`: every word a key of the catalogue; no language in the answer."""
    games = installed_games()
    sent = json.dumps(games, ensure_ascii=False)
    assert not JAPANESE.search(sent) and '"en"' not in sent and '"ja"' not in sent
    for game in games:
        keys = [game["title"], *game["messages"].values()]
        for option in game["options"]:
            keys += [option["label"], option["help"], *filter(None, option["labels"] or [])]
            keys += [p["label"] for p in option.get("presets", [])]
        assert all(has(key) for key in keys), [key for key in keys if not has(key)]


def _notices() -> list[tuple[str, dict[str, Any]]]:
    """Every kind of notice with the data the server stores for it."""
    out: list[tuple[str, dict[str, Any]]] = [("started", {}), ("finished", {})]
    out += [("replaced", {"reason": reason, "name": "Ann", "bot": "greedy"}) for reason in get_args(Replaced)]
    out += [("timeout", {"name": "Ann", "bot": "ismcts", "count": 1, "limit": 3}), ("returned", {"name": "Ann"})]
    assert {kind for kind, _ in out} == set(get_args(NoticeKind))
    return out


@pytest.mark.parametrize(("kind", "data"), _notices())
def test_every_notice_reads_in_both_languages_for_everyone(kind: str, data: dict[str, Any]) -> None:
    seat = None if kind in ("started", "finished") else 1
    row = NoticeRow(kind, seat, 5, data, datetime(2026, 12, 1, tzinfo=UTC))  # type: ignore[arg-type]
    for reader in (None, 0, 1):
        worded = {lang: notice_json(row, lang, reader) for lang in ("en", "ja")}
        en, ja = worded["en"]["text"], worded["ja"]["text"]
        assert worded["en"]["key"] == worded["ja"]["key"] and worded["en"]["key"].startswith("notice.")
        for words in (en, ja):
            assert words and not re.search(r"\{\w+\}", words), words
        assert JAPANESE.search(ja) and not english_words(ja, ["Ann"]), ja
        assert not JAPANESE.search(en), en
        if seat is not None:  # a seat a bot took over is no longer the reader's: no "you" then
            mine = reader == seat and kind != "replaced"
            assert en.startswith("You") == mine and ("あなた" in ja) == mine, (reader, en, ja)
            assert ("Ann" in en) == (not mine)
        if "bot" in data:
            assert worded["en"]["params"]["bot"] == {"key": f"bot.{data['bot']}", "params": {}}


def test_a_notice_of_a_kind_this_version_does_not_know_still_reads() -> None:
    row = NoticeRow("paused", None, 3, {}, datetime(2026, 12, 1, tzinfo=UTC))  # type: ignore[arg-type]
    assert notice_json(row, "ja")["text"] == "テーブルで出来事がありました（paused）。"
    assert notice_json(row, "en")["key"] == "notice.other"


def test_errors_of_the_python_interface_are_worded() -> None:
    """What a researcher's program is told (an action id out of range, an action the table has no
    id for, a view that cannot be) carries a key and reads in both languages."""
    enc = encoding("catbox", 3)
    for call, key in [
        (lambda: enc.action(enc.num_actions), "engine.encoding.bad_id"),
        (lambda: enc.action_id(get_game("shutbox").parse_action("shut 2 7")), "engine.encoding.not_here"),
        (lambda: _cards(-1), "catbox.view.too_many_copies"),
    ]:
        with pytest.raises(NekobakoError) as info:
            call()
        assert_worded(info.value, key)
    shutbox = get_game("shutbox")
    view = shutbox.new_game(1).view(0)
    view["history"] = [[0, "roll"]]  # seat 0 rolls before the start
    with pytest.raises(BadRecord) as bad:
        shutbox.determinize(view, None)  # type: ignore[arg-type]
    assert_worded(bad.value, "engine.view.history_refused")
    catopomp = get_game("catopomp")
    state = catopomp.new_game(2)
    while state.view(0)["table"] is None:
        state.apply(*_first_step(state))
    view = state.view(0)
    view["table"] = {**view["table"], "text": "pass"}
    with pytest.raises(MalformedAction) as malformed:
        catopomp.read_view(view)
    assert_worded(malformed.value, "catopomp.view.table_not_a_play")


def _first_step(state: Any) -> tuple[int, Any]:
    if state.is_chance():
        return CHANCE, state.sample_chance(random.Random(1))
    seat = state.to_move[0]
    return seat, state.legal_actions(seat)[0]
