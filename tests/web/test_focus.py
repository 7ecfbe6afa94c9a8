"""``GET /api/focus``: the focus figure of the camera's latest frame (``companion.focus.FocusMeter`` over a
real ``hardware.frames.FrameHolder`` and real photos), worked out once per frame; 404 without a camera."""

from __future__ import annotations

import threading

import cv2
import numpy as np
import pytest

from companion.demo import DEMO_DIR
from companion.focus import FocusMeter
from companion.session import TableSession
from hardware.frames import FrameHolder
from vision import sharpness
from web import create_app


@pytest.fixture()
def photo():
    return cv2.imread(str(sorted(DEMO_DIR.glob("*.jpg"))[0]))


class Counted:
    """``vision.sharpness``, counting the frames it measured."""

    def __init__(self) -> None:
        self.calls = 0
        self.lock = threading.Lock()

    def __call__(self, frame):
        with self.lock:
            self.calls += 1
        return sharpness(frame)


def test_the_figure_of_the_latest_frame_once_per_frame(session: TableSession, photo) -> None:
    holder, counted = FrameHolder(), Counted()
    client = create_app(session=session, focus=FocusMeter(holder.latest, counted)).test_client()
    assert client.get("/api/focus").get_json() == {"frame": None, "sharpness": None, "edges": 0}
    first = holder.put(photo)
    sharp = client.get("/api/focus")
    assert sharp.headers["Cache-Control"] == "no-store"
    assert sharp.get_json() == {"frame": first, **sharpness(photo).to_json()}
    answers = []
    phones = [threading.Thread(target=lambda: answers.append(client.get("/api/focus").get_json()))
              for _ in range(8)]
    for phone in phones:
        phone.start()
    for phone in phones:
        phone.join()
    assert answers == [sharp.get_json()] * 8 and counted.calls == 1   # phones asking together share one
    second = holder.put(cv2.GaussianBlur(photo, (0, 0), 1.5))
    soft = client.get("/api/focus").get_json()
    assert soft["frame"] == second and counted.calls == 2
    assert soft["sharpness"] < 0.8 * sharp.get_json()["sharpness"]


def test_a_frame_that_is_no_picture_is_said_and_the_next_one_measured(session: TableSession, photo) -> None:
    holder = FrameHolder()
    client = create_app(session=session, focus=FocusMeter(holder.latest)).test_client()
    broken = holder.put(photo[:, :, 0])              # one channel: what a misconfigured camera sends
    answer = client.get("/api/focus")
    assert answer.status_code == 200
    said = answer.get_json()
    assert said["frame"] == broken and said["sharpness"] is None
    assert "expected shape (H, W, 3)" in said["error"]
    good = holder.put(photo)
    assert client.get("/api/focus").get_json() == {"frame": good, **sharpness(photo).to_json()}


def test_the_measured_square_is_shown_at_full_resolution(session: TableSession) -> None:
    from companion.serve import encode_jpeg

    holder = FrameHolder()
    client = create_app(session=session, focus=FocusMeter(holder.latest, encode=encode_jpeg)).test_client()
    missing = client.get("/api/focus.jpg")
    assert missing.status_code == 404 and "no picture to show yet" in missing.get_json()["detail"]
    big = np.random.default_rng(5).integers(0, 256, (1520, 2028, 3), dtype=np.uint8)
    big[::2, ::2] = 255                                         # detail a shrunk picture would lose
    first = holder.put(big)
    shown = client.get("/api/focus.jpg")
    assert shown.status_code == 200 and shown.mimetype == "image/jpeg"
    assert shown.headers["X-Frame"] == str(first) and shown.headers["Cache-Control"] == "no-store"
    image = cv2.imdecode(np.frombuffer(shown.data, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape == (1024, 1024, 3)
    y, x = (1520 - 1024) // 2, (2028 - 1024) // 2
    assert np.abs(image.astype(int) - big[y:y + 1024, x:x + 1024]).mean() < 40   # that square, not resized
    holder.put(big[:, :, 0].copy())
    assert client.get("/api/focus.jpg").status_code == 404                        # no picture: nothing shown


def test_no_camera_no_focus(session: TableSession) -> None:
    client = create_app(session=session).test_client()
    for path in ("/api/focus", "/api/focus.jpg"):
        response = client.get(path)
        assert response.status_code == 404
        assert response.get_json()["error"] == "not-found"
        assert "no camera to focus" in response.get_json()["detail"]
