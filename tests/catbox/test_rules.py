"""One scenario record per rule of `shared/rules/cat_in_the_box.md`, with forced deals, replayed
through `nekobako.engine.replay`. Expected values are worked out by hand in the comments."""

from __future__ import annotations

import pytest

from nekobako.engine import BadRecord, IllegalAction, replay
from nekobako.games.catbox import GAME
from scenario import refused


def record(players: int, actions: list[str], side: str | None = None) -> dict:
    options = {"side": side} if side else {}
    return {"game": "catbox", "players": players, "options": options, "seed": 0, "actions": actions}


def deal(*hands: str, reveal: str = "", hidden: str = "") -> str:
    """`deal("1122", "3344")` → "deal 1 1 2 2 | 3 3 4 4" (hands as digit strings)."""
    parts = [" ".join(h) for h in hands]
    if reveal:
        parts += ["reveal " + " ".join(reveal), "hidden " + " ".join(hidden)]
    return "deal " + " | ".join(parts)


# Three players: one seat holds all the 5s and 6s ("high"), one the 3s and 4s ("mid"), one the 1s
# and 2s ("low"). A round is written with roles r0 (the round's start player, high), r1 (mid),
# r2 (low); `three_player_round` maps roles to seats for the round's start player.
ROLE_HANDS = ("5555566666", "3333344444", "1111122222")
ROLE_DISCARDS = (5, 3, 1)


def three_player_round(start: int, predictions: tuple[int, int, int], plays: list[str]) -> list[str]:
    def seat(role: int) -> int:
        return (start + role) % 3

    hands = [""] * 3
    for role, hand in enumerate(ROLE_HANDS):
        hands[seat(role)] = hand
    out = [deal(*hands)]
    out += [f"{seat(r)}: discard {ROLE_DISCARDS[r]}" for r in sorted(range(3), key=seat)]
    out += [f"{seat(r)}: predict {predictions[r]}" for r in range(3)]  # clockwise from the start player
    for line in plays:
        role, text = line.split(":", 1)
        out.append(f"{seat(int(role.strip()[1:]))}:{text}")
    return out


# Seat 2 (low) loses its blue and green X as a follower, breaks red as a follower, wins trick 3
# with red 2 and trick 4 with red 1, then leads trick 5 with no legal play: a leader's paradox.
LEADER_PARADOX = [
    "r0: play 5 blue", "r1: play 3 blue", "r2: play 1 yellow",  # r0 wins; r2 loses blue
    "r0: play 6 green", "r1: play 3 green", "r2: play 2 yellow",  # r0 wins; r2 loses green
    "r0: play 5 yellow", "r1: play 3 yellow", "r2: play 2 red",  # r2 breaks red, wins; loses yellow
    "r2: play 1 red", "r0: play 6 blue", "r1: play 4 blue",  # r2 wins (only red)
]  # fmt: skip
# Tricks r0 2, r1 0, r2 2; predictions 3, 1, 4 → scores 2, 0, −2 (paradox: −1 per trick).

# Seat 2 (low) loses blue and green, fills red 1 and red 2 (the mid seat wins with red 4), and as a
# follower in trick 5 has no legal play. The mid seat met its prediction of 1: it gets the bonus.
FOLLOWER_PARADOX = [
    "r0: play 5 blue", "r1: play 3 blue", "r2: play 1 yellow",  # r0 wins; r2 loses blue
    "r0: play 6 green", "r1: play 3 green", "r2: play 2 yellow",  # r0 wins; r2 loses green
    "r0: play 5 yellow", "r1: play 3 yellow", "r2: play 1 red",  # r2 wins with red; loses yellow
    "r2: play 2 red", "r0: play 5 green", "r1: play 4 red",  # r1 wins (red 4 > red 2); r0 loses red
    "r1: play 4 blue",  # r2 to follow: red 1, 2 taken, blue/green/yellow X uncovered → paradox
]  # fmt: skip

