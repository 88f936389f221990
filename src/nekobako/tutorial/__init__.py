"""Interactive tutorials: a fixed, hand-written record per game plus steps that teach it.

A script (`scripts/<game>.toml`) is data: the record's entries in the canonical notation (forced
deals and dice, the bots' moves) and, for each move the learner makes, the catalogue key of the
text, the part of the table it points at and the rules section it links to. `Tutorial` (driver.py)
replays it through the engine and decides, with no I/O, what the learner may do; the terminal
(`nekobako tutorial`) and the browser (`/tutorial/<game>`) only draw what it says.
"""

from __future__ import annotations

from .driver import Lesson, Tutorial
from .script import Script, Step, TutorialNotFound, load, tutorial_games

__all__ = ["Lesson", "Script", "Step", "Tutorial", "TutorialNotFound", "load", "tutorial_games"]
