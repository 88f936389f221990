"""Invariants over random legal games: every player count and option; card conservation after
every action; legal plays equal a brute-force enumeration; views never leak; records replay;
determinized states agree with the view they came from."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nekobako.engine import CHANCE, IllegalAction, MalformedAction, random_playout, replay
from nekobako.games.catopomp import GAME, CatopompState
from nekobako.games.catopomp.actions import Play, play
from nekobako.games.catopomp.cards import CATLETON, MAX_NUMBER, MITCH, SLOTS, cards_of

OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "hand_size": st.sampled_from([5, 8, 10, 12]),
        "dice": st.integers(2, 8),
        "gems": st.integers(1, 3),
        "casual": st.booleans(),
        "extra_cards": st.sampled_from(["none", "mitch", "catleton", "both"]),
        "deck": st.sampled_from(["1-12x4", "1-8x6", "1-15x3", "1-20x2"]),
    },
)
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def conserved(state: CatopompState) -> bool:
    """Hands + hell areas + table + removed + undealt = the deck, card by card."""
    total = [0] * SLOTS
    for counts in [*state.hands, *state.hells, state.undealt, state.removed]:
        for card, n in enumerate(counts):
            total[card] += n
    if state.table is not None:
        for card in state.table.table_cards:
            total[card] += 1
    return total == list(state.rules.deck) and all(n >= 0 for c in [*state.hands, *state.hells] for n in c)


def play_random(state: CatopompState, rng: random.Random, check: Any = None, limit: int = 100_000) -> int:
    steps = 0
    while not state.is_over() and steps < limit:
        seat = state.to_move[0]
        if seat == CHANCE:
            action = state.sample_chance(rng)
        else:
            legal = state.legal_actions(seat)
            assert legal, "a seat to move always has an action"
            action = legal[rng.randrange(len(legal))]
        state.apply(seat, action)
        steps += 1
        if check:
            check(state)
    return steps


def make_options(players: int, options: dict) -> dict:
    """Shrink hands that would not fit the drawn deck (option validation is tested elsewhere)."""
    options = dict(options)
    deck = {"1-12x4": 48, "1-8x6": 48, "1-15x3": 45, "1-20x2": 40}[options.get("deck", "1-12x4")]
    while options.get("hand_size", 10) * players > deck:
        options["hand_size"] = options.get("hand_size", 10) - 1
    return options


def every_action_checks(state: CatopompState) -> None:
    if state.phase > 1:
        assert conserved(state)
        assert state.hand_n == [sum(h) for h in state.hands]
        assert state.hell_n == [sum(h) for h in state.hells]
    for seat in state.to_move:
        if seat == CHANCE:
            continue
        texts = [str(a) for a in state.legal_actions(seat)]
        assert len(texts) == len(set(texts)), "duplicate action texts"
        for text, action in zip(texts, state.legal_actions(seat), strict=True):
            assert GAME.parse_action(text) is action


@SETTINGS
@given(players=st.integers(2, 4), options=OPTIONS, seed=st.integers(0, 2**32 - 1))
def test_random_games_end_and_conserve_cards(players: int, options: dict, seed: int) -> None:
    options = make_options(players, options)
    state = GAME.new_game(players, options)
    steps = play_random(state, random.Random(seed), every_action_checks)
    assert state.is_over(), f"not over after {steps} actions"
    losers = [s for s in range(players) if state.gems[s] == 0]
    assert len(losers) == 1 and sorted(state.winners() + losers) == list(range(players))
    assert len(state.round_scores()) == sum(GAME.options(options, players).gems - g for g in state.gems)
    # the record replays to the same state
    again = replay(state.record(seed=seed).to_json())
    assert again.full_view() == state.full_view()


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("extra", ["none", "mitch", "catleton", "both"])
@pytest.mark.parametrize("casual", [False, True])
def test_every_player_count_and_option_plays_to_the_end(players: int, extra: str, casual: bool) -> None:
    options = {"extra_cards": extra, "casual": casual, "gems": 2, "hand_size": 10 if players < 4 else 12}
    state = GAME.new_game(players, options)
    play_random(state, random.Random(players * 10 + len(extra)), every_action_checks)
    assert state.is_over() and len(state.winners()) == players - 1


def reference_plays(state: CatopompState, seat: int) -> set[str]:
    """Brute force: every sub-multiset of each source × every dice choice × Mitch/Cat-leton use."""
    rules = state.rules
    dice_options: list[tuple[tuple[int, ...], int]] = [((), 0)]
    if not state.used[seat]:
        centre = [f for f in range(1, 7) for _ in range(state.centre[f])]
        dice_options += [((f,), 0) for f in set(centre)]
        dice_options += list({(tuple(sorted(p)), 0) for p in itertools.combinations(centre, 2)})
        if state.spare[seat]:
            dice_options += [((), state.spare[seat])] + [((f,), state.spare[seat]) for f in set(centre)]
    sources = []
    if state.hand_n[seat]:
        sources.append((False, state.hands[seat], 1))
        if state.hell_n[seat]:
            sources.append((True, state.hells[seat], 2))
    else:
        sources.append((True, state.hells[seat], 1))
    hell_cards = sorted(set(cards_of(state.hells[seat])))  # a Cat-leton may be swapped for any of them
    found: set[str] = set()
    for hell, counts, min_size in sources:
        cards = cards_of(counts)
        for k in range(1, rules.max_size + 1):
            for combo in set(itertools.combinations(cards, k)):
                for dice, spare in dice_options:
                    boosted = bool(dice or spare)
                    swaps = [0] + (hell_cards if not hell and CATLETON in combo else [])
                    for swap in swaps:
                        mitches = combo.count(MITCH) + (swap == MITCH)  # Mitches on the table
                        for mitch_as in range(mitches + 1 if boosted else 1):
                            try:
                                p = play(hell, combo, mitch_as, dice, spare, swap)
                            except MalformedAction:
                                continue
                            if p.problem or not min_size <= p.size <= rules.max_size:
                                continue
                            if p.strength > state.threshold:
                                found.add(str(p))
    return found


def sample_states(players: int, options: dict, seed: int, count: int) -> list[CatopompState]:
    """Positions where a seat must decide, taken along one random game (copies)."""
    rng = random.Random(seed)
    state = GAME.new_game(players, options)
    states: list[CatopompState] = []
    while not state.is_over():
        if not state.is_chance() and rng.random() < 0.3:
            states.append(state.clone())
        random_playout(state, rng, max_actions=1)
    rng.shuffle(states)
    return states[:count]


@settings(max_examples=12, deadline=None)
@given(
    players=st.integers(2, 4),
    extra=st.sampled_from(["none", "mitch", "catleton", "both"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_legal_plays_equal_brute_force(players: int, extra: str, seed: int) -> None:
    options = {"extra_cards": extra, "hand_size": 8}
    for state in sample_states(players, options, seed, 8):
        if state.phase != 4:  # play phase
            continue
        seat = state.to_move[0]
        generated = [str(a) for a in state.legal_actions(seat) if isinstance(a, Play)]
        assert len(generated) == len(set(generated))
        assert set(generated) == reference_plays(state, seat)


def shuffle_hidden(state: CatopompState, seat: int | None, rng: random.Random) -> CatopompState:
    """The same public position with the hidden cards (other hands, undealt) redistributed and
    others' pending spare faces changed."""
    other = state.clone()
    others = [s for s in range(state.players) if s != seat]
    pool = [c for s in others for c in cards_of(state.hands[s])] + cards_of(state.undealt)
    rng.shuffle(pool)
    at = 0
    for s in others:
        counts = [0] * SLOTS
        for c in pool[at : at + state.hand_n[s]]:
            counts[c] += 1
        at += state.hand_n[s]
        other.hands[s] = counts
    undealt = [0] * SLOTS
    for c in pool[at:]:
        undealt[c] += 1
    other.undealt = undealt
    if state.phase == 3:  # spare phase: others' choices are secret
        for s in others:
            if s in state.spare_holders and s not in state.spare_pending:
                other.spare[s] = rng.randint(1, 6)
    other._legal = None
    other._legal_seat = -2
    return other


