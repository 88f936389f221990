"""One term per concept: the words `docs/glossary.md` refuses appear nowhere a player reads them."""

from __future__ import annotations

from glossary import ROOT, refused_words

PACKAGE = ROOT / "src" / "nekobako"


def test_the_glossary_refuses_something() -> None:
    words = refused_words()
    assert {"予想", "魂の宝石", "階段", "ペナルティ"} <= set(words)


def test_no_refused_word_reaches_a_player() -> None:
    words = refused_words()
    sources = [p for p in PACKAGE.rglob("*") if p.suffix in (".py", ".js", ".md", ".html", ".po") and p.is_file()]
    found = []
    for path in sources:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for word, instead in words.items():
                if word in line:
                    found.append(f"{path.relative_to(ROOT)}:{n}: {word!r} (say {instead}): {line.strip()[:90]}")
    assert not found, "\n".join(found)