# Tricks r0 2, r1 2, r2 0 and nobody meets a prediction; r2 has a follower's paradox with 0
# tricks: scores 2, 2, 0.
EVEN_ROUND = [
    "r0: play 5 green", "r1: play 4 red", "r2: play 1 yellow",  # r1 wins with red
    "r1: play 3 blue", "r2: play 2 yellow", "r0: play 5 blue",  # r0 wins
    "r0: play 6 green", "r1: play 3 red", "r2: play 1 red",  # r1 wins (red 3 > red 1)
    "r1: play 4 yellow", "r2: play 2 red", "r0: play 6 red",  # r0 wins
    "r0: play 6 blue", "r1: play 4 blue",  # r2: paradox
]  # fmt: skip

# The high seat leads and wins six tricks, filling every blue, yellow and green cell of 5 and 6;
# nobody has played red, so at trick 7 its only legal plays are red leads.
FORCED_RED = [
    "r0: play 5 blue", "r1: play 3 blue", "r2: play 1 blue",
    "r0: play 6 blue", "r1: play 4 blue", "r2: play 2 blue",
    "r0: play 5 yellow", "r1: play 3 yellow", "r2: play 1 yellow",
    "r0: play 6 yellow", "r1: play 4 yellow", "r2: play 2 yellow",
    "r0: play 5 green", "r1: play 3 green", "r2: play 1 green",
    "r0: play 6 green", "r1: play 4 green", "r2: play 2 green",
]  # fmt: skip


def play(state, text: str) -> None:
    seat, action = text.split(":", 1)
    state.act(int(seat), action.strip())


# -- §2 structure, §3 preparation ------------------------------------------------------------------


def test_round_structure_start_player_and_simultaneous_discard():
    state = replay(record(3, ["start 2", deal(*ROLE_HANDS)]))
    assert state.to_move == (0, 1, 2)
    assert state.view(0)["phase"] == "discard"
    state.act(2, "discard 1")
    state.act(0, "discard 5")
    # pending choices stay hidden and out of the history until the last one arrives
    assert state.to_move == (1,)
    assert [text for _, text in state.view(1)["history"]][-1].startswith("deal")
    assert state.view(1)["discarded"] == [True, False, True]
    assert state.view(1)["discard"] is None and state.view(0)["discard"] == 5
    refused(state, 0, "discard 6")  # no second discard
    state.act(1, "discard 3")
    assert [str(a) for _, a in state.history[-3:]] == ["discard 5", "discard 3", "discard 1"]
    assert [s for s, _ in state.history[-3:]] == [0, 1, 2]  # seat order, whatever the arrival order
    assert state.view(0)["history"][-3:] == [[0, "discard 5"], [1, "discard"], [2, "discard"]]
    # predictions clockwise from the start player (seat 2)
    assert state.to_move == (2,)
    refused(state, 0, "predict 1")
    for seat, value in ((2, 1), (0, 3), (1, 4)):
        state.act(seat, f"predict {value}")
    assert state.view(None)["predictions"] == [3, 4, 1]
    assert state.to_move == (2,) and state.view(2)["phase"] == "play"


def test_discard_must_be_a_hand_card():
    state = replay(record(3, ["start 0", deal(*ROLE_HANDS)]))
    assert "no 6" in refused(state, 1, "discard 6")


def test_prediction_values_per_player_count():
    values = {}
    for players, hands in ((3, ROLE_HANDS), (4, ("1111122222", "3333344444", "5555566666", "7777788888"))):
        discards = [f"{s}: discard {h[0]}" for s, h in enumerate(hands)]
        state = replay(record(players, ["start 0", deal(*hands), *discards]))
        values[players] = [str(a) for a in state.legal_actions(0)]
        assert state.view(0)["prediction_values"] == [int(v.split()[1]) for v in values[players]]
        bad = 2 if players == 3 else 4
        assert refused(state, 0, f"predict {bad}")
    assert values == {3: ["predict 1", "predict 3", "predict 4"], 4: ["predict 1", "predict 2", "predict 3"]}
    five = replay(record(5, ["start 0", deal("111112222", "233333444", "445555566", "666777778", "888899999")]))
    for seat, card in enumerate((1, 2, 4, 6, 8)):
        five.act(seat, f"discard {card}")
    assert [str(a) for a in five.legal_actions(0)] == ["predict 1", "predict 2", "predict 3"]


