"""A replay folder that empties or disappears is a lost camera with the reason, and comes back by itself
when photos return; a photo that cannot be read is one clean log line, never a Python warning."""

from __future__ import annotations

import logging
import os
import shutil
import warnings
from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware.frames import CaptureLoop
from hardware.sources import ReplaySource


def solid(bgr: tuple[int, int, int]) -> np.ndarray:
    image = np.zeros((48, 64, 3), np.uint8)
    image[:] = bgr
    return image


def write(path: Path, bgr: tuple[int, int, int]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    assert cv2.imwrite(str(path), solid(bgr))


def colour(loop: CaptureLoop) -> tuple[int, ...]:
    latest = loop.holder.latest()
    assert latest is not None
    return tuple(int(c) for c in latest[1][0, 0])


def looped(folder: Path) -> CaptureLoop:
    # each photo held for a long time, as in serve (photo_seconds=5): the same photo is shown read after read
    return CaptureLoop(ReplaySource(folder, photo_seconds=3600.0), sleep=lambda s: None)


BLUE, RED = (255, 0, 0), (0, 0, 255)


def test_an_emptied_folder_is_lost_with_the_reason_and_comes_back_when_photos_return(tmp_path: Path) -> None:
    folder = tmp_path / "photos"
    write(folder / "a.png", BLUE)
    write(folder / "b.png", BLUE)
    loop = looped(folder)
    assert loop.step() and loop.status.state == "ok" and colour(loop) == BLUE
    for photo in folder.iterdir():
        photo.unlink()
    assert not loop.step()  # the photo on show went: no stale frame, the camera is lost
    status = loop.status
    reason = status.error or ""
    assert status.state == "lost" and "no photos" in reason and str(folder) in reason
    assert (status.code, status.where) == ("replay-empty", str(folder))  # for the page to say in Italian
    assert status.to_dict()["code"] == "replay-empty"
    assert not loop.step() and loop.status.attempts == 2  # still nothing: retried, still lost
    write(folder / "c.png", RED)
    assert loop.step() and loop.status.state == "ok" and colour(loop) == RED


def test_a_deleted_folder_is_lost_with_the_reason_and_comes_back(tmp_path: Path) -> None:
    folder = tmp_path / "photos"
    write(folder / "a.png", BLUE)
    loop = looped(folder)
    assert loop.step()
    shutil.rmtree(folder)
    assert not loop.step()
    assert loop.status.state == "lost" and "does not exist" in (loop.status.error or "")
    assert loop.status.code == "replay-missing" and loop.status.where == str(folder)
    write(folder / "sub" / "z.png", RED)
    assert loop.step() and loop.status.state == "ok" and colour(loop) == RED


def test_a_photo_changed_on_disk_is_read_again(tmp_path: Path) -> None:
    folder = tmp_path / "photos"
    write(folder / "a.png", BLUE)
    source = ReplaySource(folder, photo_seconds=3600.0)
    with source:
        assert tuple(source.read()[0, 0]) == BLUE
        write(folder / "a.png", RED)
        os.utime(folder / "a.png", ns=(1, 1))
        assert tuple(source.read()[0, 0]) == RED


def test_photos_added_are_shown_from_the_next_round(tmp_path: Path) -> None:
    folder = tmp_path / "photos"
    write(folder / "a.png", BLUE)
    with ReplaySource(folder) as source:
        source.read()
        write(folder / "b.png", RED)
        assert [tuple(source.read()[0, 0]) for _ in range(2)] == [BLUE, RED]


def test_a_skipped_photo_is_one_log_line_not_a_python_warning(tmp_path: Path,
                                                               caplog: pytest.LogCaptureFixture) -> None:
    folder = tmp_path / "photos"
    write(folder / "a.png", BLUE)
    (folder / "b.jpg").write_bytes(b"\xff\xd8 not a jpeg")
    # a 7000x7000 photo (by its header) is refused before decoding, and said why
    header = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + (7000).to_bytes(4, "big") * 2 + b"\x08\x02"
    (folder / "c.png").write_bytes(header)
    with warnings.catch_warnings(record=True) as caught, caplog.at_level(logging.WARNING, "hardware"):
        warnings.simplefilter("always")
        with ReplaySource(folder) as source:
            frames = [tuple(source.read()[0, 0]) for _ in range(4)]
    assert frames == [BLUE] * 4 and caught == []
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2, lines
    assert "b.jpg" in lines[0] and "c.png" in lines[1] and "7000x7000 pixels" in lines[1]


def test_a_phones_48_mp_photo_is_replayed_at_half_its_size(tmp_path: Path) -> None:
    # 8000x6000: over the 16.8 MP a frame may hold, so decoded at half its size by libjpeg, never whole
    folder = tmp_path / "photos"
    folder.mkdir()
    big = np.zeros((6000, 8000, 3), np.uint8)
    big[:] = RED
    big[:, 4000:] = BLUE
    assert cv2.imwrite(str(folder / "phone.jpg"), big)
    del big
    with ReplaySource(folder) as source:
        frame = source.read()
    assert frame.shape == (3000, 4000, 3)
    assert np.abs(frame[1500, 1000].astype(int) - RED).max() < 8
    assert np.abs(frame[1500, 3000].astype(int) - BLUE).max() < 8
