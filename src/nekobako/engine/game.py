"""The contract every game fulfils (see docs/engine.md).

A `Game` is the static description of a game (name, player counts, option table, notation); a
`State` is one position. States are mutated in place by `apply` (as OpenSpiel's `apply_action`
and python-chess's `push`) and copied with `clone` for search. Chance is a pseudo-seat, `CHANCE`:
when it is to move, `chance_outcomes` lists the outcomes (dice) or `sample_chance` draws one
(deals), and any caller may instead apply the outcome it wants, which is how records force deals
and rolls.

Hot paths (legal generation, apply, clone) are written per game for speed; this module only fixes
the names and the shape of what comes out.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, NamedTuple, NoReturn, TypeVar

from ..i18n import Message, catalogue
from ..i18n.events import describe
from .errors import IllegalAction, InvalidOptions, MalformedAction
from .options import Options, OptionSpec, parse_options
from .viewlog import ReadOnlyDict, ReadOnlyList, ViewLog, kept, read_only, shown

if TYPE_CHECKING:
    from .record import Record

CHANCE = -1
"""The seat number of chance (dice, deals, the first start player)."""

Action = Hashable
"""Actions are small immutable values whose `str()` is the canonical notation of the rules file."""

A = TypeVar("A", bound=Hashable)
"""A game's own action type: `State[A]` and `Game[A, S]` take and give only that game's actions."""

S = TypeVar("S", bound="State[Any]")
"""A game's own state class: `Game[A, S].new_game` returns an `S`, with the game's own attributes."""


class FrozenData(dict[str, Any]):
    """An event's data: a read-only, hashable dict whose lists are tuples and whose nested mappings
    are frozen too, so an `Event` is a value (equal, hashable) that no reader can alter. A `dict`
    underneath, because events are made on the playout hot path and JSON writes it as it is."""

    __slots__ = ()

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> FrozenData:
        """`data` frozen. Plain values, tuples and `FrozenData` (what games write) are copied by
        `dict`'s own constructor, as events are made on the playout hot path; tuples and nested
        `FrozenData` are trusted to hold plain values (the conformance suite hashes every event of
        every game to hold games to that)."""
        if _ATOMS_AND_TUPLES.issuperset(map(type, data.values())):
            return cls(data)
        return cls({key: freeze(value) for key, value in data.items()})

    def _read_only(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("event data is read-only")

    __setitem__ = __delitem__ = __ior__ = clear = pop = popitem = setdefault = update = _read_only

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenData, (dict(self),))

    def __repr__(self) -> str:
        return f"FrozenData({dict.__repr__(self)})"

    def to_json(self) -> dict[str, Any]:
        if _ATOMS.issuperset(map(type, self.values())):
            return dict(self)
        return {key: thaw(value) for key, value in self.items()}


_ATOMS = frozenset({int, str, float, bool, type(None)})
_ATOMS_AND_TUPLES = _ATOMS | {tuple, FrozenData}  # what games write: taken as they are
_EMPTY = FrozenData()


def freeze(value: Any) -> Any:
    """Lists and tuples become tuples, mappings `FrozenData`, recursively; anything else is kept."""
    kind = type(value)
    if kind in _ATOMS or kind is FrozenData:
        return value
    if kind is list or kind is tuple:
        if _ATOMS.issuperset(map(type, value)):
            return value if kind is tuple else tuple(value)
        return tuple(map(freeze, value))
    if isinstance(value, Mapping):
        return FrozenData.of(value)
    return value


def thaw(value: Any) -> Any:
    """`freeze` undone into JSON-ready values: tuples become lists, frozen mappings dicts."""
    if isinstance(value, tuple):
        return [thaw(v) for v in value]
    if isinstance(value, FrozenData):
        return value.to_json()
    return value


class _EventFields(NamedTuple):
    kind: str
    seat: int | None
    data: FrozenData
    at: int


class Event(_EventFields):
    """Something that happened as a consequence of an action (trick won, box shut, gem lost).

    Events hold public facts only; they are shown to every seat and to spectators. `at` is the
    number of history entries when it happened, so a log can interleave actions and events.
    An event is a value: immutable, hashable, its `data` a `FrozenData`. (A named tuple rather
    than a frozen dataclass: Cat in the Box makes one for most actions, and a tuple is built in
    one step where a frozen dataclass sets each field through `object.__setattr__`.)
    """

    __slots__ = ()

    def __new__(cls, kind: str, seat: int | None = None, data: Mapping[str, Any] | None = None, at: int = 0) -> Event:
        if type(data) is not FrozenData:
            if data is None:
                data = _EMPTY
            elif _ATOMS_AND_TUPLES.issuperset(map(type, data.values())):  # `FrozenData.of`, inlined
                data = FrozenData(data)
            else:
                data = FrozenData.of(data)
        return tuple.__new__(cls, (kind, seat, data, at))

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "data": self.data.to_json(), "at": self.at}


@dataclass(frozen=True, slots=True)
class SeatView:
    """A seat's view (`State.view`) read back as a typed value: the common envelope here, each
    game's own keys in its subclass (`CatboxView`, `CatopompView`, `ShutView`), parsed in one place
    by `Game.read_view` next to the code that writes them.

    Views travel as JSON, which stays the contract with every client; Python readers (a game's
    `determinize`, the bots) read this instead, so the name and shape of every key are spelled once
    and the type checker sees each field they use. `to_move` is a tuple as `State.to_move` gives it
    (`(CHANCE,)` where the JSON says `"chance"`). What a reader only carries on (`history`,
    `events`) is kept as the view holds it, not copied: a typed view is made for every decision of
    a greedy bot."""

    game: str
    players: int
    options: Mapping[str, Any]
    seat: int | None
    seq: int
    to_move: tuple[int, ...]
    legal: tuple[str, ...]
    over: bool
    scores: tuple[float, ...]
    round_scores: tuple[tuple[float, ...], ...]
    winners: tuple[int, ...]
    history: Sequence[Sequence[Any]]  # [seat, redacted text] pairs
    events: Sequence[Mapping[str, Any]]  # {kind, seat, data, at}

    @property
    def me(self) -> int:
        """The seat whose view this is, for a reader that plays it (a bot): a spectator's view
        has none, and asking is a mistake (`ValueError`)."""
        if self.seat is None:
            raise ValueError("a spectator's view belongs to no seat")
        return self.seat


def envelope(view: Mapping[str, Any]) -> dict[str, Any]:
    """The `SeatView` fields of a JSON view, as keyword arguments for a game's typed view."""
    to_move = view["to_move"]
    return {
        "game": view["game"],
        "players": view["players"],
        "options": view["options"],
        "seat": view["seat"],
        "seq": view["seq"],
        "to_move": _CHANCE_TO_MOVE if to_move == "chance" else tuple(to_move),
        "legal": tuple(view["legal"]),
        "over": view["over"],
        "scores": tuple(view["scores"]),
        "round_scores": tuple(map(tuple, view["round_scores"])),
        "winners": tuple(view["winners"]),
        "history": view["history"],
        "events": view["events"],
    }


