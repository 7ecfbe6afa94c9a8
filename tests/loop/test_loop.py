"""The loop end to end without a browser: replayed photos, the real SQLite file, gpiozero's mock pins."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from companion.config import Config, LedConfig
from companion.demo import DEMO_DIR, DEMO_SETUP
from companion.serve import Companion, led_state
from tests.helpers import Clock, wait_until
from tests.loop import labelled
from tests.loop.conftest import still


class Table:
    """The companion as the players meet it: buttons on mock pins, the replayed camera, the session."""

    def __init__(self, companion: Companion, factory: MockFactory, clock: Clock) -> None:
        self.companion = companion
        self.session = companion.session
        self.factory = factory
        self.clock = clock

    def press(self, button: str, seconds: float = 0.1) -> None:
        pin = self.factory.pin(getattr(self.companion.config.buttons, button))
        pin.drive_low()
        self.clock.now += seconds
        self.companion.buttons.poll()
        pin.drive_high()
        self.clock.now += 0.2

    def roll(self) -> None:
        """The players roll: the replay shows the next photo."""
        self.companion.capture.source.advance()

    def wait_for_proposal(self) -> dict[str, Any]:
        return wait_until(lambda: (s := self.session.snapshot())["proposal"] is not None and s)  # type: ignore[no-any-return]


@pytest.fixture
def make_table(tmp_path: Path, mock_factory: MockFactory) -> Iterator[Callable[[], Table]]:
    made: list[Companion] = []
    clock = Clock()

    def make() -> Table:
        config = replace(Config(), state_dir=str(tmp_path / "state"), led=LedConfig(pin=23),
                         camera=replace(Config().camera, frame_interval=0.02, photo_seconds=1000.0))
        companion = Companion(config, camera=f"replay:{DEMO_DIR}", reader=labelled.read, settle=still,
                              pin_factory=mock_factory, button_clock=clock, button_poll=None, web=False)
        made.append(companion)
        return Table(companion.start(), mock_factory, clock)

    yield make
    for companion in made:
        companion.close()


def test_a_round_at_the_table_with_buttons_and_the_camera(make_table: Callable[[], Table]) -> None:
    table = make_table()
    session = table.session
    session.new_game("button-goblin", DEMO_SETUP)

    # the first photo is read and proposed; the LED blinks; CONFIRM accepts it
    snap = table.wait_for_proposal()
    assert snap["step"] == 0 and snap["image"] is True and session.image()[:2] == b"\xff\xd8"  # type: ignore[index]
    photo = next(r for r in labelled.labels().values() if r["file"] == "table_01.jpg")
    values = sorted(snap["proposal"]["action"]["values"].values())
    assert values == sorted(d["value"] for d in photo["dice"])
    wait_until(lambda: table.companion.led.state == "pending")
    table.press("confirm")
    snap = session.snapshot()
    assert snap["step"] == 1 and snap["history"][0]["source"] == "camera" and not snap["history"][0]["manual"]
    wait_until(lambda: table.companion.led.state == "waiting")

    # the same photo is not proposed again for the next reading: only a new roll is
    steps = 0
    while not session.snapshot()["view"]["rounds"] and steps < 200:
        snap = session.snapshot()
        steps += 1
        if snap["expects"] is not None:
            time.sleep(0.1)
            assert session.snapshot()["proposal"] is None  # the tray has not changed yet
            table.roll()
            try:
                table.wait_for_proposal()
            except AssertionError:  # the photo does not fit: the players type the values
                slots = snap["expects"]["slots"]
                session.correct({"type": "reading", "values": {s["key"]: s["low"] for s in slots}})
                continue
            table.press("confirm")
        elif snap["view"]["phase"] == "focus":
            session.choose(len(snap["choices"]) - 1, step=snap["step"])  # the page: no focus
        else:  # NEXT twice (if there is a second attack) then CONFIRM
            table.press("next")
            if len(snap["choices"]) > 1:
                table.press("next")
            chosen = session.snapshot()["choices"][session.snapshot()["selected"]]["action"]
            table.press("confirm")
            assert session.snapshot()["history"][-1]["action"] == chosen
    view = session.snapshot()["view"]
    assert len(view["rounds"]) == 1
    score = view["rounds"][0]["scores"]
    at = session.step
    sources = {h["source"] for h in session.snapshot()["history"]}
    assert sources >= {"camera", "choice"}
    camera_steps = [h for h in session.snapshot()["history"] if h["source"] == "camera"]
    assert len(camera_steps) >= 3  # the first roll and at least two re-rolls were read by the camera

    # UNDO must be held: a short press does nothing, a long one takes back the round's last pass
    table.press("undo", 0.3)
    assert session.step == at
    table.press("undo", 2.0)
    assert session.step == at - 1 and not session.snapshot()["view"]["rounds"]
    redo = session.snapshot()
    session.choose(0, step=redo["step"])
    assert session.snapshot()["view"]["rounds"][0]["scores"] == score

    # a restart (same state directory) stands at exactly the same step, with the same score
    table.companion.close()
    again = make_table()
    snap = again.session.snapshot()
    assert snap["step"] == at and snap["view"]["rounds"][0]["scores"] == score
    assert led_state(snap) in ("waiting", "pending")


def test_the_real_vision_reads_the_first_demo_roll_and_confirm_takes_it(
    tmp_path: Path, mock_factory: MockFactory
) -> None:
    """No labels here: the bundled photo goes through vision's settle detection and pip reader."""
    clock = Clock()
    config = replace(Config(), state_dir=str(tmp_path / "state"), led=LedConfig(pin=23),
                     camera=replace(Config().camera, frame_interval=0.02, photo_seconds=1000.0))
    companion = Companion(config, camera=f"replay:{DEMO_DIR}", pin_factory=mock_factory, button_clock=clock,
                          button_poll=None, web=False)
    try:
        table = Table(companion.start(), mock_factory, clock)
        table.session.new_game("button-goblin", DEMO_SETUP)
        snap = table.wait_for_proposal()
        photo = next(r for r in labelled.labels().values() if r["file"] == "table_01.jpg")
        proposed = snap["proposal"]["action"]["values"]
        # the pip reader reads every die of the demo photo right (tests/vision/test_demo_photos.py),
        # each in its player's half
        for player in ("p0", "p1"):
            labelled_values = Counter(d["value"] for d in photo["dice"] if d["zone"] == player)
            read = Counter(v for k, v in proposed.items() if k.startswith(player + "."))
            assert read == labelled_values, (player, proposed, photo["dice"])
        assert len(proposed) == 8, proposed
        table.press("confirm")
        after = table.session.snapshot()
        assert after["step"] == 1 and after["history"][0]["action"]["values"] == proposed
    finally:
        companion.close()
