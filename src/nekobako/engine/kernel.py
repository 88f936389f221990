"""The contract a game's compiled kernel fulfils (docs/engine.md, *Kernels*).

A kernel is a second implementation of one game's rules, compiled with numba (`@njit(cache=True)`)
over one flat `int64` array per position, so searches, batched environments and reviews run at the
machine's speed. The pure engine stays the reference and the only source of views, records and
refusals: a kernel never checks legality for a person, and differential tests
(`tests/engine/test_kernels.py`, each game's `tests/<game>/test_kernel.py`) prove that from the same
position both give the same legal ids and the same successor.

Each game owns its kernel (`games/<game>/kernel.py`, imported only where numba is); this module owns
what they share:

* **The array** holds the whole position, options and player count included (a header the game
  documents at the top of its kernel module), so one compiled function serves every table.
  `pack(state)` writes it, `unpack(array)` builds a pure state from it; `unpack(pack(s))` equals `s`
  in every rule slot (history, events and what only views show are not positions: the game lists
  them in `NOT_PACKED`), and `pack(unpack(a))` equals `a`.
* **Actions are the encoding's ids** (`games/<game>/encoding.py`), so a legal mask of the kernel is
  the mask of `nekobako.rl`.
* **The compiled functions** are module-level in the game's kernel and given on the `Kernel` object,
  with one signature for every game (`a` the array, `seat` an int, `rng` a `uint64[2]` generator
  state from `kernel_rng`):

  | function | does |
  |---|---|
  | `first_to_move(a) -> int` | the first seat to move, `CHANCE` (-1), or `OVER` (-2) |
  | `to_move(a, out) -> int` | every seat to move (simultaneous decisions), written to `out`; how many |
  | `legal(a, seat, out) -> int` | the legal action ids of `seat`, in the engine's order, into `out`; how many |
  | `apply(a, seat, action)` | play a legal action id (unchecked: the caller took it from `legal`) |
  | `draw_chance(a, rng, out) -> int` | the chance outcome due now as codes in `out` (die ids, a deck order); how many |
  | `apply_chance(a, out, n)` | apply the outcome of `n` codes (drawn, or forced from a record) |
  | `chance(a, rng)` | `draw_chance` then `apply_chance` |
  | `scores(a, out)` | the game totals so far, per seat (`float64`) |
  | `rounds_done(a) -> int` | finished rounds (a rollout's round horizon) |
  | `playout(a, rng, max_actions) -> int` | uniformly random play to the end; actions applied |

  Optionally, a game's kernel also samples worlds for a search (`ismcts`): `sampler(view)` parses a
  seat's view once, in Python, into a template array and an `int64` spec, and the compiled
  `determinize(template, spec, rng, out)` writes one world into `out` as `Game.determinize` samples
  it (same distribution, the kernel's generator). Without them (`determinize` None) a search packs
  worlds of `Game.determinize`.

  A forced chance outcome (a record's deal or roll) goes through `Kernel.force_chance(a, action)`,
  which converts the engine's chance action to codes in Python and applies them in the kernel;
  `Kernel.chance_action(a, codes)` turns drawn codes back into the engine's action, so a seeded
  kernel playout can be replayed by the pure engine step for step.

Where numba cannot be imported, or `NEKOBAKO_PURE=1` is set, `kernel_for` returns None and every
caller runs on the pure engine with the same results (`pure_reason` says why).
"""

from __future__ import annotations

import importlib
import os
from abc import ABC, abstractmethod
from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar

from .game import CHANCE, Action, State
from .options import Options
from .registry import get_game

if TYPE_CHECKING:
    import numpy as np

    from .encoding import Encoding

OVER = -2
"""`first_to_move` of a finished game."""

__all__ = ["CHANCE", "OVER", "Kernel", "kernel_for", "pure_reason"]


@cache
def pure_reason() -> str | None:
    """Why the kernels are off (`NEKOBAKO_PURE=1`, or numba cannot be imported), or None."""
    if os.environ.get("NEKOBAKO_PURE", "") not in ("", "0"):
        return "NEKOBAKO_PURE is set"
    try:
        import numba  # noqa: F401
    except ImportError as error:  # a platform without numba's wheels
        return f"numba cannot be imported ({error})"
    return None


class Kernel(ABC):
    """One table's kernel: the conversions in Python, the rules as compiled functions."""

    game_name: ClassVar[str]
    NOT_PACKED: ClassVar[frozenset[str]] = frozenset({"history", "events", "view_log"})
    """State slots that are not part of the position (the log, what only views show)."""

    def __init__(self, players: int, options: Options, encoding: Encoding):
        self.players = players
        self.options = options
        self.encoding = encoding
        self.num_actions = encoding.num_actions

    # the compiled functions (module-level `@njit` functions of the game's kernel)
    first_to_move: Any
    to_move: Any
    legal: Any
    apply: Any
    draw_chance: Any
    apply_chance: Any
    chance: Any
    scores: Any
    rounds_done: Any
    playout: Any
    determinize: Any = None
    """Optional: the compiled sampler of worlds (see the module docstring), or None."""

    @property
    @abstractmethod
    def size(self) -> int:
        """The array's length at this table."""

    @abstractmethod
    def pack(self, state: State[Any]) -> np.ndarray:
        """The position of `state` as a new array."""

    @abstractmethod
    def unpack(self, array: np.ndarray) -> State[Any]:
        """A pure state at the position `array` holds (empty history and events)."""

    @abstractmethod
    def chance_codes(self, array: np.ndarray, action: Action) -> np.ndarray:
        """The codes of a chance outcome (the engine's action value) due now at `array`."""

    @abstractmethod
    def chance_action(self, array: np.ndarray, codes: np.ndarray) -> Action:
        """The engine's chance action for codes drawn at `array` (before applying them)."""

    def sampler(self, view: Mapping[str, Any]) -> tuple[np.ndarray, np.ndarray]:
        """The template array and spec of `view` for the compiled `determinize` (games that have one)."""
        raise NotImplementedError(f"{self.game_name} has no compiled determinize")

    def force_chance(self, array: np.ndarray, action: Action) -> None:
        """Apply a given chance outcome (the engine's action value) to `array`."""
        codes = self.chance_codes(array, action)
        self.apply_chance(array, codes, len(codes))


@cache
def kernel_for(game_name: str, players: int, options: Options) -> Kernel | None:
    """The kernel of one table (`options` validated), or None where kernels are off, the game has
    none (`pure_reason`), or the options are a research configuration (`OptionSpec.research`:
    small games for solvers, played by the pure engine)."""
    if pure_reason() is not None:
        return None
    if any(options[spec.name] in spec.research for spec in get_game(game_name).option_specs if spec.research):
        return None
    try:
        module = importlib.import_module(f"nekobako.games.{game_name}.kernel")
    except ModuleNotFoundError as error:
        if error.name == f"nekobako.games.{game_name}.kernel":
            return None
        raise
    from .encoding import encoding_for

    get_game(game_name)
    kernel: Kernel = module.KERNEL(players, options, encoding_for(game_name, players, options))
    return kernel
