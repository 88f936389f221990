"""Checking what the server sent against the engine: replaying the finished game's record, the
view in every `state` message must equal `state.view(seat)` at that `seq`, exactly."""

from __future__ import annotations

import json
from typing import Any

from nekobako.engine import CHANCE, Record, get_game, parse_entry


def plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


def check_views(record: dict[str, Any], sockets: list[Any]) -> int:
    """Assert every view the sockets received is the engine's view of their seat; returns how
    many views were checked."""
    wanted: dict[int, list[tuple[int | None, dict[str, Any]]]] = {}
    for sock in sockets:
        for message in sock.states:
            if message["view"] is not None:
                wanted.setdefault(message["seq"], []).append((message["seat"], message["view"]))
    game = get_game(record["game"])
    state = game.new_game(record["players"], record["options"])
    checked = 0
    for seq in range(len(record["actions"]) + 1):
        for seat, view in wanted.get(seq, []):
            assert view == plain(state.view(seat)), f"view of seat {seat} at seq {seq} differs from the engine's"
            checked += 1
        if seq < len(record["actions"]):
            seat, text = parse_entry(record["actions"][seq])
            state.apply(seat, game.parse_action(text))
    assert sum(len(v) for v in wanted.values()) == checked
    return checked


def hidden_entries(record: dict[str, Any]) -> list[str]:
    """Record entries a spectator's history does not show as written (deals, hidden discards)."""
    game = get_game(record["game"])
    hidden = []
    for entry in record["actions"]:
        seat, text = parse_entry(entry)
        action = game.parse_action(text)
        if game.redact(seat, action, None) != str(action):
            hidden.append(entry)
    return hidden


def chance_deals(record: dict[str, Any]) -> list[str]:
    return [text for seat, text in map(parse_entry, record["actions"]) if seat == CHANCE and text.startswith("deal")]


def as_record(record: dict[str, Any]) -> Record:
    return Record.from_json(record)
