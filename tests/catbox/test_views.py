"""Views (`docs/views.md`, catbox), redaction and reveal: what each seat may see."""

from __future__ import annotations

import json
import random

import pytest

from nekobako.engine import random_step, replay
from nekobako.games.catbox import GAME
from nekobako.games.catbox.board import unpack
from nekobako.games.catbox.view import CatboxView

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


# -- what just happened: `last_trick` and `last_round` -------------------------------------------------

# Two players: seat 0 holds the 1s and 2s, seat 1 the 3s and 4s; the 5s are in the centre. Seat 0
# wins tricks 1–3, seat 1 tricks 4–5 with red, then cannot lead trick 6 (red 3 and 4 taken, blue and
# yellow X uncovered, green 3 and 4 taken): a paradox, seat 1 showing 3 4 4 4.
ROUND = [
    "start 0",
    "deal 1 1 1 1 1 2 2 2 2 2 | 3 3 3 3 3 4 4 4 4 4 | reveal 5 5 5 | hidden 5 5",
    "0: discard 1",
    "1: discard 3",
    "0: play 1 blue", "1: play 3 yellow",
    "0: play 2 blue", "1: play 4 green",
    "0: play 1 yellow", "1: play 3 green",
    "0: play 2 yellow", "1: play 3 red",
    "1: play 4 red", "0: play 1 green",
]  # fmt: skip


def played(actions: list[str]):
    return replay({"game": "catbox", "players": 2, "options": {}, "seed": 0, "actions": actions})


def test_a_completed_trick_stays_in_the_view_with_its_winner_until_the_next_one():
    state = played(ROUND[:12])  # trick 4 just completed: red 3 beats yellow 2
    for seat in (0, 1, None):
        view = state.view(seat)
        assert view["trick"] == []
        assert view["last_trick"] == {
            "trick": 4,
            "plays": [{"seat": 0, "number": 2, "colour": "yellow"}, {"seat": 1, "number": 3, "colour": "red"}],
            "winner": 1,
            "paradox": None,
        }
    state.act(1, "play 4 red")  # the next trick's first card: the last one is still shown
    view = state.view(0)
    assert view["trick"] == [{"seat": 1, "number": 4, "colour": "red"}] and view["last_trick"]["trick"] == 4
    assert played(ROUND[:5]).view(0)["last_trick"] is None  # no trick finished yet this round


def test_the_round_summary_holds_the_final_board_and_each_seats_breakdown():
    state = played(ROUND)
    view = state.view(None)
    assert view["phase"] == "deal" and view["round"] == 2
    last = view["last_round"]
    assert last["round"] == 1 and last["paradox"] == 1 and last["paradox_hand"] == [3, 4, 4, 4]
    assert last["discards"] == [1, 3] and last["centre"] == {"revealed": [5, 5, 5]}
    assert last["last_trick"] == {"trick": 6, "plays": [], "winner": None, "paradox": 1}
    assert last["board"][0][2:4] == [1, 1] and last["board"][2][0:3] == [0, 0, 1]
    assert last["x_tokens"][1] == {"red": True, "blue": False, "yellow": False, "green": True}
    # seat 0: 3 tricks (≤ 4 at two players) and blue 1 2, yellow 1 2, green 1 in one group → 3 + 5;
    # seat 1: the paradox, −1 per trick; its largest group is yellow 3 with green 3 4
    keys = ("tricks", "prediction", "hit", "group", "bonus", "paradox", "points", "total")
    assert [tuple(seat[k] for k in keys) for seat in last["seats"]] == [
        (3, None, True, 5, 5, False, 8, 8),
        (2, None, False, 3, 0, True, -2, -2),
    ]
    assert all(set(seat) == set(keys) for seat in last["seats"])
    assert state.round_scores() == [[8, -2]]


def test_the_round_summary_lasts_until_the_next_round_ends_and_the_last_trick_until_the_next_deal():
    state = played([*ROUND, "deal 1 1 1 1 1 2 2 2 2 2 | 3 3 3 3 3 4 4 4 4 4 | reveal 5 5 5 | hidden 5 5"])
    view = state.view(1)
    assert view["phase"] == "discard" and view["last_trick"] is None
    assert view["last_round"]["round"] == 1 and view["last_round"]["discards"] == [1, 3]


def test_nothing_hidden_reaches_a_view_through_the_summaries():
    # during round 1 there is no summary; the other seat's discard and hand stay hidden
    state = played(ROUND[:12])
    view = state.view(0)
    assert view["last_round"] is None
    text = json.dumps(view)
    assert "3 3 3" not in text and '"discards"' not in text and "hidden 5" not in text
    # after the round: discards and the paradox hand are public (rules §3, §6), the centre's
    # hidden cards and the other hand are not
    state = played(ROUND)
    view = state.view(0)
    assert "hidden" not in json.dumps(view["last_round"]) and "hands" not in view["last_round"]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_typed_view_holds_what_the_state_holds(players):
    """`GAME.read_view` (what determinize and the greedy bot read) against the state's own fields."""
    rng = random.Random(players)
    for _ in range(3):
        state = GAME.new_game(players)
        while not state.is_over():
            for seat in [None, *range(players)]:
                seen = GAME.read_view(state.view(seat))
                assert isinstance(seen, CatboxView)
                assert (seen.phase, seen.round, seen.start_player) == (state.phase, state.round, state.start)
                assert list(seen.xs) == state.xs and list(seen.trick) == state.trick
                assert all(seen.covered(s, c) == bool(state.xs[s] >> c & 1) for s in range(players) for c in range(4))
                assert [p or 0 for p in seen.predictions] == state.predictions and list(seen.tricks) == state.tricks
                assert seen.hand_counts == tuple(len(unpack(h)) for h in state.hands)
                assert seen.revealed == tuple(state.revealed) and seen.red_broken == state.red_broken
                assert seen.numbers == tuple(map(tuple, state.table.layout))
                if seat is None:
                    assert seen.hand == () and seen.discard is None
                else:
                    assert list(seen.hand) == unpack(state.hands[seat])
                    assert (seen.discard or 0) == state.discards[seat]
            random_step(state, rng)