# -- §4 playing a card --------------------------------------------------------------------------------


def test_leader_may_not_lead_red_before_it_is_broken():
    state = replay(record(3, ["start 0", *three_player_round(0, (3, 1, 4), [])]))
    legal = [str(a) for a in state.legal_actions(0)]
    assert "play 5 blue" in legal and not any(a.endswith("red") for a in legal)
    assert "red" in refused(state, 0, "play 5 red")


def test_red_broken_by_a_follower_then_led():
    actions = ["start 0", *three_player_round(0, (3, 1, 4), LEADER_PARADOX[:8])]
    state = replay(record(3, actions))
    assert not state.view(None)["red_broken"]
    play(state, "2: play 2 red")  # a follower may declare red before red is broken
    view = state.view(None)
    assert view["red_broken"] and view["tricks"] == [2, 0, 1]  # red 2 beat yellow 5
    assert [e.kind for e in state.events if e.kind == "red_broken"] == ["red_broken"]
    assert "play 1 red" in [str(a) for a in state.legal_actions(2)]  # the leader may now lead red


def test_neutral_tokens_do_not_break_red():
    # 4 players: observed tokens sit on the four 9 cells, red 9 included; red is still unbroken.
    hands = ("1111122222", "3333344444", "5555566666", "7777788888")
    actions = ["start 1", deal(*hands), "0: discard 1", "1: discard 3", "2: discard 5", "3: discard 7"]
    actions += ["1: predict 2", "2: predict 3", "3: predict 1", "0: predict 1"]
    state = replay(record(4, actions))
    view = state.view(1)
    assert [row[8] for row in view["board"]] == ["observed"] * 4
    assert view["red_broken"] is False
    assert not any(str(a).endswith("red") for a in state.legal_actions(1))
    # 2 players: blockers never break red either (green 1 2 3 blocked).
    state = replay(record(2, ["start 0", deal("1111122222", "3333444455", reveal="345", hidden="55")]))
    state.act(0, "discard 1")
    state.act(1, "discard 3")
    assert state.view(0)["red_broken"] is False
    assert not any(str(a).endswith("red") for a in state.legal_actions(0))


def test_leader_forced_into_red_when_nothing_else_is_legal():
    state = replay(record(3, ["start 0", *three_player_round(0, (4, 1, 1), FORCED_RED)]))
    assert state.view(0)["hand"] == [5, 6, 6] and not state.view(0)["red_broken"]
    assert [str(a) for a in state.legal_actions(0)] == ["play 5 red", "play 6 red"]
    for text in ("0: play 6 red", "1: play 4 red", "2: play 2 red", "0: play 5 red", "1: play 3 red", "2: play 1 red"):
        play(state, text)
    # 8 tricks, no paradox: the round ends with every cell of the 3-player board filled
    assert state.round_scores() == [[8, 0, 0]]
    assert all(cell is not None for row in state.view(None)["board"] for cell in row)
    assert state.view(None)["paradox"] is None


def test_follower_loses_led_colour_x_and_cannot_declare_it_later():
    actions = ["start 0", *three_player_round(0, (3, 1, 4), LEADER_PARADOX[:3])]
    state = replay(record(3, actions))
    assert state.view(None)["x_tokens"][2] == {"red": True, "blue": False, "yellow": True, "green": True}
    assert state.view(None)["x_tokens"][1]["blue"]  # followed blue: keeps it
    assert state.view(None)["x_tokens"][0]["blue"]  # the leader never loses an X by leading
    assert [(e.seat, e.data["colour"]) for e in state.events if e.kind == "x_lost"] == [(2, "blue")]
    play(state, "0: play 6 green")
    play(state, "1: play 3 green")
    legal = [str(a) for a in state.legal_actions(2)]
    assert "play 2 yellow" in legal and not any(a.endswith("blue") for a in legal)
    assert "X" in refused(state, 2, "play 2 blue")


