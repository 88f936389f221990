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

from operator import is_
from typing import Any

Json = Any


def _same(a: Json, b: Json) -> bool:
    """JSON equality of two scalars (in Python True == 1 == 1.0; in JSON they are three values)."""
    return type(a) is type(b) and bool(a == b)


def diff(old: Json, new: Json) -> dict[str, Json] | None:
    """The patch from `old` to `new`, or None when nothing changed. One walk over both values:
    each part is looked at once, and a part both share (the engine's views share their history
    and event entries from one version to the next, read-only: docs/engine.md) not at all."""
    if old is new:
        return None
    if isinstance(new, dict):  # the view log's read-only dicts and lists are dicts and lists here
        if not isinstance(old, dict):
            return {"=": new}
        changed = {}
        added = 0
        for key, value in new.items():
            if key not in old:
                changed[key] = {"=": value}
                added += 1
            elif (before := old[key]) is not value and (patch := diff(before, value)) is not None:
                changed[key] = patch
        removed = [key for key in old if key not in new] if len(old) > len(new) - added else []
        if not changed and not removed:
            return None
        out: dict[str, Json] = {"o": changed}
        if removed:
            out["x"] = removed
        return out
    if isinstance(new, list):
        if not isinstance(old, list):
            return {"=": new}
        keep = min(len(old), len(new))
        inner = {}
        if not all(map(is_, old, new)):  # (at C speed) a history or event log shares its old entries
            for i, (before, after) in enumerate(zip(old, new)):  # noqa: B905 (the shorter one's length)
                if before is not after and (patch := diff(before, after)) is not None:
                    inner[str(i)] = patch
        if not inner and len(old) == len(new):
            return None
        if keep and len(inner) * 2 > keep and len(inner) > 2:
            return {"=": new}  # mostly different: the new array is shorter than its patch
        out = {"a": keep}
        if len(new) > keep:
            out["+"] = new[keep:]
        if inner:
            out["i"] = inner
        return out
    return None if _same(old, new) else {"=": new}


def apply(old: Json, patch: dict[str, Json] | None) -> Json:
    """`old` with `patch` applied (a new value; `old` is left as it was)."""
    if patch is None:
        return old
    if "=" in patch:
        return patch["="]
    if "o" in patch:
        if not isinstance(old, dict):
            raise ValueError("an object patch for a value that is not an object")
        out = dict(old)
        for key in patch.get("x", ()):
            out.pop(key, None)
        for key, change in patch["o"].items():
            out[key] = change["="] if "=" in change else apply(old.get(key), change)
        return out
    if "a" in patch:
        if not isinstance(old, list) or patch["a"] > len(old):
            raise ValueError("an array patch for a value that is not a long enough array")
        items = old[: patch["a"]]  # a new plain list, even of a read-only one
        for index, change in patch.get("i", {}).items():
            items[int(index)] = apply(items[int(index)], change)
        items += patch.get("+", ())
        return items
    raise ValueError(f"not a patch: {patch!r}")
