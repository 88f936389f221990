"""Messages as values (a key and its parameters) and their words in one language."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .catalogue import LANGS, Text, catalogue

_PLACEHOLDER = re.compile(r"\{(\w+)\}")


@dataclass(frozen=True)
class Message:
    """What to say, not yet in words: a catalogue key and its parameters. Parameters are plain
    values (numbers, text, lists) or other `Message`s (a colour's name, a nested reason), so that
    an engine error can cross the server as JSON and be put in words by whoever reads it."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __init__(self, key: str, /, **params: Any):
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "params", params)

    def text(self, lang: str = "en") -> str:
        return text(self.key, lang, **self.params)

    def to_json(self) -> dict[str, Any]:
        """`{"key": …, "params": {…}}`, nested messages the same way (what the browser renders)."""
        return {"key": self.key, "params": {k: _json(v) for k, v in self.params.items()}}

    def __str__(self) -> str:
        return self.text("en")


def _json(value: Any) -> Any:
    if isinstance(value, Message):
        return value.to_json()
    if isinstance(value, (list, tuple)):
        return [_json(v) for v in value]
    return value


def has(key: str) -> bool:
    return key in catalogue()


def plural_index(lang: str, n: Any) -> int:
    """Which plural form: English has one and other; Japanese one form for every number."""
    if lang == "ja":
        return 0
    return 0 if n == 1 else 1


def join_list(items: list[str], lang: str, *, names: bool = False) -> str:
    """`A, B and C` / `A、B、C` (names); a plain list is `1, 4, 7` / `1、4、7`."""
    if lang == "ja":
        return "、".join(items)
    if names and len(items) > 1:
        return f"{', '.join(items[:-1])} {text('words.and', lang)} {items[-1]}"
    return ", ".join(items)


def value_text(value: Any, lang: str) -> str:
    """A parameter in words: messages rendered, nothing as `none`/`なし`, lists joined."""
    if isinstance(value, Message):
        return value.text(lang)
    if value is None:
        return text("words.none", lang)
    if isinstance(value, (list, tuple)):
        return join_list([value_text(v, lang) for v in value], lang) if value else text("words.none", lang)
    if isinstance(value, Mapping) and "key" in value:  # a message as JSON
        return text(value["key"], lang, **value.get("params", {}))
    return str(value)


def words(key: str, lang: str, n: Any = None) -> str | None:
    found: Text | None = catalogue().get(key, lang)
    if found is None:
        return None
    if isinstance(found, tuple):
        return found[min(plural_index(lang, n), len(found) - 1)]
    return found


def text(key: str, lang: str = "en", /, **params: Any) -> str:
    """The words for `key` in `lang` with `params` filled in. An unknown key reads as itself
    (easy to spot; `tests/i18n` keeps every key the code uses in the catalogue)."""
    template = words(key, lang if lang in LANGS else "en", params.get("n"))
    if template is None:
        return key
    return _PLACEHOLDER.sub(lambda m: value_text(params[m[1]], lang) if m[1] in params else m[0], template)


def plain(message: Message | str, lang: str = "en") -> str:
    """A message or an already-worded text, in words."""
    return message.text(lang) if isinstance(message, Message) else message


def you(key: str, about_reader: bool) -> str:
    """`key.you` (second person: "You win trick 5") when the message is about the reader and the
    catalogue has that form, else `key`."""
    return f"{key}.you" if about_reader and has(f"{key}.you") else key


def negotiate(accept_language: str | None) -> str:
    """The language an HTTP client asks for (`Accept-Language: ja,en;q=0.8`), `en` if none fits."""
    best, best_q = "en", -1.0
    for part in (accept_language or "").split(","):
        tag, _, rest = part.strip().partition(";")
        base = tag.strip().lower().split("-")[0]
        q = 1.0
        if rest.strip().startswith("q="):
            try:
                q = float(rest.strip()[2:])
            except ValueError:
                q = 0.0
        if base in LANGS and q > best_q and q > 0:
            best, best_q = base, q
    return best


def browser_catalogue() -> dict[str, Any]:
    """What `/api/messages` serves: every key in every language (plural forms as lists)."""
    cat = catalogue()
    return {"langs": list(LANGS), **{lang: dict(cat.json(lang)) for lang in LANGS}}
