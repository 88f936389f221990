"""The side column's score table (300 px beside the board from 980 px up) after a game of several
rounds: a column per round used to push the table past the panel's edge (a three-round Shut the Box
with greedy bots stuck out 10 px at 1280 px, a long game much more), and a bot's unbreakable name
left its seat's dot alone on the line above. Now the rounds scroll inside the panel, the dot stays
beside its name, and a few rounds still fit whole."""

from __future__ import annotations

import sys
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from game_states import play_to

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

# What the side shows, measured in the page: the panel's content box, the score region's box and
# how far its table scrolls, and each row's dot against its name.
MEASURE = """() => {
  const side = document.querySelector('aside.side');
  const s = getComputedStyle(side);
  const box = side.getBoundingClientRect();
  const inner = box.right - parseFloat(s.paddingRight) - parseFloat(s.borderRightWidth);
  const table = side.querySelector('[data-testid=scores]');
  const region = table.closest('.table-scroll') || table;
  const rows = [...table.querySelectorAll('tbody th[scope=row]')].map((th) => {
    const dot = th.querySelector('.pc-dot').getBoundingClientRect();
    const name = th.querySelector('.pc-dot').nextElementSibling || th;
    const r = name.getBoundingClientRect();
    return {dotMiddle: (dot.top + dot.bottom) / 2, nameTop: r.top, nameBottom: r.bottom};
  });
  return {
    inner, regionRight: region.getBoundingClientRect().right, rounds: table.querySelectorAll('thead th').length - 2,
    scrolls: region.scrollWidth > region.clientWidth, focusable: region.tabIndex === 0,
    widths: [region.scrollWidth, region.clientWidth,
             ...[...table.querySelectorAll('tbody tr:last-child > *')]
               .map((c) => Math.round(c.getBoundingClientRect().width))],
    label: region.getAttribute('aria-label'), rows,
  };
}"""


def with_rounds(server, options: dict, rounds: int) -> object:
    """A three-seat Shut the Box stopped at the guest's turn once `rounds` rounds are scored (a game
    that ends sooner, someone having shut the box, is replaced by another)."""
    for seed in range(8):
        seated = play_to(
            server, "shutbox", 3, lambda view: len(view.get("round_scores") or []) >= rounds, seed=seed, options=options
        )
        state = httpx.get(f"{server.url}/api/tables/{seated.table}", timeout=15).json()
        if state.get("status") != "finished":
            return seated
    raise AssertionError(f"no game of {rounds} rounds in eight tries")


# total scoring: small numbers, a few rounds fit whole (the long game: with the short one's
# elimination at 45, three random players often end it with the second round, and eight games in a
# row did so in CI); digits scoring: six rounds of numbers like 13457 that only scrolling can show
@pytest.mark.parametrize(
    ("options", "rounds"),
    [({"length": "long"}, 2), ({"scoring": "digits", "length": "long"}, 6)],
    ids=["total", "digits-long"],
)
def test_the_side_score_table_stays_inside_its_panel(browser, server, page_errors, options, rounds):
    seated = with_rounds(server, options, rounds)
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US", base_url=server.url)
    try:
        seated.open_in(ctx, server)
        page = ctx.new_page()
        page_errors.watch(page)
        page.goto(f"/#/table/{seated.table}")
        page.wait_for_selector("aside.side [data-testid=scores] thead th[title]")
        m = page.evaluate(MEASURE)
        assert m["rounds"] >= rounds, m
        assert m["regionRight"] <= m["inner"] + 0.5, f"the scores stick out of the side panel: {m}"
        for row in m["rows"]:
            assert row["nameTop"] <= row["dotMiddle"] <= row["nameBottom"], f"a dot apart from its name: {m}"
        if options.get("scoring") == "digits":  # too wide for the column: it scrolls, by keyboard too
            assert m["scrolls"] and m["focusable"] and m["label"] == "Scores", m
        elif m["rounds"] <= 3:  # a game of a few rounds fits whole: its totals need no scrolling
            assert not m["scrolls"], m
    finally:
        ctx.close()
