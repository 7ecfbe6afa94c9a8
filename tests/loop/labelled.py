"""A reader that knows the demo photos: the dice their authors labelled, for any frame showing one.

The loop tests check the wiring (camera -> settle -> reading -> session -> buttons -> log), so they read
the bundled photos through their labels rather than through vision's accuracy. ``serve --reader
tests.loop.labelled:read`` uses it in a subprocess. Frames are recognised by their decoded pixels.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.demo import DEMO_DIR


def frame_key(frame: np.ndarray) -> str:
    """A frame's digest: the same decoded pixels, the same key."""
    return hashlib.sha1(np.ascontiguousarray(frame).tobytes()).hexdigest()


def labelled_frames(folder: Path) -> Iterator[tuple[np.ndarray, dict[str, Any]]]:
    """Each photo ``folder/labels.json`` lists, decoded (BGR), with its labels."""
    for image in json.loads((folder / "labels.json").read_text())["images"]:
        yield cv2.imdecode(np.fromfile(folder / image["file"], np.uint8), cv2.IMREAD_COLOR), image


@functools.cache
def labels() -> dict[str, dict[str, Any]]:
    """Frame digest -> the reading its labels stand for."""
    out = {}
    for frame, image in labelled_frames(DEMO_DIR):
        dice = [{"bbox": [round(v) for v in d["bbox"]], "sides": d["sides"], "value": d["value"],
                 "confidence": 1.0, "zone": d["zone"]} for d in image["dice"]]
        out[frame_key(frame)] = {"width": frame.shape[1], "height": frame.shape[0], "dice": dice,
                                 "tokens": [], "file": image["file"]}
    return out


def read(frame: np.ndarray) -> dict[str, Any]:
    """The labelled reading of a demo photo; an empty reading for any other frame."""
    found = labels().get(frame_key(frame))
    if found is None:
        return {"width": frame.shape[1], "height": frame.shape[0], "dice": [], "tokens": []}
    return found