@SETTINGS
@given(players=st.integers(2, 4), options=OPTIONS, seed=st.integers(0, 2**32 - 1))
def test_views_never_leak(players: int, options: dict, seed: int) -> None:
    options = make_options(players, options)
    rng = random.Random(seed)
    for state in sample_states(players, options, seed, 6):
        for seat in [*range(players), None]:
            view = state.view(seat)
            assert view == shuffle_hidden(state, seat, rng).view(seat)
            if seat is None:
                assert "hand" not in view
            else:
                assert view["hand"] == [c if c <= MAX_NUMBER else "MC"[c - MITCH] for c in cards_of(state.hands[seat])]


@SETTINGS
@given(players=st.integers(2, 4), options=OPTIONS, seed=st.integers(0, 2**32 - 1))
def test_determinized_states_agree_with_the_view(players: int, options: dict, seed: int) -> None:
    options = make_options(players, options)
    rng = random.Random(seed)
    for state in sample_states(players, options, seed, 5):
        for seat in [*state.to_move, None]:
            if seat == CHANCE:
                continue
            view = state.view(seat)
            world = GAME.determinize(view, rng)
            assert conserved(world)
            assert world.private_view(seat) == state.private_view(seat)
            assert world.to_move == state.to_move
            assert world.scores() == state.scores() and world.round_scores() == state.round_scores()
            if seat is not None:
                assert [str(a) for a in world.legal_actions(seat)] == view["legal"]
            for s in range(players):
                assert world.hand_n[s] == sum(world.hands[s])
            play_random(world, rng)
            assert world.is_over()


