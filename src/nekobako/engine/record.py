"""Game records: the same JSON for every game, used by tests, the command line and replays.

    {"game": "shutbox", "players": 2, "options": {"tiles": 9}, "seed": 7,
     "actions": ["start 0", "0: roll", "dice 3 4", "0: shut 7", ...]}

Chance outcomes are written bare, player actions as `SEAT: action`. Where a record gives no
chance outcome (a player action follows while chance is to move), the seed decides it, so a
short hand-written record and its fully written replay lead to the same state.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..i18n import Message
from .errors import BadRecord, NekobakoError
from .game import CHANCE, Action, State
from .registry import get_game

_ENTRY = re.compile(r"^\s*(\d+)\s*:\s*(.*?)\s*$")


@dataclass
class Record:
    game: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    actions: list[str] = field(default_factory=list)

    @classmethod
    def from_json(cls, data: Any) -> Record:
        if isinstance(data, (str, bytes)):
            try:
                data = json.loads(data)
            except ValueError as exc:
                raise BadRecord(Message("engine.record.not_json", detail=str(exc))) from None
        if not isinstance(data, Mapping):
            raise BadRecord(Message("engine.record.not_object"))
        for key, kind in (("game", str), ("players", int)):
            if not isinstance(data.get(key), kind) or isinstance(data.get(key), bool):
                raise BadRecord(Message("engine.record.needs", key=key, type=kind.__name__))
        options = data.get("options", {})
        if not isinstance(options, Mapping):
            raise BadRecord(Message("engine.record.options"))
        seed = data.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise BadRecord(Message("engine.record.seed"))
        actions = data.get("actions", [])
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise BadRecord(Message("engine.record.actions"))
        return cls(data["game"], data["players"], dict(options), seed, list(actions))

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "seed": self.seed,
            "actions": self.actions,
        }


def format_entry(seat: int, action: Action) -> str:
    return str(action) if seat == CHANCE else f"{seat}: {action}"


def parse_entry(text: str) -> tuple[int, str]:
    """`"2: play 7 red"` → `(2, "play 7 red")`; `"dice 3 4"` → `(CHANCE, "dice 3 4")`."""
    match = _ENTRY.match(text)
    if match:
        return int(match.group(1)), match.group(2)
    return CHANCE, text.strip()


def replay(record: Record | Mapping[str, Any] | str) -> State:
    """Rebuild the state a record describes. Raises `BadRecord` naming the first bad entry."""
    if not isinstance(record, Record):
        record = Record.from_json(record)
    try:
        game = get_game(record.game)
        state = game.new_game(record.players, record.options)
    except NekobakoError as exc:
        raise BadRecord(exc.message) from None
    rng = random.Random(record.seed)
    for index, entry in enumerate(record.actions):
        seat, text = parse_entry(entry)
        try:
            if seat != CHANCE:
                fill_chance(state, rng)
            elif not state.is_chance():
                raise BadRecord(
                    Message("engine.refusal.game_over" if state.is_over() else "engine.refusal.chance_not_to_move")
                )
            state.apply(seat, game.parse_action(text))
        except NekobakoError as exc:
            raise BadRecord(
                Message("engine.record.refused", index=index, entry=entry, reason=exc.message), index, entry
            ) from None
    return state


def fill_chance(state: State, rng: random.Random) -> None:
    """Let `rng` decide every pending chance step (until a player is to move or the game ends)."""
    while state.is_chance():
        state.apply(CHANCE, state.sample_chance(rng))


def summary(state: State) -> dict[str, Any]:
    """What `nekobako replay --json` prints: the position as anyone at the table can see it after
    the game (legal actions of every seat to move, totals, per-round scores, winners, events)."""
    to_move = state.to_move
    return {
        "game": state.game.name,
        "players": state.players,
        "options": state.options.to_json(),
        "over": state.is_over(),
        "to_move": state.to_move_json(),
        "legal": {} if to_move == (CHANCE,) else {str(s): [str(a) for a in state.legal_actions(s)] for s in to_move},
        "scores": state.scores(),
        "round_scores": state.round_scores(),
        "winners": state.winners(),
        "events": [e.to_json() for e in state.events],
    }
