"""Teach-mode fixtures: drawn tokens (vision/synth.py renders: a goblin head, a skull; there are no real
token photos) written to real image files, and a real state directory."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.helpers import Camera
from vision import synth

PLACES = [(110, 120), (320, 110), (520, 130), (210, 350), (430, 360)]


def tray(faces: list[str], *, seed: int = 0, kind: str = "felt", gain: float = 1.0) -> np.ndarray:
    """A 640x480 tray with one drawn token per face, at ``PLACES``, turned differently."""
    img = synth.tray(kind=kind, seed=seed)
    for (x, y), face in zip(PLACES, faces, strict=False):
        synth.draw_token(img, x, y, 76, face, angle=41 * seed + x / 3)
    return synth.lighting(img, gain=gain, gradient=0.2, noise=2.0, seed=seed)


def write(path: Path, image: np.ndarray) -> Path:
    assert cv2.imwrite(str(path), image)
    return path


@pytest.fixture
def photos(tmp_path: Path) -> dict[str, Path]:
    """Image files: three alive tokens, three dead ones, an empty tray, a mixed table, a corrupt file."""
    folder = tmp_path / "photos"
    folder.mkdir()
    corrupt = folder / "corrupt.jpg"
    corrupt.write_bytes(b"\xff\xd8\xff\xe0 not really a jpeg")
    return {
        "alive": write(folder / "alive.png", tray(["alive"] * 3, seed=1)),
        "dead": write(folder / "dead.jpg", tray(["dead"] * 3, seed=2)),
        "empty": write(folder / "empty.png", synth.tray(seed=3)),
        "mixed": write(folder / "mixed.png", tray(["alive", "dead", "dead", "alive", "alive"], seed=7,
                                                  kind="wood", gain=0.85)),
        "corrupt": corrupt,
    }


@pytest.fixture
def camera() -> Camera:
    return Camera()
