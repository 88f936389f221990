"""A Catopomp round summary in Japanese on a 390 px phone, as seen after a whole game against bots:
the loser's hell of six cards stood in a column one card wide (the Japanese headings took the
width), and each bot's dot sat alone on the line above its unbreakable name. Now the hell wraps
in rows of at least two small cards and every dot stays beside its name, the page no wider than
the phone."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from game_states import play_to

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

# The breakdown's rows: per hell, its cards and the distinct lines they sit on; per seat, the dot's
# middle against its name's box.
MEASURE = """() => {
  const table = document.querySelector('[data-testid=round-summary] [data-testid=breakdown]');
  const hells = [...table.querySelectorAll('tbody td .cp-card')].reduce((acc, card) => {
    const cell = card.closest('td');
    const i = [...table.querySelectorAll('tbody td')].indexOf(cell);
    (acc[i] = acc[i] || new Set()).add(Math.round(card.getBoundingClientRect().top));
    return acc;
  }, {});
  const counts = [...table.querySelectorAll('tbody td')].map((td) => td.querySelectorAll('.cp-card').length);
  const rows = [...table.querySelectorAll('tbody th[scope=row]')].map((th) => {
    const dot = th.querySelector('.pc-dot').getBoundingClientRect();
    const name = th.querySelector('.pc-dot').nextElementSibling || th;
    const r = name.getBoundingClientRect();
    return {dotMiddle: (dot.top + dot.bottom) / 2, nameTop: r.top, nameBottom: r.bottom};
  });
  const lines = Object.fromEntries(Object.entries(hells).map(([i, tops]) => [counts[i], tops.size]));
  return {lines, most: Math.max(0, ...counts), rows, pageWidth: document.documentElement.scrollWidth};
}"""


def test_a_catopomp_summary_on_a_japanese_phone_keeps_its_rows_compact(browser, server, page_errors):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="ja-JP", base_url=server.url)
    try:
        for seed in range(8):  # a game whose last round left someone at least three hell cards
            seated = play_to(server, "catopomp", 3, lambda view: False, seed=seed, name="千代")
            seated.open_in(ctx, server)
            page = ctx.new_page()
            page_errors.watch(page)
            page.goto(f"/#/table/{seated.table}")
            page.wait_for_selector("[data-testid=results]:not([hidden])")
            page.wait_for_selector("[data-testid=round-summary] [data-testid=breakdown]")
            m = page.evaluate(MEASURE)
            if m["most"] >= 3:
                break
            page.close()
        else:
            pytest.fail("no game in eight left three hell cards in its last round")
        for count, lines in m["lines"].items():
            assert lines <= (int(count) + 1) // 2, f"a hell of {count} cards on {lines} lines: {m}"
        for row in m["rows"]:
            assert row["nameTop"] <= row["dotMiddle"] <= row["nameBottom"], f"a dot apart from its name: {m}"
        assert m["pageWidth"] <= 390, m
    finally:
        ctx.close()
