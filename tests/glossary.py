"""The glossary's table (`docs/glossary.md`) as data, for the tests that keep one term per concept."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def refused_words() -> dict[str, str]:
    """Refused word → the term to use instead, from the glossary's table (its last column)."""
    out = {}
    for line in (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[4] and cells[4] != "not" and not set(cells[4]) <= {"-"}:
            for word in cells[4].split(","):
                out[word.strip()] = cells[3]
    return out
