"""Cat in the Box's board tokens in Japanese on a phone: two bots share the initial ボ, so their
tokens read ボ1 and ボ2; in the phone's 23 px disc the label broke after ボ and the seat number fell
out of the disc, white on the cell's pale colour (seen playing a whole game at 390 px). Each label
now stays on one line inside its disc, at both widths."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from game_states import play_to

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

# Every board token's label: its text's line boxes and whether they lie inside the token's disc.
TOKENS = """() => [...document.querySelectorAll('.research-board .token:not(.neutral)')].map((token) => {
  const range = document.createRange();
  range.selectNodeContents(token);
  const lines = [...range.getClientRects()].filter((r) => r.width > 0);
  const text = range.getBoundingClientRect();
  const disc = token.getBoundingClientRect();
  return {label: token.textContent, lines: lines.length,
          inside: text.left >= disc.left - 0.5 && text.right <= disc.right + 0.5
               && text.top >= disc.top - 0.5 && text.bottom <= disc.bottom + 0.5};
})"""


@pytest.mark.parametrize("width", [390, 1280])
def test_two_character_tokens_stay_inside_their_disc_in_japanese(browser, server, page_errors, width):
    seated = play_to(server, "catbox", 3, lambda view: False, seed=4, name="Ada")
    ctx = browser.new_context(viewport={"width": width, "height": 844}, locale="ja-JP", base_url=server.url)
    try:
        seated.open_in(ctx, server)
        page = ctx.new_page()
        page_errors.watch(page)
        page.goto(f"/#/table/{seated.table}")
        page.wait_for_selector("[data-testid=results]:not([hidden])")
        page.wait_for_selector(".research-board .token")
        tokens = page.evaluate(TOKENS)
        labels = {t["label"] for t in tokens}
        assert labels & {"ボ1", "ボ2"}, labels  # the two bots' tokens, told apart by seat number
        wrong = [t for t in tokens if t["lines"] != 1 or not t["inside"]]
        assert not wrong, f"labels broken or sticking out of their disc: {wrong}"
    finally:
        ctx.close()