def test_followers_need_not_follow_and_a_higher_off_colour_card_loses():
    hands = ("1111122222", "3333344444", "5555566666", "7777788888")
    actions = ["start 1", deal(*hands), "0: discard 1", "1: discard 3", "2: discard 5", "3: discard 7"]
    actions += ["1: predict 2", "2: predict 3", "3: predict 1", "0: predict 1"]
    actions += ["1: play 3 blue", "2: play 5 blue", "3: play 8 yellow", "0: play 1 blue"]
    state = replay(record(4, actions))
    assert state.view(None)["tricks"] == [0, 0, 1, 0]  # 5 blue beats 8 yellow (not the led colour)
    assert state.to_move == (2,)  # the winner leads
    assert state.view(None)["x_tokens"][3]["blue"] is False


def test_card_not_in_hand_taken_cell_and_turn_order_are_refused():
    state = replay(record(3, ["start 0", *three_player_round(0, (3, 1, 4), LEADER_PARADOX[:1])]))
    assert "no 5" in refused(state, 1, "play 5 yellow")
    assert "not your turn" in refused(state, 2, "play 1 yellow")
    state = replay(record(3, ["start 0", *three_player_round(0, (3, 1, 4), LEADER_PARADOX[:3])]))
    assert "not empty" in refused(state, 0, "play 5 blue")


# -- §6 paradox, §7 scoring ---------------------------------------------------------------------------


def test_paradox_by_a_leader_scores_minus_one_per_trick():
    state = replay(record(3, ["start 0", *three_player_round(0, (3, 1, 4), LEADER_PARADOX)]))
    paradox = [e for e in state.events if e.kind == "paradox"]
    assert [(e.seat, e.data["trick"]) for e in paradox] == [(2, 5)]
    assert state.round_scores() == [[2, 0, -2]]
    assert state.view(None)["paradox"] == 2
    assert state.is_chance() and state.view(None)["round"] == 2 and state.view(None)["start_player"] == 1


def test_paradox_by_a_follower_and_bonus_for_the_others():
    # Seat 1 predicted 1 and won 1 trick; its tokens: red 4, blue 3, blue 4, yellow 3, green 3.
    # White board (columns by number): all five connected → 1 + 5. Seat 2 (paradox) predicted 1
    # and won 1: −1, no bonus.
    state = replay(record(3, ["start 0", *three_player_round(0, (3, 1, 1), FOLLOWER_PARADOX)], side="white"))
    assert [e.seat for e in state.events if e.kind == "paradox"] == [2]
    assert state.view(None)["trick"] == []  # the trick in progress goes to nobody
    assert sum(cell == 1 for row in state.view(None)["board"] for cell in row) == 5  # tokens stay
    assert state.round_scores() == [[2, 6, -1]]
    scored = {e.seat: e.data for e in state.events if e.kind == "round_scored"}
    assert scored[1]["bonus"] == 5 and scored[2]["bonus"] == 0


def test_purple_board_bonus_differs_from_white_for_the_same_tokens():
    # Purple 4×6: blue 3 4 5 6 1 2, yellow 5 6 1 2 3 4, green 2 3 4 5 6 1. Seat 1's blue 3 and
    # blue 4 are neighbours (columns 1–2); red 4, yellow 3, green 3 stand alone → bonus 2.
    actions = ["start 0", *three_player_round(0, (3, 1, 1), FOLLOWER_PARADOX)]
    white = replay(record(3, actions, side="white"))
    purple = replay(record(3, actions, side="purple"))
    assert [r[1] for r in white.round_scores()] == [6]
    assert [r[1] for r in purple.round_scores()] == [3]
    assert white.round_scores()[0][0] == purple.round_scores()[0][0] == 2


def test_two_player_blockers_one_card_each_number():
    state = replay(record(2, ["start 0", deal("1111122222", "3333444455", reveal="345", hidden="55")]))
    board = state.view(None)["board"]  # rows red, blue, yellow, green; columns 1..6
    assert board[3][:5] == [None, None, "blocker", "blocker", "blocker"]
    assert board[2][:5] == board[1][:5] == board[0][:5] == [None] * 5
    assert [row[5] for row in board] == ["observed"] * 4  # observed tokens on the 6 cells
    assert state.view(None)["centre"] == {"revealed": [3, 4, 5]}


