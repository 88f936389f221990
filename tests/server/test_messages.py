"""Messages are encoded by orjson (server/messages.py), for speed; the text must stay what the
standard library's compact encoder wrote, so no client sees a difference."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from nekobako.engine import CHANCE, get_game
from nekobako.server.messages import encode


def standard(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(exclude_categories=("Cs",)))  # lone surrogates never pass the server's input checks
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.lists(inner, max_size=5).map(tuple)
        | st.dictionaries(st.text(max_size=8) | st.integers(-5, 5), inner, max_size=5)
    ),
    max_leaves=30,
)


@given(values)
def test_any_json_value_is_written_as_the_standard_library_writes_it(value: Any) -> None:
    assert encode(value) == standard(value)


def test_every_games_views_are_written_as_the_standard_library_writes_them() -> None:
    for name, players in (("catbox", 3), ("catbox", 4), ("catopomp", 3), ("shutbox", 2)):
        game = get_game(name)
        rng = random.Random(name)
        state = game.new_game(players, {})
        while not state.is_over():
            if state.is_chance():
                state.apply(CHANCE, state.sample_chance(rng))
                continue
            seat = state.to_move[0]
            state.apply(seat, rng.choice(list(state.legal_actions(seat))))
            for viewer in (None, seat):
                view = state.view(viewer)
                assert encode(view) == standard(view)
        assert encode(state.full_view()) == standard(state.full_view())
        assert encode(state.events) == standard(state.events)  # named tuples: lists, as json writes them
