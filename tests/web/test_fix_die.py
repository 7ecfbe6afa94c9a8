"""Fixing a die the camera saw: its type or value, or that it is no die at all. The reading is proposed
again with the fix, nothing is confirmed until CONFIRM, and CONFIRM then logs it as manual."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.session import TableSession
from tests.web.test_api import error_of

#: Two Lobo buttons with swing X=8, W=10, Y=6: each player rolls d0, d8, d8, d10, d6 (the d0 is not read).
MIXED_SETUP = {"players": [{"name": "Anna", "button": "Lobo", "swing": {"X": 8, "W": 10, "Y": 6}},
                           {"name": "Bruno", "button": "Lobo", "swing": {"X": 8, "W": 10, "Y": 6}}]}
ROLL = [(8, 3), (8, 7), (10, 9), (6, 2)]
VALUES = {"p0.1": 3, "p0.2": 7, "p0.3": 9, "p0.4": 2, "p1.1": 3, "p1.2": 7, "p1.3": 9, "p1.4": 2}


def tray(**changes: dict[str, Any]) -> dict[str, Any]:
    """The camera's reading of both players' dice; ``d2={"sides": 12}`` changes die 2 (p0's d10)."""
    dice = [{"bbox": [10 + 40 * n, 10 if zone == "p0" else 300, 30, 30], "sides": sides, "value": value,
             "confidence": 0.95, "zone": zone}
            for zone in ("p0", "p1") for n, (sides, value) in enumerate(ROLL)]
    for name, change in changes.items():
        dice[int(name[1:])].update(change)
    return {"width": 640, "height": 480, "dice": dice, "tokens": []}


@pytest.fixture
def misread(client: FlaskClient, session: TableSession) -> TableSession:
    """Anna's d10 was read as a d12 showing 9: the reading fits no die of the match."""
    session.new_game("button-goblin", MIXED_SETUP)
    session.offer_reading(tray(d2={"sides": 12}))
    return session


def test_a_misread_type_is_fixed_and_confirm_logs_it_as_manual(
        client: FlaskClient, misread: TableSession) -> None:
    state = client.get("/api/state").json
    assert state["proposal"] is None and state["reading"]["fits"] is False
    assert state["reading"]["seen"][2] == {"index": 2, "sides": 12, "value": 9, "zone": "p0", "manual": False}

    state = client.post("/api/fix-die", json={"index": 2, "sides": 10, "value": 9, "step": 0}).json
    assert state["step"] == 0, "a fix confirms nothing"
    assert state["proposal"]["action"] == {"type": "reading", "values": VALUES}
    assert state["reading"]["seen"][2] == {"index": 2, "sides": 10, "value": 9, "zone": "p0", "manual": True}

    state = client.post("/api/confirm", json={"step": 0}).json
    assert state["step"] == 1
    assert state["history"][0]["action"] == {"type": "reading", "values": VALUES}
    assert state["history"][0]["manual"] is True
    exported = client.get("/api/export").json
    event = exported["events"][0] if "events" in exported else exported["games"][-1]["events"][0]
    assert event["reading"]["dice"][2]["manual"] is True


def test_a_misread_value_is_fixed(client: FlaskClient, session: TableSession) -> None:
    session.new_game("button-goblin", MIXED_SETUP)
    session.offer_reading(tray(d4={"value": 1}))
    assert session.snapshot()["proposal"]["action"]["values"]["p1.1"] == 1
    state = client.post("/api/fix-die", json={"index": 4, "sides": 8, "value": 3}).json
    assert state["proposal"]["action"] == {"type": "reading", "values": VALUES}


def test_a_phantom_die_is_taken_away(client: FlaskClient, session: TableSession) -> None:
    session.new_game("button-goblin", MIXED_SETUP)
    reading = tray()  # a d6-like speck in Bruno's zone, seen before his real d6
    reading["dice"].insert(4, {"bbox": [600, 440, 20, 20], "sides": 6, "value": 5, "confidence": 0.95,
                               "zone": "p1"})
    session.offer_reading(reading)
    assert session.snapshot()["proposal"]["action"]["values"]["p1.4"] == 5
    state = client.post("/api/fix-die", json={"index": 4, "remove": True}).json
    assert len(state["reading"]["seen"]) == 8
    assert state["proposal"]["action"] == {"type": "reading", "values": VALUES}


@pytest.mark.parametrize(("body", "status", "code", "says"), [
    ({"index": 9, "sides": 10, "value": 9}, 400, "invalid-input", "no die 9: the camera saw 8 dice (0..7)"),
    ({"index": 2, "sides": 10, "value": 11}, 400, "invalid-input", "a d10 shows 1..10, not 11"),
    ({"index": 2, "sides": 7, "value": 3}, 400, "invalid-input", "not 7"),
    ({"index": 2, "sides": 10}, 400, "invalid-input", "'value'"),
    ({"index": "2", "sides": 10, "value": 9}, 400, "invalid-input", "'index' must be an integer"),
    ({"index": 2, "remove": "yes"}, 400, "invalid-input", "\"remove\" must be true or false"),
    ({"index": 2, "sides": 10, "value": 9, "step": 3}, 409, "stale-step", "step 3 is stale"),
])
def test_bad_fixes_say_what_was_wrong_and_change_nothing(
        client: FlaskClient, misread: TableSession, body: dict[str, Any], status: int, code: str,
        says: str) -> None:
    before = client.get("/api/state").json
    assert says in error_of(client.post("/api/fix-die", json=body), status, code)
    after = client.get("/api/state").json
    assert after["reading"] == before["reading"] and after["proposal"] == before["proposal"]


def test_nothing_read_yet_is_nothing_to_fix(client: FlaskClient, session: TableSession) -> None:
    session.new_game("button-goblin", MIXED_SETUP)
    detail = error_of(client.post("/api/fix-die", json={"index": 0, "sides": 8, "value": 3}),
                      409, "illegal-action")
    assert "read nothing" in detail


def test_a_new_camera_reading_replaces_the_fix(client: FlaskClient, misread: TableSession) -> None:
    client.post("/api/fix-die", json={"index": 2, "sides": 10, "value": 9})
    misread.offer_reading(tray(d2={"sides": 12}))
    state = client.get("/api/state").json
    assert state["proposal"] is None and state["reading"]["fixed"] is False
