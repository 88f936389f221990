"""Views (`docs/views.md`, catbox), redaction and reveal: what each seat may see."""

from __future__ import annotations

import json

from nekobako.engine import replay
from nekobako.games.catbox import GAME

TWO_PLAYER = {
    "game": "catbox",
    "players": 2,
    "options": {},
    "seed": 0,
    "actions": [
        "start 1",
        "deal 1 1 1 1 1 2 2 2 2 2 | 3 3 3 3 4 4 4 4 5 5 | reveal 3 4 5 | hidden 5 5",
        "1: discard 3",
        "0: discard 2",
        "1: play 4 blue",
    ],
}

VIEW_KEYS = {
    "round",
    "rounds",
    "start_player",
    "phase",
    "layout",
    "board",
    "x_tokens",
    "predictions",
    "prediction_values",
    "tricks",
    "trick",
    "leader",
    "red_broken",
    "discarded",
    "hand_counts",
    "paradox",
}


def test_seat_view_has_the_agreed_keys_and_own_cards_only():
    state = replay(TWO_PLAYER)
    view = state.view(0)
    assert VIEW_KEYS | {"hand", "discard", "centre"} <= set(view)
    assert view["hand"] == [1, 1, 1, 1, 1, 2, 2, 2, 2] and view["discard"] == 2
    assert view["hand_counts"] == [9, 8] and view["discarded"] == [True, True]
    assert view["trick"] == [{"seat": 1, "number": 4, "colour": "blue"}]
    assert view["leader"] == 1 and view["to_move"] == [0] and view["phase"] == "play"
    assert view["centre"] == {"revealed": [3, 4, 5]}
    assert view["layout"] == {
        "rows": ["red", "blue", "yellow", "green"],
        "numbers": [[1, 2, 3, 4, 5, 6]] * 4,
        "side": "white",
    }
    assert view["board"][1][3] == 1 and view["board"][3][2:5] == ["blocker"] * 3
    assert view["legal"] and all(a.startswith("play ") for a in view["legal"])
    assert view["predictions"] == [None, None] and view["prediction_values"] == []
    json.dumps(view)  # JSON all the way down


def test_history_is_redacted_for_other_seats_and_spectators():
    state = replay(TWO_PLAYER)
    seat0 = dict((i, text) for i, (_, text) in enumerate(state.view(0)["history"]))
    assert seat0[1] == "deal 1 1 1 1 1 2 2 2 2 2 | ? ? ? ? ? ? ? ? ? ? | reveal 3 4 5 | hidden ? ?"
    assert seat0[2] == "discard 2" and seat0[3] == "discard"  # seat order: 0 then 1
    spectator = state.view(None)
    assert "hand" not in spectator and "discard" not in spectator
    masked = " ".join("?" * 10)
    assert spectator["history"][1][1] == f"deal {masked} | {masked} | reveal 3 4 5 | hidden ? ?"
    assert [text for _, text in spectator["history"][2:4]] == ["discard", "discard"]
    assert spectator["legal"] == []


def test_other_cards_never_appear_in_a_seat_view():
    state = replay(TWO_PLAYER)
    text = json.dumps(state.view(0))
    # seat 1 holds the 3s, 4s and 5s; only public facts (board, centre) may mention them
    assert '"hand": [1, 1, 1, 1, 1, 2, 2, 2, 2]' in text
    assert "3 3 3" not in text and "hidden 5" not in text and '"discards"' not in text


def test_reveal_and_full_view_show_everything():
    state = replay(TWO_PLAYER)
    full = state.full_view()
    assert full["hands"] == [[1, 1, 1, 1, 1, 2, 2, 2, 2], [3, 3, 3, 4, 4, 4, 5, 5]]
    assert full["discards"] == [2, 3]
    assert full["centre"] == {"revealed": [3, 4, 5], "hidden": [5, 5]}
    assert full["history"][1][1].startswith("deal 1 1 1 1 1 2 2 2 2 2 | 3 3 3 3 4")
    assert [text for _, text in full["history"][2:4]] == ["discard 2", "discard 3"]


def test_pending_discards_are_hidden_until_everyone_chose():
    state = GAME.new_game(3)
    state.act(-1, "start 0")
    state.act(-1, "deal 1 1 1 1 1 2 2 2 2 2 | 3 3 3 3 3 4 4 4 4 4 | 5 5 5 5 5 6 6 6 6 6")
    state.act(1, "discard 4")
    for seat in (0, 2, None):
        view = state.view(seat)
        assert "discard 4" not in json.dumps(view)
        assert view["discarded"] == [False, True, False]
        assert view["to_move"] == [0, 2]
    assert state.view(1)["discard"] == 4 and state.view(1)["legal"] == []
    assert state.view(0)["legal"] == ["discard 1", "discard 2"]


def test_purple_layout_in_view():
    state = GAME.new_game(5)
    layout = state.view(None)["layout"]
    assert layout["side"] == "purple"
    assert layout["numbers"][1] == [3, 4, 5, 6, 7, 8, 9, 1, 2]
    assert sorted(layout["numbers"][3]) == list(range(1, 10))
