"""Player names: what a person types is normalised (NFKC, spaces collapsed) and refused when it
could mislead the others at the table — invisible or blank-looking characters, look-alikes of a
registered name, or posing as a bot.

Names are written in the scripts the platform's players use: printable ASCII, Latin-1 letters,
kana and kanji, Hangul, and the full- and half-width forms that NFKC turns into those. Inside
that repertoire every character stays one visible character under NFKC, so the OpenAPI document
states the rule exactly (`NAME_PATTERN`); two names that look the same (Unicode's confusables,
`store.accounts.account_key`) share one account key.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from ..i18n import Message
from .errors import ApiError

NAME_LENGTH = (1, 24)
NAME_CHARS = (
    " -~"  # printable ASCII
    "\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u00ff"  # Latin-1 letters
    "\u3041-\u3096\u30a1-\u30fa\u30fc"  # hiragana, katakana, the long vowel mark
    "\u4e00-\u9fff\uac00-\ud7a3"  # kanji, Hangul syllables
    "\uff01-\uff5e\uff66-\uff9d"  # full-width ASCII, half-width katakana (NFKC makes them the above)
)
_BOT = "\\b[BbＢｂ][OoＯｏ][TtＴｔ][SsＳｓ]?\\b|ボット|ぼっと|ﾎﾞｯﾄ"
NAME_PATTERN = f"^(?!.*(?:{_BOT}))(?=.*\\w)[{NAME_CHARS}]*$"
_NAME = re.compile(NAME_PATTERN)


def _refuse(key: str, **params: Any) -> ApiError:
    return ApiError(400, "bad_request", Message(f"error.name.{key}", **params))


def clean_name(value: Any) -> str:
    """The name as stored, or a 400 saying what is wrong with it (in English and Japanese)."""
    if not isinstance(value, str):
        raise _refuse("text")
    if not NAME_LENGTH[0] <= len(value) <= NAME_LENGTH[1]:
        raise _refuse("length", low=NAME_LENGTH[0], high=NAME_LENGTH[1])
    if _NAME.match(value) is None:
        strange = next((ch for ch in value if re.match(f"[{NAME_CHARS}]", ch) is None), None)
        if strange is not None:
            raise _refuse("chars", char=f"U+{ord(strange):04X}")
        if re.search(r"\w", value) is None:
            raise _refuse("letter")
        raise _refuse("bot")
    return " ".join(unicodedata.normalize("NFKC", value).split())