def test_two_player_blockers_number_revealed_twice():
    state = replay(record(2, ["start 0", deal("1111122222", "3333344445", reveal="455", hidden="55")]))
    board = state.view(None)["board"]
    assert (board[3][3], board[3][4], board[2][4], board[2][3], board[1][4]) == (
        "blocker",
        "blocker",
        "blocker",
        None,
        None,
    )


def test_two_player_blockers_number_revealed_three_times():
    state = replay(record(2, ["start 0", deal("1111122222", "3333344455", reveal="555", hidden="44")]))
    board = state.view(None)["board"]
    assert [board[row][4] for row in range(4)] == [None, "blocker", "blocker", "blocker"]
    state.act(0, "discard 1")
    state.act(1, "discard 3")
    state.act(0, "play 1 blue")
    # a 5 can now only be declared red (by a follower: red is not broken)
    fives = [str(a) for a in state.legal_actions(1) if str(a).startswith("play 5")]
    assert fives == ["play 5 red"]
    assert "not empty" in refused(state, 1, "play 5 green")


# 2 players, seat 0 holds 1s and 2s, seat 1 3s and 4s, centre 5 5 5 (revealed) 5 5 (hidden).
TWO_PLAYER_ROUND = [
    "a: play 1 blue", "b: play 3 yellow",  # a wins (blue led); b loses blue
    "a: play 2 blue", "b: play 4 green",  # a wins; b's blue X already uncovered
    "a: play 1 yellow", "b: play 3 green",  # a wins; b loses yellow
    "a: play 2 yellow", "b: play 3 red",  # b wins with red
    "b: play 4 red", "a: play 1 green",  # b wins; a loses red
]  # fmt: skip
# b (3s and 4s) then leads trick 6 with red 3, red 4 taken and blue, yellow X uncovered, green 3,
# green 4 taken → paradox, 2 tricks → −2. a: 3 tricks ≤ 4 → bonus: blue 1, blue 2, yellow 1,
# yellow 2, green 1 connected → 3 + 5 = 8.


def two_player_round(a: int) -> list[str]:
    b = 1 - a
    hands = ["", ""]
    hands[a], hands[b] = "1111122222", "3333344444"
    out = [deal(*hands, reveal="555", hidden="55"), f"{0}: discard {1 if a == 0 else 3}"]
    out.append(f"1: discard {3 if a == 0 else 1}")
    for line in TWO_PLAYER_ROUND:
        who, text = line.split(":", 1)
        out.append(f"{a if who == 'a' else b}:{text}")
    return out


def test_two_player_round_bonus_at_four_or_fewer_tricks_and_no_predictions():
    state = replay(record(2, ["start 0", *two_player_round(0)]))
    assert not any(str(a).startswith("predict") for _, a in state.history)
    assert state.view(0)["prediction_values"] == []
    assert state.round_scores() == [[8, -2]]
    assert [e.seat for e in state.events if e.kind == "paradox"] == [1]


def test_each_round_starts_clean_with_the_next_start_player():
    # after round 1 (start 0) the next deal clears tokens, X spaces, tricks and predictions, keeps
    # the neutral blockers of the new deal and passes the start player left
    state = replay(record(3, ["start 0", *three_player_round(0, (3, 1, 4), LEADER_PARADOX), deal(*ROLE_HANDS)]))
    view = state.view(None)
    assert view["round"] == 2 and view["start_player"] == 1 and view["phase"] == "discard"
    assert all(cell is None for row in view["board"] for cell in row)
    assert all(all(x.values()) for x in view["x_tokens"])
    assert view["tricks"] == [0, 0, 0] and view["predictions"] == [None] * 3
    assert view["red_broken"] is False and view["paradox"] is None
    assert state.scores() == [2, 0, -2]


