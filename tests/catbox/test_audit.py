"""Rules-fidelity audit of Cat in the Box (`shared/rules/cat_in_the_box.md`): scenarios the first
test suite left open or only loosely pinned. Records force their deals and are replayed through
`nekobako.engine.replay`; every expected value is worked out by hand in the comments."""

from __future__ import annotations

import random

import pytest

from nekobako.engine import CHANCE, BadRecord, MalformedAction, replay
from nekobako.games.catbox import GAME
from nekobako.games.catbox.board import table_for
from nekobako.games.catbox.layouts import COLOURS
from scenario import refused


def record(players: int, actions: list[str], side: str | None = None) -> dict:
    options = {"side": side} if side else {}
    return {"game": "catbox", "players": players, "options": options, "seed": 0, "actions": actions}


# -- §1 the boards, typed from the rules file --------------------------------------------------------------
def _row(text: str) -> list[int]:
    return [int(n) for n in text.split()]


RULES_LAYOUTS = {
    ("white", 6): [_row("1 2 3 4 5 6")] * 4,
    ("white", 9): [_row("1 2 3 4 5 6 7 8 9")] * 4,
    ("purple", 6): [_row("1 2 3 4 5 6"), _row("3 4 5 6 1 2"), _row("5 6 1 2 3 4"), _row("2 3 4 5 6 1")],
    ("purple", 9): [
        _row("1 2 3 4 5 6 7 8 9"),
        _row("3 4 5 6 7 8 9 1 2"),
        _row("5 6 7 8 9 1 2 3 4"),
        _row("7 8 9 1 2 3 4 5 6"),
    ],
}


@pytest.mark.parametrize(
    ("players", "side", "columns", "observed_columns"),
    [
        (2, "white", 6, [5, 5, 5, 5]),  # the four 6 cells
        (3, "white", 6, None),
        (3, "purple", 6, None),
        (4, "white", 9, [8, 8, 8, 8]),  # the four 9 cells
        (4, "purple", 9, [8, 6, 4, 2]),  # 9 sits in columns 9, 7, 5, 3 on the purple rows
        (5, "purple", 9, None),
    ],
)
def test_board_layouts_and_observed_tokens_are_the_rules_tables(players, side, columns, observed_columns):
    view = GAME.new_game(players, {"side": side}).view(None)
    assert view["layout"]["rows"] == ["red", "blue", "yellow", "green"]
    assert view["layout"]["numbers"] == RULES_LAYOUTS[(side, columns)] and view["layout"]["side"] == side
    observed = [[c for c, cell in enumerate(row) if cell == "observed"] for row in view["board"]]
    assert observed == ([[c] for c in observed_columns] if observed_columns else [[]] * 4)


def _group(players: int, side: str, cells: list[tuple[str, int]]) -> int:
    table = table_for(players, side)
    mask = 0
    for colour, number in cells:
        mask |= table.cell_bit[COLOURS.index(colour)][number]
    return table.largest_group(mask)


def test_bonus_adjacency_is_by_physical_cell():
    # purple 4×9: red 3, blue 5, yellow 7, green 9 all stand in column 3 → one group of 4;
    # on the white board they are in columns 3, 5, 7, 9 → four groups of 1.
    column = [("red", 3), ("blue", 5), ("yellow", 7), ("green", 9)]
    assert _group(5, "purple", column) == 4
    assert _group(4, "white", column) == 1
    # purple 4×6 green row is 2 3 4 5 6 1: green 1 (last column) and green 2 (first) are not
    # neighbours (no wrap-around); on white they are.
    assert _group(3, "purple", [("green", 1), ("green", 2)]) == 1
    assert _group(3, "white", [("green", 1), ("green", 2)]) == 2
    # the end of one row does not touch the start of the next: red 6 and blue 1 on white 4×6
    assert _group(3, "white", [("red", 6), ("blue", 1)]) == 1
    assert _group(4, "white", [("red", 9), ("blue", 1)]) == 1
    # two groups: the larger counts, not the sum (red 1 2 3 and yellow 5 6)
    assert _group(3, "white", [("red", 1), ("red", 2), ("red", 3), ("yellow", 5), ("yellow", 6)]) == 3


