"""Fixtures for Goblins: Epic Death: a two-player game with a chosen first army."""

from dataclasses import replace

import pytest

from companion.goblins.core import Army, Game


def with_army(army: Army, other: Army | None = None, centre: int = 1) -> Game:
    """A game whose current player (0) has ``army``."""
    game = Game.new([army.name, "Bea" if army.name != "Bea" else "Ada"], centre)
    return replace(game, armies=(army, other or game.armies[1]))


@pytest.fixture
def make_game():
    return with_army
