"""The typed reading: vision's object reaches a flow's ``propose`` as is, and its JSON (what the event log
keeps, the page shows and ``scan`` prints) is the shape it always was."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import InvalidInput
from companion.reading import Die, TableReading, Token
from companion.serve import VisionWorker, still_frames
from companion.session import TableSession
from companion.store import Store
from hardware.frames import FrameHolder
from tests.web.conftest import D6_SETUP, FIRST_ROLL

# what vision/reading.py's to_json wrote before the type moved here (the event log holds thousands of these)
VISION_DIE = {"bbox": [12, 40, 31, 30], "sides": 6, "value": 4, "confidence": 0.971, "zone": "p0"}
VISION_D10 = {"bbox": [80, 41, 30, 30], "sides": 10, "value": 90, "confidence": 0.8, "zone": "p1",
              "percentile": True}
VISION_TOKEN = {"bbox": [200, 300, 40, 40], "face": "dead", "confidence": 0.5, "zone": "toss"}


def test_vision_readings_keep_their_json_to_the_byte() -> None:
    reading = TableReading(640, 480, (Die((12, 40, 31, 30), 6, 4, 0.97123, "p0"),
                                      Die((80, 41, 30, 30), 10, 90, 0.8, "p1", True)),
                           (Token((200, 300, 40, 40), "dead", 0.5, "toss"),))
    expected = {"width": 640, "height": 480, "dice": [VISION_DIE, VISION_D10], "tokens": [VISION_TOKEN]}
    assert json.dumps(reading.to_json()) == json.dumps(expected)
    zoned = reading.with_zones(("p0", "p1"))
    assert json.dumps(zoned.to_json()) == json.dumps({**expected, "zones": ["p0", "p1"]})
    assert reading.count_tokens() == {"dead": 1} and reading.values() == [4, 90]


def test_a_fixed_die_has_the_fields_the_correction_page_always_wrote() -> None:
    fixed = Die.from_json(VISION_DIE).fixed(8, 7).to_json()
    old = {**VISION_DIE, "sides": 8, "value": 7, "confidence": 1.0, "sides_confidence": 1.0,
           "value_confidence": 1.0, "manual": True}  # session.fix_die's dict before the type
    assert json.dumps(fixed) == json.dumps(old)


boxes = st.tuples(*[st.integers(0, 4000)] * 4)
confidences = st.integers(0, 1000).map(lambda n: n / 1000)
zones = st.none() | st.sampled_from(["p0", "p1", "toss", ""])
dice = st.builds(Die, boxes, st.none() | st.sampled_from([4, 6, 8, 10, 12, 20]),
                 st.none() | st.integers(0, 100), confidences, zones, st.booleans(),
                 st.none() | st.sampled_from(["king", "darth"]), st.none() | st.just(1.0),
                 st.none() | st.just(1.0), st.booleans())
tokens = st.builds(Token, boxes, st.none() | st.sampled_from(["alive", "dead"]), confidences, zones)
readings = st.builds(TableReading, st.integers(1, 4000), st.integers(1, 4000),
                     st.lists(dice, max_size=6).map(tuple), st.lists(tokens, max_size=6).map(tuple),
                     st.none() | st.lists(st.sampled_from(["p0", "p1", "toss"]), max_size=3).map(tuple),
                     st.none() | st.sampled_from(["burnt", "dark"]))


@settings(deadline=None, max_examples=200)
@given(readings)
def test_json_round_trip(reading: TableReading) -> None:
    text = json.dumps(reading.to_json())
    assert TableReading.from_json(json.loads(text)) == reading
    assert json.dumps(TableReading.from_json(json.loads(text)).to_json()) == text


def test_a_json_reading_without_zones_keeps_none() -> None:
    """A reading given as JSON (a --reader's) without zones stays without: nothing is made up."""
    unzoned = {"width": 64, "height": 48, "dice": [{"bbox": [1, 2, 3, 4], "sides": None, "value": None,
                                                    "confidence": 0.5}], "tokens": []}
    assert TableReading.from_json(unzoned).to_json() == unzoned


BOX = {"bbox": [1, 2, 3, 4], "confidence": 0.5}


@pytest.mark.parametrize(("bad", "words"), [
    ([1, 2], 'a reading is a JSON object with "dice" and "tokens", not [1, 2]'),
    ({"dice": "nonsense"}, "a reading's \"dice\" is a list of at most 1000 objects, not 'nonsense'"),
    ({"width": 6.5, "height": 4}, "a reading's \"width\" must be the frame's size in pixels, not 6.5"),
    ({"width": 64}, "a reading's \"height\" must be the frame's size in pixels, not None"),
    ({"dice": [{**BOX, "value": "4"}]}, "die 0: \"value\" must be a whole number or null, not '4'"),
    ({"dice": [{**BOX, "value": True}]}, "die 0: \"value\" must be a whole number or null, not True"),
    ({"dice": [BOX, {"bbox": [1, 2]}]}, 'die 1: "bbox" must be [x, y, w, h] in whole pixels, not [1, 2]'),
    ({"dice": [{"bbox": [1, 2, 3, 4]}]}, "die 0: \"confidence\" must be a number, not None"),
    ({"dice": [{**BOX, "confidence": float("nan")}]}, 'die 0: "confidence" must be a number, not nan'),
    ({"tokens": [{**BOX, "face": 3}]}, "token 0: \"face\" must be text or null, not 3"),
    ({"tokens": [7]}, "token 0 must be a JSON object, not 7"),
    ({"dice": [{**BOX, "manual": "yes"}]}, "die 0: \"manual\" must be true or false, not 'yes'"),
    ({"zones": "toss"}, "a reading's \"zones\" is a list of at most 64 zone names, not 'toss'"),
    ({"light": "bright"}, "a reading's \"light\" is one of burnt, dark or absent, not 'bright'"),
    ({"light": ["burnt"]}, "a reading's \"light\" is one of burnt, dark or absent, not ['burnt']"),
    ({"dice": [{}] * 1001}, "a reading's \"dice\" is a list of at most 1000 objects"),
])
def test_a_bad_json_reading_says_what_is_wrong_and_changes_nothing(
        session: TableSession, bad: Any, words: str) -> None:
    session.new_game("button-goblin", D6_SETUP, archive=True)
    before = session.snapshot()
    with pytest.raises(InvalidInput) as caught:
        session.offer_reading(bad if not isinstance(bad, dict) or "width" in bad
                              else {"width": 64, "height": 48, **bad})
    assert words in str(caught.value)
    assert session.snapshot() == before


def vision_tray() -> TableReading:
    """FIRST_ROLL as vision makes it: one d6 per slot, in its player's zone, left to right."""
    return TableReading(640, 480, tuple(
        Die((10 + 40 * n, 10, 30, 30), 6, value, 0.93, key.split(".")[0])
        for n, (key, value) in enumerate(sorted(FIRST_ROLL.items()))))


class Spy:
    """A frame reader that is vision for the worker (returns a TableReading), and the flow around the
    game's own that records what ``propose`` was handed."""

    def __init__(self, session: TableSession) -> None:
        self.given: list[Any] = []
        flow = session._flow
        assert flow is not None
        original = flow.propose

        def propose(state: Any, reading: Any) -> Any:
            self.given.append(reading)
            return original(state, reading)

        self.restore = lambda: setattr(flow, "propose", original)
        flow.propose = propose  # type: ignore[method-assign]


def test_the_worker_hands_visions_object_to_the_flow_and_stores_its_json_once(tmp_path: Path) -> None:
    path = tmp_path / "companion.sqlite3"
    made = vision_tray()
    with Store(path) as store:
        session = TableSession(store)
        session.new_game("button-goblin", D6_SETUP)
        spy = Spy(session)
        try:
            worker = VisionWorker(session, FrameHolder(), reader=lambda frame: made, settle=still_frames,
                                  zones=lambda: {"p0": [], "p1": []})
            frame = np.zeros((48, 64, 3), np.uint8)
            assert sum(worker.feed(frame) for _ in range(5)) == 1
        finally:
            spy.restore()
        assert len(spy.given) == 1 and isinstance(spy.given[0], TableReading)
        assert spy.given[0].dice is made.dice and spy.given[0].zones == ("p0", "p1")  # the same dice
        snap = session.confirm()
        assert snap["step"] == 1
    expected = {**made.to_json(), "zones": ["p0", "p1"]}
    with sqlite3.connect(path) as db:
        (text,) = db.execute("SELECT reading FROM events").fetchone()
    assert text == json.dumps(expected, sort_keys=True, separators=(",", ":"))


def test_optional_keys_are_written_only_when_set_and_in_order() -> None:
    from companion.jsonvalues import present

    assert present(zone=None, value=0, manual=False, face="6") == {"value": 0, "manual": False, "face": "6"}
    assert list(present(b=1, a=2)) == ["b", "a"]
