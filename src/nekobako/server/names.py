"""Player names: what a person types is normalised (NFKC, spaces collapsed) and refused when it
could mislead the others at the table — invisible or blank-looking, or posing as a bot."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from .errors import ApiError

NAME_LENGTH = (1, 24)
# letters that render as nothing (Hangul fillers, the braille blank, the Khmer inherent vowels)
BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u180e")
BOT_WORDS = re.compile(r"(?:\bbots?\b|ボット|ぼっと|ﾎﾞｯﾄ)", re.IGNORECASE)


def _refuse(en: str, ja: str) -> ApiError:
    return ApiError(400, "bad_request", f"{en} / {ja}")


def clean_name(value: Any) -> str:
    """The name as stored, or a 400 saying what is wrong with it (in English and Japanese)."""
    if not isinstance(value, str):
        raise _refuse("name must be text", "名前は文字列で指定してください")
    if len(value) > 4 * NAME_LENGTH[1]:
        raise _refuse(f"a name has at most {NAME_LENGTH[1]} characters", f"名前は{NAME_LENGTH[1]}文字までです")
    name = " ".join(unicodedata.normalize("NFKC", value).split())
    if not NAME_LENGTH[0] <= len(name) <= NAME_LENGTH[1]:
        raise _refuse(
            f"a name has {NAME_LENGTH[0]} to {NAME_LENGTH[1]} characters",
            f"名前は{NAME_LENGTH[0]}〜{NAME_LENGTH[1]}文字です",
        )
    for ch in name:
        category = unicodedata.category(ch)
        if category[0] == "C" or (category[0] == "Z" and ch != " ") or ch in BLANK_LOOKING:
            raise _refuse(
                f"a name cannot contain invisible or control characters (U+{ord(ch):04X})",
                f"名前に見えない文字や制御文字（U+{ord(ch):04X}）は使えません",
            )
    if not any(unicodedata.category(ch)[0] in "LN" for ch in name):
        raise _refuse("a name needs at least one letter or digit", "名前には文字か数字が1つ以上必要です")
    if BOT_WORDS.search(name):
        raise _refuse("a person's name cannot pose as a bot", "人の名前にボットを名乗る語は使えません")
    return name
