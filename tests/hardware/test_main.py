"""python3 -m hardware: checking a camera and the buttons by hand."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hardware", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **env},
    )


def test_camera_reads_one_frame_and_saves_a_snapshot(photo_folder: Path, tmp_path: Path) -> None:
    snapshot = tmp_path / "shot.png"
    done = run("camera", f"replay:{photo_folder / 'sub'}", "--snapshot", str(snapshot))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["camera"] == f"replay:{photo_folder / 'sub'}"
    assert (result["width"], result["height"]) == (64, 48)
    assert cv2.imread(str(snapshot))[0, 0].tolist() == [0, 0, 255]


def test_bad_camera_names_and_missing_cameras_exit_2_with_one_line(tmp_path: Path) -> None:
    for args in (("camera", "webcam"), ("camera", f"replay:{tmp_path / 'none'}"), ("lamp",)):
        done = run(*args)
        assert done.returncode == 2 and done.stdout == ""
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "'webcam'" in run("camera", "webcam").stderr


def test_buttons_on_mock_pins_report_the_backend() -> None:
    done = run("buttons", "--seconds", "0.05", "--led", GPIOZERO_PIN_FACTORY="mock")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == {"backend": "MockFactory", "events": 0}


def test_buttons_on_one_pin_exit_2() -> None:
    done = run("buttons", "--confirm", "5", "--next", "5", GPIOZERO_PIN_FACTORY="mock")
    assert done.returncode == 2 and "three different pins" in done.stderr