def test_tie_break_on_the_final_round_two_players():
    # Round 2 mirrors round 1 (the start player passed to seat 1): totals 6 and 6; seat 1 scored
    # 8 in the final round against −2.
    state = replay(record(2, ["start 0", *two_player_round(0), *two_player_round(1)]))
    assert state.is_over()
    assert state.round_scores() == [[8, -2], [-2, 8]]
    assert state.scores() == [6, 6]
    assert state.winners() == [1]


def test_tie_break_on_the_final_round_three_players():
    # The leader-paradox round three times, the roles rotating with the start player:
    # totals 0, 0, 0; final round (start 2): seat 2 scores 2 → seat 2 wins alone.
    actions = ["start 0"] + [a for start in range(3) for a in three_player_round(start, (3, 1, 4), LEADER_PARADOX)]
    state = replay(record(3, actions))
    assert state.round_scores() == [[2, 0, -2], [-2, 2, 0], [0, -2, 2]]
    assert state.scores() == [0, 0, 0]
    assert state.winners() == [2]
    assert state.events[-1].kind == "game_over" and state.events[-1].data["winners"] == (2,)


def test_shared_victory():
    # Rounds of 2, 2, 0 rotating: totals 4, 4, 4; final round seats 0 and 2 both scored 2.
    actions = ["start 0"] + [a for start in range(3) for a in three_player_round(start, (3, 3, 1), EVEN_ROUND)]
    state = replay(record(3, actions))
    assert state.round_scores() == [[2, 2, 0], [0, 2, 2], [2, 0, 2]]
    assert state.winners() == [0, 2]
    assert state.returns() == [0.5, 0.0, 0.5]
    assert "Seat 0 and Seat 2" in GAME.describe(state.events[-1])


def test_game_over_refuses_further_actions():
    state = replay(record(2, ["start 0", *two_player_round(0), *two_player_round(1)]))
    assert state.to_move == ()
    assert state.legal_actions(0) == ()
    refused(state, 0, "play 1 red")
    with pytest.raises(BadRecord):
        replay(record(2, ["start 0", *two_player_round(0), *two_player_round(1), "deal 1 2"]))


# -- §9 deals as chance: forced deals are validated ---------------------------------------------------


@pytest.mark.parametrize(
    ("players", "text", "why"),
    [
        (3, "deal 1 1 1 1 1 2 2 2 2 2 | 3 3 3 3 3 4 4 4 4 4", "3 hands"),
        (3, "deal 1 1 1 1 1 2 2 2 2 | 2 3 3 3 3 3 4 4 4 4 4 | 5 5 5 5 5 6 6 6 6 6", "9 cards"),
        (3, "deal 1 1 1 1 1 2 2 2 2 2 | 3 3 3 3 3 4 4 4 4 4 | 5 5 5 5 5 6 6 6 6 7", "1–6"),
        (3, "deal 1 1 1 1 1 1 2 2 2 2 | 3 3 3 3 3 4 4 4 4 4 | 5 5 5 5 5 6 6 6 6 6", "wrong count"),
        (2, "deal 1 1 1 1 1 2 2 2 2 2 | 3 3 3 3 3 4 4 4 4 4", "reveal"),
        (3, deal("1111122222", "3333344444", "5555566666") + " | reveal 1 2 3 | hidden 4 5", "centre"),
    ],
)
def test_forced_deals_are_validated(players: int, text: str, why: str):
    state = GAME.new_game(players)
    state.act(-1, "start 0")
    before = state.full_view()
    with pytest.raises(IllegalAction, match=why):
        state.act(-1, text)
    assert state.full_view() == before


def test_start_player_must_exist_and_is_chance_only():
    state = GAME.new_game(3)
    with pytest.raises(IllegalAction):
        state.act(-1, "start 3")
    with pytest.raises(IllegalAction):
        state.act(0, "start 0")
    state.act(-1, "start 1")
    with pytest.raises(IllegalAction):
        state.act(-1, "start 0")
    assert state.view(None)["start_player"] == 1


# -- §3.2 discards revealed and §6 the paradox hand, when the round ends ------------------------------