_CHANCE_TO_MOVE = (CHANCE,)

T = TypeVar("T")


class LastView(Generic[T]):
    """What a game derived from the last view it was asked about (its typed view, a sampler),
    made again only for another view: a search bot asks `determinize` thousands of times about one
    view. A view is the same when it is the same object with the same `seq`, seat, phase and
    `to_move` (a caller that changes a view in place between calls is still served right).
    Replaced as one tuple, so concurrent callers never pair a view with another view's value."""

    __slots__ = ("_last",)

    def __init__(self) -> None:
        self._last: tuple[Any, Any, T | None] = (None, None, None)

    def get(self, view: Mapping[str, Any], make: Callable[[Mapping[str, Any]], T]) -> T:
        key = (view.get("seq"), view.get("seat"), view.get("phase"), str(view.get("to_move")))
        last_view, last_key, value = self._last
        if value is None or last_view is not view or last_key != key:
            value = make(view)
            self._last = (view, key, value)
        return value


@dataclass(frozen=True)
class SearchHints:
    """How a search bot should value an unfinished position of a game: the game's own knowledge,
    kept with the game so a search written for any game needs no table of games."""

    lower_is_better: bool = False  # Shut the Box scores are penalties
    scale: float = 5.0  # a score margin of `scale` is worth ~0.38 above an even position
    horizon: str = "round"  # how far a rollout plays by default: "round" or "game"
    perfect_information: bool = False  # nothing hidden: determinize once and clone


