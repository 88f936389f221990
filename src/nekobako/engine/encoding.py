"""What learning code needs from a game beyond the engine contract: a fixed integer id for every
action a seat can ever take, a tensor per seat, legal-action ids and an information-state string.

Each game implements `Encoding` in its own folder (`games/<game>/encoding.py`), because action
spaces and observations are rules knowledge; `nekobako.rl` adapts any `Encoding` to PettingZoo,
Gymnasium and OpenSpiel. Layouts and sizes are documented in docs/research.md.

The observation is read from the state's own fields (never from a rebuilt JSON view: that costs a
pass over the whole history), and holds the position part of `State.view(seat)`: every game keeps
a slow reference `observe_view(view)` built from the view alone, and the tests prove both agree,
so hidden cards cannot leak into a tensor; the view keys it leaves out are listed, with where
they are instead, in `elsewhere`. History lives in the information state (string and tensor).
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from ..i18n import Message
from .errors import MalformedAction
from .game import CHANCE, Action, Event, Game, State
from .options import Options
from .registry import get_game


@dataclass(frozen=True)
class Field:
    """One named block of the observation tensor (`offset` counts from the start)."""

    name: str
    size: int
    offset: int
    doc: str


class Layout:
    """The fields of a flat tensor, in order; `layout.at[name]` is a field's offset."""

    def __init__(self, parts: Iterable[tuple[str, int, str]]):
        fields: list[Field] = []
        offset = 0
        for name, size, doc in parts:
            fields.append(Field(name, size, offset, doc))
            offset += size
        self.fields: tuple[Field, ...] = tuple(fields)
        self.size = offset
        self.at: dict[str, int] = {f.name: f.offset for f in fields}

    def slices(self, vector: Sequence[float]) -> dict[str, list[float]]:
        """The tensor cut into its named fields (for tests, docs and debugging)."""
        return {f.name: list(vector[f.offset : f.offset + f.size]) for f in self.fields}


class Encoding(ABC):
    """Action ids, observations and information states of one game at one table size and options.

    Ids are dense, `0 … num_actions - 1`, fixed for the (game, players, options) triple and
    documented per game; chance outcomes have their own ids (`chance_ids`) for adapters such as
    OpenSpiel that need every outcome numbered. A deal is dealt card by card (`deck`, `deal_from`).
    """

    game: Game
    players: int
    options: Options
    layout: Layout
    card_ids: int = 0
    """Card values a deal draws from (chance ids `len(chance_actions) + card`, card < card_ids)."""
    elsewhere: ClassVar[Mapping[str, str]] = {}
    """View keys the tensor does not hold, each with where that knowledge is instead (the tests
    check that every other key of the view is read by `observe_view`)."""

    def __init__(self, game: Game, players: int, options: Options):
        self.game = game
        self.players = players
        self.options = options
        self.actions: tuple[Action, ...] = tuple(self.enumerate_actions())
        self.texts: tuple[str, ...] = tuple(str(a) for a in self.actions)
        self.ids: dict[str, int] = {text: i for i, text in enumerate(self.texts)}
        if len(self.ids) != len(self.texts):
            raise AssertionError(f"{game.name}: two action ids share one notation")
        self.chance_actions: tuple[Action, ...] = tuple(self.enumerate_chance())
        self.chance_ids: dict[str, int] = {str(a): i for i, a in enumerate(self.chance_actions)}

    def __deepcopy__(self, memo: dict[int, Any]) -> Encoding:
        return self  # immutable once built: copies of a game share it

    # -- action ids ------------------------------------------------------------------------------
    @abstractmethod
    def enumerate_actions(self) -> Iterable[Action]:
        """Every action a seat may ever take at this table, in id order."""

    @property
    def num_actions(self) -> int:
        return len(self.actions)

    def action_id(self, action: Action) -> int:
        """The id of a player's action (raises `MalformedAction` for one no seat can take here)."""
        found = self.ids.get(str(action))
        if found is None:
            raise MalformedAction(Message("engine.encoding.not_here", action=str(action)))
        return found

    def action(self, action_id: int) -> Action:
        if type(action_id) is not int or not 0 <= action_id < len(self.actions):
            raise MalformedAction(
                Message("engine.encoding.bad_id", high=len(self.actions) - 1, value=repr(action_id)[:40])
            )
        return self.actions[action_id]

    def id_of_text(self, text: str) -> int:
        """Notation → id, through the game's parser (any accepted spelling)."""
        return self.action_id(self.game.parse_action(text))

    def legal_ids(self, state: State, seat: int) -> list[int]:
        """Ids of `state.legal_actions(seat)`, in the engine's order."""
        ids = self.ids
        return [ids[str(a)] for a in state.legal_actions(seat)]

    def action_features(self, action_id: int) -> list[float]:
        """A feature vector of one action (games with large spaces override; default: empty)."""
        return []

    # -- observations ------------------------------------------------------------------------------
    @property
    def size(self) -> int:
        return self.layout.size

    @abstractmethod
    def observe(self, state: State, seat: int, out: Any) -> None:
        """Write the tensor of `seat` into `out` (a float array of `size`), from the state's fields."""

    @abstractmethod
    def observe_view(self, view: Mapping[str, Any]) -> list[float]:
        """The same tensor from a seat's JSON view: the readable reference the fast path must equal."""

    # -- information states --------------------------------------------------------------------------
    def header(self, seat: int | None) -> str:
        options = json.dumps(self.options.to_json(), sort_keys=True, separators=(",", ":"))
        return f"{self.game.name} players={self.players} options={options} seat={seat}"

    def pending(self, state: State, seat: int) -> str:
        """Private facts of `seat` not yet in the history (a discard chosen while others choose)."""
        return ""

    def information_state(self, state: State, seat: int) -> str:
        """Everything `seat` has observed, in order: the history as `seat` reads it now (as its
        view does: `State.history_texts`), the public events in between, then `pending`. Perfect
        recall; no server counters."""
        lines = [self.header(seat)]
        lines.extend(text for _, text in merged_lines(state, 0, 0, seat))
        tail = self.pending(state, seat)
        if tail:
            lines.append(tail)
        return "\n".join(lines)

    def history_codes(self, state: State, seat: int | None, start: int = 0, end: int | None = None) -> list[int]:
        """History entries `start:end` as `seat` sees them now (`State.history_texts`, as its
        view does), two integers each: who (0 chance, 1 + seat) and what (0 hidden, else 1 + the
        action's id, or 1 + its chance id for chance). A deal is one pair per card `seat` sees
        dealt (its hand, then any revealed cards), as the card's chance id, so the pairs never
        outnumber the steps of `max_length`."""
        codes: list[int] = []
        ids, chance_ids = self.ids, self.chance_ids
        cards = len(self.chance_actions) + 1
        entries = state.history[start:end]
        texts = state.history_texts(seat, start)[: len(entries)]
        for (actor, action), read in zip(entries, texts, strict=True):
            if actor == CHANCE:
                hands = getattr(action, "hands", None)
                if hands is None:
                    codes += (0, chance_ids[str(action)] + 1)
                    continue
                seen = [*(hands[seat] if seat is not None else ()), *getattr(action, "reveal", ())]
                for card in seen:
                    codes += (0, cards + card)
                if not seen:
                    codes += (0, 0)
            else:
                text = str(action)
                codes += (actor + 1, ids[text] + 1 if read == text else 0)
        return codes

    @property
    def information_size(self) -> int:
        """The information-state tensor: the observation, then `history_codes` padded with zeros
        to two per step of the longest game."""
        return self.layout.size + 2 * self.max_length()

    def information_tensor(self, state: State, seat: int, out: Any) -> None:
        """Write the information-state tensor of `seat` into `out` (a float array of
        `information_size`): the observation, then the history codes, zero-padded."""
        size = self.layout.size
        self.observe(state, seat, out[:size])
        codes = self.history_codes(state, seat)
        out[size:] = 0
        out[size : size + len(codes)] = codes

    # -- chance ----------------------------------------------------------------------------------
    def enumerate_chance(self) -> Iterable[Action]:
        """Chance outcomes listed with ids (start player, dice); cards dealt are `deck` ids."""
        return ()

    def deck(self, state: State) -> tuple[tuple[int, ...], int] | None:
        """When chance deals now: the cards the deal is drawn from and how many are drawn (one
        chance step each, `card` being the chance id `len(chance_actions) + card`); else None."""
        return None

    def deal_from(self, state: State, cards: Sequence[int]) -> Action:
        """The deal action for `cards` drawn in order (the first hand's cards first)."""
        raise NotImplementedError

    @abstractmethod
    def max_length(self) -> int:
        """An upper bound on the number of steps of one game, counting each card dealt as one."""


