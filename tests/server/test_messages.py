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


def test_a_tables_seats_and_notices_are_worded_again_exactly_when_they_change() -> None:
    """`LiveTable.detail` keeps the seats' and notices' JSON between moves (server/live.py): the
    same objects while nothing of theirs changed, new and right once a seat, a notice, a reader's
    language or who is connected changed."""
    from datetime import UTC, datetime

    from nekobako.server.live import LiveTable, new_notice
    from nekobako.store.games import SeatRow, TableRow

    at = datetime(2026, 12, 1, tzinfo=UTC)
    seats = [SeatRow(0, "human", 1), SeatRow(1, "bot", bot="greedy"), SeatRow(2)]
    row = TableRow(1, "catbox", 3, {}, {"kind": "none"}, "open", 1, 7, 0, 1, {}, at, None, None, seats, [])
    live = LiveTable(row=row, users={1: {"id": 1, "name": "alice"}})
    first = live.detail(None, "en")
    row.seq, row.clock = 5, {"kind": "none", "moved": True}  # a move: seats and notices stay
    again = live.detail(None, "en")
    assert again["seats"] is first["seats"] and again["notices"] is first["notices"] and again["seq"] == 5
    assert live.detail(None, "ja")["seats"][1]["name"] != first["seats"][1]["name"]  # worded in Japanese
    row.seats = [*seats[:2], SeatRow(2, "human", 2)]  # bob sits down (a change replaces the list)
    live.users[2] = {"id": 2, "name": "bob"}
    seated = live.detail(None, "en")
    assert [s["name"] for s in seated["seats"]] == ["alice", first["seats"][1]["name"], "bob"]
    assert [s["connected"] for s in seated["seats"]] == [False, True, False]
    live.elsewhere["other process"] = frozenset({2})  # bob connects through another process
    assert [s["connected"] for s in live.detail(None, "en")["seats"]] == [False, True, True]
    row.notices = [*row.notices, new_notice("returned", 0, 5, {"name": "alice"})]
    noticed = live.detail({"id": 1}, "en")
    assert len(noticed["notices"]) == 1 and noticed["notices"][0]["text"] != live.notices(None, "en")[0]["text"]
