"""UTS #39 skeletons from Unicode's own confusables data (`unicode/confusables.txt`, version 17.0.0,
vendored verbatim with its licence: no maintained PyPI package ships the directed mapping the
skeleton needs, and the file must not change under stored account keys without a decision)."""

from __future__ import annotations

import unicodedata
from functools import cache
from importlib.resources import files


@cache
def prototypes() -> dict[str, str]:
    """Each confusable character → its prototype (one or more characters), as the file lists them."""
    text = files(__package__).joinpath("unicode/confusables.txt").read_text(encoding="utf-8-sig")
    mapping = {}
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) >= 3:
            source, target = ("".join(chr(int(code, 16)) for code in field.split()) for field in fields[:2])
            mapping[source] = target
    return mapping


def skeleton(text: str) -> str:
    """UTS #39 skeleton: NFD, every character through the confusables mapping, NFD again."""
    mapping = prototypes()
    mapped = "".join(mapping.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)