class Game(ABC, Generic[A, S]):
    """Static description of one game. One instance per game, found through the registry."""

    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    search: ClassVar[SearchHints] = SearchHints()

    # -- options -------------------------------------------------------------------------------
    def options(self, raw: Mapping[str, Any] | Options | None, players: int, *, research: bool = False) -> Options:
        """Validate options for a table of `players` (raises `InvalidOptions` with a player's words).
        `research=True` also accepts the research-only values (small configurations for solvers,
        docs/research.md); a table never does."""
        self.check_players(players)
        json = raw.to_json() if isinstance(raw, Options) else raw
        opts = parse_options(self.option_specs, json, players, research)
        self.check_options(opts, players)
        return opts

    def check_players(self, players: int) -> None:
        if (
            not isinstance(players, int)
            or isinstance(players, bool)
            or not (self.min_players <= players <= self.max_players)
        ):
            raise InvalidOptions(
                Message(
                    "engine.options.players",
                    game=Message(f"game.{self.name}"),
                    low=self.min_players,
                    high=self.max_players,
                    value=repr(players),
                )
            )

    def check_options(self, options: Options, players: int) -> None:
        """Cross-option and player-count checks; override to add them."""

    # -- states --------------------------------------------------------------------------------
    def new_game(self, players: int, options: Mapping[str, Any] | Options | None = None) -> S:
        """The state before the first chance step (usually `start N`)."""
        return self.new_initial_state(players, self.options(options, players))

    @abstractmethod
    def new_initial_state(self, players: int, options: Options) -> S: ...

    # -- notation ------------------------------------------------------------------------------
    @abstractmethod
    def parse_action(self, text: str) -> A:
        """Parse canonical notation (without the `SEAT:` prefix); raise `MalformedAction`."""

    def redact(self, actor: int, action: A, viewer: int | None) -> str:
        """How `actor`'s action reads to `viewer` (None: spectator). Hidden actions are masked."""
        return str(action)

    # -- hidden information ----------------------------------------------------------------------
    @abstractmethod
    def determinize(self, view: Mapping[str, Any], rng: random.Random) -> S:
        """A full state consistent with everything in `view` (one seat's knowledge), sampled
        uniformly among the states that view allows as far as the game's docs say."""

    def read_view(self, view: Mapping[str, Any]) -> SeatView:
        """`view` (JSON, as `State.view` wrote it) as a typed value. Games with keys of their own
        return their subclass of `SeatView`; this default reads the envelope only."""
        return SeatView(**envelope(view))

    # -- words -----------------------------------------------------------------------------------
    # A game's words are in its folder's `messages.po` (`<game>.event.<kind>` for events,
    # `<game>.prompt.<kind>` for a view's prompt and goal, `<game>.refusal.*` for refusals), put in
    # words by `nekobako.i18n`; the browser fills the same templates by the same rule (web/words.js).
    def describe(
        self, event: Event, lang: str = "en", names: Sequence[str] | None = None, viewer: int | None = None
    ) -> str:
        """An event in words for the reader at seat `viewer` (second person when it is theirs)."""
        return describe(self.name, "event", event.kind, event.seat, event.data, lang, names, viewer)

    def describe_prompt(
        self,
        message: Mapping[str, Any],
        lang: str = "en",
        names: Sequence[str] | None = None,
        viewer: int | None = None,
    ) -> str:
        """A view's `prompt` or `goal` (`{kind, seat, data}`) in words."""
        return describe(
            self.name, "prompt", message["kind"], message.get("seat"), message.get("data") or {}, lang, names, viewer
        )

    @property
    def title(self) -> Message:
        """The game's name, in words in its `messages.po` (`game.<name>`)."""
        return Message(f"game.{self.name}")

    @property
    def messages(self) -> dict[str, str]:
        """Event and prompt kind → its catalogue key (`/api/games`; the words are in `/api/catalogue`)."""
        out: dict[str, str] = {}
        for family in ("event", "prompt"):
            prefix = f"{self.name}.{family}."
            for key in catalogue().keys(prefix):
                if not key.endswith(".you"):
                    out[key[len(prefix) :]] = key
        return out

    def describe_options(self) -> list[dict[str, Any]]:
        return [spec.describe(self.name) for spec in self.option_specs]


