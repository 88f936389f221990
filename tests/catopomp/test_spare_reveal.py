"""One rule for what a seat knows of other seats' spare faces: the view's. Hidden while the spare
phase is open, shown once every spare die is set; the search bot's worlds and keys, the learning
encodings and the terminal log (tests/cli) read them as the view does."""

from __future__ import annotations

import random

import numpy as np
import pytest

import scenario
from nekobako.bots.ismcts import ISMCTSBot
from nekobako.engine import CHANCE
from nekobako.engine.encoding import encoding
from nekobako.games.catopomp import GAME, CatopompState
from scenario import CATOPOMP_ROUND_1 as ROUND_1
from scenario import CATOPOMP_ROUND_2 as ROUND_2

ROUND_3 = [*ROUND_1, *ROUND_2, "deal 1 2 3 4 5 | 6 7 8 9 10", "dice 3"]
"""Both seats hold one gem: both choose a spare face, simultaneously, before round 3's play."""


def round_3(*choices: str) -> CatopompState:
    state = scenario.run("catopomp", 2, [*ROUND_3, *choices], hand_size=5)
    assert isinstance(state, CatopompState)
    return state


def view_lines(state: CatopompState, seat: int | None) -> list[str]:
    return [f"{'chance' if s == CHANCE else s}: {text}" for s, text in state.view(seat)["history"]]


@pytest.mark.parametrize("choices", [(), ("0: spare 5",), ("1: spare 2", "0: spare 5"), ("0: spare 5", "1: spare 2")])
def test_history_texts_are_the_view_history(choices) -> None:
    state = round_3(*choices)
    for seat in (0, 1, None):
        assert state.history_texts(seat) == [text for _, text in state.view(seat)["history"]]
    if len(choices) == 2:  # the phase is over: each seat reads the other's face
        assert state.history_texts(0)[-2:] == state.history_texts(1)[-2:] == ["spare 5", "spare 2"]


def test_history_texts_follow_the_view_through_random_games() -> None:
    rng = random.Random(7)
    spare_phases = 0
    for _ in range(4):
        state = GAME.new_game(3, {"hand_size": 5})
        while state.to_move:
            seat = state.to_move[0]
            if seat == CHANCE:
                state.apply(CHANCE, state.sample_chance(rng))
                continue
            spare_phases += state.view(None)["phase"] == "spare"
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])
            for viewer in (*range(3), None):
                assert state.history_texts(viewer) == [text for _, text in state.view(viewer)["history"]]
    assert spare_phases


# -- learning encodings --------------------------------------------------------------------------------


def test_information_state_and_codes_read_the_spare_faces_as_the_view_does() -> None:
    enc = encoding("catopomp", 2, hand_size=5)
    state = round_3("0: spare 5", "1: spare 2")
    spare_5, spare_2 = enc.ids["spare 5"], enc.ids["spare 2"]
    for seat in (0, 1):
        lines = enc.information_state(state, seat).splitlines()[1:]
        entries = [line for line in lines if not line.startswith("* ")]  # events start with "* "
        assert entries == view_lines(state, seat)
        assert entries[-2:] == ["0: spare 5", "1: spare 2"]
        assert enc.history_codes(state, seat)[-4:] == [1, spare_5 + 1, 2, spare_2 + 1]
        information = np.empty(enc.information_size, np.float32)
        enc.information_tensor(state, seat, information)
        codes = enc.history_codes(state, seat)
        assert information[enc.size : enc.size + len(codes)].tolist() == codes


def test_information_state_hides_the_other_face_while_the_phase_is_open() -> None:
    enc = encoding("catopomp", 2, hand_size=5)
    state = round_3("0: spare 5")
    spare_5 = enc.ids["spare 5"]
    assert enc.information_state(state, 1).splitlines()[-1] == "0: spare ?"
    assert enc.history_codes(state, 1)[-2:] == [1, 0]
    assert enc.information_state(state, 0).splitlines()[-1] == "0: spare 5"
    assert enc.history_codes(state, 0)[-2:] == [1, spare_5 + 1]


def test_observations_show_the_spare_faces_the_view_shows() -> None:
    enc = encoding("catopomp", 2, hand_size=5)
    at = enc.layout.at
    for choices in (("0: spare 5",), ("0: spare 5", "1: spare 2")):
        state = round_3(*choices)
        for seat in (0, 1):
            view = state.view(seat)
            fast = np.empty(enc.size, np.float32)
            enc.observe(state, seat, fast)
            assert fast.tolist() == enc.observe_view(view)
            for s, face in enumerate(view["dice"]["spare"]):
                one_hot = fast[at["spare"] + 6 * s : at["spare"] + 6 * s + 6].tolist()
                assert one_hot == [float(face == f) for f in range(1, 7)]
    assert view["dice"]["spare"] == [5, 2]


# -- worlds and search keys -------------------------------------------------------------------------------


def test_worlds_after_the_spare_phase_hold_the_faces_the_view_shows() -> None:
    state = round_3("1: spare 2", "0: spare 5")
    rng = random.Random(3)
    for seat in (0, 1):
        for _ in range(10):
            world = GAME.determinize(state.view(seat), rng)
            assert world.spare == [5, 2]


def test_worlds_in_the_spare_phase_reveal_the_sampled_face_when_it_closes() -> None:
    state = round_3("1: spare 2")
    view = state.view(0)
    assert view["history"][-1] == [1, "spare ?"]
    faces = set()
    for seed in range(30):
        world = GAME.determinize(view, random.Random(seed))
        hidden = world.spare[1]
        assert world.history_texts(0) == ["spare ?"]  # the world reads as the view: still hidden
        world.apply(0, GAME.parse_action("spare 4"))
        assert world.history_texts(0) == ["spare 4", f"spare {hidden}"]  # then shown, as the view does
        assert world.view(0)["dice"]["spare"] == [4, hidden]
        faces.add(hidden)
    assert len(faces) > 1


def test_search_tells_apart_the_worlds_the_seat_will_tell_apart() -> None:
    """Once the spare phase closes the seat knows the other face, so the tree below its own choice
    splits by that face (a node per face seen), rather than keeping one node for all of them.
    The pure search's tree (the compiled search's own tests: tests/bots/test_ismcts_kernel_games.py)."""
    state = round_3("1: spare 2")
    bot = ISMCTSBot("catopomp", iterations=300, kernel=False)
    action = bot.choose(state.view(0), state.legal_actions(0), random.Random(1))
    assert str(action).startswith("spare ")
    root = bot.last_root
    assert root is not None and set(root.children) == {f"spare {f}" for f in range(1, 7)}
    seen = set()
    for child in root.children.values():
        for shown in child.children:  # what the close revealed: the other seat's face
            assert isinstance(shown, tuple) and len(shown) == 1
            ((seat, text),) = shown
            assert seat == 1 and text.startswith("spare ") and text != "spare ?"
            seen.add(text)
    assert len(seen) > 1
