"""Helpers for the GobCon tests."""

from __future__ import annotations

import pytest

from companion.gobcon import Game, Payoff, PlayPartita, apply, event_from_json, new_game

TABLE = Payoff.parse("K+3 G+1 B+0 D-1")


def play(game: Game, *events: dict[str, object]) -> Game:
    """Apply events given as JSON objects."""
    for e in events:
        game = apply(game, event_from_json(e, game.players))
    return game


def partita(game: Game, category: str = "board", payoff: Payoff = TABLE, name: str = "Risiko") -> Game:
    return apply(game, PlayPartita(name, category, payoff))  # type: ignore[arg-type]


def card(player: int, kind: str, name: str, gp: int = 0, category: str | None = None,
         effect: str | None = None, amount: int = 1) -> dict[str, object]:  # fmt: skip
    return {"type": "card", "player": player, "kind": kind, "name": name, "gp": gp, "category": category,
            "effect": effect, "amount": amount}  # fmt: skip


def roll(player: int, face: str) -> dict[str, object]:
    return {"type": "roll", "player": player, "face": face}


def join(player: int, yes: bool = True) -> dict[str, object]:
    return {"type": "declare", "player": player, "join": yes}


@pytest.fixture
def three() -> Game:
    return new_game(["Anna", "Bruno", "Carla"])
