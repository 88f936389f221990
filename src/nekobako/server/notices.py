"""What the table says besides game events (a bot took a seat, the game started or ended), in
English and Japanese."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..store.database import iso
from ..store.games import NoticeRow

if TYPE_CHECKING:
    from .live import LiveTable

TEMPLATES: dict[str, tuple[str, str]] = {
    "started": ("The game has started.", "ゲームが始まりました。"),
    "finished": ("The game is over.", "ゲームが終わりました。"),
    "replaced:left": (
        "Seat {seat} ({name}) left; a {bot} bot plays for them.",
        "席{seat}（{name}）が退席したため、{bot_ja}ボットが代わりに打ちます。",
    ),
    "replaced:timeout": (
        "Seat {seat} ({name}) ran out of time; a {bot} bot plays for them until they take the seat back.",
        "席{seat}（{name}）は時間切れのため、席に戻るまで{bot_ja}ボットが代わりに打ちます。",
    ),
    "timeout": (
        "Seat {seat} ({name}) ran out of time; a {bot} bot played this turn for them ({count} of {limit} in a row).",
        "席{seat}（{name}）は時間切れのため、{bot_ja}ボットがこの手番だけ代わりに打ちました（連続{count}/{limit}回）。",
    ),
    "returned": ("Seat {seat}: {name} is back and plays again.", "席{seat}：{name}が戻り、再びプレイします。"),
}
# bot levels in Japanese, as the client names them (web/i18n.js "bot.*")
BOT_JA = {"random": "ランダム", "greedy": "貪欲", "ismcts": "ISMCTS", "optimal": "最適"}


def notice_json(notice: NoticeRow, table: LiveTable) -> dict[str, Any]:
    key = notice.kind if notice.kind != "replaced" else f"replaced:{notice.data.get('reason')}"
    en, ja = TEMPLATES.get(key, (notice.kind, notice.kind))
    values = {"seat": notice.seat, **notice.data}
    values["bot_ja"] = BOT_JA.get(values.get("bot", ""), values.get("bot"))
    return {
        "kind": notice.kind,
        "seat": notice.seat,
        "seq": notice.seq,
        "at": iso(notice.created_at),
        "data": notice.data,
        "text": {"en": en.format(**values), "ja": ja.format(**values)},
    }
