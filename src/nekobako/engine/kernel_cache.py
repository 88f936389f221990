"""numba's on-disk cache, made to notice every source a compiled function of nekobako reads
(docs/engine.md, *Kernels*: the cache).

numba stamps a cached function with its own file's time and size only. Our compiled code also
freezes in constants that Python computed at import from other modules (Catopomp's play catalog
from `catalog.py` and `combos.py`, Cat in the Box's layouts, the contract's codes), and calls
compiled functions of other modules (the search and the vector loops call every game's rules). A
change to one of those left a stale cache behind that numba would load as if nothing had changed.

`install()` (run when this module is imported: every compiled module takes its `njit` from here) puts a
cache locator in front of numba's own: for a function in a file of this package it finds the same
cache directory as numba would, and adds to the source stamp the time and size of every file the
function may read from: for a file in `games/<game>/`, that game's files and the engine's compiled
side (`ENGINE_FILES`); for any other (`bots/ismcts_kernel.py`, `rl/vector_loops.py`), every
game's and the engine's. Any change there makes numba recompile instead of loading old code.
Functions outside the package keep numba's behaviour.
"""

from __future__ import annotations

import os
import sys
from functools import cache
from typing import Any, cast

import numba
from numba.core import caching

ROOTS: list[str] = [os.path.dirname(os.path.dirname(os.path.abspath(__file__)))]
"""Package folders whose compiled functions get the wider stamp (the test adds a scratch one)."""


def _root_of(py_file: str) -> str | None:
    path = os.path.abspath(py_file)
    for root in ROOTS:
        if path.startswith(root + os.sep):
            return root
    return None


ENGINE_FILES = ("game.py", "kernel.py", "kernel_cache.py", "kernel_rng.py")
"""The engine's files compiled code reads (codes such as CHANCE and OVER, the generator); the
rest of `engine/` is Python-side only, and a change there recompiles nothing."""


def _folders(root: str, py_file: str) -> tuple[str, ...]:
    """The folders of the sources a compiled function in `py_file` may read (module docstring)."""
    games = os.path.join(root, "games")
    engine = os.path.join(root, "engine")
    parts = os.path.relpath(os.path.abspath(py_file), games).split(os.sep)
    if len(parts) == 2 and parts[0] != "..":
        return (os.path.join(games, parts[0]), engine)
    with os.scandir(games) as entries:
        every = sorted(e.path for e in entries if e.is_dir() and not e.name.startswith(("_", ".")))
    return (*every, engine)


@cache
def _folder_stamp(folder: str) -> tuple[tuple[str, int, int], ...]:
    """(name, time, size) of each Python file of `folder` (of `engine/`, the `ENGINE_FILES`), read
    once per process."""
    engine = os.path.basename(folder) == "engine"
    out = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.name.endswith(".py") and (not engine or entry.name in ENGINE_FILES):
                st = entry.stat()
                out.append((entry.name, st.st_mtime_ns, st.st_size))
    return tuple(sorted(out))


def sources_stamp(py_file: str) -> tuple[Any, ...] | None:
    """The stamp of the sources a compiled function in `py_file` may read, or None outside `ROOTS`."""
    root = _root_of(py_file)
    if root is None:
        return None
    return tuple((os.path.relpath(f, root), _folder_stamp(f)) for f in _folders(root, py_file))


class WiderStampLocator(caching._CacheLocator):
    """numba's own locator for the function, with `sources_stamp` added to its source stamp."""

    def __init__(self, inner: Any, extra: tuple[Any, ...]):
        self._inner = inner
        self._extra = extra

    def ensure_cache_path(self) -> None:
        self._inner.ensure_cache_path()

    def get_cache_path(self) -> str:
        return str(self._inner.get_cache_path())

    def get_source_stamp(self) -> Any:
        return (self._inner.get_source_stamp(), self._extra)

    def get_disambiguator(self) -> str:
        return str(self._inner.get_disambiguator())

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> WiderStampLocator | None:
        extra = sources_stamp(py_file)
        if extra is None:
            return None
        for other in caching.CacheImpl._locator_classes:
            if other is cls:
                continue
            inner = cast(Any, other).from_function(py_func, py_file)
            if inner is not None:
                return cls(inner, extra)
        return None


def install() -> None:
    """Put `WiderStampLocator` first in numba's locators (once; before any function is compiled)."""
    classes = caching.CacheImpl._locator_classes
    if WiderStampLocator not in classes:
        classes.insert(0, WiderStampLocator)


def load_array_support() -> None:
    """Import numba's array functions (which numba imports on its first compile or cache load)
    with scipy hidden: on import they look for scipy's BLAS only to enable `np.cov`-like functions
    that no kernel uses, and importing scipy.linalg costs about 0.3 s of every process's start-up
    (docs/engine.md, *Start-up*). `np.dot` and `np.linalg` still find scipy when compiled. Where
    scipy.linalg is already imported, nothing is hidden."""
    if "numba.np.arraymath" in sys.modules:
        return
    if "scipy.linalg" in sys.modules:
        import numba.np.arraymath

        return
    sys.modules["scipy.linalg"] = None  # type: ignore[assignment]
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        del sys.modules["scipy.linalg"]


install()
load_array_support()
njit = numba.njit
"""numba's `njit`, imported from here by every compiled module so the locator is in place first."""