COMMON_ELSEWHERE: Mapping[str, str] = {
    "game": "the encoding's table",
    "players": "the encoding's table",
    "options": "the encoding's table",
    "seq": "a server counter",
    "legal": "the legal-action mask",
    "history": "the information state",
    "events": "the information state",
    "prompt": "words for people, from the position",
    "goal": "words for people, from the options",
}
"""View keys of every game that no tensor holds, and why."""


def event_text(event: Event) -> str:
    data = json.dumps(dict(event.data), sort_keys=True, separators=(",", ":"))
    return f"* {event.kind} {event.seat} {data}"


def merged_lines(
    state: State, history_from: int, events_from: int, seat: int | None, history_to: int | None = None
) -> list[tuple[tuple[int, int], str]]:
    """The state's history entries (as `seat` reads them now: `State.history_texts`) and events
    from the given indexes (up to entry `history_to`, and the events before it), in one order: an
    event recorded at history length k comes before entry k. An entry hidden while it was open
    (Catopomp's spare faces during the spare phase) reads revealed once the view reveals it, so
    lines are made afresh from the state when asked."""
    history = state.history
    end = len(history) if history_to is None else history_to
    out: list[tuple[tuple[int, int], str]] = []
    for i, text in enumerate(state.history_texts(seat, history_from)[: end - history_from], history_from):
        actor = history[i][0]
        who = "chance" if actor == CHANCE else str(actor)
        out.append(((i, 1), f"{who}: {text}"))
    for event in state.events[events_from:]:
        if event.at <= end:
            out.append(((event.at, 0), event_text(event)))
    out.sort(key=lambda item: item[0])
    return out


@cache
def encoding_for(game_name: str, players: int, options: Options) -> Encoding:
    """The encoding of one table (cached): `options` must be validated (`Game.options`)."""
    import importlib

    game = get_game(game_name)
    module = importlib.import_module(f"nekobako.games.{game_name}.encoding")
    return module.ENCODING(game, players, options)


def encoding(game_name: str, players: int, **options: Any) -> Encoding:
    """`encoding("catbox", 4, side="purple")`: validate options, then `encoding_for`."""
    game = get_game(game_name)
    return encoding_for(game_name, players, game.options(options, players))