# -- §6 a follower's paradox with every X still covered; §8 bonus with a paradox ----------------------------
# 2 players. Reveal 1 1 2 → blockers on green 1, yellow 1 (1 revealed twice) and green 2.
# Seat 0 (A): 1 1 2 2 2 4 4 4 4 4, discards a 4. Seat 1 (B): 1 2 3 3 3 5 5 5 5 5, discards a 5.
# Counts: 1: 2+1+2 revealed = 5; 2: 3+1+1 = 5; 3: 3+2 hidden = 5; 4: 5; 5: 5.
FOLLOWER_PARADOX_2P = [
    "start 1",
    "deal 1 1 2 2 2 4 4 4 4 4 | 1 2 3 3 3 5 5 5 5 5 | reveal 1 1 2 | hidden 3 3",
    "0: discard 4", "1: discard 5",
    "1: play 3 green", "0: play 2 yellow",  # T1 B wins (off-colour yellow loses); A loses green X
    "1: play 5 yellow", "0: play 4 yellow",  # T2 B wins 5 > 4
    "1: play 5 blue", "0: play 2 blue",  # T3 B wins
    "1: play 5 green", "0: play 1 red",  # T4 A breaks red and wins (green X already lost)
    "0: play 4 blue", "1: play 3 blue",  # T5 A wins 4 > 3
    "0: play 2 red", "1: play 5 red",  # T6 B wins 5 > 2
    "1: play 3 yellow", "0: play 4 red",  # T7 A wins with red; A loses yellow X
    "0: play 1 blue",  # T8: B holds 1 and 2. 1: red, blue taken, yellow, green blocked;
]  # fmt: skip
# 2: red, blue, yellow taken, green blocked → B has no legal play as a follower, with all four X
# covered (B always led or followed). Tricks A 3 (T4, T5, T7), B 4. B: paradox → −4, no bonus
# although 4 ≤ 4. A: 3 ≤ 4 → bonus; A's tokens red 1 2 4, blue 1 2 4, yellow 2 4: the group red 1,
# red 2, blue 1, blue 2, yellow 2 has 5 (column 3 is B's or empty) → 3 + 5 = 8.


def test_follower_paradox_with_every_x_covered_when_the_lead_takes_the_last_cell():
    state = replay(record(2, FOLLOWER_PARADOX_2P))
    paradox = [e for e in state.events if e.kind == "paradox"]
    assert [(e.seat, e.data["trick"]) for e in paradox] == [(1, 8)]
    view = state.view(None)
    assert view["x_tokens"][1] == {"red": True, "blue": True, "yellow": True, "green": True}
    assert view["tricks"] == [3, 4]
    assert view["board"][1][0] == 0  # the lead's token (blue 1) stays; the trick goes to nobody
    assert state.round_scores() == [[8, -4]]
    scored = {e.seat: (e.data["bonus"], e.data["points"]) for e in state.events if e.kind == "round_scored"}
    assert scored == {0: (5, 8), 1: (0, -4)}
    # the next round starts with the start player passed left (seat 1 → seat 0)
    assert state.is_chance() and view["round"] == 2 and view["start_player"] == 0


def test_the_last_play_before_a_paradox_is_what_leaves_the_follower_stuck():
    # before A's lead of trick 8, blue 1 is still free: B could follow blue, so no paradox yet
    state = replay(record(2, FOLLOWER_PARADOX_2P[:-1]))
    assert state.to_move == (0,) and state.view(None)["paradox"] is None
    assert state.view(1)["hand"] == [1, 2]
    assert "play 1 blue" in [str(a) for a in state.legal_actions(0)]


