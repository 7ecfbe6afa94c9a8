"""picamera2 through a thin fake module, and choosing a camera by name or autodetection."""

from __future__ import annotations

import functools
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from hardware import camera as camera_module
from hardware import picam
from hardware.camera import CameraChoice, open_camera, parse_camera
from hardware.errors import CameraError, CameraFallback, UnknownCamera
from hardware.frames import CaptureLoop
from hardware.picam import PiCamera2Source, camera_count
from hardware.sources import OpenCVSource, ReplaySource
from tests.hardware.conftest import FakePicamera2
from vision.exposure import badly_exposed

ROOT = Path(__file__).resolve().parents[2]


def test_picamera2_is_configured_then_exposure_and_white_balance_locked_after_warmup(
    fake_picamera2: type[FakePicamera2],
) -> None:
    slept: list[float] = []
    source = PiCamera2Source(size=(1640, 1232), warmup=1.5, sleep=slept.append)
    with source:
        camera = fake_picamera2.instances[-1]
        assert camera.config == {"use_case": "still", "main": {"size": (1640, 1232), "format": "RGB888"},
                                 "buffer_count": 2}
        frame = source.read()
    names = [name for name, _ in camera.calls]
    assert names == [
        "configure", "start", "capture_metadata", "set_controls", "capture_array", "stop", "close"
    ]
    assert slept == [1.5]  # the warm-up happened before the metadata was read
    locked = camera.calls[3][1]
    assert locked == {"AeEnable": False, "AwbEnable": False, "ExposureTime": 12345, "AnalogueGain": 2.5,
                      "ColourGains": (1.8, 1.5)}
    assert source.locked_controls == locked
    # "RGB888" is BGR in memory: passed through, blue stays in channel 0.
    assert frame.shape == (1232, 1640, 3) and frame.dtype == np.uint8
    assert frame[0, 0].tolist() == [255, 0, 0]
    source.close()  # idempotent
    assert [name for name, _ in camera.calls].count("close") == 1


def test_picamera2_video_mode_without_lock(fake_picamera2: type[FakePicamera2]) -> None:
    with PiCamera2Source(1, mode="video", lock=False, controls={"AfMode": 0}, sleep=lambda s: None) as source:
        camera = fake_picamera2.instances[-1]
        assert camera.camera_num == 1 and camera.config is not None and camera.config["use_case"] == "video"
    assert [name for name, _ in camera.calls][:3] == ["configure", "set_controls", "start"]
    assert "capture_metadata" not in [name for name, _ in camera.calls]
    assert source.name == "picamera2:1"


def test_picamera2_capture_failure_is_a_camera_error_and_the_loop_retries(
    fake_picamera2: type[FakePicamera2],
) -> None:
    fake_picamera2.fail_capture = True
    source = PiCamera2Source(sleep=lambda s: None)
    loop = CaptureLoop(source, sleep=lambda s: None)
    assert not loop.step()
    assert loop.status.state == "lost" and "frontend has timed out" in (loop.status.error or "")
    fake_picamera2.fail_capture = False
    assert loop.step()
    assert loop.status.state == "ok"
    assert len(fake_picamera2.instances) == 2  # closed and reopened


def test_picamera2_missing_says_how_to_install_it(no_picamera2: None) -> None:
    with pytest.raises(CameraError, match="apt install python3-picamera2"):
        PiCamera2Source().open()
    assert camera_count() == 0


def test_picamera2_import_is_lazy() -> None:
    code = (
        "import sys, hardware.camera, hardware.frames, hardware.sources\n"
        "hardware.camera.parse_camera('picamera2')\n"
        "assert 'picamera2' not in sys.modules, 'imported too early'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("spec", "kind", "name"),
    [
        ("picamera2", PiCamera2Source, "picamera2"),
        ("picamera2:1", PiCamera2Source, "picamera2:1"),
        ("opencv", OpenCVSource, "opencv:0"),
        ("OpenCV:2", OpenCVSource, "opencv:2"),
        ("opencv:/dev/video4", OpenCVSource, "opencv:/dev/video4"),
        ("replay:/tmp/photos", ReplaySource, "replay:/tmp/photos"),
        ("replay", ReplaySource, "replay:/srv/default"),
    ],
)
def test_cameras_by_name(spec: str, kind: type, name: str) -> None:
    choice = open_camera(spec, replay_default="/srv/default")
    assert isinstance(choice, CameraChoice)
    assert isinstance(choice.source, kind) and choice.source.name == name
    assert spec in choice.reason


@pytest.mark.parametrize("spec", ["webcam", "picamera2:x", "opencv:", "replay", ""])
def test_unknown_camera_names_quote_the_name(spec: str) -> None:
    with pytest.raises(UnknownCamera) as info:
        open_camera(spec)
    assert repr(spec) in str(info.value)
    assert isinstance(info.value, ValueError)


def test_camera_name_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GOBLIN_CAMERA", f"replay:{tmp_path}")
    assert open_camera().source.name == f"replay:{tmp_path}"


def test_auto_prefers_picamera2_when_it_sees_a_camera(fake_picamera2: type[FakePicamera2]) -> None:
    choice = open_camera("auto", replay_default="/srv/default")
    assert isinstance(choice.source, PiCamera2Source)
    assert "picamera2 sees 1 camera" in choice.reason


