"""What changed between two JSON values, as a small JSON value of its own (issue 17: a state
message carries only what changed since the viewer's last one). Pure and engine-agnostic: it
knows nothing of games or views, only of JSON objects, arrays and scalars.

A patch is one of:
  {"=": value}                      the whole value replaced
  {"o": {key: patch, ...}, "x": [key, ...]}
                                    an object: keys changed or added (each with its patch), keys removed
  {"a": n, "i": {"k": patch, ...}, "+": [value, ...]}
                                    an array: the first `n` items kept (those at index k patched),
                                    then the items of "+" appended ("i", "+" only when needed):
                                    a history that grew is just its new entries
`diff(a, b)` is None when a == b, and `apply(a, diff(a, b)) == b` always (tests/server/
test_deltas.py, with hypothesis); `apply` never changes `a`. web/delta.js applies the same
patches in the browser."""

from __future__ import annotations

from typing import Any

Json = Any


def _same(a: Json, b: Json) -> bool:
    """JSON equality (in Python True == 1 == 1.0; in JSON they are three different values). The
    engine's views share their history and event entries from one version to the next (read-only,
    docs/engine.md), so the old message's parts are often the new one's: no need to look inside."""
    if a is b:
        return True
    if isinstance(a, dict):  # the view log's read-only dicts and lists are dicts and lists here
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(value, b[key]) for key, value in a.items())
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and bool(a == b)


def diff(old: Json, new: Json) -> dict[str, Json] | None:
    """The patch from `old` to `new`, or None when nothing changed."""
    if _same(old, new):
        return None
    if isinstance(old, dict) and isinstance(new, dict):
        changed = {}
        for key, value in new.items():
            if key not in old:
                changed[key] = {"=": value}
            else:
                patch = diff(old[key], value)
                if patch is not None:
                    changed[key] = patch
        removed = [key for key in old if key not in new]
        out: dict[str, Json] = {"o": changed}
        if removed:
            out["x"] = removed
        return out
    if isinstance(old, list) and isinstance(new, list):
        keep = min(len(old), len(new))
        inner = {}
        for i in range(keep):
            patch = diff(old[i], new[i])
            if patch is not None:
                inner[str(i)] = patch
        if keep and len(inner) * 2 > keep and len(inner) > 2:
            return {"=": new}  # mostly different: the new array is shorter than its patch
        out = {"a": keep}
        if len(new) > keep:
            out["+"] = new[keep:]
        if inner:
            out["i"] = inner
        return out
    return {"=": new}


def apply(old: Json, patch: dict[str, Json] | None) -> Json:
    """`old` with `patch` applied (a new value; `old` is left as it was)."""
    if patch is None:
        return old
    if "=" in patch:
        return patch["="]
    if "o" in patch:
        if not isinstance(old, dict):
            raise ValueError("an object patch for a value that is not an object")
        out = {key: value for key, value in old.items() if key not in patch.get("x", ())}
        for key, change in patch["o"].items():
            out[key] = apply(old.get(key), change)
        return out
    if "a" in patch:
        if not isinstance(old, list) or patch["a"] > len(old):
            raise ValueError("an array patch for a value that is not a long enough array")
        items = list(old[: patch["a"]])
        for index, change in patch.get("i", {}).items():
            items[int(index)] = apply(items[int(index)], change)
        return items + list(patch.get("+", ()))
    raise ValueError(f"not a patch: {patch!r}")
