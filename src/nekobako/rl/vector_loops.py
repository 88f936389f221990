"""The compiled loops of `nekobako.rl.vector`: every table of a batch stepped in one call.

The functions below are written once, over the names `first_to_move, legal, apply, chance`
(the game's kernel) and `observe, winners` (its `kernel_observe`); `loops_for(game)` compiles a
copy of them per game with those names bound to that game's compiled functions. So the rules are
called directly (numba passes no function pointers, LLVM inlines what it likes) and each game's
loops are cached on disk like the kernels (`step_catbox_<digest of the sources>` … beside this
file).
Imported only where numba is (`engine.kernel.pure_reason`).
"""

from __future__ import annotations

import hashlib
import importlib
import types as pytypes
from pathlib import Path
from typing import Any

from ..engine.game import CHANCE
from ..engine.kernel import OVER
from ..engine.kernel_cache import njit
from ..engine.kernel_rng import below

first_to_move: Any = None  # the game's compiled functions: bound per game by `loops_for`
legal: Any = None
apply: Any = None
chance: Any = None
observe: Any = None
winners: Any = None
_LOOPS = ("_copy", "_advance", "_new_game", "_show", "reset", "step")
_BUILT: dict[str, tuple[Any, Any]] = {}


def _digest(*modules: Any) -> str:
    """A digest of the sources the loops of a game are compiled from: numba checks only this
    file's date for its cache, so a change to the game's kernel names new cache entries."""
    from ..engine import kernel as contract
    from ..engine import kernel_rng

    digest = hashlib.sha256()
    for module in (*modules, contract, kernel_rng):
        digest.update(Path(module.__file__).read_bytes())
    return digest.hexdigest()[:12]


def loops_for(game: str) -> tuple[Any, Any]:
    """`(reset, step)` compiled for `game`: this module's functions with the game's compiled
    functions as globals, under names of their own (`step_catbox_…`), so numba calls the rules
    directly (inlined where it likes) and caches each game's loops on disk beside this file."""
    built = _BUILT.get(game)
    if built is None:
        kernel = importlib.import_module(f"nekobako.games.{game}.kernel")
        view = importlib.import_module(f"nekobako.games.{game}.kernel_observe")
        names: dict[str, Any] = dict(globals())
        names.update(
            first_to_move=kernel.first_to_move, legal=kernel.legal, apply=kernel.apply, chance=kernel.chance,
            observe=view.observe, winners=view.winners,
        )  # fmt: skip
        tag = f"{game}_{_digest(kernel, view)}"
        for name in _LOOPS:  # in order: each is compiled against the ones before it
            plain = globals()[name]
            code = plain.__code__.replace(co_name=f"{name}_{tag}", co_qualname=f"{name}_{tag}")
            function = pytypes.FunctionType(code, names, f"{name}_{tag}")
            function.__qualname__ = f"{name}_{tag}"
            names[name] = njit(cache=True)(function)
        built = _BUILT[game] = (names["reset"], names["step"])
    return built


def _copy(dst: Any, src: Any) -> None:
    """`dst[:] = src` for two rows that do not overlap, as a plain loop: numba's slice assignment
    from an array checks for overlap and copies through a temporary, which cost Catopomp's
    one-learner step more than a third of its time (1,746 mask ids per table)."""
    for j in range(dst.shape[0]):
        dst[j] = src[j]


def _advance(a: Any, rng: Any, learner: int, buf: Any) -> int:
    """Chance and the random seats move until `learner` (any seat when -1) is to move; who is to
    move then, or OVER. Simultaneous seats act in seat order, as `NekobakoEnv`'s."""
    while True:
        seat = first_to_move(a)
        if seat == OVER:
            return seat
        if seat == CHANCE:
            chance(a, rng)
        elif learner < 0 or seat == learner:
            return seat
        else:
            count = legal(a, seat, buf)
            apply(a, seat, buf[below(rng, count)])


def _new_game(a: Any, start: Any, rng: Any, learner: int, buf: Any) -> int:
    """A new game up to the caller's first decision (one that ends before it is dealt again)."""
    while True:
        _copy(a, start)
        seat = _advance(a, rng, learner, buf)
        if seat != OVER:
            return seat


def _show(a: Any, seat: int, learner: int, obs: Any, mask: Any, own: Any, buf: Any) -> None:
    """The observation of the seat waited for (the learner's once the game is over) and its mask,
    also into `own`: the loops' private copy, which `step` checks the next action against (the
    caller may write into `mask`; the legal set is not generated twice)."""
    observe(a, seat if seat >= 0 else max(learner, 0), obs)
    own[:] = False
    if seat >= 0:
        for j in range(legal(a, seat, buf)):
            own[buf[j]] = True
    _copy(mask, own)


def reset(
    arrays: Any, start: Any, rngs: Any, learner: int,
    which: Any, seats: Any, pending: Any, obs: Any, masks: Any, own: Any, buf: Any,
) -> None:  # fmt: skip
    """New games on the tables of `which`, each up to its first decision, shown."""
    for i in range(arrays.shape[0]):
        if which[i]:
            a = arrays[i]
            seat = _new_game(a, start, rngs[i], learner, buf)
            seats[i] = seat
            pending[i] = False
            _show(a, seat, learner, obs[i], masks[i], own[i], buf)


def step(
    arrays: Any, start: Any, rngs: Any, learner: int, same_step: bool, actions: Any, illegal_reward: float,
    seats: Any, pending: Any, obs: Any, masks: Any, own: Any, rewards: Any, terminated: Any, illegal: Any,
    buf: Any, final_obs: Any,
) -> None:  # fmt: skip
    """One action per table (vector.py's `Tables.step` says what happens; `final_obs[i]`: the
    learner's observation of the game that table `i` ended in a same-step autoreset)."""
    players = rewards.shape[1]
    for i in range(arrays.shape[0]):
        a = arrays[i]
        rng = rngs[i]
        rewards[i, :] = 0.0
        terminated[i] = False
        illegal[i] = False
        if pending[i]:  # next-step autoreset: the action is ignored
            pending[i] = False
            seat = _new_game(a, start, rng, learner, buf)
        else:
            seat = seats[i]
            action = actions[i]
            ok = 0 <= action < own.shape[1] and own[i, action]  # the legal set shown last
            if not ok:  # changes nothing
                illegal[i] = True
                rewards[i, seat] = illegal_reward
            else:
                apply(a, seat, action)
                seat = _advance(a, rng, learner, buf)
                if seat == OVER:
                    terminated[i] = True
                    won = winners(a)
                    count = 0
                    for s in range(players):
                        count += won >> s & 1
                    for s in range(players):
                        if won >> s & 1:
                            rewards[i, s] = 1.0 / count
                    if same_step:
                        observe(a, max(learner, 0), final_obs[i])
                        seat = _new_game(a, start, rng, learner, buf)
                    else:
                        pending[i] = True
        seats[i] = seat
        _show(a, seat, learner, obs[i], masks[i], own[i], buf)
