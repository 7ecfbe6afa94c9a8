"""``vision.finder.found_at``: the box of a die a person says lies at a place the finder passed over."""

from __future__ import annotations

import json

import cv2
import numpy as np

from companion.demo import DEMO_DIR
from vision.finder import found_at


def test_a_die_is_boxed_from_a_place_off_its_centre() -> None:
    image = json.loads((DEMO_DIR / "labels.json").read_text())["images"][1]
    frame = cv2.imread(str(DEMO_DIR / image["file"]))
    sides = sorted(max(d["bbox"][2:]) for d in image["dice"])
    boxed = 0
    for die in image["dice"]:
        x, y, w, h = die["bbox"]
        found = found_at(frame, x + 0.75 * w, y + 0.7 * h, side=sides[len(sides) // 2])
        if found is not None:
            boxed += abs(found.cx - x - w / 2) <= 0.2 * w and abs(found.cy - y - h / 2) <= 0.2 * h
    assert boxed >= len(image["dice"]) - 1, (boxed, len(image["dice"]))


def test_a_place_outside_the_frame_or_a_blank_table_gives_nothing() -> None:
    frame = np.full((480, 640, 3), 180, np.uint8)
    assert found_at(frame, -5, 10) is None and found_at(frame, 10, 481) is None
    assert found_at(frame, 320, 240) is None and found_at(frame, 320, 240, side=40) is None
    assert found_at(frame[:6, :6], 3, 3, side=40) is None  # smaller than any die
