"""Property tests over random legal games of every player count and side."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nekobako.engine import CHANCE, IllegalAction, random_step
from nekobako.games.catbox import GAME
from nekobako.games.catbox.actions import DISCARDS, PLAYS, PREDICTS, Deal
from nekobako.games.catbox.board import card_count, pack, unpack

TABLES = [(2, "white"), (3, "white"), (3, "purple"), (4, "white"), (4, "purple"), (5, "purple")]
DEALT = {2: 10, 3: 10, 4: 10, 5: 9}
TRICKS = {2: 8, 3: 8, 4: 8, 5: 7}
EVERY_ACTION = [p for row in PLAYS[1:] for p in row] + list(DISCARDS[1:]) + list(PREDICTS[1:])

tables = st.sampled_from(TABLES)
seeds = st.integers(0, 2**32 - 1)
FEW = settings(max_examples=50, deadline=None)


step = random_step  # one random action (chance included)


def largest_group(board: list[list], seat: int) -> int:
    """Independent flood fill over the view's board grid (physical cells)."""
    cells = {(r, c) for r, row in enumerate(board) for c, v in enumerate(row) if v == seat}
    best = 0
    while cells:
        todo = [cells.pop()]
        size = 0
        while todo:
            r, c = todo.pop()
            size += 1
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if nb in cells:
                    cells.remove(nb)
                    todo.append(nb)
        best = max(best, size)
    return best


def expected_round(view: dict) -> list[int]:
    """Round score per seat from the public facts at the end of a round (rules §7, §8)."""
    out = []
    for seat, tricks in enumerate(view["tricks"]):
        if seat == view["paradox"]:
            out.append(-tricks)
            continue
        made = tricks <= 4 if view["players"] == 2 else tricks == view["predictions"][seat]
        out.append(tricks + (largest_group(view["board"], seat) if made else 0))
    return out


@FEW
@given(tables, seeds)
def test_random_games_finish_with_scores_consistent_with_tricks_and_board(table, seed):
    players, side = table
    rng = random.Random(seed)
    state = GAME.new_game(players, {"side": side})
    rounds_seen = 0
    while not state.is_over():
        phase = state.phase_name
        if phase == "play":  # a seat to play always has a legal play: no paradox left undetected
            assert state.legal_actions(state.to_move[0])
        step(state, rng)
        if phase == "play" and state.phase_name in ("deal", "over"):
            rounds_seen += 1
            view = state.view(None)
            assert state.round_scores()[-1] == expected_round(view)
            cells = [v for row in view["board"] for v in row]
            tokens = sum(isinstance(v, int) for v in cells)
            if view["paradox"] is None:
                assert sum(view["tricks"]) == TRICKS[players]
                assert tokens == TRICKS[players] * players
                assert view["hand_counts"] == [1] * players
                # empty cells after a paradox-free round: 1 at 2 players (§8), 0 at 3–4, 1 at 5
                assert cells.count(None) == {2: 1, 3: 0, 4: 0, 5: 1}[players]
            else:
                assert tokens == sum(DEALT[players] - 1 - c for c in view["hand_counts"])
    assert rounds_seen == players
    assert state.scores() == [sum(r[s] for r in state.round_scores()) for s in range(players)]
    totals, last = state.scores(), state.round_scores()[-1]
    tied = [s for s in range(players) if totals[s] == max(totals)]
    assert state.winners() == [s for s in tied if last[s] == max(last[t] for t in tied)]
    assert state.legal_actions(0) == () and state.to_move == ()


def mid_game(table, seed, length):
    players, side = table
    rng = random.Random(seed)
    state = GAME.new_game(players, {"side": side})
    for _ in range(length):
        if state.is_over():
            break
        step(state, rng)
    return state, rng


@FEW
@given(tables, seeds, st.integers(0, 300))
def test_illegal_actions_change_nothing(table, seed, length):
    state, rng = mid_game(table, seed, length)
    before = state.full_view()
    for seat in list(range(state.players)):
        legal = set(state.legal_actions(seat))
        for action in rng.sample(EVERY_ACTION, 12):
            if action in legal:
                continue
            try:
                state.apply(seat, action)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"{action} accepted for seat {seat} though not legal")
            assert state.full_view() == before


