"""Fixtures for the Button Goblin tests."""

import pytest

from companion.button_goblin import Position

EXAMPLE = "Lobo: 2 2 6 9 13 | SdP: 2 4 5 13 18"


@pytest.fixture
def example() -> Position:
    """The rulebook's worked example (values only, sizes unknown)."""
    return Position.parse(EXAMPLE)
