"""The phases of a Catopomp game: facts that the state, its views, determinization and the encoding
all read, in a module that imports nothing of theirs (so none of them imports another inside a
function to dodge a cycle)."""

from __future__ import annotations

START, DEAL, DICE, SPARE, PLAY, BURY, TRANSFER, OVER = range(8)
"""`start` chance (once) → per round: `deal` chance → `dice` chance (the central dice) → `spare`
(only when someone holds a spare die: those seats choose its face, simultaneously) → `play`, with
its `bury` and `transfer` steps → next round or `over`."""

PHASE_NAMES = ("start", "deal", "dice", "spare", "play", "bury", "transfer", "over")
"""What views call each phase."""
