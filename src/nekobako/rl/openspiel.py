"""OpenSpiel: `register()` makes `nekobako_shutbox`, `nekobako_catbox` and `nekobako_catopomp`
loadable with `pyspiel.load_game("nekobako_catbox", {"players": 4, "side": "purple"})`.

* Actions are the encoding's ids. Chance is explicit as in OpenSpiel's card games: a deal is one
  chance step per card, each card with its probability among those left (chance id
  `len(encoding.chance_actions) + card`); the start player and dice are listed outcomes with
  their probabilities. Simultaneous decisions are taken in seat order, hidden from later seats.
* The information state of a seat is the encoding's perfect-recall string (every history entry
  as that seat reads it, public events, its pending private choice) and tensor (the observation,
  then the history codes), written when asked for from the engine's history. The observation is
  the encoding's tensor; its string is the position part of the seat's view, as JSON.
* `resample_from_infostate` asks the game's `determinize` for a world consistent with the seat's
  view, so OpenSpiel's own ISMCTS runs on these games. In a resampled world, what the other seats
  saw before the sample reads as public only (the sample fixes cards, not their past).

OpenSpiel is a separate install (`pip install nekobako[rl]` brings it).
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from ..engine import CHANCE, Game, State, get_game
from ..engine.encoding import Encoding, encoding_for, merged_lines

DEFAULT_PLAYERS = {"shutbox": 2, "catbox": 4, "catopomp": 4}
Past = tuple[tuple[tuple[str, ...], tuple[int, ...]], ...]
"""Per seat, then a spectator: (information lines, history codes) from before a resample."""
_HIDDEN_VIEW_KEYS = ("history", "events", "seq", "legal")


def short_name(game: str) -> str:
    return f"nekobako_{game}"


def _parameters(game: Game) -> dict[str, Any]:
    """OpenSpiel parameters: `players`, then each option typed as its choices are; options whose
    default depends on the player count (or that are not a single type) are text, "" = default."""
    spec: dict[str, Any] = {"players": DEFAULT_PLAYERS[game.name]}
    for option in game.option_specs:
        choices = option.choices or ()
        types = {type(c) for c in choices}
        if not callable(option.default) and len(types) == 1 and types <= {bool, int, str}:
            spec[option.name] = option.default
        else:
            spec[option.name] = ""
    return spec


def _game_type(game: Game) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name(game.name),
        long_name=f"nekobako {game.title.text('en')}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(game),
    )


class NekobakoGame(pyspiel.Game):
    """One nekobako game at one table size and options, as OpenSpiel sees it."""

    def __init__(self, game: Game, game_type: pyspiel.GameType, params: dict[str, Any] | None = None):
        params = dict(params or {})
        players = int(params.get("players", DEFAULT_PLAYERS[game.name]))
        raw = {k: v for k, v in params.items() if k != "players" and v != ""}
        options = game.options(raw, players, research=True)  # the small configurations are OpenSpiel's too
        self.nekobako = game
        self.encoding: Encoding = encoding_for(game.name, players, options)
        enc = self.encoding
        info = pyspiel.GameInfo(
            num_distinct_actions=enc.num_actions,
            max_chance_outcomes=len(enc.chance_actions) + enc.card_ids,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=enc.max_length(),
        )
        super().__init__(game_type, info, params)

    def new_initial_state(self) -> NekobakoState:
        enc = self.encoding
        return NekobakoState(self, self.nekobako.new_initial_state(enc.players, enc.options))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self.encoding, perfect_recall)


class Progress:
    """The mutable part of a state: the engine state and the cards of a deal being drawn. pyspiel
    clones a Python state by deep-copying its attributes; this copies itself with `State.clone`.

    Information lines and history codes are written when asked for, from the engine's history
    (as each seat reads it now, so an entry revealed later reads revealed); `before` holds, for
    each seat then a spectator, the lines and codes from before a resample, whose world has no
    history but the entries still open (`open_entries`: Catopomp's spare choices while others
    choose), which it reads itself, to reveal them as the view will.
    """

    __slots__ = ("before", "dealt", "engine", "from_events", "from_history", "left")

    def __init__(self, engine: State, before: Past, open_entries: int = 0):
        self.engine = engine
        self.dealt: list[int] = []
        self.left: list[int] | None = None  # while dealing: copies left of each card
        self.before = before
        self.from_history = len(engine.history) - open_entries
        self.from_events = len(engine.events)

    def __deepcopy__(self, memo: dict[int, Any]) -> Progress:
        new = Progress(self.engine.clone(), self.before)
        new.dealt = list(self.dealt)
        new.left = None if self.left is None else list(self.left)
        new.from_history, new.from_events = self.from_history, self.from_events
        return new

    def lines(self, viewer: int, seat: int | None, end: int | None = None) -> list[str]:
        """What `seat` saw (`viewer` indexes `before`: the seat, or the spectator's last slot),
        up to history entry `end` of the engine (all of it by default)."""
        new = merged_lines(self.engine, self.from_history, self.from_events, seat, end)
        return [*self.before[viewer][0], *(text for _, text in new)]

    def codes(self, encoding: Encoding, viewer: int, seat: int | None, end: int | None = None) -> list[int]:
        """`Encoding.history_codes` of what `seat` saw, those from before a resample first."""
        return [*self.before[viewer][1], *encoding.history_codes(self.engine, seat, self.from_history, end)]


class NekobakoState(pyspiel.State):
    """An OpenSpiel state over one engine state (see `Progress`)."""

    def __init__(self, game: NekobakoGame, engine: State, before: Past | None = None, open_entries: int = 0):
        super().__init__(game)
        self.enc = game.encoding
        self.p = Progress(engine, before or (((), ()),) * (self.enc.players + 1), open_entries)

    # -- the game tree ------------------------------------------------------------------------------
    def current_player(self) -> int:
        to_move = self.p.engine.to_move
        if not to_move:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(pyspiel.PlayerId.CHANCE) if to_move[0] == CHANCE else to_move[0]

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.enc.legal_ids(self.p.engine, player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        enc = self.enc
        left = self._cards_left()
        if left is not None:
            total = sum(left)
            base = len(enc.chance_actions)
            return [(base + card, count / total) for card, count in enumerate(left) if count]
        outcomes = self.p.engine.chance_outcomes() or ()
        ids = enc.chance_ids
        return sorted((ids[str(a)], p) for a, p in outcomes)

    def _cards_left(self) -> list[int] | None:
        """Copies left of each card while chance deals (None otherwise)."""
        if self.p.left is None:
            deck = self.enc.deck(self.p.engine)
            if deck is None:
                return None
            self.p.left = [0] * self.enc.card_ids
            for card in deck[0]:
                self.p.left[card] += 1
        return self.p.left

    def _apply_action(self, action: int) -> None:
        enc, engine = self.enc, self.p.engine
        to_move = engine.to_move
        if to_move and to_move[0] == CHANCE:
            left = self._cards_left()
            if left is not None:
                card = action - len(enc.chance_actions)
                left[card] -= 1
                self.p.dealt.append(card)
                if len(self.p.dealt) < enc.deck(engine)[1]:  # type: ignore[index]
                    return
                engine.apply(CHANCE, enc.deal_from(engine, self.p.dealt))
                self.p.dealt, self.p.left = [], None
            else:
                engine.apply(CHANCE, enc.chance_actions[action])
        else:
            engine.apply(to_move[0], enc.actions[action])

    def _action_to_string(self, player: int, action: int) -> str:
        enc = self.enc
        if player == pyspiel.PlayerId.CHANCE:
            base = len(enc.chance_actions)
            return f"card {action - base}" if action >= base else str(enc.chance_actions[action])
        return enc.texts[action]

    def is_terminal(self) -> bool:
        return bool(self.p.engine.is_over())

    def returns(self) -> list[float]:
        return self.p.engine.returns() if self.p.engine.is_over() else [0.0] * self.enc.players

    def __str__(self) -> str:
        return "\n".join(self.p.lines(self.enc.players, None)[-12:]) or self.enc.header(None)

    # -- information --------------------------------------------------------------------------------
    def information_string(self, player: int) -> str:
        lines = [self.enc.header(player), *self.p.lines(player, player)]
        tail = self.enc.pending(self.p.engine, player)
        if tail:
            lines.append(tail)
        return "\n".join(lines)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> NekobakoState:
        """A world `player_id` cannot tell from this one, sampled by the game's `determinize`."""
        if self.p.dealt:
            raise pyspiel.SpielError("cannot resample in the middle of a deal")
        rng = random.Random(int(probability_sampler() * 2**53))
        engine = self.p.engine
        world = self.enc.game.determinize(engine.view(player_id), rng)
        # entries still open (a spare phase) are rebuilt in the world's history: it reads them,
        # so they are revealed there as here; the lines and codes before them are carried over
        end = max(engine.settled(), self.p.from_history)
        open_entries = len(engine.history) - end
        if open_entries > len(world.history):  # a world without them: carry them over as read now
            end, open_entries = len(engine.history), 0
        spectator = self.enc.players
        public = (tuple(self.p.lines(spectator, None, end)), tuple(self.p.codes(self.enc, spectator, None, end)))
        before = [public] * (self.enc.players + 1)
        before[player_id] = (
            tuple(self.p.lines(player_id, player_id, end)),
            tuple(self.p.codes(self.enc, player_id, player_id, end)),
        )
        return NekobakoState(self.get_game(), world, tuple(before), open_entries)


class Observer:
    """OpenSpiel's PyObserver. Perfect recall: the encoding's information tensor (observation,
    then the history codes) and string; otherwise the observation tensor and the position part
    of the seat's view as JSON."""

    def __init__(self, encoding: Encoding, perfect_recall: bool):
        self.encoding = encoding
        self.perfect_recall = perfect_recall
        size = encoding.size
        self.tensor = np.zeros(encoding.information_size if perfect_recall else size, np.float32)
        self.dict = {f.name: self.tensor[f.offset : f.offset + f.size] for f in encoding.layout.fields}
        if perfect_recall:
            self.dict["history"] = self.tensor[size:].reshape(-1, 2)

    def set_from(self, state: NekobakoState, player: int) -> None:
        if self.perfect_recall:
            size = self.encoding.size
            self.encoding.observe(state.p.engine, player, self.tensor[:size])
            codes = state.p.codes(self.encoding, player, player)
            self.tensor[size:] = 0
            self.tensor[size : size + len(codes)] = codes
        else:
            self.encoding.observe(state.p.engine, player, self.tensor)

    def string_from(self, state: NekobakoState, player: int) -> str:
        if self.perfect_recall:
            return state.information_string(player)
        view = state.p.engine.view(player)
        position = {k: v for k, v in view.items() if k not in _HIDDEN_VIEW_KEYS}
        return json.dumps(position, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def register() -> list[str]:
    """Register every nekobako game with pyspiel (again is harmless); returns the short names."""
    from ..engine import game_names

    names = []
    registered = set(pyspiel.registered_names())
    for name in game_names():
        game = get_game(name)
        game_type = _game_type(game)
        if game_type.short_name not in registered:
            pyspiel.register_game(game_type, _factory(game, game_type))
        names.append(game_type.short_name)
    return names


def _factory(game: Game, game_type: pyspiel.GameType) -> type[NekobakoGame]:
    """A class per game: pyspiel keeps the factory until the interpreter exits, and a class (as
    OpenSpiel's own Python games register) is released cleanly where a closure is not."""

    def __init__(self: NekobakoGame, params: dict[str, Any] | None = None) -> None:
        NekobakoGame.__init__(self, game, game_type, params)

    return type(f"Nekobako{game.name.capitalize()}Game", (NekobakoGame,), {"__init__": __init__})
