"""The engine contract: games, states, options, records. Pure Python, no I/O."""

from ..i18n.events import seat_name
from .errors import BadRecord, IllegalAction, InvalidOptions, MalformedAction, NekobakoError, UnknownGame
from .game import (
    CHANCE,
    Action,
    Event,
    FrozenData,
    Game,
    LastView,
    SearchHints,
    SeatView,
    State,
    check_text,
    envelope,
    is_number,
)
from .options import HINTS, Options, OptionSpec, parse_option_text, parse_options
from .playout import play_out, random_playout, random_step
from .record import Record, fill_chance, format_entry, parse_entry, replay, summary
from .registry import GAME_MODULES, check_game_name, game_names, get_game
from .viewlog import ReadOnlyDict, ReadOnlyList, ViewLog

__all__ = [
    "CHANCE",
    "Action",
    "BadRecord",
    "Event",
    "FrozenData",
    "GAME_MODULES",
    "Game",
    "IllegalAction",
    "InvalidOptions",
    "LastView",
    "MalformedAction",
    "NekobakoError",
    "HINTS",
    "OptionSpec",
    "Options",
    "ReadOnlyDict",
    "ReadOnlyList",
    "Record",
    "SearchHints",
    "SeatView",
    "State",
    "UnknownGame",
    "ViewLog",
    "check_game_name",
    "check_text",
    "envelope",
    "fill_chance",
    "format_entry",
    "game_names",
    "get_game",
    "is_number",
    "parse_entry",
    "parse_option_text",
    "parse_options",
    "play_out",
    "random_playout",
    "random_step",
    "replay",
    "seat_name",
    "summary",
]