def scramble_others(state, viewer: int, rng: random.Random):
    """The same state with every card hidden from `viewer` dealt differently (same counts)."""
    other = state.clone()
    seats = [s for s in range(state.players) if s != viewer]
    pool = [c for s in seats for c in unpack(state.hands[s])]
    pool += [state.discards[s] for s in seats if state.discards[s]] + list(state.hidden)
    rng.shuffle(pool)
    for s in seats:
        k = len(unpack(state.hands[s]))
        hand, pool = pool[:k], pool[k:]
        other.hands[s] = pack(hand)
        other.held[s] = sum(1 << n for n in set(hand))
        if state.discards[s]:
            other.discards[s], pool = pool[0], pool[1:]
    other.hidden = tuple(sorted(pool))
    # the deals in the history, too: other hands shuffled among themselves
    for i, (s, action) in enumerate(other.history):
        if isinstance(action, Deal):
            cards = [c for t in seats for c in action.hands[t]] + list(action.hidden)
            rng.shuffle(cards)
            hands = list(action.hands)
            for t in seats:
                hands[t], cards = tuple(cards[: len(hands[t])]), cards[len(hands[t]) :]
            other.history[i] = (s, Deal(tuple(hands), action.reveal, tuple(cards)))
    return other


@FEW
@given(tables, seeds, st.integers(0, 300))
def test_a_seat_view_does_not_depend_on_other_seats_cards(table, seed, length):
    state, rng = mid_game(table, seed, length)
    for viewer in range(state.players):
        other = scramble_others(state, viewer, rng)
        assert other.view(viewer) == state.view(viewer)
    assert scramble_others(state, -1, rng).view(None) == state.view(None)


@FEW
@given(tables, seeds, st.integers(0, 300))
def test_determinized_states_agree_with_the_view_and_play_on(table, seed, length):
    state, rng = mid_game(table, seed, length)
    for viewer in [*range(state.players), None]:
        view = state.view(viewer)
        for _ in range(3):
            world = GAME.determinize(view, rng)
            again = world.view(viewer)
            for key in set(view) - {"history", "events", "seq"}:
                assert again[key] == view[key], key
            if viewer is not None:
                assert world.hands[viewer] == state.hands[viewer]
            cards = sorted(
                [c for h in world.hands for c in unpack(h)] + [d for d in world.discards if d] + list(world.hidden)
            )
            truth = sorted(
                [c for h in state.hands for c in unpack(h)] + [d for d in state.discards if d] + list(state.hidden)
            )
            assert cards == truth  # the unknown cards are the true unknown cards, redistributed
            if world.phase_name == "play" and world.to_move[0] != viewer:
                assert world.legal_actions(world.to_move[0])  # else a paradox would have happened
            while not world.is_over():
                step(world, rng)


@pytest.mark.parametrize("tries", [200, 0])
def test_determinization_respects_that_the_seat_to_play_has_a_legal_play(tries, monkeypatch):
    """Positions where a naive shuffle often gives the seat to play no legal card: the sampler
    must never return such a world (a paradox would already have ended the round), whether by
    rejection or (tries = 0) by its constructive fallback."""
    from nekobako.games.catbox import determinize
    from nekobako.games.catbox.determinize import Determinizer

    monkeypatch.setattr(determinize, "MAX_TRIES", tries)
    rng = random.Random(7)
    checked = 0
    for seed in range(200):
        game_rng = random.Random(seed)
        state = GAME.new_game(3)
        while not state.is_over() and checked < 3:
            seat = state.to_move[0]
            if state.phase_name == "play":
                view = state.view((seat + 1) % 3)
                naive = Determinizer(GAME, view)
                naive.check, naive.playable = -1, 0  # neither rejection nor the fallback
                if sum(not naive.sample(rng).legal_actions(seat) for _ in range(10)) >= 3:
                    checked += 1
                    assert all(GAME.determinize(view, rng).legal_actions(seat) for _ in range(30))
            step(state, game_rng)
        if checked >= 3:
            break
    assert checked == 3


def test_determinization_spreads_unknown_cards_evenly():
    """Seat 0 holds 1s and 2s; seats 1 and 2 hold the twenty other cards, ten each. Over many
    samples each seat should get about half of every unseen number (hypergeometric mean)."""
    state = GAME.new_game(3)
    state.act(CHANCE, "start 0")
    state.act(CHANCE, "deal 1 1 1 1 1 2 2 2 2 2 | 3 3 3 3 3 4 4 4 4 4 | 5 5 5 5 5 6 6 6 6 6")
    view = state.view(0)
    rng = random.Random(11)
    samples = 2000
    counts = {n: 0 for n in (3, 4, 5, 6)}
    for _ in range(samples):
        hand = unpack(GAME.determinize(view, rng).hands[1])
        assert len(hand) == 10 and not {1, 2} & set(hand)
        for n in hand:
            counts[n] += 1
    for n, seen in counts.items():
        assert abs(seen / samples - 2.5) < 0.1, (n, seen / samples)


@given(st.lists(st.integers(1, 15), max_size=40).filter(lambda cards: max(map(cards.count, cards), default=0) < 16))
def test_card_count_counts_packed_cards(cards):
    """Views' hand counts come from the packed counts without unpacking them."""
    assert card_count(pack(cards)) == len(unpack(pack(cards))) == len(cards)
