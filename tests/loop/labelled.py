"""A reader that knows the demo photos: the dice their authors labelled, for any frame showing one.

The loop tests check the wiring (camera -> settle -> reading -> session -> buttons -> log), so they read
the bundled photos through their labels rather than through vision's accuracy. ``serve --reader
tests.loop.labelled:read`` uses it in a subprocess. Frames are recognised by their decoded pixels.
"""

from __future__ import annotations

import functools
import hashlib
import json
from typing import Any

import cv2
import numpy as np

from companion.demo import DEMO_DIR


def _key(frame: np.ndarray) -> str:
    return hashlib.sha1(np.ascontiguousarray(frame).tobytes()).hexdigest()


@functools.cache
def labels() -> dict[str, dict[str, Any]]:
    """Frame digest -> the reading its labels stand for."""
    out = {}
    for image in json.loads((DEMO_DIR / "labels.json").read_text())["images"]:
        frame = cv2.imdecode(np.fromfile(DEMO_DIR / image["file"], np.uint8), cv2.IMREAD_COLOR)
        dice = [{"bbox": [round(v) for v in d["bbox"]], "sides": d["sides"], "value": d["value"],
                 "confidence": 1.0, "zone": d["zone"]} for d in image["dice"]]
        out[_key(frame)] = {"width": frame.shape[1], "height": frame.shape[0], "dice": dice, "tokens": [],
                            "file": image["file"]}
    return out


def read(frame: np.ndarray) -> dict[str, Any]:
    """The labelled reading of a demo photo; an empty reading for any other frame."""
    found = labels().get(_key(frame))
    if found is None:
        return {"width": frame.shape[1], "height": frame.shape[0], "dice": [], "tokens": []}
    return found
