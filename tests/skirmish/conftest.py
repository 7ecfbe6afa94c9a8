"""Fixtures for the skirmish rules: two small bands and a game ready for its first card."""

import pytest

from companion.skirmish.core import Band, ChooseFirst, Game, Model, Roll, apply


def elves() -> Band:
    return Band(
        "Elfi",
        (
            Model.parse("Lorien|T3|A3|S4|P20|eroe2|capitano"),
            Model.parse("Arciere|T4|A5|S5|P8"),
            Model.parse("Arciere|T4|A5|S5|P8"),
            Model.parse("Lancia|A4|S4|P6"),
        ),
    )


def orcs() -> Band:
    return Band(
        "Orchi",
        (
            Model.parse("Grum|A3|S4|P20|eroe1|possente|capitano"),
            Model.parse("Lupo|A4|S5|P10|cavalleria"),
            Model.parse("Orco|A4|S5|P6"),
            Model.parse("Orco|A4|S5|P6"),
        ),
    )


def playing(first: int = 0, time_limit: int | None = 3600) -> Game:
    """A game past deployment and the first-card roll, band ``first`` to play."""
    game = Game.new([elves(), orcs()], time_limit)
    for event in (Roll((1, 5)), Roll((6, 3)), ChooseFirst(first)):
        game = apply(game, event)
    return game


@pytest.fixture
def game() -> Game:
    return playing()


def run(game: Game, *events: object) -> Game:
    """The game after the events, in order."""
    for event in events:
        game = apply(game, event)  # type: ignore[arg-type]
    return game


def kinds(game: Game) -> list[tuple[str, int, int | None]]:
    """(kind, band, model) of each pending test."""
    return [(p.kind, p.band, p.model) for p in game.pending]