def test_discards_stay_hidden_during_the_round_and_are_revealed_when_it_ends():
    before_end = ["start 0", *three_player_round(0, (3, 1, 4), LEADER_PARADOX[:-1])]
    state = replay(record(3, before_end))
    assert not any(e.kind == "discards_revealed" for e in state.events)
    assert state.view(1)["last_round"] is None and state.view(1)["discard"] == 3
    play(state, LEADER_PARADOX[-1].replace("r1", "1"))  # r1 is seat 1 when seat 0 starts
    shown = [e for e in state.events if e.kind == "discards_revealed"]
    assert [(e.seat, e.data["discards"]) for e in shown] == [(None, {"0": 5, "1": 3, "2": 1})]
    assert shown[0].at == len(state.history)  # revealed as the last play ends the round
    for seat in (None, 0, 1, 2):  # public: every seat and spectators see the same
        assert state.view(seat)["last_round"]["discards"] == [5, 3, 1]
    assert "Seat 0: 5, Seat 1: 3, Seat 2: 1" in GAME.describe(shown[0])
    assert "席0：5、席1：3、席2：1" in GAME.describe(shown[0], "ja")


def test_the_paradox_player_shows_their_remaining_hand_sorted():
    # Seat 2 (low: 1×5, 2×5) discarded a 1 and played yellow 1, yellow 2, red 2, red 1: 1 1 2 2 2 left.
    state = replay(record(3, ["start 0", *three_player_round(0, (3, 1, 4), LEADER_PARADOX)]))
    paradox = [e for e in state.events if e.kind == "paradox"]
    assert [(e.seat, list(e.data["hand"])) for e in paradox] == [(2, [1, 1, 2, 2, 2])]
    kinds = [e.kind for e in state.events[state.events.index(paradox[0]) :]]
    assert kinds[:3] == ["paradox", "discards_revealed", "round_scored"]  # the reveal comes before scoring
    assert state.view(None)["last_round"]["paradox_hand"] == [1, 1, 2, 2, 2]
    assert "shows their hand (1 1 2 2 2)" in GAME.describe(paradox[0], names=["A", "B", "C"])
    assert "手札：1 1 2 2 2" in GAME.describe(paradox[0], "ja")


def test_a_round_without_paradox_reveals_discards_but_no_hand():
    state = replay(record(3, ["start 0", *three_player_round(0, (4, 1, 1), FORCED_RED)]))
    for text in ("0: play 6 red", "1: play 4 red", "2: play 2 red", "0: play 5 red", "1: play 3 red", "2: play 1 red"):
        play(state, text)
    assert [e.data for e in state.events if e.kind == "discards_revealed"] == [{"discards": {"0": 5, "1": 3, "2": 1}}]
    assert state.view(None)["last_round"]["paradox_hand"] is None
    assert not any(e.kind == "paradox" for e in state.events)


def test_revealed_discards_of_every_round_stay_in_the_views_events_and_replays():
    # Two players, two rounds: the events of both reveals survive the next deal and the replay of the
    # finished record; the view's `last_round` holds the finished round's until the next one ends.
    actions = ["start 0", *two_player_round(0)]
    state = replay(record(2, actions))
    # b (3s and 4s) discarded a 3 and played 3 yellow, 4 green, 3 green, 3 red, 4 red: 3 4 4 4 left
    ended = state.view(1)["last_round"]
    assert ended["discards"] == [1, 3] and ended["paradox_hand"] == [3, 4, 4, 4]
    state.act(-1, two_player_round(1)[0])  # the next deal: its discards stay hidden, round 1's stay shown
    assert state.view(0)["last_round"] == ended and state.view(0)["discarded"] == [False, False]
    finished = replay(record(2, ["start 0", *two_player_round(0), *two_player_round(1)]))
    reveals = [e["data"]["discards"] for e in finished.view(None)["events"] if e["kind"] == "discards_revealed"]
    assert reveals == [{"0": 1, "1": 3}, {"0": 3, "1": 1}]
    hands = [(e["seat"], e["data"]["hand"]) for e in finished.view(0)["events"] if e["kind"] == "paradox"]
    assert hands == [(1, [3, 4, 4, 4]), (0, [3, 4, 4, 4])]
    assert finished.view(None)["last_round"]["discards"] == [3, 1]
