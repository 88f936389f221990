"""Placements and Elo, without a server."""

from __future__ import annotations

import pytest

from nekobako.server.elo import elo_update, last_for_replaced, placements


def test_placements_follow_the_winners_direction() -> None:
    assert placements([10, 4, 7], [1]) == [3, 1, 2]  # penalties: lower is better
    assert placements([10, 4, 7], [0]) == [1, 3, 2]  # points: higher is better
    assert placements([5, 5, 2], [0, 1]) == [1, 1, 3]  # a shared win
    assert placements([3, 3, 3], [0]) == [1, 2, 2]  # a tie broken by the rules, not by score
    assert placements([0, 0], []) == [1, 1]


def test_elo_is_zero_sum_and_rewards_the_better_place() -> None:
    new = elo_update({0: 1500.0, 1: 1500.0}, {0: 1, 1: 2})
    assert new[0] == pytest.approx(1516.0) and new[1] == pytest.approx(1484.0)
    new = elo_update({0: 1600.0, 1: 1400.0, 2: 1500.0}, {0: 2, 1: 1, 2: 2})
    assert sum(new.values()) == pytest.approx(4500.0)
    assert new[1] > 1400.0 and new[0] < 1600.0
    assert elo_update({0: 1500.0, 1: 1500.0}, {0: 1, 1: 1}) == {0: 1500.0, 1: 1500.0}
    assert elo_update({0: 1700.0}, {0: 1}) == {0: 1700.0}


def test_replaced_seats_come_last_and_the_others_keep_their_order() -> None:
    assert last_for_replaced([1, 2], {0}) == [2, 1]  # was [3, 2]: two seats, places 1 and 2
    assert last_for_replaced([1, 2], {1}) == [1, 2]
    assert last_for_replaced([2, 1, 3, 4], {1}) == [1, 4, 2, 3]
    assert last_for_replaced([1, 1, 3, 4], {0, 3}) == [3, 1, 2, 3]  # replaced seats share the last place
    assert last_for_replaced([1, 2, 2], {0}) == [3, 1, 1]  # ties among the others stay ties
    assert last_for_replaced([1, 2, 3], set()) == [1, 2, 3]
