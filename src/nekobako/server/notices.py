"""What the table says besides game events (the game started or ended, a bot took a seat, a
player ran out of time or came back), as catalogue messages (`notice.*` in i18n/core.po).

The database stores what happened — a notice's kind, seat and data (`name`, `bot`, `reason`,
`count`, `limit`) — never words, so a notice stored by any version reads in either language. The
message is chosen here, as it is sent: its `key` and `params` for clients that word it themselves
(the browser, from its catalogue), its `text` in the reader's language for the others, in the
second person when the notice is about the reader's seat.
"""

from __future__ import annotations

from typing import Any

from ..i18n import Message, has, you
from ..store.database import iso
from ..store.games import NoticeRow


def notice_message(notice: NoticeRow) -> Message:
    """`notice.<kind>` (`notice.replaced.<reason>` for a bot taking a seat) with the stored data as
    parameters; the bot's level as its catalogue name. A kind this version does not know still
    reads (`notice.other`)."""
    data = notice.data
    key = f"notice.{notice.kind}" + (f".{data.get('reason')}" if notice.kind == "replaced" else "")
    if not has(key):
        return Message("notice.other", kind=notice.kind)
    params: dict[str, Any] = {k: v for k, v in data.items() if k != "reason"}
    if notice.seat is not None:
        params["seat"] = notice.seat
    if has(f"bot.{data.get('bot')}"):
        params["bot"] = Message(f"bot.{data['bot']}")
    return Message(key, **params)


def notice_json(notice: NoticeRow, lang: str = "en", reader: int | None = None) -> dict[str, Any]:
    """A notice as clients get it; `reader` is the seat of whoever reads it (None: a spectator)."""
    message = notice_message(notice)
    about_reader = reader is not None and notice.seat == reader
    return {
        "kind": notice.kind,
        "seat": notice.seat,
        "seq": notice.seq,
        "at": iso(notice.created_at),
        "data": notice.data,
        **message.to_json(),
        "text": Message(you(message.key, about_reader), **message.params).text(lang),
    }
