"""One term per concept, checked where the words are: every Japanese text of the catalogue (what the
browser, the terminal and the API say) and the docs use the glossary's term, never a variant it
refuses (ソウルジェム, never 魂の宝石)."""

from __future__ import annotations

import pytest

from glossary import ROOT, refused_words
from nekobako.i18n import browser_catalogue, catalogue

REFUSED = refused_words()


def japanese_texts() -> dict[str, str]:
    """Key → every Japanese form of that key, as the catalogue serves it (plural forms joined)."""
    out = {}
    for key, words in browser_catalogue()["ja"].items():
        out[key] = " ".join(words) if isinstance(words, (list, tuple)) else words
    return out


def test_the_glossary_is_read() -> None:
    assert {"魂の宝石", "フェーズ", "予想", "渡す"} <= set(REFUSED)
    assert REFUSED["魂の宝石"] == "ソウルジェム"


def test_every_japanese_text_uses_the_glossarys_terms() -> None:
    texts = japanese_texts()
    assert len(texts) == len(catalogue().entries)
    found = [
        f"{key}: {word!r} (say {REFUSED[word]}): {ja}" for key, ja in texts.items() for word in REFUSED if word in ja
    ]
    assert not found, "\n".join(found)


def test_a_refused_variant_would_be_found() -> None:
    """The check reads the served catalogue, not a copy: a variant slipped into it is caught."""
    texts = {**japanese_texts(), "catopomp.test": "魂の宝石を1個失いました"}
    assert [key for key, ja in texts.items() for word in REFUSED if word in ja] == ["catopomp.test"]


@pytest.mark.parametrize("path", sorted(p.name for p in (ROOT / "docs").glob("*.md") if p.name != "glossary.md"))
def test_the_docs_use_the_glossarys_terms(path: str) -> None:
    text = (ROOT / "docs" / path).read_text(encoding="utf-8")
    found = [f"{word!r} (say {REFUSED[word]})" for word in REFUSED if word in text]
    assert not found, f"docs/{path}: {found}"
