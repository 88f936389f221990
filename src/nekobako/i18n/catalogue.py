"""The catalogue: gettext `.po` files read with Babel, merged into one table per language.

Why gettext: it is what translators and their tools know (Poedit, Weblate, `pybabel`, `msgfmt
--check`), it has plural forms and a context field, and a `.po` file keeps each English text
beside its translation. The layout, chosen so that a message is added in one place:

* `msgctxt` is the stable key (`shutbox.refusal.tile_closed`, `error.bad_credentials`): what code
  carries and what tests name. Keys are unique across every file.
* `msgid` is the English text, `msgstr` the Japanese: a file is the Japanese catalogue in the
  usual gettext sense, and the English is its source. (A third language would add a file with the
  same `msgctxt`/`msgid` pairs; `tests/i18n` checks that every key has every language.)
* `msgid_plural` gives English its plural (`{n} player` / `{n} players`); Japanese has one form.
* A key ending in `.you` is the second-person form of the key before it ("You win trick 5"),
  chosen when the message is about the reader.
* Placeholders are Python's `{name}`; the browser substitutes the same way.

Domains: `i18n/core.po` (engine, server, terminal), `i18n/web.po` (the browser client) and each
game's own `games/<name>/messages.po` (its events, prompts, refusals, option help), so a game's words
stay in its folder.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from babel.messages.pofile import read_po

LANGS = ("en", "ja")
"""The languages every message has; the first is the fallback."""

PACKAGE = Path(__file__).resolve().parent.parent

Text = str | tuple[str, ...]
"""A message's words in one language: one text, or plural forms (English: one, other)."""


def po_files() -> list[Path]:
    """Every catalogue file: the shared domains, then each game's."""
    return sorted((PACKAGE / "i18n").glob("*.po")) + sorted((PACKAGE / "games").glob("*/messages.po"))


@dataclass(frozen=True)
class Entry:
    key: str
    en: Text
    ja: Text
    path: Path
    fuzzy: bool


def read_entries(path: Path) -> Iterator[Entry]:
    with path.open("rb") as handle:
        po = read_po(handle, locale="ja")
    for message in po:
        if not message.id:
            continue  # the header
        if not message.context:
            raise ValueError(f"{path.name}: {message.id!r} has no msgctxt (the message's key)")
        en = tuple(message.id) if isinstance(message.id, (list, tuple)) else message.id
        ja = tuple(message.string) if isinstance(message.string, (list, tuple)) else message.string or ""
        yield Entry(message.context, en, ja, path, message.fuzzy)


class Catalogue:
    """Key → words, per language; loaded once (`catalogue()`)."""

    def __init__(self, paths: list[Path]):
        self.entries: dict[str, Entry] = {}
        for path in paths:
            for entry in read_entries(path):
                if entry.key in self.entries:
                    raise ValueError(f"{path.name}: key {entry.key!r} is also in {self.entries[entry.key].path.name}")
                self.entries[entry.key] = entry
        self.table: dict[str, dict[str, Text]] = {
            "en": {key: e.en for key, e in self.entries.items()},
            "ja": {key: e.ja or e.en for key, e in self.entries.items()},
        }

    def get(self, key: str, lang: str) -> Text | None:
        words = self.table.get(lang, self.table["en"]).get(key)
        return words if words else self.table["en"].get(key)

    def __contains__(self, key: str) -> bool:
        return key in self.entries

    def keys(self, prefix: str = "") -> list[str]:
        return [key for key in self.entries if key.startswith(prefix)]

    def json(self, lang: str) -> Mapping[str, Text]:
        return self.table[lang]


@functools.cache
def catalogue() -> Catalogue:
    return Catalogue(po_files())
