"""The create form's selects show their chosen words whole, in both languages at 1280 and 390 px:
Japanese game names (キャット・イン・ザ・ボックス, 224 px) were cut off in a 123 px select beside
the seat count, and Catopomp's deck ('House default: 1–12, four each (48 cards)', now 'Default:
1–12 ×4 (48 cards)') in a half-width option field at 1280 px and in a whole-width one at 390 px.
The text is measured with the select's own font (a canvas) against the room inside it, the
arrow's 24 px left out."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser_ui import enter_as_guest

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


CUT = """() => [...document.querySelectorAll('[data-testid=create-form] select')].filter((s) => s.offsetParent)
  .map((s) => {
    const style = getComputedStyle(s);
    const pen = document.createElement('canvas').getContext('2d');
    pen.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = s.selectedOptions[0]?.textContent || '';
    const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 24;
    return {select: s.id, text, needs: Math.ceil(pen.measureText(text).width), room: Math.floor(room)};
  }).filter((m) => m.needs > m.room)"""


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
@pytest.mark.parametrize("width", [1280, 390])
def test_the_create_forms_choices_are_shown_whole(new_page, locale, width):
    page = new_page(locale=locale, width=width, height=844)
    enter_as_guest(page, "Sel")
    for game in ("shutbox", "catbox", "catopomp"):
        page.select_option("#create-game", game)
        page.wait_for_selector(f"#create-game option[value={game}]:checked", state="attached")
        page.wait_for_selector("[data-testid=create-form] .option-field")
        cut = [m for m in page.evaluate(CUT)]
        assert not cut, f"{game}: choices cut off: {cut}"
