"""The vision worker: one offer per still scene, never the old scene after a confirm, the LED's states."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.demo import DEMO_DIR, DEMO_SETUP
from companion.serve import VisionWorker, led_state, still_frames
from companion.session import TableSession
from companion.store import Store
from hardware.frames import FrameHolder
from hardware.sources import ReplaySource
from tests.loop import labelled


@pytest.fixture
def photos() -> list[np.ndarray]:
    with ReplaySource(DEMO_DIR, photo_seconds=None) as source:
        return [source.read() for _ in range(4)]


@pytest.fixture
def session(tmp_path: Path) -> TableSession:
    return TableSession(Store(tmp_path / "state"))


def show(worker: VisionWorker, frame: np.ndarray, times: int = 4) -> int:
    """Feed the same frame a few times (a still tray); how many readings were offered."""
    return sum(worker.feed(frame) for _ in range(times))


def test_one_offer_per_still_scene_and_not_the_old_scene_after_a_confirm(
        session: TableSession, photos: list[np.ndarray]) -> None:
    reads: list[Any] = []

    def reader(frame: np.ndarray) -> dict[str, Any]:
        reads.append(frame)
        return labelled.read(frame)

    worker = VisionWorker(session, FrameHolder(), reader=reader, settle=still_frames)
    assert show(worker, photos[0]) == 0  # no game: nothing is expected, only the picture is shown
    assert session.image() is not None and reads == []
    session.new_game("button-goblin", DEMO_SETUP)
    assert show(worker, photos[0]) == 1  # the dice already lying there are read once
    assert show(worker, photos[0], 10) == 0
    session.confirm()
    snap = session.snapshot()
    while snap["expects"] is None:  # decline focus, pick the first attack
        last = len(snap["choices"]) - 1
        snap = session.choose(last if snap["view"]["phase"] == "focus" else 0)
    assert snap["view"]["phase"] == "reroll"
    assert show(worker, photos[0], 10) == 0  # the old tray is not a re-roll
    assert show(worker, photos[1]) == 1 and session.snapshot()["proposal"] is not None
    session.confirm()
    assert session.snapshot()["view"]["phase"] in ("play", "over") and show(worker, photos[1]) == 0
    session.undo()
    assert show(worker, photos[1]) == 1  # after an undo the tray lying there is read again
    assert len(reads) == 3


def test_a_moving_tray_is_not_read(session: TableSession, photos: list[np.ndarray]) -> None:
    worker = VisionWorker(session, FrameHolder(), reader=labelled.read, settle=still_frames)
    session.new_game("button-goblin", DEMO_SETUP)
    offered = sum(worker.feed(photos[n % 2]) for n in range(12))  # the picture changes on every frame
    assert offered == 0 and session.snapshot()["proposal"] is None


def test_the_led_follows_the_snapshot() -> None:
    base = {"game": "button-goblin", "camera": {"state": "ok"}, "proposal": None, "selected": None,
            "over": False, "notice": None}
    assert led_state(base) == "waiting"
    assert led_state(base | {"proposal": {"action": {}}}) == "pending"
    assert led_state(base | {"selected": 2}) == "pending"
    assert led_state(base | {"camera": {"state": "lost"}, "proposal": {"action": {}}}) == "problem"
    assert led_state(base | {"game": None}) == "off"


def test_a_settled_scene_is_read_from_the_mean_of_its_still_frames(
        session: TableSession, photos: list[np.ndarray]) -> None:
    """A camera's noise differs frame to frame and the dice do not: the reader gets the mean of the scene's
    still frames (``vision.still_mean``), never a frame of the scene before the tray moved."""
    from vision import settle_step, still_mean

    reads: list[np.ndarray] = []

    def reader(frame: np.ndarray) -> dict[str, Any]:
        reads.append(frame)
        return {"width": frame.shape[1], "height": frame.shape[0], "dice": [], "tokens": []}

    rng = np.random.default_rng(5)

    def noisy(photo: np.ndarray) -> np.ndarray:
        return np.clip(photo + rng.normal(0, 12, photo.shape), 0, 255).astype(np.uint8)

    worker = VisionWorker(session, FrameHolder(), reader=reader, settle=settle_step)
    session.new_game("button-goblin", DEMO_SETUP)
    first = [noisy(photos[0]) for _ in range(6)]
    fed: list[np.ndarray] = []
    for frame in first:
        fed.append(frame)
        if worker.feed(frame):
            break
    assert len(reads) == 1 and 2 <= len(fed) <= 6
    assert np.array_equal(reads[0], still_mean(fed))
    error = np.abs(reads[0].astype(float) - photos[0]).mean()
    assert error < 0.7 * np.abs(fed[-1].astype(float) - photos[0]).mean()
    assert worker.last_read_frame is reads[0]          # what a confirm keeps is what was read
    session.new_game("button-goblin", DEMO_SETUP)      # the tray lying there is read again ...
    second = [noisy(photos[1]) for _ in range(16)]    # ... after it moves to another scene
    fed = []
    for frame in second:
        fed.append(frame)
        if worker.feed(frame):
            break
    assert len(reads) == 2
    assert np.array_equal(reads[1], still_mean(fed[-4:]))    # the new scene's frames alone
