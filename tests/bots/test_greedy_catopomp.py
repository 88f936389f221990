"""The greedy Catopomp bot reads the extra cards as the numbers they count as (§7: both are 0)."""

from __future__ import annotations

import random

from nekobako.bots import make_bot
from scenario import run

OPENING = ["start 0", "deal 1 2 4 9 M M | 5 6 7 8 10 11", "dice 1 1 1", "0: play 1", "0: bury M", "1: pass", "0: keep"]


def test_buries_mitch_beside_the_mitch_in_hell() -> None:
    # Seat 0's hell holds Mdm Mitch; after `play 2` it buries one of 4, 9, M. Only M pairs with
    # hell (a set of two 0s to play from hell later); reading M as text it never matched itself.
    state = run("catopomp", 2, [*OPENING, "0: play 2"], hand_size=6, extra_cards="mitch")
    bot = make_bot("greedy", game="catopomp")
    assert str(bot.choose(state.view(0), state.legal_actions(0), random.Random(0))) == "bury M"
