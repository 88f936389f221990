"""The web client's palette, read from style.css (the one place it is written): text on every suit
and player colour passes WCAG AA, the four suits stay apart in normal vision and simulated
protanopia, deuteranopia and tritanopia, and no player colour looks like a suit (issue 17)."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from webclient.colour_math import SIMULATIONS, contrast, difference, parse_hex

STYLE = Path(__file__).resolve().parents[2] / "src" / "nekobako" / "web" / "style.css"
SUITS = ("red", "blue", "yellow", "green")
WHITE = parse_hex("#ffffff")
SUITS_APART = 20.0  # ΔE2000 between any two suits, in every vision (the old red/green: 5.3)
SEATS_APART = 15.0  # ΔE2000 between any player colour and any suit, in every vision
TABLE = 5  # the most seats whose colours share one board (Cat in the Box's research board)
TABLE_APART = 17.0  # ΔE2000 between the colours of those seats, in every vision
ALL_APART = 6.0  # between any two of the twelve (Shut the Box's boards also carry their names)
AA = 4.5


def palette() -> dict[str, str]:
    root = STYLE.read_text(encoding="utf-8").split(":root", 1)[1].split("}", 1)[0]
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{3,6})\b", root))


COLOURS = palette()
INK = parse_hex(COLOURS["ink"])
SEATS = sorted((k for k in COLOURS if re.fullmatch(r"p\d+", k)), key=lambda k: int(k[1:]))
# the text each suit's cards, buttons and row headings are written in (style.css)
SUIT_TEXT = {"red": WHITE, "blue": WHITE, "yellow": INK, "green": INK}


def test_the_palette_is_read_from_the_stylesheet():
    assert set(SUITS) <= set(COLOURS)
    assert len(SEATS) == 12


@pytest.mark.parametrize("suit", SUITS)
def test_text_on_each_suit_passes_aa(suit):
    fill = parse_hex(COLOURS[suit])
    assert contrast(fill, SUIT_TEXT[suit]) >= AA
    # the light tint of a board row carries the cell numbers (#4a3f37) and dark text
    tint = parse_hex(COLOURS[f"{suit}-t"])
    assert contrast(tint, parse_hex("#4a3f37")) >= AA
    assert contrast(tint, INK) >= AA


@pytest.mark.parametrize("vision", SIMULATIONS)
def test_suits_stay_apart_in_every_vision(vision):
    for a, b in itertools.combinations(SUITS, 2):
        d = difference(parse_hex(COLOURS[a]), parse_hex(COLOURS[b]), vision)
        assert d >= SUITS_APART, f"{a}/{b} in {vision}: ΔE2000 {d:.1f}"


@pytest.mark.parametrize("seat", SEATS)
def test_player_colours_carry_white_initials_and_never_look_like_a_suit(seat):
    colour = parse_hex(COLOURS[seat])
    assert contrast(colour, WHITE) >= AA
    for suit, vision in itertools.product(SUITS, SIMULATIONS):
        d = difference(colour, parse_hex(COLOURS[suit]), vision)
        assert d >= SEATS_APART, f"{seat} vs {suit} in {vision}: ΔE2000 {d:.1f}"


@pytest.mark.parametrize("vision", SIMULATIONS)
def test_the_players_of_one_table_are_told_apart_in_every_vision(vision):
    for i, j in itertools.combinations(range(len(SEATS)), 2):
        d = difference(parse_hex(COLOURS[SEATS[i]]), parse_hex(COLOURS[SEATS[j]]), vision)
        least = TABLE_APART if j < TABLE else ALL_APART
        assert d >= least, f"{SEATS[i]}/{SEATS[j]} in {vision}: ΔE2000 {d:.1f}"


def test_the_old_palette_would_have_failed():
    """The check can fail: the red and green of the first palette look alike to a deuteranope."""
    assert difference(parse_hex("#d62828"), parse_hex("#2a9d3a"), "deuteranopia") < SUITS_APART
    assert contrast(parse_hex("#e0b000"), WHITE) < AA
    # seat 0's purple and seat 3's navy, side by side on a 4-player board, to a protanope
    assert difference(parse_hex("#472d53"), parse_hex("#03033f"), "protanopia") < TABLE_APART


def test_colour_math_matches_published_values():
    """CIEDE2000 against Sharma, Wu & Dalal's test data; WCAG contrast of black on white."""
    from webclient.colour_math import delta_e2000

    assert delta_e2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert delta_e2000((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387)) == pytest.approx(1.2644, abs=1e-4)
    assert delta_e2000((2.0776, 0.0795, -1.135), (0.9033, -0.0636, -0.5514)) == pytest.approx(0.9082, abs=1e-4)
    assert contrast(parse_hex("#000"), WHITE) == pytest.approx(21.0)
