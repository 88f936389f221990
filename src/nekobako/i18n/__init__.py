"""Every word a person reads, in English and Japanese, from one catalogue.

Engine, games and server speak in codes with parameters (`Message("words.seat", n=2)`); the
words are chosen at the edge, in the reader's language: the terminal by `--lang`, the REST API by
`Accept-Language`, the browser by its own language switch (it is served this same catalogue as
JSON by `/api/catalogue`). Never both languages joined.

The catalogue is gettext: one `.po` file per domain, `msgctxt` the stable key, `msgid` the English,
`msgstr` the Japanese (see `catalogue.py` and docs/i18n.md for how to add a message).
"""

from .catalogue import LANGS, Catalogue, catalogue
from .message import Message, browser_catalogue, has, join_list, negotiate, plain, text, value_text, you

__all__ = [
    "LANGS",
    "Catalogue",
    "Message",
    "browser_catalogue",
    "catalogue",
    "has",
    "negotiate",
    "plain",
    "text",
    "value_text",
    "you",
    "join_list",
]
