"""No arrow runs up: every `import` in `src/nekobako` points at the same top-level package or at a
lower layer (DESIGN.md's "each layer imports only layers below it", held for the whole package).

The layers, bottom up; packages in one layer sit side by side and import neither each other:

0. the package root, `nekobako/__init__.py` (`__version__`), imported by anything, importing nothing;
1. `i18n`: the catalogue; the engine's errors carry its `Message` codes;
2. `engine`: the contract, records, replay, registry;
3. `games`: each game's rules, encoding and kernel;
4. `bots`, `boards`, `rules`, `tutorial`, `store`: pure clients of the engine and its views (players,
   the text boards, the rules texts, the tutorial driver) and persistence, which knows no game;
5. `review`: rates a finished game's decisions with the bots;
6. `server`, `rl`: the ASGI app and the learning adapters, two front ends that never meet;
7. `sim`: simulation and benchmarks, which drive the `rl` envs too;
8. `cli`: the `nekobako` command, on top of everything.

This is DESIGN.md's folder order (engine, games, bots, store, server, web, rl, sim, cli) with the
packages it does not name placed by what they import (`i18n`, `boards`, `rules`, `tutorial`,
`review`), and stricter where it can be at no cost: siblings in one layer stay independent. `web/`
holds no Python. Every `import` statement counts, inside functions and under `TYPE_CHECKING` too
(the arrow this test was written for, `rl/table.py` → `cli.boards`, was a lazy import). Loading by
name through `importlib` (the engine's game registry, the bots' greedy registry) is the registry's
way of finding plug-ins, not an arrow, and is not checked. A new top-level package must be given
a layer here before this test passes.
"""

from __future__ import annotations

import ast
from pathlib import Path

import nekobako

LAYERS: tuple[frozenset[str], ...] = (
    frozenset({""}),
    frozenset({"i18n"}),
    frozenset({"engine"}),
    frozenset({"games"}),
    frozenset({"bots", "boards", "rules", "tutorial", "store"}),
    frozenset({"review"}),
    frozenset({"server", "rl"}),
    frozenset({"sim"}),
    frozenset({"cli"}),
)
RANK = {name: rank for rank, names in enumerate(LAYERS) for name in names}
ROOT = Path(nekobako.__file__).parent


def top_of(parts: tuple[str, ...]) -> str:
    """The top-level package of `nekobako.<parts>` ("" for the root package itself)."""
    return parts[0] if parts else ""


def owner(parts: tuple[str, ...]) -> str:
    """The top-level package a module file belongs to, from its path parts (`cli/play` → cli)."""
    return top_of(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(tree: ast.Module, package: tuple[str, ...], top_names: set[str]) -> list[tuple[int, str]]:
    """(line, top-level package) for every import of nekobako code in `tree`, a module whose
    package is `nekobako.<package>`; relative imports are resolved against that package."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, top_of(tuple(a.name.split(".")[1:]))) for a in node.names if _ours(a.name)]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                parts = (*base, *(node.module.split(".") if node.module else ()))
            elif node.module and _ours(node.module):
                parts = tuple(node.module.split(".")[1:])
            else:
                continue
            if parts:
                found.append((node.lineno, parts[0]))
            else:  # `from nekobako import x` / `from .. import x`: x is a package or a root attribute
                found += [(node.lineno, a.name if a.name in top_names else "") for a in node.names]
    return found


def _ours(module: str) -> bool:
    return module == "nekobako" or module.startswith("nekobako.")


def modules() -> list[tuple[Path, tuple[str, ...]]]:
    """Every module under src/nekobako with its path parts below `nekobako` (no `.py`)."""
    return [(path, path.relative_to(ROOT).with_suffix("").parts) for path in sorted(ROOT.rglob("*.py"))]


def top_level_names() -> set[str]:
    return {owner(parts) for _, parts in modules()}


def arrows_up(path: Path, parts: tuple[str, ...], top_names: set[str]) -> list[str]:
    """Each import in the module at `path` that goes to a higher layer or to a sibling."""
    own = owner(parts)
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    bad = []
    for line, target in imported(tree, parts[:-1], top_names):
        if target != own and RANK.get(target, -1) >= RANK[own]:
            where = f"{path.relative_to(ROOT.parent)}:{line}"
            bad.append(f"{where}: {own or 'nekobako'} (layer {RANK[own]}) imports {target} (layer {RANK.get(target)})")
    return bad


def test_every_top_level_package_has_a_layer():
    unplaced = top_level_names() - RANK.keys()
    assert not unplaced, f"give {sorted(unplaced)} a layer in tests/test_layers.py (see its docstring)"


def test_no_module_imports_from_its_own_layer_or_above():
    top_names = top_level_names()
    bad = [arrow for path, parts in modules() for arrow in arrows_up(path, parts, top_names)]
    assert not bad, "imports running up the layers:\n" + "\n".join(bad)


def test_a_lazy_relative_import_up_the_layers_is_caught(tmp_path):
    """The checker itself: the arrow this test was written for, inside a method, is found."""
    module = tmp_path / "table.py"
    module.write_text("class Table:\n    def render(self):\n        from ..cli.boards import render\n")
    assert imported(ast.parse(module.read_text()), ("rl",), {"cli"}) == [(3, "cli")]
    root_attribute = ast.parse("from .. import __version__\nfrom nekobako import cli\n")
    assert imported(root_attribute, ("rl",), {"cli"}) == [(1, ""), (2, "cli")]
