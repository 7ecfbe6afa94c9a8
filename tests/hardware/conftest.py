"""Fixtures for the hardware tests: photo folders and videos written in tmp, a fake picamera2, mock pins."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import cv2
import numpy as np
import pytest


def solid(colour: tuple[int, int, int], size: tuple[int, int] = (48, 64)) -> np.ndarray:
    """A BGR image of one colour, (height, width) = size."""
    image = np.zeros((*size, 3), np.uint8)
    image[:] = colour
    return image


@pytest.fixture
def photo_folder(tmp_path: Path) -> Path:
    """Three PNG photos (blue, green, red), a corrupt JPEG between them, and a non-image file."""
    folder = tmp_path / "photos"
    (folder / "sub").mkdir(parents=True)
    cv2.imwrite(str(folder / "a.png"), solid((255, 0, 0)))
    (folder / "b.jpg").write_bytes(b"\xff\xd8 this is not a jpeg")
    cv2.imwrite(str(folder / "c.png"), solid((0, 255, 0)))
    cv2.imwrite(str(folder / "sub" / "d.png"), solid((0, 0, 255)))
    (folder / "labels.json").write_text("{}")
    return folder


@pytest.fixture
def video_file(tmp_path: Path) -> Path:
    """A 5-frame MJPG video whose frame i has brightness 40 * (i + 1)."""
    path = tmp_path / "roll.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5.0, (64, 48))
    assert writer.isOpened()
    for i in range(5):
        writer.write(solid((40 * (i + 1),) * 3))
    writer.release()
    return path


class FakePicamera2:
    """Just enough of picamera2.Picamera2 to record what our source asks of it."""

    cameras: ClassVar[list[dict[str, Any]]] = [{"Model": "imx477", "Id": "/base/soc/i2c0mux/i2c@1/imx477@1a"}]
    instances: ClassVar[list[FakePicamera2]] = []
    fail_capture = False
    #: a grey level for every pixel of the next frames (the light on the table), or None: a blue scene
    grey: int | None = None

    def __init__(self, camera_num: int = 0) -> None:
        self.camera_num = camera_num
        self.calls: list[tuple[str, Any]] = []
        self.config: dict[str, Any] | None = None
        self.started = False
        FakePicamera2.instances.append(self)

    @staticmethod
    def global_camera_info() -> list[dict[str, Any]]:
        return list(FakePicamera2.cameras)

    def _config(self, kind: str, main: dict[str, Any], buffer_count: int = 1) -> dict[str, Any]:
        return {"use_case": kind, "main": dict(main), "buffer_count": buffer_count}

    def create_still_configuration(self, main: dict[str, Any], buffer_count: int = 1) -> dict[str, Any]:
        return self._config("still", main, buffer_count)

    def create_video_configuration(self, main: dict[str, Any], buffer_count: int = 6) -> dict[str, Any]:
        return self._config("video", main, buffer_count)

    def configure(self, config: dict[str, Any]) -> None:
        self.calls.append(("configure", config))
        self.config = config

    def start(self) -> None:
        self.calls.append(("start", None))
        self.started = True

    def capture_metadata(self) -> dict[str, Any]:
        self.calls.append(("capture_metadata", None))
        return {"ExposureTime": 12345, "AnalogueGain": 2.5, "ColourGains": (1.8, 1.5), "Lux": 300.0}

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.calls.append(("set_controls", dict(controls)))

    def capture_array(self, name: str = "main") -> np.ndarray:
        self.calls.append(("capture_array", name))
        if FakePicamera2.fail_capture:
            raise RuntimeError("Camera frontend has timed out!")
        assert self.config is not None
        width, height = self.config["main"]["size"]
        # "RGB888" is B, G, R in memory: a pure blue scene has 255 in channel 0.
        if FakePicamera2.grey is not None:
            return np.full((height, width, 3), FakePicamera2.grey, np.uint8)
        image = np.zeros((height, width, 3), np.uint8)
        image[:, :, 0] = 255
        return image

    def stop(self) -> None:
        self.calls.append(("stop", None))
        self.started = False

    def close(self) -> None:
        self.calls.append(("close", None))


@pytest.fixture
def fake_picamera2(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[FakePicamera2]]:
    """A thin fake ``picamera2`` module in sys.modules, for this test only."""
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2  # type: ignore[attr-defined]
    FakePicamera2.instances = []
    FakePicamera2.cameras = [{"Model": "imx477", "Id": "/base/soc/i2c0mux/i2c@1/imx477@1a"}]
    FakePicamera2.fail_capture = False
    FakePicamera2.grey = None
    monkeypatch.setitem(sys.modules, "picamera2", module)
    yield FakePicamera2


@pytest.fixture
def no_picamera2(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``import picamera2`` fail, as on a laptop, even where it is installed."""
    monkeypatch.setitem(sys.modules, "picamera2", None)
