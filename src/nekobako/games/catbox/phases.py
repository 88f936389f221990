"""The phases of a Cat in the Box game and the strength of a card in a trick: facts that the state,
its views and determinization all read, in a module that imports nothing of theirs."""

from __future__ import annotations

from .layouts import RED

START, DEAL, DISCARD, PREDICT, PLAY, OVER = range(6)
"""`start` chance (once) → per round: `deal` chance → simultaneous `discard` → `predict` (3–5
players) → `play` → next round or `over`."""

PHASE_NAMES = ("deal", "deal", "discard", "predict", "play", "over")
"""What views call each phase (the first start player is drawn in the "deal" phase too)."""


def trick_strength(number: int, colour: int, led: int) -> int:
    """Rules §5 as one integer: red (trumps) beats the led colour, which beats any other (0, never
    winning); within a colour the higher number wins. The leader's card is its own led colour."""
    return 32 + number if colour == RED else 16 + number if colour == led else 0
