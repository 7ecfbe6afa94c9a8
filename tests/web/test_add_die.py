"""Adding a die the camera missed: the player taps where it lies on the picture and gives its type and
value. The reading is proposed again with it (manual), nothing is confirmed until CONFIRM, and a bad
place, type or value is refused with what was wrong and nothing changed."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.errors import InvalidInput
from companion.reading import MAX_OBJECTS
from companion.session import TableSession
from tests.web.test_api import error_of
from tests.web.test_fix_die import MIXED_SETUP, VALUES, tray


def missing_last() -> dict[str, Any]:
    """The camera's reading with Bruno's d6 (die 7, at 130, 300, 30 x 30) missed: nothing fits."""
    reading = tray()
    del reading["dice"][7]
    return reading


@pytest.fixture
def missed(client: FlaskClient, session: TableSession) -> TableSession:
    session.new_game("button-goblin", MIXED_SETUP)
    session.offer_reading(missing_last())
    return session


def test_a_missed_die_is_added_where_it_was_tapped_and_confirm_logs_it(
        client: FlaskClient, missed: TableSession) -> None:
    assert client.get("/api/state").json["proposal"] is None
    # the tap: a little off the die's centre (145, 315 of 640 x 480)
    state = client.post("/api/add-die", json={"x": 150 / 640, "y": 320 / 480, "sides": 6, "value": 2,
                                              "step": 0}).json
    assert state["step"] == 0, "adding confirms nothing"
    assert state["proposal"]["action"] == {"type": "reading", "values": VALUES}
    assert state["reading"]["seen"][7] == {"index": 7, "sides": 6, "value": 2, "zone": "p1", "manual": True}
    added = state["proposal"]["reading"]["dice"][7]
    # with no finder to look closer, a square the size of the other dice, centred on the tap
    assert added["bbox"] == [135, 305, 30, 30] and added["manual"] is True

    state = client.post("/api/confirm", json={"step": 0}).json
    assert state["step"] == 1 and state["history"][0]["manual"] is True
    exported = client.get("/api/export").json
    event = exported["events"][0] if "events" in exported else exported["games"][-1]["events"][0]
    assert event["reading"]["dice"][7]["bbox"] == [135, 305, 30, 30]


def test_the_finder_gives_the_box_and_the_zone_when_it_can(client: FlaskClient, missed: TableSession) -> None:
    asked = []

    def place(reading: Any, x: float, y: float) -> tuple[Any, Any]:
        asked.append((reading.width, round(x), round(y)))
        return (131, 302, 28, 29), "p1"

    missed.place_die = place
    state = client.post("/api/add-die", json={"x": 0.25, "y": 0.5, "sides": 6, "value": 2}).json
    assert asked == [(640, 160, 240)]
    assert state["proposal"]["reading"]["dice"][7]["bbox"] == [131, 302, 28, 29]

    def broken(reading: Any, x: float, y: float) -> tuple[Any, Any]:
        raise RuntimeError("the frame is gone")

    missed.place_die = broken  # looking closer fails: what the player said is still added
    state = client.post("/api/add-die", json={"x": 0.99, "y": 0.99, "sides": 8, "value": 8}).json
    assert state["reading"]["seen"][-1] == {"index": 8, "sides": 8, "value": 8, "zone": "p1", "manual": True}
    assert state["proposal"]["reading"]["dice"][-1]["bbox"] == [610, 450, 30, 30], "kept inside the frame"


@pytest.mark.parametrize(("body", "status", "code", "says"), [
    ({"x": 1.5, "y": 0.5, "sides": 6, "value": 2}, 400, "invalid-input", "two numbers from 0 to 1"),
    ({"x": "0.5", "y": 0.5, "sides": 6, "value": 2}, 400, "invalid-input", "not '0.5'"),
    ({"x": 0.5, "sides": 6, "value": 2}, 400, "invalid-input", "not None"),
    ({"x": True, "y": 0.5, "sides": 6, "value": 2}, 400, "invalid-input", "not True"),
    ({"x": 0.5, "y": 0.5, "sides": 7, "value": 2}, 400, "invalid-input", "not 7"),
    ({"x": 0.5, "y": 0.5, "sides": 6, "value": 0}, 400, "invalid-input", "a d6 shows 1..6, not 0"),
    ({"x": 0.5, "y": 0.5, "sides": 6}, 400, "invalid-input", "'value'"),
    ({"x": 0.5, "y": 0.5, "sides": 6, "value": 2, "step": 3}, 409, "stale-step", "step 3 is stale"),
])
def test_bad_additions_say_what_was_wrong_and_change_nothing(
        client: FlaskClient, missed: TableSession, body: dict[str, Any], status: int, code: str,
        says: str) -> None:
    before = client.get("/api/state").json
    assert says in error_of(client.post("/api/add-die", json=body), status, code)
    after = client.get("/api/state").json
    assert after["reading"] == before["reading"] and after["proposal"] == before["proposal"]


def test_nothing_read_yet_is_nothing_to_add_to(client: FlaskClient, session: TableSession) -> None:
    session.new_game("button-goblin", MIXED_SETUP)
    detail = error_of(client.post("/api/add-die", json={"x": 0.5, "y": 0.5, "sides": 6, "value": 1}),
                      409, "illegal-action")
    assert "read nothing" in detail


def test_a_reading_with_no_dice_gets_a_die_a_twelfth_of_the_frame(client: FlaskClient,
                                                                 session: TableSession) -> None:
    session.new_game("button-goblin", MIXED_SETUP)
    session.offer_reading({"width": 640, "height": 480, "dice": [], "tokens": []})
    state = client.post("/api/add-die", json={"x": 0, "y": 1, "sides": 6, "value": 3}).json
    assert state["proposal"] is None  # one die is not the whole roll
    assert state["reading"]["seen"] == [{"index": 0, "sides": 6, "value": 3, "zone": None, "manual": True}]
    assert session.snapshot()["reading"]["dice"] == 1


def test_a_full_reading_takes_no_more(session: TableSession) -> None:
    session.new_game("button-goblin", MIXED_SETUP)
    dice = [{"bbox": [0, 0, 4, 4], "sides": 6, "value": 1, "confidence": 0.9}] * MAX_OBJECTS
    session.offer_reading({"width": 640, "height": 480, "dice": dice, "tokens": []})
    with pytest.raises(InvalidInput, match=f"holds {MAX_OBJECTS} dice already"):
        session.add_die(0.5, 0.5, sides=6, value=1)
    assert session.snapshot()["reading"]["dice"] == MAX_OBJECTS