def test_determinization_is_uniform_over_unseen_cards() -> None:
    state = GAME.new_game(2, {})
    state.act(CHANCE, "start 0")
    state.act(CHANCE, "deal 1 1 1 1 2 2 2 2 3 3 | 4 4 4 4 5 5 5 5 6 6")
    state.act(CHANCE, "dice 1 2 3")
    view = state.view(0)
    rng = random.Random(7)
    samples = 3000
    totals = [0] * SLOTS
    for _ in range(samples):
        world = GAME.determinize(view, rng)
        for card in range(SLOTS):
            totals[card] += world.hands[1][card]
    unseen = [0, 0, 0, 2, 4, 4, 4, 4, 4, 4, 4, 4, 4] + [0] * 10
    for card in range(1, 13):
        expected = unseen[card] * 10 / 38
        mean = totals[card] / samples
        # standard deviation of a hypergeometric count is below 1; 3000 samples: 5 sigma < 0.1
        assert abs(mean - expected) < 0.1, (card, mean, expected)


def test_apply_accepts_exactly_the_legal_actions() -> None:
    rng = random.Random(3)
    states = sample_states(3, {"extra_cards": "both"}, 11, 30) + sample_states(2, {}, 12, 30)
    candidates = {str(a) for s in states for seat in s.to_move if seat != CHANCE for a in s.legal_actions(seat)}
    candidates |= {"pass", "keep", "give 3", "discard 3", "bury 12", "spare 1"}
    pool = sorted(candidates)
    for state in states:
        seat = state.to_move[0]
        legal = {str(a) for a in state.legal_actions(seat)}
        for text in rng.sample(pool, min(40, len(pool))):
            trial = state.clone()
            if text in legal:
                trial.act(seat, text)
            else:
                before = trial.full_view()
                try:
                    trial.act(seat, text)
                except IllegalAction as exc:
                    assert str(exc)
                else:
                    raise AssertionError(f"{text!r} was accepted but is not legal")
                assert trial.full_view() == before
        for other in range(state.players):
            if other not in state.to_move:
                try:
                    state.clone().act(other, "pass")
                except IllegalAction:
                    pass
                else:
                    raise AssertionError("a seat not to move acted")


CARD = st.sampled_from([*range(1, 13), MITCH, CATLETON])
TABLES = [None, "play 3", "play M", "play 12", "play 2 3", "play 5 5", "play 4 5 6", "play 2 2 2", "play 9 10 11 12"]


@settings(max_examples=300, deadline=None)
@given(
    players=st.integers(2, 4),
    hand=st.lists(CARD, max_size=8),
    hell=st.lists(CARD, max_size=5),
    centre=st.lists(st.integers(1, 6), max_size=5),
    spare=st.integers(0, 6),
    used=st.booleans(),
    table=st.sampled_from(TABLES),
)
def test_generator_equals_brute_force_on_constructed_positions(
    players: int, hand: list[int], hell: list[int], centre: list[int], spare: int, used: bool, table: str | None
) -> None:
    """Positions built directly (any mix of extras, hell cards, dice and spare die), so rare
    cases (Mitch as the dice number with a swap, two Cat-letons, …) are covered too."""
    if not hand and not hell:
        hand = [7]
    state = GAME.new_game(players, {"extra_cards": "both"})
    state.phase = 4
    state.current = 0
    state.hands[0] = [0] * SLOTS
    state.hells[0] = [0] * SLOTS
    for card in hand:
        state.hands[0][card] += 1
    for card in hell:
        state.hells[0][card] += 1
    state.hand_n[0] = len(hand)
    state.hell_n[0] = len(hell)
    for face in centre:
        state.centre[face] += 1
    state.spare[0] = spare
    state.used[0] = (1,) if used else ()
    if table is not None:
        state.table = GAME.parse_action(table)
        state.table_owner = 1
        state.threshold = state.table.strength
    generated = [str(a) for a in state.legal_actions(0) if isinstance(a, Play)]
    assert len(generated) == len(set(generated))
    assert set(generated) == reference_plays(state, 0)
