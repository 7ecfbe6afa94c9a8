"""End-to-end fixtures: a real table (SQLite file, TableSession, Flask app served on a free port), the
replay camera feeding the vision worker, the GPIO buttons on gpiozero's mock pins, and one headless
Debian chromium per test module with a phone-sized page.

The camera reads the bundled real photos (``photos/``, attribution in ``photos/ATTRIBUTION.md``) through
their authors' labels, like ``tests/loop/labelled.py`` does for the demo photos: these tests check the
path camera -> worker -> session -> page -> buttons -> log, not vision's accuracy.
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from werkzeug.serving import make_server

from companion.serve import VisionWorker, still_frames, wire_buttons
from companion.session import TableSession
from companion.store import Store
from hardware.buttons import TableButtons
from hardware.frames import FrameHolder
from hardware.sources import ReplaySource
from tests.helpers import Clock, phone_context
from tests.loop.labelled import frame_key, labelled_frames
from web import create_app

PHOTOS = Path(__file__).with_name("photos")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PINS = {"confirm": 17, "next": 27, "undo": 22}


@functools.cache
def _labels() -> dict[str, dict[str, Any]]:
    """Frame digest -> the reading the photo's labels stand for (vision's JSON shape)."""
    out = {}
    for frame, image in labelled_frames(PHOTOS):
        height, width = frame.shape[:2]
        dice = [{"bbox": d["bbox"] or [width // 3, height // 3, width // 3, height // 3], "sides": d["sides"],
                 "value": d["value"], "confidence": 0.97, "zone": None} for d in image["dice"]]
        out[frame_key(frame)] = {"width": width, "height": height, "dice": dice, "tokens": []}
    return out


def labelled_read(frame: np.ndarray) -> dict[str, Any]:
    """The labelled reading of a bundled photo; an empty reading for any other frame."""
    found = _labels().get(frame_key(frame))
    if found is None:
        return {"width": frame.shape[1], "height": frame.shape[0], "dice": [], "tokens": []}
    return json.loads(json.dumps(found))


def photo(name: str) -> np.ndarray:
    """One bundled photo as the replay camera hands it out (BGR uint8)."""
    with ReplaySource(PHOTOS / name, photo_seconds=None) as source:
        return source.read()


@dataclass
class Table:
    """Everything at the table: the session, the camera worker, the buttons and the served page."""

    session: TableSession
    worker: VisionWorker
    buttons: TableButtons
    factory: MockFactory
    clock: Clock
    url: str

    def show(self, frame: np.ndarray, times: int = 6) -> int:
        """A hand rolls over the tray, then the camera sees ``frame`` still for a few frames; how many
        readings were offered."""
        self.worker.feed(255 - frame)  # the tray moves: the next still scene is a new one
        return sum(self.worker.feed(frame) for _ in range(times))

    def set_up(self, page: Any, game: str, players: Sequence[str] = (), names: str = "#players") -> None:
        """Open ``game``'s setup page and type the ``players``' names into its ``names`` list (a third and
        later player gets a row of its own: the form starts with two)."""
        page.goto(f"{self.url}/setup?game={game}")
        boxes = page.locator(f"{names} [name=player-name]")
        for i, name in enumerate(players):
            if i >= 2:
                page.click(f"{names} + .row button:last-child")
            boxes.nth(i).fill(name)

    def start(self, page: Any, ready: str) -> None:
        """Start the game set up on ``page`` and wait for the table page to show ``ready``."""
        page.click("#start")
        page.wait_for_url(f"{self.url}/")
        page.wait_for_selector(ready)

    def press(self, name: str) -> None:
        """Press and release a GPIO button (pins to ground: low is pressed)."""
        pin = self.factory.pin(PINS[name])
        pin.drive_low()
        self.clock.now += 0.2
        pin.drive_high()
        self.clock.now += 1.0


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    store = Store(tmp_path / "state" / "companion.sqlite3")
    session = TableSession(store)
    app = create_app({"TESTING": True, "SSE_HEARTBEAT": 0.5, "SSE_MAX_SECONDS": 5.0}, session=session)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="e2e-web", daemon=True)
    thread.start()
    factory = MockFactory()
    clock = Clock(100.0)
    buttons = TableButtons(**PINS, poll_interval=None, clock=clock, pin_factory=factory)
    wire_buttons(buttons, session)
    worker = VisionWorker(session, FrameHolder(), reader=labelled_read, settle=still_frames)
    try:
        yield Table(session, worker, buttons, factory, clock, f"http://127.0.0.1:{server.server_port}")
    finally:
        buttons.close()
        factory.reset()
        Device.pin_factory = None
        server.shutdown()
        thread.join(5)
        store.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = phone_context(browser)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_default_timeout(8000)
    yield page
    context.close()
    assert not errors, errors


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def wait_step(page: Any, step: int) -> None:
    """Wait until the page shows the snapshot of ``step`` (it arrives over the live stream)."""
    page.wait_for_function("(n) => window.goblin.state && window.goblin.state.step >= n", arg=step)
