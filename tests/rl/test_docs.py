"""docs/research.md says what the code does: its Python examples run, its size table and its
field tables are the encodings' own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from nekobako.engine.encoding import encoding
from nekobako.games.catopomp.encoding import FEATURES

DOC = (Path(__file__).resolve().parents[2] / "docs" / "research.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", DOC, flags=re.S)


def test_research_doc_examples_run_in_order() -> None:
    namespace: dict = {}  # a block may use what an earlier one made, as a reader would
    for code in BLOCKS:
        exec(compile(code, "docs/research.md", "exec"), namespace)
    assert len(BLOCKS) >= 5


def test_size_table_is_the_encodings() -> None:
    rows = re.findall(
        r"^\| (shutbox|catbox|catopomp) \| (\d+) \| ([^|]+) \| ([\d,]+) \| (\d+) \| ([\d,]+) \|", DOC, re.M
    )
    assert len(rows) >= 10
    for game, players, options, actions, size, information in rows:
        opts = {} if options.strip() == "defaults" else dict(o.split("=") for o in options.strip().split(", "))
        enc = encoding(game, int(players), **opts)
        assert (enc.num_actions, enc.size, enc.information_size) == (
            int(actions.replace(",", "")),
            int(size),
            int(information.replace(",", "")),
        ), (game, players, options)


@pytest.mark.parametrize(("game", "players"), [("shutbox", 2), ("catbox", 4), ("catopomp", 4)])
def test_every_field_is_documented_with_its_size(game: str, players: int) -> None:
    section = DOC.split(f"#### {game} (")[1].split("####")[0]
    for field in encoding(game, players).layout.fields:
        assert f"| `{field.name}` | {field.size} | {field.offset} | {field.doc} |" in section, field.name
    for field in FEATURES.fields:
        assert f"| `{field.name}` | {field.size} | {field.doc} |" in DOC, field.name


@pytest.mark.parametrize(("game", "players"), [("shutbox", 2), ("catbox", 4), ("catopomp", 4)])
def test_view_keys_left_out_are_documented(game: str, players: int) -> None:
    for key, where in encoding(game, players).elsewhere.items():
        assert re.search(rf"^\| `{key}` \| (all|{game}) \| {re.escape(where)} \|$", DOC, re.M), key
