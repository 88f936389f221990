"""Option tables as data: parsing, defaults, coercion from text, refusals."""

from __future__ import annotations

import pytest

from nekobako.engine import InvalidOptions, Options, OptionSpec, parse_option_text, parse_options


def _rounds(raw):
    try:
        value = int(raw)
    except (TypeError, ValueError):
        raise InvalidOptions(f"option 'rounds' must be a whole number, not {raw!r}") from None
    if value < 1:
        raise InvalidOptions("option 'rounds' must be at least 1")
    return value


SPECS = (
    OptionSpec("size", 9, (9, 10, 12)),
    OptionSpec("mode", "total", ("total", "count")),
    OptionSpec("fast", False, (False, True)),
    OptionSpec("hand", lambda players: 10 if players <= 3 else 8, (8, 10)),
    OptionSpec("rounds", 3, parse=_rounds),
)


def test_defaults_fill_in_and_may_depend_on_the_player_count():
    expected = {"size": 9, "mode": "total", "fast": False, "hand": 10, "rounds": 3}
    assert parse_options(SPECS, None, 2).to_json() == expected
    assert parse_options(SPECS, {}, 5)["hand"] == 8


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ({"size": "12"}, {"size": 12}),
        ({"size": 10}, {"size": 10}),
        ({"mode": " COUNT "}, {"mode": "count"}),
        ({"fast": "on"}, {"fast": True}),
        ({"fast": "no"}, {"fast": False}),
        ({"fast": True}, {"fast": True}),
        ({"rounds": "7"}, {"rounds": 7}),
    ],
)
def test_values_are_coerced_to_their_type(raw, expected):
    opts = parse_options(SPECS, raw, 2)
    for key, value in expected.items():
        assert opts[key] == value and type(opts[key]) is type(value)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"size": 11}, "Option 'size' cannot be 11; choose one of: 9, 10, 12."),
        ({"fast": "maybe"}, "Option 'fast' cannot be maybe; choose one of: off, on."),
        ({"colour": 1}, "There is no option 'colour'; options: fast, hand, mode, rounds, size."),
        ({"rounds": "x"}, "must be a whole number"),
        ({"rounds": 0}, "at least 1"),
    ],
)
def test_bad_values_are_refused_with_a_readable_message(raw, message):
    with pytest.raises(InvalidOptions) as info:
        parse_options(SPECS, raw, 2)
    assert message in str(info.value)


def test_options_are_frozen_hashable_values():
    a = parse_options(SPECS, {"size": 10}, 2)
    b = parse_options(SPECS, {"size": "10"}, 2)
    assert a == b and hash(a) == hash(b) and a.size == 10
    assert a != parse_options(SPECS, {}, 2)
    with pytest.raises(AttributeError):
        a.size = 12
    with pytest.raises(AttributeError):
        _ = a.missing
    assert dict(a) == a.to_json() and len(a) == 5
    assert Options({"x": (1, 2)}).to_json() == {"x": [1, 2]}


def test_option_text_from_the_command_line():
    assert parse_option_text(["size=10", " mode = count "]) == {"size": "10", "mode": "count"}
    with pytest.raises(InvalidOptions, match="name=value"):
        parse_option_text(["size"])


def test_describe_gives_the_lobby_catalogue_keys_as_json():
    """Words are keys, in one language nowhere: a value without a label reads as itself."""
    spec = OptionSpec("scoring", "total", ("total", 7))
    assert spec.describe("shutbox") == {
        "name": "scoring",
        "label": "shutbox.option.scoring",
        "help": "shutbox.option.scoring.help",
        "choices": ["total", 7],
        "labels": ["shutbox.option.scoring.value.total", None],
        "default": "total",
        "advanced": False,
    }
    deck = OptionSpec("deck", ((1, 2),), parse=tuple, presets=(("default", ((1, 2),)),), bounds={"copies": (1, 8)})
    described = deck.describe("catopomp")
    assert described["presets"] == [{"value": [[1, 2]], "label": "catopomp.option.deck.preset.default"}]
    assert (described["choices"], described["labels"], described["bounds"]) == (None, None, {"copies": [1, 8]})


def test_options_survive_pickling_for_worker_processes() -> None:
    import pickle

    from nekobako.engine import get_game

    opts = get_game("shutbox").options({"tiles": 12, "scoring": "digits"}, 2)
    copy = pickle.loads(pickle.dumps(opts))
    assert copy == opts and copy.tiles == 12 and hash(copy) == hash(opts)


@pytest.mark.parametrize(("name", "value"), [("tiles", True), ("tiles", 9.0), ("simultaneous", 1), ("quick", "maybe")])
def test_values_of_the_wrong_type_are_refused(name, value) -> None:
    from nekobako.engine import get_game

    with pytest.raises(InvalidOptions, match=name):
        get_game("shutbox").options({name: value}, 2)


def test_text_values_from_the_command_line_are_coerced() -> None:
    from nekobako.engine import get_game

    opts = get_game("shutbox").options({"tiles": "12", "simultaneous": "on", "quick": "false"}, 2)
    assert (opts.tiles, opts.simultaneous, opts.quick) == (12, True, False)
