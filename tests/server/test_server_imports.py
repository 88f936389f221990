"""The server's modules import each other without a circle: every import counts, at the top of a
module, inside a function or under `TYPE_CHECKING`, so each module can be read knowing only
those below it (docs/server.md, "One actor per table")."""

from __future__ import annotations

import ast
from pathlib import Path

import nekobako.server

SERVER = Path(nekobako.server.__file__).parent


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The server modules `path` imports, wherever the import stands."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            found.update([node.module.split(".")[0]] if node.module else [a.name for a in node.names])
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            parts = node.module.split(".")
            if parts[:2] == ["nekobako", "server"]:
                found.update([parts[2]] if len(parts) > 2 else [a.name for a in node.names])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[:2] == ["nekobako", "server"] and len(parts) > 2:
                    found.add(parts[2])
    return (found & modules) - {path.stem}


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of imports (its modules in order, the first again at the end), or None."""
    done: set[str] = set()
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return None
        path.append(module)
        for target in sorted(graph[module]):
            found = visit(target)
            if found is not None:
                return found
        path.pop()
        done.add(module)
        return None

    for module in sorted(graph):
        found = visit(module)
        if found is not None:
            return found
    return None


def test_the_server_modules_import_each_other_without_a_circle() -> None:
    modules = {p.stem for p in SERVER.glob("*.py")}
    graph = {p.stem: imports_of(p, modules) for p in SERVER.glob("*.py")}
    assert graph["play"] >= {"connections", "hub", "live"}  # the reading finds imports at all
    assert cycle(graph) is None, " → ".join(cycle(graph) or [])


def test_a_circle_is_found() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None
