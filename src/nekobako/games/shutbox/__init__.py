"""Shut the Box (Board Game Arena rules) with two research options and an exact solo solver.

`GAME` is the game for the registry; `solver` holds the exact solo-turn solver used by the
`nekobako solve shutbox` command and by the optimal bot.
"""

from .actions import ROLL, ROLL_ONE, Dice, Roll, Shut, Start, parse_action
from .game import GAME, ShutTheBox
from .state import ShutState

__all__ = ["GAME", "ROLL", "ROLL_ONE", "Dice", "Roll", "Shut", "ShutState", "ShutTheBox", "Start", "parse_action"]