def test_auto_falls_back_to_a_webcam_that_gives_frames(
    fake_picamera2: type[FakePicamera2], monkeypatch: pytest.MonkeyPatch, video_file: Path
) -> None:
    fake_picamera2.cameras = []
    monkeypatch.setattr(camera_module, "_video_devices", lambda: ["/dev/video0"])
    # Device 0 stands for the webcam; here it opens the video written in tmp.
    monkeypatch.setattr(camera_module, "OpenCVSource", lambda device: OpenCVSource(str(video_file)))
    choice = open_camera()
    assert isinstance(choice.source, OpenCVSource)
    assert "picamera2 sees 0 camera(s)" in choice.reason


def test_auto_with_no_camera_warns_and_replays_the_default(
    no_picamera2: None, monkeypatch: pytest.MonkeyPatch, photo_folder: Path
) -> None:
    monkeypatch.setattr(camera_module, "_video_devices", lambda: ["/dev/video0"])
    monkeypatch.setattr(camera_module, "OpenCVSource", lambda device: OpenCVSource("/nonexistent/video9"))
    with pytest.warns(CameraFallback, match="no camera found") as record:
        choice = open_camera("auto", replay_default=photo_folder)
    assert isinstance(choice.source, ReplaySource) and choice.source.path == photo_folder
    assert "OpenCV device 0" in str(record[0].message) and choice.reason == str(record[0].message)
    assert "picamera2 is not installed" in choice.reason


def test_auto_with_nothing_at_all_is_a_camera_error(
    no_picamera2: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(camera_module, "_video_devices", lambda: [])
    monkeypatch.setattr(camera_module.sys, "platform", "linux")
    with pytest.raises(CameraError, match=r"no /dev/video\* device"):
        open_camera("auto")


def _metering(camera: FakePicamera2) -> list[dict[str, Any]]:
    return [c for name, c in camera.calls if name == "set_controls"]


def test_a_locked_picamera2_meters_again_when_the_light_changes(fake_picamera2: type[FakePicamera2]) -> None:
    now = [100.0]
    source = PiCamera2Source(size=(320, 240), warmup=2.0, sleep=lambda s: None, clock=lambda: now[0],
                             light_check=badly_exposed)
    with source:
        camera = fake_picamera2.instances[-1]
        fake_picamera2.grey = 140                 # the light it locked on
        for _ in range(3 * picam.BAD_FRAMES):
            source.read()
        assert len(_metering(camera)) == 1 and source.remetered == 0
        fake_picamera2.grey = 255                 # a lamp switched on: every frame burnt white
        for _ in range(picam.BAD_FRAMES - 1):
            source.read()
        assert source.remetered == 0              # a white sheet passing over is not a change of light
        source.read()
        assert source.remetered == 1
        assert _metering(camera)[-1] == {"AeEnable": True, "AwbEnable": True}
        now[0] += 1.0
        source.read()                             # frames keep coming while it meters: no sleep, no lock
        assert len(_metering(camera)) == 2
        now[0] += 1.0
        frame = source.read()
        assert frame.shape == (240, 320, 3)
        locked = _metering(camera)[-1]            # locked anew on what the camera settled on
        assert locked["AeEnable"] is False and locked["ExposureTime"] == 12345
        assert source.locked_controls == locked
        # still burnt under automatic exposure (sun on a white table): not metered again within the minute
        for _ in range(3 * picam.BAD_FRAMES):
            now[0] += 0.5
            source.read()
        assert source.remetered == 1
        now[0] += picam.REMETER_EVERY
        for _ in range(picam.BAD_FRAMES):
            source.read()
        assert source.remetered == 2
        fake_picamera2.grey = 10                  # and the light switched off: too dark
    with source:                                  # opened again: counted, and metered, afresh
        assert source.remetered == 0
        for _ in range(picam.BAD_FRAMES):
            source.read()
        assert source.remetered == 1              # dark frames are a change of light too


def test_an_unlocked_picamera2_never_meters_again_and_a_saturated_colour_is_not_burnt(
        fake_picamera2: type[FakePicamera2]) -> None:
    fake_picamera2.grey = 255
    with PiCamera2Source(size=(320, 240), lock=False, sleep=lambda s: None,
                         light_check=badly_exposed) as source:
        for _ in range(2 * picam.BAD_FRAMES):
            source.read()
        assert source.remetered == 0
    fake_picamera2.grey = None                    # a pure blue scene: 255 in one channel only
    with PiCamera2Source(size=(320, 240), sleep=lambda s: None, light_check=badly_exposed) as source:
        for _ in range(2 * picam.BAD_FRAMES):
            source.read()
        assert source.remetered == 0


def test_the_light_check_reaches_the_pi_camera_by_name_and_a_camera_without_one_never_meters(
        fake_picamera2: type[FakePicamera2], monkeypatch: pytest.MonkeyPatch) -> None:
    # the real source, without its 2 s warm-up
    monkeypatch.setattr(picam, "PiCamera2Source", functools.partial(PiCamera2Source, size=(320, 240),
                                                                     sleep=lambda s: None))
    fake_picamera2.grey = 255
    seen: list[tuple[int, ...]] = []

    def check(frame: np.ndarray) -> bool:
        seen.append(frame.shape)
        return True

    with parse_camera("picamera2:0", light_check=check) as source:
        for _ in range(picam.BAD_FRAMES):
            source.read()
        assert source.remetered == 1 and seen[0] == (240, 320, 3)
    with open_camera("picamera2", light_check=check).source as source:
        for _ in range(picam.BAD_FRAMES):
            source.read()
        assert source.remetered == 1
    with PiCamera2Source(size=(320, 240), sleep=lambda s: None) as source:   # hardware knows no image rule
        for _ in range(2 * picam.BAD_FRAMES):
            source.read()
        assert source.remetered == 0
