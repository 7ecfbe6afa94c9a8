"""Replay and OpenCV sources, on photos and a video written in tmp."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hardware.errors import CameraError
from hardware.sources import CameraSource, OpenCVSource, ReplaySource, as_bgr


def colour(frame: np.ndarray) -> tuple[int, int, int]:
    b, g, r = (round(float(c)) for c in frame.reshape(-1, 3).mean(axis=0))
    return b, g, r


def test_replay_folder_sorted_loops_and_skips_the_corrupt_file_once(
        photo_folder: Path, caplog: pytest.LogCaptureFixture) -> None:
    with ReplaySource(photo_folder) as source:
        assert isinstance(source, CameraSource)
        assert [p.name for p in source.photos] == ["a.png", "b.jpg", "c.png", "d.png"]
        first, second = source.read(), source.read()
        third, fourth, fifth = source.read(), source.read(), source.read()  # no second line
    skipped = [r.getMessage() for r in caplog.records if "skipping" in r.getMessage()]
    assert len(skipped) == 1 and "b.jpg" in skipped[0], skipped
    assert colour(first) == (255, 0, 0)
    assert colour(second) == (0, 255, 0)
    assert colour(third) == (0, 0, 255)
    assert colour(fourth) == (255, 0, 0)  # looped
    assert colour(fifth) == (0, 255, 0)
    assert first.dtype == np.uint8 and first.shape == (48, 64, 3)


def test_replay_folder_without_loop_ends(photo_folder: Path) -> None:
    source = ReplaySource(photo_folder / "sub", loop=False)
    with source:
        source.read()
        with pytest.raises(CameraError, match="ended"):
            source.read()


def test_replay_holds_each_photo_for_photo_seconds_and_paces_frames(photo_folder: Path) -> None:
    now = [100.0]
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    source = ReplaySource(
        photo_folder / "sub", frame_interval=0.25, photo_seconds=1.0, clock=lambda: now[0], sleep=sleep
    )
    (photo_folder / "sub" / "e.png").write_bytes((photo_folder / "a.png").read_bytes())
    with source:
        frames = [colour(source.read()) for _ in range(6)]
        source.advance()
        after_advance = colour(source.read())
    red, blue = (0, 0, 255), (255, 0, 0)
    # Reads at t = 0, .25, .5, .75 show d.png; at 1.0 the photo changes to e.png.
    assert frames == [red, red, red, red, blue, blue]
    assert slept == [0.25] * 5 + [0.25]
    assert after_advance == red  # advanced past e.png, looped to d.png


def test_replay_of_a_folder_of_only_unreadable_files_is_a_camera_error(tmp_path: Path) -> None:
    (tmp_path / "x.jpg").write_bytes(b"")
    (tmp_path / "y.png").write_bytes(b"garbage")
    source = ReplaySource(tmp_path)
    source.open()
    with pytest.raises(CameraError, match="no readable"):
        source.read()
    source.close()


def test_replay_of_an_empty_or_missing_path_fails_to_open(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="no photos"):
        ReplaySource(tmp_path).open()
    with pytest.raises(CameraError, match="does not exist"):
        ReplaySource(tmp_path / "nope").open()


def test_replay_video_reads_frames_in_order_and_loops(video_file: Path) -> None:
    with ReplaySource(video_file) as source:
        assert source.is_video
        levels = [colour(source.read())[0] for _ in range(7)]
    # MJPG is lossy: allow a few levels of error.
    expected = [40, 80, 120, 160, 200, 40, 80]
    assert all(abs(a - b) <= 4 for a, b in zip(levels, expected, strict=True)), levels


def test_replay_video_without_loop_ends(video_file: Path) -> None:
    with ReplaySource(video_file, loop=False) as source:
        for _ in range(5):
            source.read()
        with pytest.raises(CameraError, match="ended"):
            source.read()


def test_replay_of_a_file_that_is_no_video_fails_to_open(tmp_path: Path) -> None:
    bogus = tmp_path / "clip.mp4"
    bogus.write_bytes(b"not a video at all")
    with pytest.raises(CameraError, match="cannot open video"):
        ReplaySource(bogus).open()


def test_opencv_source_reads_what_videocapture_opens(video_file: Path) -> None:
    # cv2.VideoCapture opens files as well as devices: the same code path as a webcam.
    with OpenCVSource(str(video_file)) as source:
        frame = source.read()
    assert frame.shape == (48, 64, 3) and frame.dtype == np.uint8
    assert source.name == f"opencv:{video_file}"


def test_opencv_source_that_does_not_open_is_a_camera_error(tmp_path: Path) -> None:
    source = OpenCVSource(str(tmp_path / "no-such-camera"))
    with pytest.raises(CameraError, match="cannot open"):
        source.open()
    with pytest.raises(CameraError, match="not open"):
        source.read()
    source.close()
    source.close()  # idempotent


def test_as_bgr_expands_grey_drops_alpha_and_rejects_the_rest() -> None:
    grey = np.full((2, 3), 7, np.uint8)
    assert as_bgr(grey).shape == (2, 3, 3)
    bgra = np.zeros((2, 3, 4), np.uint8)
    bgra[..., 0] = 9
    bgra[..., 3] = 255
    out = as_bgr(bgra)
    assert out.shape == (2, 3, 3) and out[0, 0].tolist() == [9, 0, 0]
    with pytest.raises(CameraError, match="uint8"):
        as_bgr(np.zeros((2, 3, 3), np.float32))
    with pytest.raises(CameraError, match="shape"):
        as_bgr(np.zeros((2, 3, 2), np.uint8))
