"""Fixtures for the dice tests: Pig (tests/pig, one d6 a roll) registered as a game, at a real table."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.games import GAMES, GameEntry
from companion.session import TableSession
from web import create_app

PIG: dict[str, Any] = {"players": ["Anna", "Bruno"], "target": 100_000}


@pytest.fixture
def pig(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(GAMES, "pig", GameEntry("tests.pig", "Pig: a test game"))
    yield


def roll(session: TableSession, value: int, *, sides: int = 6) -> dict[str, Any]:
    """The camera reads one die showing ``value``; a person confirms it."""
    die = {"bbox": [0, 0, 9, 9], "sides": sides, "value": value, "confidence": 0.9, "zone": "p0"}
    snap = session.offer_reading({"width": 64, "height": 48, "dice": [die], "tokens": []})
    assert snap["proposal"] is not None, snap["reading"]
    return session.confirm()


def pig_rolls(session: TableSession, values: list[int]) -> None:
    for value in values:
        roll(session, value)


def seeded(seed: int, weights: list[float], n: int) -> list[int]:
    rng = random.Random(seed)
    return rng.choices(range(1, len(weights) + 1), weights=weights, k=n)


@pytest.fixture
def client(session: TableSession) -> FlaskClient:
    """The page's app over the session, with a table PIN."""
    return create_app({"TESTING": True, "TABLE_PIN": "97531"}, session=session).test_client()
