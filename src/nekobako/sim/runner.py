"""Bot-against-bot games, played in worker processes.

Every game is a pure function of (game, options, bots, base seed, game index): the game's seed is
a hash of the base seed and the index; chance draws from `Random(game seed)` exactly as
`engine.replay` fills chance steps a record leaves out, and each seat's bot from a seed derived
from the game seed and the seat. Nothing depends on the worker or the order in which games
finish, so `--workers 1` and `--workers 8` give identical results (as long as no bot uses a time
budget, which depends on the machine).

Seat rotation: with bot entries `b0 … b(n-1)`, game `i` seats entry `j` in seat `(j + i) mod n`, so
over any `n` consecutive games every entry has sat once in every seat.
"""

from __future__ import annotations

import hashlib
import importlib
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from ..bots import LEVELS, make_bot
from ..engine import Action, InvalidOptions, NekobakoError, get_game, play_out
from ..i18n import Message

MAX_ACTIONS = 200_000
"""A game longer than this is a bug in a game or a bot, not a long game."""


class SimulationError(NekobakoError):
    """A simulation that cannot run (bad bot parameters, a game that failed or never ended)."""


def derive_seed(base: int, *path: int) -> int:
    """A 53-bit seed (safe in JSON and JavaScript) that depends only on `base` and `path`."""
    digest = hashlib.blake2b(repr((base, *path)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 11


@dataclass(frozen=True)
class BotSpec:
    """A bot level and its parameters, written `level` or `level:key=value:key=value`
    (e.g. `ismcts:iterations=300`)."""

    level: str
    params: tuple[tuple[str, int | float | str], ...] = ()

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        level, *pairs = [part.strip() for part in text.strip().split(":")]
        if not level:
            raise InvalidOptions(Message("bots.empty", text=text))
        if pairs and "=" not in pairs[0] and level.lower() not in LEVELS:  # your own bot: package.module:Class
            if not pairs[0].isidentifier() or not all(part.isidentifier() for part in level.split(".")):
                raise InvalidOptions(Message("bots.own_class", text=text))
            level, pairs = f"{level}:{pairs[0]}", pairs[1:]
        params: list[tuple[str, int | float | str]] = []
        for pair in pairs:
            if "=" not in pair:
                raise InvalidOptions(Message("bots.param_pair", pair=pair))
            key, value = (s.strip() for s in pair.split("=", 1))
            params.append((key, _number(value)))
        return cls(level if ":" in level else level.lower(), tuple(params))

    @property
    def label(self) -> str:
        return ":".join([self.level, *(f"{k}={v}" for k, v in self.params)])

    def make(self, game: str) -> Any:
        """The bot (unknown levels and parameters raise `NekobakoError` subclasses). A level
        written `package.module:Class` is imported and `Class(**params)` built: any object with
        `choose(view, legal, rng)` plays, as the built-in bots do."""
        try:
            if ":" in self.level:
                return _import_bot(self.level, dict(self.params))
            return make_bot(self.level, game=game, **dict(self.params))
        except TypeError as exc:
            raise SimulationError(Message("sim.bot_failed", bot=self.label, detail=str(exc))) from None


@dataclass(frozen=True, eq=False)
class BotObject:
    """A bot object given directly to the Python API (`simulate(..., bots=[MyBot(), "greedy"])`).
    Worker processes get a pickled copy each, so with `workers > 1` it must pickle."""

    bot: Any

    @property
    def label(self) -> str:
        return str(getattr(self.bot, "label", None) or type(self.bot).__name__)

    def make(self, game: str) -> Any:
        return self.bot


def _import_bot(path: str, params: dict[str, Any]) -> Any:
    module_name, _, class_name = path.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        if isinstance(exc, ModuleNotFoundError) and f"{module_name}.".startswith(f"{exc.name}."):  # not there
            raise SimulationError(Message("sim.no_module", module=module_name, path=path)) from None
        raise SimulationError(Message("sim.import", module=module_name, path=path, detail=str(exc))) from None
    factory = getattr(module, class_name, None)
    if factory is None:
        raise SimulationError(Message("sim.no_class", module=module_name, name=class_name))
    bot = factory(**params)
    if not callable(getattr(bot, "choose", None)):
        raise SimulationError(Message("sim.no_choose", path=path))
    return bot


def as_spec(bot: BotSpec | BotObject | str | Any) -> BotSpec | BotObject:
    """What the runner accepts for one seat: a spec, its text, or a bot object."""
    if isinstance(bot, (BotSpec, BotObject)):
        return bot
    if isinstance(bot, str):
        return BotSpec.parse(bot)
    if callable(getattr(bot, "choose", None)):
        return BotObject(bot)
    raise InvalidOptions(Message("bots.not_a_bot", value=repr(bot)))


def _number(text: str) -> int | float | str:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_bots(text: str | Sequence[Any], seats: int) -> tuple[Any, ...]:
    """`"ismcts,greedy"` → one spec per bot seat, in seat order. A single name fills every seat.
    A sequence may mix names, `BotSpec`s and bot objects (the Python API)."""
    items = text.split(",") if isinstance(text, str) else list(text)
    specs = tuple(as_spec(item) for item in items if not isinstance(item, str) or item.strip())
    if len(specs) == 1:
        specs = specs * seats
    if len(specs) != seats:
        raise InvalidOptions(Message("bots.count", seats=seats, n=len(specs)))
    return specs


def check_bots(
    game: str, specs: Iterable[BotSpec], players: int | None = None, options: Mapping[str, Any] | None = None
) -> None:
    """Build each bot once, so a typo fails before any worker starts; with the table's `players`
    and `options`, a bot that checks its table (`check_table`: the `learned` level's weights)
    refuses one it cannot play here and now."""
    for spec in set(specs):
        bot = spec.make(game)
        check = getattr(bot, "check_table", None)
        if players is not None and callable(check):
            check(players, options or {})


@dataclass(frozen=True)
class GameTask:
    game: str
    players: int
    bots: tuple[Any, ...]  # BotSpec or BotObject, one per entry
    options: Mapping[str, Any]
    seed: int
    index: int

    @property
    def game_seed(self) -> int:
        return derive_seed(self.seed, self.index)

    def seating(self) -> list[int]:
        """`seating[seat]` is the bot entry in that seat for this game (see the module docstring)."""
        n = self.players
        return [(seat - self.index) % n for seat in range(n)]


@dataclass
class GameResult:
    index: int
    seed: int
    seating: list[int]
    scores: list[float]
    returns: list[float]
    winners: list[int]
    actions: int
    shut: list[bool] | None = None
    record: dict[str, Any] | None = field(default=None, repr=False)


_bot_cache: dict[tuple[str, Any], Any] = {}


def _bot(game: str, spec: Any) -> Any:
    # Bots decide from (view, rng) alone, so one instance per process can serve every game and
    # keeps expensive tables (the Shut the Box solver) built once.
    key = (game, spec)
    if key not in _bot_cache:
        _bot_cache[key] = spec.make(game)
    return _bot_cache[key]


def play_game(task: GameTask) -> GameResult:
    """Play one game between bots and return what the statistics need (and its record)."""
    game = get_game(task.game)
    state = game.new_game(task.players, dict(task.options))
    seed = task.game_seed
    chance_rng = random.Random(seed)  # as `engine.replay` fills chance: player actions alone replay the game
    seating = task.seating()
    bots = [_bot(task.game, task.bots[entry]) for entry in seating]
    rngs = [random.Random(derive_seed(seed, seat)) for seat in range(task.players)]

    def choose(seat: int) -> Action:
        return bots[seat].choose(state.view(seat), state.legal_actions(seat), rngs[seat])

    actions = play_out(state, choose, chance_rng, MAX_ACTIONS)
    if not state.is_over():
        raise SimulationError(Message("sim.never_ended", index=task.index, n=MAX_ACTIONS))
    final = state.view(None)
    shut = final.get("shut")
    record = state.record(seed=seed).to_json()
    record["seats"] = [task.bots[entry].label for entry in seating]
    return GameResult(
        index=task.index,
        seed=seed,
        seating=seating,
        scores=[float(s) for s in state.scores()],
        returns=list(state.returns()),
        winners=list(state.winners()),
        actions=actions,
        shut=[bool(s) for s in shut] if isinstance(shut, list) else None,
        record=record,
    )


def _play_chunk(tasks: list[GameTask]) -> list[GameResult]:
    results = []
    for task in tasks:
        try:
            results.append(play_game(task))
        except Exception as exc:  # report which game failed, with its seed, to reproduce it
            detail = f"{type(exc).__name__}: {exc}"
            raise SimulationError(
                Message("sim.game_failed", index=task.index, seed=task.game_seed, detail=detail)
            ) from exc
    return results


def chunk_tasks(tasks: Sequence[GameTask], workers: int) -> list[list[GameTask]]:
    """Up to 8 games a chunk, small enough that every worker gets about 8 chunks (an even finish)."""
    size = max(1, min(8, len(tasks) // (workers * 8)))
    return [list(tasks[i : i + size]) for i in range(0, len(tasks), size)]


def run_games(
    tasks: Sequence[GameTask],
    workers: int = 1,
    on_done: Callable[[int], None] | None = None,
) -> list[GameResult]:
    """Play every task, `workers` processes at a time; results come back in task order.
    `on_done(n)` is called as games finish (for a progress bar)."""
    if workers <= 1 or len(tasks) <= 1:
        results = []
        for task in tasks:
            results.extend(_play_chunk([task]))
            if on_done:
                on_done(1)
        return results
    results = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending = {pool.submit(_play_chunk, chunk) for chunk in chunk_tasks(tasks, workers)}
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    chunk_results = future.result()
                    results.extend(chunk_results)
                    if on_done:
                        on_done(len(chunk_results))
        except BaseException:
            for future in pending:
                future.cancel()
            raise
    results.sort(key=lambda r: r.index)
    return results
