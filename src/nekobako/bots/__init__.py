"""Players for every game, by level name (see docs/bots.md).

from nekobako.bots import make_bot, bot_names
bot = make_bot("ismcts", game="catbox", iterations=1000)
action = bot.choose(state.view(seat), state.legal_actions(seat), random.Random(7))
"""

from __future__ import annotations

from .base import Bot
from .registry import LEVELS, bot_names, default_bot, make_bot

__all__ = ["LEVELS", "Bot", "bot_names", "default_bot", "make_bot"]