# -- §8 no bonus above 4 tricks; one empty cell; §4 X lost only for the led colour, once --------------------
# Reveal 1 2 3 → green 1, 2, 3 blocked; hidden 2 4. A: 1 1 2 3 3 4 4 5 5 5 (discards 5),
# B: 1 1 2 2 3 3 4 4 5 5 (discards 5).
FULL_ROUND_2P = [
    "start 0",
    "deal 1 1 2 3 3 4 4 5 5 5 | 1 1 2 2 3 3 4 4 5 5 | reveal 1 2 3 | hidden 2 4",
    "0: discard 5", "1: discard 5",
    "0: play 5 green", "1: play 4 blue",  # T1 A; B loses green X
    "0: play 2 yellow", "1: play 1 blue",  # T2 A; B loses yellow X
    "0: play 3 yellow", "1: play 2 blue",  # T3 A; B's yellow X already uncovered: no event
    "0: play 5 yellow", "1: play 4 red",  # T4 B (red beats the higher led yellow 5); no event
    "1: play 2 red", "0: play 1 red",  # T5 B (red 2 > red 1)
    "1: play 5 red", "0: play 1 yellow",  # T6 B; A loses red X
    "1: play 3 blue", "0: play 4 yellow",  # T7 B; A loses blue X
    "1: play 3 red", "0: play 4 green",  # T8 B; A's red X already uncovered: no event
]  # fmt: skip
# A 3 tricks, B 5. No paradox. A ≤ 4 → bonus: yellow 1–5 (a row of 5) plus green 4, green 5 under
# yellow 4, yellow 5 → 7; red 1 stands alone (blue 1 is B's) → 3 + 7 = 10. B: 5 > 4 → 5, no bonus.
# Empty cells: 17 playable (red 1–5, blue 1–5, yellow 1–5, green 4–5) − 16 plays = blue 5 only.


def test_two_players_no_bonus_above_four_tricks_and_one_cell_left_empty():
    state = replay(record(2, FULL_ROUND_2P))
    assert state.round_scores() == [[10, 5]]
    assert state.view(None)["paradox"] is None
    board = state.view(None)["board"]
    empty = [(COLOURS[r], c + 1) for r, row in enumerate(board) for c, cell in enumerate(row) if cell is None]
    assert empty == [("blue", 5)]
    assert state.full_view()["hands"] == [[3], [1]]  # one card left in each hand


def test_x_is_lost_only_for_the_led_colour_only_by_followers_and_only_once():
    state = replay(record(2, FULL_ROUND_2P))
    lost = [(e.seat, e.data["colour"]) for e in state.events if e.kind == "x_lost"]
    assert lost == [(1, "green"), (1, "yellow"), (0, "red"), (0, "blue")]
    # the X lost is the led colour's, never the declared one (B declared blue and red, keeps both)
    state = replay(record(2, FULL_ROUND_2P[:-2]))  # before trick 8: round still on
    assert state.view(None)["x_tokens"] == [
        {"red": False, "blue": False, "yellow": True, "green": True},
        {"red": True, "blue": True, "yellow": False, "green": False},
    ]
    assert not any(str(a).endswith(("red", "blue")) for a in state.legal_actions(0))


