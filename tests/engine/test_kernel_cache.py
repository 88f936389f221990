"""numba's cache of nekobako's compiled code notices every source the code reads
(engine/kernel_cache.py): a constant computed at import in another file of the game (as Catopomp's
play catalog in catalog.py) changes, and a later process compiles afresh instead of loading the old
code. Real processes and numba's real on-disk cache, in a scratch package."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from nekobako.engine.kernel import pure_reason

if (_reason := pure_reason()) is not None:
    pytest.skip(f"the kernels are off: {_reason}", allow_module_level=True)

SCRIPT = """
import sys
sys.path.insert(0, {tmp!r})
from nekobako.engine import kernel_cache
if {wider!r}:
    kernel_cache.ROOTS.append({root!r})
from scratchpkg.games.toy import kernel
print(kernel.value())
"""


def _run(tmp: Path, wider: bool) -> int:
    code = SCRIPT.format(tmp=str(tmp), root=str(tmp / "scratchpkg"), wider=wider)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return int(done.stdout.strip())


def test_a_changed_constant_in_another_file_recompiles(tmp_path: Path) -> None:
    game = tmp_path / "scratchpkg" / "games" / "toy"
    game.mkdir(parents=True)
    (tmp_path / "scratchpkg" / "engine").mkdir()
    for folder in (tmp_path / "scratchpkg", tmp_path / "scratchpkg" / "games", game):
        (folder / "__init__.py").write_text("")
    (game / "catalog.py").write_text("VALUE = 1\n")
    (game / "kernel.py").write_text(
        "from nekobako.engine.kernel_cache import njit\n"
        "from .catalog import VALUE\n\n\n"
        "@njit(cache=True)\n"
        "def value():\n"
        "    return VALUE\n"
    )
    assert _run(tmp_path, wider=False) == 1
    (game / "catalog.py").write_text("VALUE = 22\n")
    assert _run(tmp_path, wider=False) == 1  # numba alone: the kernel's file did not change, stale code
    assert any((game / "__pycache__").glob("kernel.value-*.nbi"))  # from numba's cache beside the file
    assert _run(tmp_path, wider=True) == 22  # with the game's sources in the stamp: compiled afresh
    (game / "catalog.py").write_text("VALUE = 333\n")
    assert _run(tmp_path, wider=True) == 333


LOAD_SCRIPT = """
import sys
sys.path.insert(0, {tmp!r})
from nekobako.engine import kernel_cache
if {wider!r}:
    kernel_cache.ROOTS.append({root!r})
import numpy as np
from numba.core import entrypoints
from scratchpkg.games.toy import kernel
out = [int(kernel.fill(np.zeros(5, np.int64), 3).sum())]
typed = [m in sys.modules for m in ("numba.np.polynomial.polynomial_functions", "numba.np.arraymath")]
typed.append(entrypoints._already_initialized)
if {compile_more!r}:
    out.append(int(kernel.twice(np.zeros(5, np.int64))))
print(out, typed)
"""


def _load(tmp: Path, wider: bool, compile_more: bool) -> str:
    code = LOAD_SCRIPT.format(tmp=str(tmp), root=str(tmp / "scratchpkg"), wider=wider, compile_more=compile_more)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_a_cache_load_skips_numba_typing_and_a_later_compile_still_works(tmp_path: Path) -> None:
    """Start-up (docs/engine.md): our cached functions load without numba's typing registries,
    extensions or array module, with the same results; a function compiled afterwards in the same
    process (a cache miss) still gets all of them. numba's own path for functions not ours."""
    game = tmp_path / "scratchpkg" / "games" / "toy"
    game.mkdir(parents=True)
    (tmp_path / "scratchpkg" / "engine").mkdir()
    for folder in (tmp_path / "scratchpkg", tmp_path / "scratchpkg" / "games", game):
        (folder / "__init__.py").write_text("")
    (game / "kernel.py").write_text(
        "import numpy as np\n"
        "from nekobako.engine.kernel_cache import njit\n\n\n"
        "@njit(cache=True)\n"
        "def fill(a, k):\n"
        "    b = np.empty(a.size + 1, np.int64)\n"  # an allocation: the runtime must be there
        "    for i in range(b.size):\n"
        "        b[i] = k * i\n"
        "    return b\n\n\n"
        "@njit(cache=True)\n"
        "def twice(a):\n"
        "    return 2 * fill(a, 1).sum()\n"
    )
    loaded_fast = "[45] [False, False, False]"
    assert _load(tmp_path, wider=True, compile_more=False) == "[45] [True, True, True]"  # compiled
    assert _load(tmp_path, wider=True, compile_more=False) == loaded_fast  # from the cache
    assert _load(tmp_path, wider=True, compile_more=True) == "[45, 30] [False, False, False]"
    assert _load(tmp_path, wider=True, compile_more=True) == "[45, 30] [False, False, False]"
    assert _load(tmp_path, wider=False, compile_more=False) == "[45] [True, True, True]"  # numba's own load
    assert _load(tmp_path, wider=False, compile_more=False) == "[45] [True, True, True]"
