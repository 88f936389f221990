"""Research adapters: every game as a PettingZoo AEC env, a Gymnasium env and an OpenSpiel game.

Install with `pip install nekobako[rl]`. Importing this package registers the Gymnasium envs
`nekobako/ShutTheBox-v0`, `nekobako/CatInTheBox-v0` and `nekobako/Catopomp-v0`; OpenSpiel games
are registered by `nekobako.rl.openspiel.register()` (OpenSpiel is a separate install). The
adapters are generic: action ids, tensors and chance come from each game's `encoding.py`.
`nekobako.rl.vector` steps many tables at once in a game's compiled kernel (NumPy arrays, and a
Gymnasium vector env behind `gymnasium.make_vec(…, opponents="random")`).
See docs/research.md.
"""

from __future__ import annotations

from ..engine.encoding import Encoding, encoding, encoding_for
from .gymnasium import GYM_IDS, NekobakoEnv, register_envs
from .table import Table

register_envs()

__all__ = ["GYM_IDS", "Encoding", "NekobakoEnv", "Table", "encoding", "encoding_for", "register_envs"]
