"""Table options as data: each game declares a tuple of `OptionSpec`, and every front end
(command line, lobby, records) validates through `parse_options`, so a default or a choice is
written once."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..i18n import Message, has
from .errors import InvalidOptions


@dataclass(frozen=True)
class OptionSpec:
    """One option: its values and its default (possibly depending on the player count).

    `choices` lists the allowed values (typed: ints stay ints). An option without choices has a
    `parse` function that turns a raw value (from JSON or from `k=v` text) into the typed value or
    raises `InvalidOptions`.

    Its words are in the game's catalogue (`games/<game>/messages.po`), under keys derived from the
    game's and the option's names (`key`, `value_key`): `<game>.option.<name>` (what the lobby calls it),
    `….help`, `….value.<value>` (a choice's label, where a bare value would not read well) and
    `….preset.<preset>` (a named value the lobby offers).
    """

    name: str
    default: Any | Callable[[int], Any]
    choices: tuple[Any, ...] | None = None
    parse: Callable[[Any], Any] | None = None
    advanced: bool = False  # a research option: the lobby keeps it under "advanced"
    # for an option without choices: named values the lobby offers ((preset name, value), …), and
    # the bounds of what it may hold (e.g. a deck's card numbers and copies), for an editor
    presets: tuple[tuple[str, Any], ...] = ()
    bounds: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    # values for research only (small configurations a solver can walk whole): never offered at
    # a table, refused unless a caller asks for research configurations (`Game.options(research=True)`)
    research: tuple[Any, ...] = ()

    def default_for(self, players: int) -> Any:
        return self.default(players) if callable(self.default) else self.default

    def coerce(self, raw: Any, research: bool = False) -> Any:
        if self.parse is not None:
            return self.parse(raw)
        assert self.choices is not None
        if self.research:
            found = OptionSpec(self.name, self.default, self.research)._match(raw)
            if found is not _MISSING:
                if not research:
                    raise InvalidOptions(Message("engine.options.research_only", name=self.name, value=_show(found)))
                return found
        found = self._match(raw)
        if found is not _MISSING:
            return found
        allowed = [_show(c) for c in self.choices]
        raise InvalidOptions(Message("engine.options.bad_value", name=self.name, value=_shown(raw), allowed=allowed))

    def _match(self, raw: Any) -> Any:
        """The choice `raw` names (typed, or as text), else `_MISSING`."""
        assert self.choices is not None
        text = raw.strip().lower() if isinstance(raw, str) else None
        for choice in self.choices:
            if type(raw) is type(choice) and raw == choice:  # True is not 1, 2.0 is not 2
                return choice
            if text is not None and (text == str(choice).lower() or text == _show(choice)):
                return choice
            if isinstance(choice, bool) and text is not None and _BOOL_TEXT.get(text) is choice:
                return choice
        return _MISSING

    def key(self, game: str) -> str:
        """The catalogue key of the option's name; its help, labels and presets extend it."""
        return f"{game}.option.{self.name}"

    def value_key(self, game: str, value: Any) -> str | None:
        """The key of a choice's label, if the catalogue has one (numbers and on/off need none)."""
        key = f"{self.key(game)}.value.{_show(value)}"
        return key if has(key) else None

    def describe(self, game: str) -> dict[str, Any]:
        """JSON description for the lobby and the docs: words as catalogue keys (the browser and
        API clients word them from `/api/catalogue` in their reader's language)."""
        key = self.key(game)
        return {
            "name": self.name,
            "label": key,
            "help": f"{key}.help",
            "choices": None if self.choices is None else [_json(c) for c in self.choices],
            "labels": None if self.choices is None else [self.value_key(game, c) for c in self.choices],
            "default": None if callable(self.default) else _json(self.default),
            "advanced": self.advanced,
            **(
                {"presets": [{"value": _json(v), "label": f"{key}.preset.{p}"} for p, v in self.presets]}
                if self.presets
                else {}
            ),
            **({"bounds": {k: list(v) for k, v in self.bounds.items()}} if self.bounds else {}),
        }


HINTS = OptionSpec("hints", False, (False, True))
"""Every game's table option `hints` (issue 29 §3, docs/review.md): a player may ask for the best
move at their turn, from the review's search. Off by default; a table with it on is never rated
(`server/results.py`). It changes no rule: the engine only carries it in the options and records."""

_MISSING = object()
_BOOL_TEXT = {"on": True, "off": False, "true": True, "false": False, "yes": True, "no": False, "1": True, "0": False}


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def _shown(raw: Any) -> str:
    """A refused value as an error message quotes it: short, whatever was sent."""
    if isinstance(raw, bool) or raw is None:
        return _show(raw)
    if isinstance(raw, str):
        return raw if len(raw) <= MAX_SHOWN else raw[:MAX_SHOWN] + "…"
    if isinstance(raw, (int, float)):
        return repr(raw) if abs(raw) < 10**12 else "a huge number"
    return f"a {type(raw).__name__}"


MAX_SHOWN = 40


def _json(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_json(v) for v in value]
    return value


class Options(Mapping[str, Any]):
    """A frozen, hashable set of validated option values; read as `opts.tiles` or `opts["tiles"]`."""

    __slots__ = ("_hash", "_values")

    def __init__(self, values: Mapping[str, Any]):
        object.__setattr__(self, "_values", dict(values))
        object.__setattr__(self, "_hash", None)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Options, (self._values,))

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Options are frozen")

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __hash__(self) -> int:
        if self._hash is None:
            object.__setattr__(self, "_hash", hash(tuple(sorted((k, repr(v)) for k, v in self._values.items()))))
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Options) and self._values == other._values

    def __repr__(self) -> str:
        return f"Options({self._values!r})"

    def to_json(self) -> dict[str, Any]:
        return {k: _json(v) for k, v in self._values.items()}


def parse_options(
    specs: tuple[OptionSpec, ...], raw: Mapping[str, Any] | None, players: int, research: bool = False
) -> Options:
    """Validate `raw` against `specs`, filling defaults. Unknown names are refused, and research
    values (`OptionSpec.research`) unless `research`."""
    raw = dict(raw or {})
    known = {s.name for s in specs}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise InvalidOptions(Message("engine.options.unknown", name=_shown(unknown[0]), known=sorted(known)))
    values = {}
    for spec in specs:
        values[spec.name] = spec.coerce(raw[spec.name], research) if spec.name in raw else spec.default_for(players)
    return Options(values)


def parse_option_text(items: list[str]) -> dict[str, str]:
    """`["tiles=10", "scoring=count"]` → `{"tiles": "10", "scoring": "count"}` (values coerced later)."""
    out: dict[str, str] = {}
    for item in items:
        if "=" not in item:
            raise InvalidOptions(Message("engine.options.name_value", item=item))
        key, value = item.split("=", 1)
        out[key.strip()] = value.strip()
    return out