class State(ABC, Generic[A]):
    """One position. Subclasses keep `history` ((seat, action) pairs, chance as `CHANCE`) and
    `events` up to date in `_apply`; everything else here is derived from those methods.

    `__slots__ = ()` here and a full `__slots__` in every game: a misspelt attribute raises instead
    of quietly creating a new one, and the conformance suite can check that `clone` copies every
    slot. Every game has a `view_log` slot, `{}` in a new state and shared by `clone` (viewlog.py)."""

    __slots__ = ()

    game: Game[A, Any]
    players: int
    options: Options
    history: list[tuple[int, A]]
    events: list[Event]
    view_log: ViewLog  # JSON already made for views (viewlog.py): {} when made, shared by `clone`

    # -- who moves ---------------------------------------------------------------------------------
    @property
    @abstractmethod
    def to_move(self) -> tuple[int, ...]:
        """Seats that may act now: one seat, several (simultaneous), `(CHANCE,)`, or `()` when over."""

    def is_chance(self) -> bool:
        return self.to_move == (CHANCE,)

    def to_move_json(self) -> str | list[int]:
        """`to_move` as views, summaries and the lobby write it: `"chance"` or a list of seats."""
        to_move = self.to_move
        return "chance" if to_move == (CHANCE,) else list(to_move)

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def legal_actions(self, seat: int) -> Sequence[A]:
        """Legal actions of `seat` now (empty when it is not to move). For `CHANCE`: the outcomes."""

    def chance_outcomes(self) -> Sequence[tuple[A, float]] | None:
        """Outcomes with probabilities when few (dice); None when too many to list (deals)."""
        return None

    def sample_chance(self, rng: random.Random) -> A:
        outcomes = self.chance_outcomes()
        if outcomes is None:
            raise NotImplementedError("games with large chance steps override sample_chance")
        actions = [a for a, _ in outcomes]
        return rng.choices(actions, weights=[p for _, p in outcomes])[0]

    def apply(self, seat: int, action: A) -> None:
        """Play `action` for `seat` (`CHANCE` for outcomes). Raises `IllegalAction` and changes
        nothing when the action is not legal now.

        The seat is checked here, once for every game: only an `int` from `CHANCE` to the last seat
        is a seat (`False` and `0.0` compare equal to seat 0 but would write `"False: …"` into a
        record that cannot be replayed). Everything else is the game's `_apply`."""
        if type(seat) is not int or not CHANCE <= seat < self.players:
            raise IllegalAction(Message("engine.refusal.no_seat", seat=repr(seat)))
        self._apply(seat, action)

    @abstractmethod
    def _apply(self, seat: int, action: A) -> None:
        """`apply` for a seat that exists: check the action against the rules (raise
        `IllegalAction` for anything that is not this game's action or not legal now, before
        changing anything), then play it and append to `history` and `events`."""

    def act(self, seat: int, text: str) -> None:
        """Parse and apply notation, e.g. `state.act(0, "shut 7")`."""
        self.apply(seat, self.game.parse_action(text))

    @abstractmethod
    def clone(self) -> State[A]: ...

    # -- results -----------------------------------------------------------------------------------
    @abstractmethod
    def scores(self) -> list[float]:
        """Game totals per seat so far (penalties for Shut the Box, points or gems otherwise)."""

    @abstractmethod
    def round_scores(self) -> list[list[float]]:
        """One list per finished round, one entry per seat."""

    @abstractmethod
    def winners(self) -> list[int]:
        """Winning seats (shared wins list several); empty until the game is over."""

    def returns(self) -> list[float]:
        """Per-seat outcome for learning and simulation: 1 split among winners, 0 otherwise."""
        won = self.winners()
        return [1.0 / len(won) if s in won else 0.0 for s in range(self.players)]

    # -- what a seat may know ------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything `seat` may know, as JSON; `None` is a spectator. The only door hidden
        information passes through (with `Game.redact` for the history)."""
        game = self.game
        to_move = self.to_move
        view: dict[str, Any] = {
            "game": game.name,
            "players": self.players,
            "options": kept(self, "options", self.options, Options.to_json),
            "seat": seat,
            "seq": len(self.history),
            "to_move": self.to_move_json(),
            "legal": [str(a) for a in self.legal_actions(seat)] if seat is not None and seat in to_move else [],
            "over": self.is_over(),
            "scores": self.scores(),
            "round_scores": self.round_scores(),
            "winners": self.winners(),
            "history": self._history_json(seat),
            "events": shown(self, "events", self.events, _event_json),
        }
        view.update(self.private_view(seat))
        return view

    def _history_json(self, seat: int | None) -> list[Any]:
        """The history as `seat` reads it: the settled entries' JSON from the view log, the open
        ones (see `settled`) made afresh."""
        history, settled = self.history, self.settled()

        def make(entry: tuple[int, A]) -> ReadOnlyList:
            return ReadOnlyList((entry[0], self.settled_text(entry[0], entry[1], seat)))

        if settled >= len(history):
            return shown(self, seat, history, make)
        redact = self.game.redact
        out = shown(self, seat, history[:settled], make)
        out += [ReadOnlyList((s, redact(s, a, seat))) for s, a in history[settled:]]
        return out

    def settled(self) -> int:
        """How many history entries read the same to each viewer from now on, so views keep their
        JSON (`viewlog.py`): all of them, unless a game hides an entry only for a while (Catopomp's
        spare faces, while the spare phase is open), where the entries it may still hide begin."""
        return len(self.history)

    def settled_text(self, actor: int, action: A, viewer: int | None) -> str:
        """How a settled history entry reads to `viewer`: `Game.redact`, unless the game reveals
        more once an entry is settled (Catopomp's spare faces)."""
        return self.game.redact(actor, action, viewer)

    def history_texts(self, viewer: int | None, start: int = 0) -> list[str]:
        """History entries from `start` as `viewer` reads them now, exactly as `view(viewer)`'s
        history says: settled entries by `settled_text`, open ones by `Game.redact`. The one rule
        for every reader of what a seat knows (terminal log, search keys, learning encodings), so
        a spare face the view reveals is revealed to all of them."""
        history, settled = self.history, self.settled()
        settled_text, redact = self.settled_text, self.game.redact
        return [
            settled_text(actor, action, viewer) if i < settled else redact(actor, action, viewer)
            for i, (actor, action) in enumerate(history[start:], start)
        ]

    @abstractmethod
    def private_view(self, seat: int | None) -> dict[str, Any]:
        """The game-specific part of `view`: public board plus what `seat` alone may see."""

    def full_view(self) -> dict[str, Any]:
        """Everything, hidden cards included: for finished games, replays and debugging."""
        view = self.view(None)
        view["history"] = shown(self, "full", self.history, _full_entry)
        view.update(self.reveal())
        return view

    def reveal(self) -> dict[str, Any]:
        """Hidden information (all hands, discards, undealt cards); empty for open games."""
        return {}

    # -- records -------------------------------------------------------------------------------------
    def record(self, seed: int | None = None) -> Record:
        from .record import Record, format_entry

        return Record(
            game=self.game.name,
            players=self.players,
            options=self.options.to_json(),
            seed=seed,
            actions=[format_entry(s, a) for s, a in self.history],
        )


def _event_json(event: Event) -> ReadOnlyDict:
    return ReadOnlyDict(kind=event.kind, seat=event.seat, data=read_only(event.data), at=event.at)


def _full_entry(entry: tuple[int, Any]) -> ReadOnlyList:
    return ReadOnlyList((entry[0], str(entry[1])))


def is_number(word: str) -> bool:
    """ASCII digits only: `str.isdigit` also accepts `²` or `٣`, which `int` refuses or misreads."""
    return word.isascii() and word.isdigit()


def check_text(text: str) -> list[str]:
    """Split notation into words, refusing what is not plain text (shared by the parsers)."""
    if not isinstance(text, str):
        raise MalformedAction(Message("engine.notation.not_text", type=type(text).__name__))
    if len(text) > 200:
        raise MalformedAction(Message("engine.notation.too_long", n=200))
    words = text.split()
    if not words:
        raise MalformedAction(Message("engine.notation.empty"))
    return words
