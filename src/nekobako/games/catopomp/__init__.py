"""Catopomp: heaven hands, public hell areas, dice boosts and soul gems (nekobako/rules/en/catopomp.md)."""

from .game import GAME, CatopompGame
from .state import CatopompState

__all__ = ["GAME", "CatopompGame", "CatopompState"]
