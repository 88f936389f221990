"""The compiled `ismcts` on the Catopomp and Shut the Box kernels (bots/ismcts_kernel.py, `GAMES`):
legal choices from the compiled path, Catopomp's compiled `determinize` built from the view alone
(the unseen cards split as `Game.determinize` splits them, hidden spare faces drawn, never read),
and a spare face another seat chose in secret never changing the decision. The no-peek test
(test_no_peeking.py) runs the compiled Catopomp search on hidden cards as well."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from nekobako.bots import make_bot
from nekobako.engine import CHANCE, Record, get_game, replay
from nekobako.engine.kernel import pure_reason
from nekobako.engine.record import format_entry

if (_reason := pure_reason()) is not None:
    pytest.skip(f"the kernels are off: {_reason}", allow_module_level=True)

from nekobako.engine.kernel import kernel_for
from nekobako.engine.kernel_rng import new_rng
from nekobako.games.catopomp import actions as A
from nekobako.games.catopomp import kernel as ck
from nekobako.games.catopomp.phases import SPARE

CATOPOMP = get_game("catopomp")


@pytest.mark.parametrize(("game", "players"), [("catopomp", 2), ("catopomp", 4), ("shutbox", 2), ("shutbox", 3)])
def test_a_legal_choice_from_the_compiled_search(game: str, players: int, position) -> None:
    rng = random.Random(f"legal{game}{players}")
    bot = make_bot("ismcts", game=game, iterations=150)
    tried = 0
    while tried < 5:
        state, seat = position(game, players, rng)
        legal = state.legal_actions(seat)
        if len(legal) < 2:
            continue
        tried += 1
        assert bot.choose(state.view(seat), legal, random.Random(tried)) in legal
        assert bot.last_tree is not None and bot.last_iterations == 150  # the compiled path ran


def spare_position(players: int, rng: random.Random, chosen: bool = True):
    """A Catopomp state in the spare phase, with a seat still to choose and (if `chosen`) another
    holder's secret face already set; and that seat."""
    while True:
        state = CATOPOMP.new_game(players, None)
        while state.to_move:
            seat = state.to_move[0]
            if seat == CHANCE:
                state.apply(CHANCE, state.sample_chance(rng))
                continue
            if state.phase == SPARE and len(state.spare_holders) >= 2:
                done = [s for s in state.spare_holders if s not in state.to_move]
                if bool(done) == chosen:
                    return state, state.to_move[0]
            legal = state.legal_actions(seat)
            state.apply(seat, rng.choice(legal))


def test_compiled_worlds_agree_with_the_view(position) -> None:
    """A world of the compiled `determinize` keeps what the seat sees (its view's position, its
    legal actions) and places exactly the cards it cannot see; hidden spare faces are 1–6."""
    rng = random.Random("catopomp-worlds")
    cases = [position("catopomp", players, rng) for players in (2, 3, 4) for _ in range(4)]
    cases += [spare_position(4, rng) for _ in range(2)]
    for trial, (state, seat) in enumerate(cases):
        kernel = kernel_for("catopomp", state.players, state.options)
        view = state.view(seat)
        template, spec = kernel.sampler(view)
        truth = kernel.pack(state)
        others = [s for s in range(state.players) if s != seat]
        unseen = Counter()
        for s in others:
            unseen.update({c: int(truth[ck.HANDS + ck.SLOTS * s + c]) for c in range(ck.SLOTS)})
        unseen.update({c: int(truth[ck.UNDEALT + c]) for c in range(ck.SLOTS)})
        assert Counter(int(c) for c in spec[3 + spec[1] :]) == +unseen
        hidden = [int(s) for s in spec[2 : 2 + spec[1]]]
        assert all(not template[ck.SPARE_F + s] for s in hidden)  # the template never holds them
        generator = new_rng(trial)
        out = np.empty_like(template)
        for _ in range(4):
            ck.determinize(template, spec, generator, out)
            world = kernel.unpack(out)
            assert world.hands[seat] == state.hands[seat]
            assert world.hand_n == state.hand_n and world.hells == state.hells
            assert world.legal_actions(seat) == state.legal_actions(seat)
            placed = Counter()
            for s in others:
                placed.update(dict(enumerate(world.hands[s])))
            placed.update(dict(enumerate(world.undealt)))
            assert +placed == +unseen
            for s in hidden:
                assert 1 <= world.spare[s] <= 6


def test_compiled_worlds_split_the_unseen_cards_uniformly(position) -> None:
    """Each unseen card goes to another hand as often as `Game.determinize` sends it there: the mean
    count of each card in each other hand is the card's unseen copies times the hand's share."""
    state, seat = position("catopomp", 4, random.Random("uniform"))
    while state.phase == 0 or state.hand_n[(seat + 1) % 4] == 0:
        state, seat = position("catopomp", 4, random.Random(str(state.history)))
    kernel = kernel_for("catopomp", 4, state.options)
    template, spec = kernel.sampler(state.view(seat))
    pool = Counter(int(c) for c in spec[3 + spec[1] :])
    size = sum(pool.values())
    generator = new_rng(7)
    out = np.empty_like(template)
    draws = 3000
    other = (seat + 1) % 4
    total = np.zeros(ck.SLOTS)
    for _ in range(draws):
        ck.determinize(template, spec, generator, out)
        total += out[ck.HANDS + ck.SLOTS * other : ck.HANDS + ck.SLOTS * (other + 1)]
    share = state.hand_n[other] / size
    for card, copies in pool.items():
        expected = copies * share
        spread = np.sqrt(expected * (1 - share) / draws) + 1e-9
        assert abs(total[card] / draws - expected) < 5 * spread, (card, total[card] / draws, expected)


def test_a_secret_spare_face_never_changes_the_choice() -> None:
    """In the spare phase, another holder's chosen face is hidden until the phase closes: a state
    that differs only in that face gives the compiled search the same view and the same choice."""
    rng = random.Random("secret-spare")
    bot = make_bot("ismcts", game="catopomp", iterations=300)
    pairs = 0
    for trial in range(8):
        state, seat = spare_position(4, rng)
        record = state.record()
        entries = record.actions
        index = max(i for i, (s, a) in enumerate(state.history) if s not in (CHANCE, seat) and a.kind == A.SPARE)
        actor, action = state.history[index]
        face = 1 + action.arg % 6
        changed = list(entries)
        changed[index] = format_entry(actor, A.SPARES[face])
        other = replay(Record("catopomp", state.players, record.options, None, changed))
        assert other.spare[actor] != state.spare[actor] and other.view(seat) == state.view(seat)
        legal = state.legal_actions(seat)
        here = bot.choose(state.view(seat), legal, random.Random(trial))
        there = bot.choose(other.view(seat), other.legal_actions(seat), random.Random(trial))
        assert bot.last_tree is not None
        assert str(here) == str(there)
        pairs += 1
    assert pairs >= 4
