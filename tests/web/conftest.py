"""Fixtures for the web tests: a real TableSession over a real SQLite file, the app, its test client."""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.session import TableSession
from tests.helpers import Clock
from web import create_app

#: Two Lobo buttons with every swing die a d6: the whole match is d6s (plus each button's d0).
D6_SETUP: dict[str, Any] = {"players": [
    {"name": "Anna", "button": "Lobo", "swing": {"X": 6, "W": 6, "Y": 6}},
    {"name": "Bruno", "button": "Lobo", "swing": {"X": 6, "W": 6, "Y": 6}},
]}

#: A fixed first roll (slot -> value) for D6_SETUP that leaves attacks to choose from.
FIRST_ROLL = {"p0.1": 2, "p0.2": 5, "p0.3": 6, "p0.4": 3, "p1.1": 4, "p1.2": 1, "p1.3": 6, "p1.4": 2}


def camera_reading(values: dict[str, int]) -> dict[str, Any]:
    """A vision-shaped reading of the tray with one d6 per slot, in its player's zone."""
    dice = [{"bbox": [10 + 40 * n, 10, 30, 30], "sides": 6, "value": v, "confidence": 0.95,
             "zone": key.split(".")[0]} for n, (key, v) in enumerate(sorted(values.items()))]
    return {"width": 640, "height": 480, "dice": dice, "tokens": []}


def play_step(session: TableSession, rng: random.Random) -> dict[str, Any]:
    """One step of a seeded game: a random reading of what is expected, confirmed, or a random choice."""
    snap = session.snapshot()
    expects = snap["expects"]
    if expects is not None and expects["kind"] == "dice":
        values = {s["key"]: rng.randint(s["low"], s["high"]) for s in expects["slots"]}
        return session.correct({"type": "reading", "values": values}, step=snap["step"])
    if expects is not None:
        count = expects["count"] or 3
        dead = rng.randint(0, count)
        return session.correct({"type": "reading", "alive": count - dead, "dead": dead}, step=snap["step"])
    assert snap["choices"], snap["view"]
    return session.choose(rng.randrange(len(snap["choices"])), step=snap["step"])


@pytest.fixture
def config() -> dict[str, Any]:
    return {"TESTING": True, "SSE_HEARTBEAT": 0.2, "SSE_MAX_SECONDS": 1.5}


@pytest.fixture
def app(session: TableSession, config: dict[str, Any]) -> Flask:
    settings = {"port": 8080, "pin": "97531", "zones": {"p0": [[0, 0], [0.5, 0], [0.5, 1], [0, 1]]},
                "buttons": {"confirm": 17}, "led": {"pin": 23}}
    return create_app(config, session=session, settings=settings)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def playing(client: FlaskClient, session: TableSession) -> TableSession:
    """A Button Goblin match whose first roll the camera has read (a proposal, nothing confirmed)."""
    response = client.post("/api/new-game", json={"game": "button-goblin", "setup": D6_SETUP})
    assert response.status_code == 200, response.json
    session.offer_reading(camera_reading(FIRST_ROLL), image=b"\xff\xd8fake-jpeg\xff\xd9")
    assert session.snapshot()["proposal"] is not None
    return session


@pytest.fixture
def attacking(client: FlaskClient, playing: TableSession) -> TableSession:
    """The same match with the roll confirmed: attacks to choose from."""
    response = client.post("/api/confirm", json={"step": 0})
    assert response.status_code == 200, response.json
    assert response.json["view"]["phase"] == "play"
    assert response.json["choices"]
    return playing


@pytest.fixture
def clock() -> Clock:
    return Clock()
