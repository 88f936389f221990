"""OpenSpiel's C++ bots on the nekobako games, each in its own interpreter so a crash fails cleanly.

Why `pyspiel.ISMCTSBot` crashed on `nekobako_catbox` (issue 30): its `step` binding releases the
GIL (`call_guard<gil_scoped_release>`) and the search then calls the Python game back through
OpenSpiel's own trampoline paths that do not take the GIL again (`PyObserver::StringFrom`,
`PyGame::MakeObserver`, `PyState::Clone`): Python runs with no thread state and segfaults at the
first information-state string. With the GIL held (`step_with_policy`) it gets further and stops
with a clean error: open_spiel 2.0.2's `PyState` does not forward `ResampleFromInfostate` to
Python, and the C++ ISMCTS needs it for every simulation. Neither is in this adapter's reach (no
object of ours dies early: the states live in the C++ tree), so the whole-game test is an xfail
that turns into a failure the day OpenSpiel fixes both (docs/research.md, *OpenSpiel's C++
algorithms*).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

SRC = str(Path(__file__).resolve().parents[2] / "src")

GAME = """
import numpy as np
import pyspiel
from nekobako.rl import openspiel

openspiel.register()
game = pyspiel.load_game("nekobako_catbox", {"players": 4})
evaluator = pyspiel.RandomRolloutEvaluator(1, 7)
bot = pyspiel.ISMCTSBot(7, evaluator, 0.7, 100, -1,
                        pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT, False, True)
rng = np.random.RandomState(0)
state = game.new_initial_state()
"""


def _run(body: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": SRC}
    script = textwrap.dedent(GAME) + textwrap.dedent(body)
    return subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600)


PLAY = """
while not state.is_terminal():
    if state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(actions, p=probs)))
    else:
        state.apply_action(bot.step(state))
print("returns", state.returns())
"""


@pytest.mark.xfail(strict=True, reason="open_spiel 2.0.2: step releases the GIL, PyState has no ResampleFromInfostate")
def test_the_cpp_ismcts_bot_plays_a_whole_game() -> None:
    done = _run(PLAY)
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert "returns" in done.stdout


def test_the_cpp_ismcts_bot_crash_is_openspiels_missing_resample_not_ours() -> None:
    """With the GIL held, the same first decision ends in OpenSpiel's clean error naming what it
    lacks, and the interpreter lives on; `step` (GIL released) is the segfault."""
    done = _run(
        """
        while state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        try:
            bot.step_with_policy(state)
        except pyspiel.SpielError as error:
            print("error:", error)
        """
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "ResampleFromInfostate() not implemented" in done.stdout
    crash = _run(
        """
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        bot.step(state)
        """
    )
    assert crash.returncode == -signal.SIGSEGV