# -- §1/§6 cards dealt and round length per player count ---------------------------------------------------
@pytest.mark.parametrize(
    ("players", "side", "dealt", "tricks"),
    [(2, "white", 10, 8), (3, "purple", 10, 8), (4, "white", 10, 8), (5, "purple", 9, 7)],
)
def test_cards_dealt_and_tricks_per_round(players: int, side: str, dealt: int, tricks: int):
    # A round ends after `tricks` tricks with one card left in every hand, or earlier on a paradox.
    # (At 3–5 players nearly every random round ends in a paradox: 3 × 8 plays fill all 24 cells,
    # 4 × 8 all 32 free cells, 5 × 7 = 35 of 36; at 2 players 16 plays leave one of 17 cells.)
    rng = random.Random(players)
    for _ in range(40):
        state = GAME.new_game(players, {"side": side})
        state.apply(CHANCE, state.sample_chance(rng))
        state.apply(CHANCE, state.sample_chance(rng))
        assert state.view(None)["hand_counts"] == [dealt] * players
        while state.round_scores() == []:
            seat = state.to_move[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        view = state.view(None)
        played = sum(1 for _, a in state.history if str(a).startswith("play"))
        assert sum(view["hand_counts"]) == players * (dealt - 1) - played
        if view["paradox"] is None:
            assert sum(view["tricks"]) == tricks and view["hand_counts"] == [1] * players
        else:
            assert sum(view["tricks"]) < tricks and played < players * tricks


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_rounds_equal_players_and_the_start_player_passes_left(players: int):
    # §2: as many rounds as players; round 1's start player drawn by chance, then the next seat.
    rng = random.Random(7 * players)
    state = GAME.new_game(players)
    state.act(CHANCE, f"start {players - 1}")
    while not state.is_over():
        seat = state.to_move[0]
        action = state.sample_chance(rng) if seat == CHANCE else rng.choice(state.legal_actions(seat))
        state.apply(seat, action)
    starts = [e.seat for e in state.events if e.kind == "round_started"]
    assert starts == [(players - 1 + r) % players for r in range(players)]
    assert len(state.round_scores()) == players
    assert state.scores() == [sum(r[s] for r in state.round_scores()) for s in range(players)]
    for e in state.events:  # §5: the round's first trick is led by its start player
        if e.kind == "round_started":
            first = next(seat for seat, a in state.history[e.at :] if str(a).startswith("play"))
            assert first == e.seat


# -- bad input: wrong phase, wrong seat, malformed text — refused, nothing changes ---------------------------
THREE = ["start 0", "deal 1 1 1 1 1 2 2 2 2 2 | 3 3 3 3 3 4 4 4 4 4 | 5 5 5 5 5 6 6 6 6 6"]


@pytest.mark.parametrize(
    ("extra", "seat", "text"),
    [
        ([], 0, "play 1 blue"),  # discarding now
        ([], 0, "predict 1"),
        ([], CHANCE, "deal 1 1 1 1 1 2 2 2 2 2 | 3 3 3 3 3 4 4 4 4 4 | 5 5 5 5 5 6 6 6 6 6"),
        ([], CHANCE, "start 1"),
        ([], 3, "discard 1"),  # no seat 3
        ([], CHANCE, "discard 1"),
        (["0: discard 1", "1: discard 3", "2: discard 5"], 0, "discard 1"),  # predicting now
        (["0: discard 1", "1: discard 3", "2: discard 5"], 0, "play 1 blue"),
        (["0: discard 1", "1: discard 3", "2: discard 5"], 1, "predict 1"),  # seat 0 predicts first
        (["0: discard 1", "1: discard 3", "2: discard 5"], 0, "predict 2"),  # 3 players: 1, 3, 4
        (["0: discard 1", "1: discard 3", "2: discard 5", "0: predict 1"], 1, "predict 9"),
        (
            ["0: discard 1", "1: discard 3", "2: discard 5", "0: predict 1", "1: predict 1", "2: predict 1"],
            0,
            "predict 1",
        ),
        (
            ["0: discard 1", "1: discard 3", "2: discard 5", "0: predict 1", "1: predict 1", "2: predict 1"],
            0,
            "discard 2",
        ),
        (
            ["0: discard 1", "1: discard 3", "2: discard 5", "0: predict 1", "1: predict 1", "2: predict 1"],
            0,
            "play 3 blue",
        ),
        (
            ["0: discard 1", "1: discard 3", "2: discard 5", "0: predict 1", "1: predict 1", "2: predict 1"],
            0,
            "play 1 red",
        ),
    ],
)
def test_actions_out_of_phase_or_turn_are_refused_and_change_nothing(extra: list[str], seat: int, text: str):
    prefix = THREE + extra
    state = replay(record(3, prefix))
    refused(state, seat, text)
    with pytest.raises(BadRecord) as err:
        replay(record(3, [*prefix, text if seat == CHANCE else f"{seat}: {text}"]))
    assert err.value.index == len(prefix)


def test_two_players_have_no_prediction_phase():
    state = replay(record(2, FULL_ROUND_2P[:4]))
    assert state.to_move == (0,) and state.view(None)["phase"] == "play"
    refused(state, 0, "predict 1")


@pytest.mark.parametrize(
    "text", ["play 7", "play 7 purple", "play 0 red", "play ten red", "discard", "pass", "predict 0"]
)
def test_malformed_actions_are_refused_and_change_nothing(text: str):
    state = replay(record(3, THREE))
    refused(state, 0, text, MalformedAction)
    with pytest.raises(BadRecord) as err:
        replay(record(3, [*THREE, f"0: {text}"]))
    assert err.value.index == 2 and err.value.entry == f"0: {text}"


# -- §4–§6 an independent reading of the rules, checked against the engine in random games ---------------------
def reference_plays(view: dict, leading: bool) -> set[str]:
    """§4 legality from a seat's view alone: empty cell, X covered, the red-lead rule (red broken only
    by a player token on the red row, read from the board, not from the engine's flag)."""
    numbers, board = view["layout"]["numbers"], view["board"]
    seat = view["seat"]
    empty = {(COLOURS[r], numbers[r][c]) for r in range(4) for c in range(len(board[r])) if board[r][c] is None}
    plays = {
        (n, colour)
        for n in set(view["hand"])
        for colour in COLOURS
        if (colour, n) in empty and view["x_tokens"][seat][colour]
    }
    red_broken = any(isinstance(cell, int) for cell in board[0])
    if leading and not red_broken and any(c != "red" for _, c in plays):
        plays = {(n, c) for n, c in plays if c != "red"}
    return {f"play {n} {c}" for n, c in plays}


def reference_winner(trick: list[dict]) -> int:
    """§5: the highest red if any red was played, else the highest number of the led colour."""
    reds = [t for t in trick if t["colour"] == "red"]
    pool = reds or [t for t in trick if t["colour"] == trick[0]["colour"]]
    return max(pool, key=lambda t: t["number"])["seat"]


@pytest.mark.parametrize(("players", "side"), [(2, "white"), (3, "white"), (3, "purple"), (4, "purple"), (5, "purple")])
def test_engine_agrees_with_an_independent_reading_of_the_rules(players: int, side: str):
    rng = random.Random(1000 + players)
    for _ in range(6):
        state = GAME.new_game(players, {"side": side})
        while not state.is_over():
            seat = state.to_move[0]
            if seat == CHANCE:
                state.apply(CHANCE, state.sample_chance(rng))
                continue
            view = state.view(seat)
            if view["phase"] != "play":
                state.apply(seat, rng.choice(state.legal_actions(seat)))
                continue
            trick = view["trick"]
            legal = {str(a) for a in state.legal_actions(seat)}
            assert legal == reference_plays(view, leading=not trick)
            assert legal  # a seat with no legal play never gets the turn: the round ended in a paradox
            text = rng.choice(sorted(legal))
            _, number, colour = text.split()
            x_before, tricks_before, round_before = view["x_tokens"][seat], view["tricks"], view["round"]
            state.act(seat, text)
            after = state.view(seat)
            # §4: a follower declaring another colour loses the led colour's X, and only that one
            expected_x = dict(x_before)
            if trick and colour != trick[0]["colour"]:
                expected_x[trick[0]["colour"]] = False
            assert after["x_tokens"][seat] == expected_x
            full = [*trick, {"seat": seat, "number": int(number), "colour": colour}]
            if len(full) == players:  # §5: the trick is complete
                won = [a - b for a, b in zip(after["tricks"], tricks_before, strict=True)]
                assert won == [int(s == reference_winner(full)) for s in range(players)]
            if after["round"] != round_before or after["over"]:  # the round ended
                paradox = after["paradox"]
                if paradox is not None:  # §6: that seat really had no legal play
                    stuck = state.view(paradox)
                    assert reference_plays(stuck, leading=True) == set()
                else:
                    assert all(len(h) == 1 for h in state.full_view()["hands"])


@pytest.mark.parametrize("seat", [0.0, False, "0", None])
def test_a_seat_that_is_not_an_int_is_refused(seat):
    # Regression: 0.0 and False compare equal to seat 0; False was accepted as seat 0's discard or
    # play and written into the record as "False: play 5 green" (a record that cannot be replayed),
    # and 0.0 crashed with a TypeError instead of the engine's error.
    state = replay(record(2, FULL_ROUND_2P[:2]))  # discarding: seats 0 and 1 to move
    assert state.legal_actions(seat) == ()
    refused(state, seat, "discard 1")
    state = replay(record(2, FULL_ROUND_2P[:4]))  # seat 0 to lead
    assert state.legal_actions(seat) == ()
    refused(state, seat, "play 5 green")
