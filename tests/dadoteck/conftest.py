"""Helpers for the Dadoteck tests: positions built by playing notation, and movement positions."""

from __future__ import annotations

import pytest

from companion.dadoteck import Game, apply, new_game, parse_event, validate


def play(game: Game, *moves: str) -> Game:
    """Apply events given in notation, e.g. ``play(g, "roll 0 12", "square 14")``."""
    for move in moves:
        game = apply(game, parse_event(move))
    return game


def moving(squares: list[int | None], order: list[int], *, cursor: int = 0, **fields: object) -> Game:
    """A position in the movement phase of turn 1: pawns on ``squares`` (None: out), moving in ``order``."""
    from companion.dadoteck import Elimination

    names = tuple("ABCDEFGHIJKLMNOPQRST"[: len(squares)])
    elims = tuple(Elimination(p, 1, "squashed") for p, s in enumerate(squares) if s is None)
    game = Game(
        players=names,
        squares=tuple(squares),
        phase="movement",
        turn=1,
        eliminations=elims,
        groups=tuple((p,) for p in order),
        order=tuple(order),
        cursor=cursor,
        **fields,  # type: ignore[arg-type]
    )
    validate(game)
    return game


@pytest.fixture
def four() -> Game:
    return new_game(["A", "B", "C", "D"])
