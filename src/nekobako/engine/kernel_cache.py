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

`install()` also makes a later process's start-up short (docs/engine.md, *Start-up*): our cached
functions load without numba's typing work (`_fast_load_overload`), its extension scan
(`_init_hook`) and `numpy.ma` (`_typeof_plain_array`); all of it still runs before a compile.
"""

from __future__ import annotations

import os
import sys
from functools import cache
from typing import Any, cast

import numba
import numpy as np
from numba.core import base, caching, dispatcher, entrypoints, errors, types
from numba.core.typing import context as typing_context
from numba.core.typing import typeof
from numba.np import numpy_support

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


def ours(py_file: str) -> bool:
    """Whether a function defined in `py_file` is one of ours (under `ROOTS`)."""
    return _root_of(py_file) is not None


def _fast_load_overload(self: Any, sig: Any, target_context: Any) -> Any:
    """`caching.Cache.load_overload` without the context refresh for our functions.

    numba refreshes the target context before every cache load: at the first load that imports
    and registers every typing and lowering template numba has (about 0.3 s of CPU), which only a
    compile needs. Rebuilding a cached function needs the runtime (`rtsys`, whose functions the
    machine code calls) and the code generator, nothing typed. On a miss, numba's own order is
    kept: extensions, the refresh, then the compile (which refreshes again)."""
    if not isinstance(self._impl.locator, WiderStampLocator):
        return _numba_load_overload(self, sig, target_context)
    from numba.core.runtime import rtsys

    rtsys.initialize(target_context)
    with self._guard_against_spurious_io_errors():
        loaded = self._load_overload(sig, target_context)
    if loaded is None:
        entrypoints.init_all()
        target_context.refresh()
    return loaded


def _init_hook(self: Any) -> None:
    """`Dispatcher._compilation_chain_init_hook` that leaves numba's extension entry points (a scan
    of every installed package's metadata) to the first compile for our functions:
    `_fast_load_overload` runs them on a cache miss, before anything is typed."""
    if not ours(self.py_func.__code__.co_filename):
        entrypoints.init_all()


def _refresh_with_array_support(refresh: Any) -> Any:
    def wrapped(self: Any) -> None:
        load_array_support()
        refresh(self)

    wrapped.__wrapped__ = refresh  # type: ignore[attr-defined]
    return wrapped


def _typeof_plain_array(val: Any, c: Any) -> Any:
    """numba's type of an array argument, without first importing `numpy.ma` (about 0.03 s of a
    new process's first call) to rule out a masked array where the type is exactly `ndarray`."""
    if type(val) is not np.ndarray:
        return _numba_typeof_ndarray(val, c)
    try:
        dtype = numpy_support.from_dtype(val.dtype)
    except errors.NumbaNotImplementedError:
        return _numba_typeof_ndarray(val, c)
    return types.Array(dtype, val.ndim, numpy_support.map_layout(val), readonly=not val.flags.writeable)


_numba_load_overload = caching.Cache.load_overload
_numba_typeof_ndarray = typeof.typeof_impl.dispatch(np.ndarray)


def install() -> None:
    """Put `WiderStampLocator` first in numba's locators, load our cached functions without
    numba's typing work, and import numba's array functions (with scipy hidden) only when a context
    is refreshed: for a compile, not for a cache load. Once; before any function is compiled."""
    classes = caching.CacheImpl._locator_classes
    if WiderStampLocator not in classes:
        classes.insert(0, WiderStampLocator)
    if caching.Cache.load_overload is not _fast_load_overload:
        caching.Cache.load_overload = _fast_load_overload  # type: ignore[method-assign]
        cast(Any, dispatcher._DispatcherBase)._compilation_chain_init_hook = _init_hook
        for context in (base.BaseContext, typing_context.BaseContext):
            context.refresh = _refresh_with_array_support(context.refresh)  # type: ignore[method-assign]
        typeof.typeof_impl.register(np.ndarray, _typeof_plain_array)


def load_array_support() -> None:
    """Import numba's array functions (which numba imports when it first refreshes a context, before a
    compile) with scipy hidden: on import they look for scipy's BLAS only to enable `np.cov`-like functions
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
njit = numba.njit
"""numba's `njit`, imported from here by every compiled module so the locator is in place first."""
