"""The learned policy's network, run with NumPy alone (no deep-learning library at play time).

A weights file (`.npz`, no pickles) holds one policy for one table: a game at one player count.
It is checked against the table's encoding (`engine/encoding.py`) by a fingerprint of the
observation layout and the action ids, so a file trained for another table, another release of
the encoding or another game is refused with a message, never run on misread inputs.

The network scores the legal actions of one seat from the seat's observation:

    x  = clip((observation - mean) / scale, ±10)
    z  = W3 · relu(W2 · relu(W1 · x + b1) + b2) + b3               (the state, H numbers)
    g  = relu(A · Wa + ba)                                         (one row of H per action)
    logit(action) = z · g[action] + A[action] · u

where `A` holds one row per action id: the encoding's action features where it has them
(Catopomp: 1,746 plays described by their cards, as DouZero does), else the identity (one learnt
row per id). Illegal ids are never scored; the policy plays its highest-scoring legal action.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ...engine import InvalidOptions, game_names
from ...engine.encoding import Encoding
from ...i18n import Message

FORMAT = 1
"""Bumped when the file's layout changes; older files are refused as not matching."""
ARRAYS = ("mean", "scale", "W1", "b1", "W2", "b2", "W3", "b3", "Wa", "ba", "u")


def fingerprint(enc: Encoding) -> str:
    """What a policy's inputs and outputs mean at one table: the game, the player count, the
    observation's fields and every action id's notation (options that change none of these share
    a policy)."""
    data = {
        "game": enc.game.name,
        "players": enc.players,
        "fields": [[f.name, f.size] for f in enc.layout.fields],
        "actions": list(enc.texts),
        "features": action_inputs(enc).shape[1],
    }
    return hashlib.sha256(json.dumps(data, separators=(",", ":")).encode()).hexdigest()[:16]


def action_inputs(enc: Encoding) -> np.ndarray:
    """`A`: the action features of the encoding where it has them, else the identity."""
    features = getattr(enc, "features", None)
    if callable(features):
        return np.asarray(features(range(enc.num_actions)), np.float32)
    return np.eye(enc.num_actions, dtype=np.float32)


@dataclass
class Policy:
    """One table's network, in float32 for play (stored in float16)."""

    game: str
    players: int
    fingerprint: str
    arrays: dict[str, np.ndarray]
    source: str

    @classmethod
    def load(cls, path: Path | Any, source: str | None = None) -> Policy:
        """Read a weights file; anything but one written by `save` raises `InvalidOptions`
        (`bots.learned.unreadable`)."""
        where = source or str(path)
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                arrays = {name: np.asarray(data[name], np.float32) for name in ARRAYS}
            if meta.get("format") != FORMAT or meta.get("game") not in game_names():
                raise ValueError("format")
            policy = cls(str(meta["game"]), int(meta["players"]), str(meta["fingerprint"]), arrays, where)
            policy._check_shapes()
        except (OSError, ValueError, KeyError, TypeError, AttributeError, EOFError) as exc:
            raise InvalidOptions(Message("bots.learned.unreadable", path=where)) from exc
        return policy

    def save(self, path: Path) -> None:
        meta = {"format": FORMAT, "game": self.game, "players": self.players, "fingerprint": self.fingerprint}
        stored = {name: self.arrays[name].astype(np.float16) for name in ARRAYS}
        np.savez_compressed(path, meta=np.array(json.dumps(meta)), **stored)  # type: ignore[arg-type]

    def _check_shapes(self) -> None:
        a = self.arrays
        hidden = a["W3"].shape[0]
        if not (
            a["mean"].shape == a["scale"].shape == (a["W1"].shape[1],)
            and a["W2"].shape[1] == a["W1"].shape[0]
            and a["W3"].shape[1] == a["W2"].shape[0]
            and a["Wa"].shape[1] == hidden
            and a["u"].shape == (a["Wa"].shape[0],)
        ):
            raise ValueError("shapes")

    def check(self, enc: Encoding) -> None:
        """Refuse to play a table this policy was not trained for (`bots.learned.mismatch`)."""
        if self.game != enc.game.name or self.players != enc.players or self.fingerprint != fingerprint(enc):
            raise InvalidOptions(
                Message(
                    "bots.learned.mismatch",
                    path=self.source,
                    game=Message(f"game.{enc.game.name}"),
                    players=enc.players,
                    trained=Message(f"game.{self.game}"),
                    trained_players=self.players,
                )
            )

    def prepare(self, enc: Encoding) -> None:
        """Precompute every action's row `g` and bias once per table (`A` is fixed)."""
        a = self.arrays
        inputs = action_inputs(enc)
        a["G"] = np.maximum(inputs @ a["Wa"] + a["ba"], 0.0)
        a["bias"] = inputs @ a["u"]

    def logits(self, observation: np.ndarray, ids: np.ndarray) -> np.ndarray:
        """Scores of the action ids `ids` from one observation (see the module docstring)."""
        a = self.arrays
        x = np.clip((np.asarray(observation, np.float32) - a["mean"]) / a["scale"], -10.0, 10.0)
        h = np.maximum(a["W1"] @ x + a["b1"], 0.0)
        h = np.maximum(a["W2"] @ h + a["b2"], 0.0)
        z = a["W3"] @ h + a["b3"]
        return a["G"][ids] @ z + a["bias"][ids]
