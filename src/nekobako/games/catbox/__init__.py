"""Cat in the Box (2–5 players): trick-taking with colourless cards whose colour is fixed when
played, on a shared research board. Rules: `nekobako/rules/en/catbox.md`; decisions and
notation: `docs/catbox.md`.

Layout of this package: `layouts` (components and boards as data), `actions` (notation),
`board` (bitmask tables), `state` (the rules), `scoring`, `view` (what a seat may see),
`determinize` (worlds for search bots), `game` (`GAME`, options, event words).
"""

from .game import GAME, CatboxGame
from .state import CatboxState

__all__ = ["GAME", "CatboxGame", "CatboxState"]
