"""A view's `history` and `events`, made into JSON once per entry instead of once per view (issue 14).

Every view carries the whole history (redacted for its reader) and every event, and the server asks
for one view per seat and spectator after every action: rebuilding those lists each time was a tenth
of its event loop, though they grow by an entry or two per action. A state keeps the JSON it has
already made in its `view_log` slot, per reader, and a view copies the outer list and makes only the
entries that are new.

The cached entries are shared by every view that shows them, so they are read-only
(`ReadOnlyList`, `ReadOnlyDict`: JSON writes them as lists and objects, they compare equal to plain
ones, and changing one raises `TypeError`), and each view gets lists of its own, so a view kept by
a caller never changes. The log itself is never changed in place: a state that makes new entries
replaces its `view_log` with a new mapping, so a clone may share its parent's log safely. What a
log holds is checked against the state's history and events (equal prefixes, compared by identity
first, at C speed) before it is used, so a state whose history was replaced or reordered is shown
right: the cache changes the cost of a view, never its content.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, NoReturn

ViewLog = Mapping[Hashable, tuple[list[Any], tuple[Any, ...]]]
"""Per key (a reader's seat, None for spectators, "events", "full"): the sources already made into
JSON (history entries or events, in order) and their JSON, one entry each."""


def _read_only(self: Any, *args: Any, **kwargs: Any) -> NoReturn:
    raise TypeError("a view's history and events are shared by every view: read-only")


class ReadOnlyList(list[Any]):
    """A JSON array shared by many views (a `[seat, text]` history entry, a list in an event's data)."""

    __slots__ = ()

    __setitem__ = __delitem__ = __iadd__ = __imul__ = _read_only
    append = extend = insert = pop = remove = clear = sort = reverse = _read_only

    def __reduce__(self) -> tuple[Any, ...]:
        return (ReadOnlyList, (list(self),))


class ReadOnlyDict(dict[str, Any]):
    """A JSON object shared by many views (an event, its data)."""

    __slots__ = ()

    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    def __reduce__(self) -> tuple[Any, ...]:
        return (ReadOnlyDict, (dict(self),))


def read_only(value: Any) -> Any:
    """`value` as read-only JSON: tuples and lists become `ReadOnlyList`, mappings `ReadOnlyDict`."""
    if isinstance(value, tuple | list):
        return ReadOnlyList(map(read_only, value))
    if isinstance(value, Mapping):
        return ReadOnlyDict({key: read_only(item) for key, item in value.items()})
    return value


def shown(owner: Any, key: Hashable, sources: Sequence[Any], make: Callable[[Any], Any]) -> list[Any]:
    """`[make(s) for s in sources]`, a new list, with `make` called only for the sources that
    `owner.view_log[key]` has not made yet; the log is replaced (never changed) when it grows."""
    log: ViewLog = owner.view_log
    part = log.get(key)
    if part is not None:
        done, made = part
        known = len(done)
        if known == len(sources) and sources == done:
            return list(made)
        if known < len(sources) and sources[:known] == done:
            made += tuple(map(make, sources[known:]))
        else:  # not a prefix: the history was replaced or reordered
            made = tuple(map(make, sources))
    else:
        made = tuple(map(make, sources))
    owner.view_log = {**log, key: (list(sources), made)}
    return list(made)


def kept(owner: Any, key: Hashable, source: Any, make: Callable[[Any], Any]) -> Any:
    """`make(source)` as read-only JSON, made again only when `source` is another object than last
    time: for a part of a view made from a value that never changes in place (a finished round),
    shared by every view that shows it."""
    log: ViewLog = owner.view_log
    part = log.get(key)
    if part is not None and part[0][0] is source:
        return part[1][0]
    value = read_only(make(source))
    owner.view_log = {**log, key: ([source], (value,))}
    return value
