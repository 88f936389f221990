"""Decoding the hot frames into declared types: msgspec against pydantic and against the old way
(the standard library's `json.loads` plus the hand checks `play._action` made), issue 31 (not a
test, run by hand):

    .venv/bin/python benchmarks/wire_speed.py [--tables N]

Frames: the move frame a client sends (`{"type": "action", "seq", "action"}`, decoded by the
server) and a `delta` message of a 4-player Cat in the Box game (server to client; decoded by a
program that reads the socket, and the message the server sends most). CPU microseconds per frame
(`time.process_time`), median of 7 passes of 20,000 frames, each way timed in alternation so all
see the same machine; then what one move at each of N tables (default 500) costs to decode.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Annotated, Any, Literal

import msgspec
import pydantic

from nekobako.server.wire import ActionFrame, frame_decoder

PASSES = 7
FRAMES = 20_000
MOVE = b'{"type": "action", "seq": 41, "action": "play 7 red"}'
DELTA = json.dumps(
    {
        "type": "delta",
        "base": 57,
        "version": 58,
        "patch": {
            "o": {
                "seq": {"=": 42},
                "view": {
                    "o": {
                        "history": {"a": 41, "+": [[1, "play 4 blue"]]},
                        "hand": {"a": 7, "x": []},
                        "legal": {"=": ["play 5 blue", "play 6 blue", "play 8 blue"]},
                        "to_move": {"=": [2]},
                        "trick": {"a": 1, "+": [{"seat": 1, "card": "4 blue"}]},
                    }
                },
                "table": {"o": {"to_move": {"=": [2]}}},
            }
        },
        "clock": {
            "kind": "realtime",
            "bank": 300,
            "increment": 10,
            "timeouts": 3,
            "banks": {"0": 290.5, "1": 300, "2": 281.25, "3": 300},
            "missed": {},
            "deadlines": {"2": 1795000000.5},
            "now": 1795000000.0,
        },
    }
).encode()


# ---- the old way: json.loads, then each field by hand (play._handle and play._action before) ----


def old_move(raw: bytes) -> tuple[int, str]:
    data = json.loads(raw)
    if not isinstance(data, dict) or data.get("type") != "action":
        raise ValueError("frame")
    seq, action = data.get("seq"), data.get("action")
    if not isinstance(seq, int) or isinstance(seq, bool):
        raise ValueError("seq")
    if not isinstance(action, str) or not action.strip() or len(action) > 200:
        raise ValueError("action")
    return seq, action


# ---- msgspec: the server's own types (server/wire.py) and a delta type like them --------------


class MsgspecDelta(msgspec.Struct, tag="delta", tag_field="type"):
    base: int
    version: int
    patch: dict[str, Any]
    clock: dict[str, Any]


msgspec_delta = msgspec.json.Decoder(MsgspecDelta)


# ---- pydantic: the same types -----------------------------------------------------------------


class PydanticAction(pydantic.BaseModel):
    type: Literal["action"]
    seq: pydantic.StrictInt
    action: Annotated[str, pydantic.StringConstraints(min_length=1, max_length=200, pattern=r"\S")]


class PydanticPing(pydantic.BaseModel):
    type: Literal["ping"]


class PydanticDelta(pydantic.BaseModel):
    type: Literal["delta"]
    base: int
    version: int
    patch: dict[str, Any]
    clock: dict[str, Any]


pydantic_frame: pydantic.TypeAdapter[Any] = pydantic.TypeAdapter(
    Annotated[PydanticAction | PydanticPing, pydantic.Field(discriminator="type")]
)
pydantic_delta = pydantic.TypeAdapter(PydanticDelta)


def per_frame(decode: Callable[[bytes], object], raw: bytes) -> float:
    """CPU microseconds per decode of `raw`, over FRAMES decodes."""
    start = time.process_time()
    for _ in range(FRAMES):
        decode(raw)
    return (time.process_time() - start) / FRAMES * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=500)
    tables = parser.parse_args().tables
    ways: dict[str, dict[str, Callable[[bytes], object]]] = {
        "move": {
            "json.loads + hand checks (old)": old_move,
            "msgspec (server/wire.py)": frame_decoder.decode,
            "pydantic": pydantic_frame.validate_json,
        },
        "delta": {
            "json.loads": json.loads,
            "msgspec": msgspec_delta.decode,
            "pydantic": pydantic_delta.validate_json,
        },
    }
    move = frame_decoder.decode(MOVE)
    assert isinstance(move, ActionFrame) and old_move(MOVE) == (move.seq, move.action)
    assert pydantic_frame.validate_json(MOVE).seq == 41 and msgspec_delta.decode(DELTA).version == 58
    print(f"msgspec {msgspec.__version__}, pydantic {pydantic.__version__}")
    for frame, raw in (("move", MOVE), ("delta", DELTA)):
        times: dict[str, list[float]] = {name: [] for name in ways[frame]}
        for _ in range(PASSES):
            for name, decode in ways[frame].items():
                times[name].append(per_frame(decode, raw))
        base = statistics.median(next(iter(times.values())))
        print(f"\n{frame} frame ({len(raw)} bytes): CPU µs per frame, median of {PASSES}")
        for name, samples in times.items():
            median = statistics.median(samples)
            print(
                f"  {name:34} {median:7.2f} µs  ×{median / base:5.2f}   "
                f"{tables} tables, one move each: {median * tables / 1000:6.2f} ms"
            )


if __name__ == "__main__":
    main()
