"""No bot can read hidden cards: change another seat's hidden cards in the true state so that our
seat's view stays identical, and every bot's decision must stay the same.

The changed state is built honestly: the current round's deal in the record is rewritten (cards
swapped between two opponents, or with hidden centre / undealt cards), and the whole record is
replayed. Swaps that touch a card already played or discarded make the replay illegal or change
the view, and are skipped. A peeking bot is run through the same harness to show it would be
caught.
"""

from __future__ import annotations

import random
import zlib
from collections import Counter

import pytest

from nekobako.bots import bot_names, make_bot
from nekobako.engine import NekobakoError, Record, State, replay

CASES = [("catbox", 2), ("catbox", 3), ("catbox", 4), ("catbox", 5), ("catopomp", 2), ("catopomp", 3), ("catopomp", 4)]
DECK_COPIES = {"catopomp": (range(1, 13), 4)}
"""Undealt cards a hand may be swapped with (Catopomp's default deck leaves cards undealt)."""


def _card_key(card: str) -> tuple[int, int | str]:
    return (0, int(card)) if card.isdigit() else (1, card)


def _deal_text(hands: list[list[str]], tail: list[str]) -> str:
    parts = [" ".join(sorted(h, key=_card_key)) for h in hands]
    return "deal " + " | ".join(parts + [t.strip() for t in tail])


def altered_states(state: State, seat: int, rng: random.Random, wanted: int = 2) -> list[State]:
    """Up to `wanted` states whose hidden cards differ from `state` but whose view for `seat` is equal."""
    game = state.game.name
    record = state.record()
    actions = record.actions
    index = max(i for i, a in enumerate(actions) if a.startswith("deal "))
    parts = actions[index][len("deal ") :].split("|")
    hands = [p.split() for p in parts[: state.players]]
    tail = parts[state.players :]
    hidden = next((t.split()[1:] for t in tail if t.split()[:1] == ["hidden"]), [])
    counts = Counter(card for hand in hands for card in hand)
    if game in DECK_COPIES:
        numbers, copies = DECK_COPIES[game]
        undealt = [str(n) for n in numbers for _ in range(copies - counts[str(n)])]
    else:
        undealt = []
    opponents = [s for s in range(state.players) if s != seat]
    view = state.view(seat)
    truth = state.full_view()
    found: list[State] = []
    for _ in range(300):
        new_hands = [list(h) for h in hands]
        new_tail = list(tail)
        a = rng.choice(opponents)
        if not new_hands[a]:
            continue
        i = rng.randrange(len(new_hands[a]))
        others = [b for b in opponents if b != a]
        pools = {"seat": others, "hidden": hidden, "undealt": undealt}
        pool = rng.choice([name for name, cards in pools.items() if cards])
        if pool == "seat":
            b = rng.choice(others)
            j = rng.randrange(len(new_hands[b]))
            new_hands[a][i], new_hands[b][j] = new_hands[b][j], new_hands[a][i]
        elif pool == "hidden":
            j = rng.randrange(len(hidden))
            new_hidden = list(hidden)
            new_hands[a][i], new_hidden[j] = new_hidden[j], new_hands[a][i]
            text = " hidden " + " ".join(sorted(new_hidden, key=_card_key))
            new_tail = [text if t.split()[:1] == ["hidden"] else t for t in tail]
        else:
            new_hands[a][i] = rng.choice(undealt)
        changed = [*actions[:index], _deal_text(new_hands, new_tail), *actions[index + 1 :]]
        try:
            other = replay(Record(game, state.players, record.options, None, changed))
        except NekobakoError:
            continue  # the swapped card was already played or discarded
        if other.view(seat) != view or other.full_view() == truth:
            continue
        found.append(other)
        if len(found) >= wanted:
            break
    return found


class PeekingBot:
    """A cheat that reads the true state: the harness must catch it."""

    name = "peeking"

    def __init__(self, state: State) -> None:
        self.state = state

    def choose(self, view, legal, rng):
        secret = repr(sorted(self.state.reveal().items()))
        return legal[zlib.crc32(secret.encode()) % len(legal)]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_hidden_cards_never_change_a_decision(game: str, players: int, position) -> None:
    rng = random.Random(f"peek{game}{players}")
    small = {"ismcts": {"iterations": 60}}
    bots = [make_bot(level, game=game, **small.get(level, {})) for level in bot_names(game)]
    bots.append(make_bot("ismcts", game=game, iterations=60, kernel=False))  # the pure search too
    pairs = 0
    caught = 0
    for trial in range(40):
        state, seat = position(game, players, rng)
        legal = state.legal_actions(seat)
        if len(legal) < 2:
            continue
        for other in altered_states(state, seat, rng):
            pairs += 1
            assert other.legal_actions(seat) == legal
            for bot in bots:
                here = bot.choose(state.view(seat), legal, random.Random(trial))
                there = bot.choose(other.view(seat), other.legal_actions(seat), random.Random(trial))
                assert str(here) == str(there), (bot.name, state.view(seat)["history"][-6:])
            cheat = PeekingBot(state).choose(None, legal, None), PeekingBot(other).choose(None, legal, None)
            caught += cheat[0] != cheat[1]
        if pairs >= 12:
            break
    assert pairs >= 6, f"only {pairs} hidden-card changes found: the test would prove little"
    assert caught > 0, "the harness did not catch a bot that reads the true state"
