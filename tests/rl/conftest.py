"""Positions reached by random play, as the bot tests use them (the no-peeking harness too)."""

from __future__ import annotations

import pytest

from bots.conftest import random_position


@pytest.fixture
def position():
    return random_position
