"""The few OpenCV calls whose signature or return shape changed between versions, behind one wrapper.

Everything else in ``vision`` calls ``cv2`` directly; these are the calls that have bitten us
(``findContours`` returned three values in OpenCV 3 and two since 4; ``imdecode`` flags and thread
control are here so the benchmark and the command line set them in one place). Also the one reading of
``cv2.moments`` that the pip counter and the numeral reader share (``axis_variances``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np


def find_contours(mask: np.ndarray, *, external: bool = True) -> Sequence[np.ndarray]:
    """Contours of a binary uint8 mask (OpenCV 3, 4 and 5 alike).

    Parameters
    ----------
    mask : ndarray, shape (H, W), uint8
        Non-zero pixels are the objects. Not modified.
    external : bool
        Only the outer contours (``RETR_EXTERNAL``), else the whole list (``RETR_LIST``).
    """
    mode = cv2.RETR_EXTERNAL if external else cv2.RETR_LIST
    found = cv2.findContours(mask.copy(), mode, cv2.CHAIN_APPROX_SIMPLE)
    contours = found[0] if len(found) == 2 else found[1]
    return tuple(contours)


def component_outlines(mask: np.ndarray) -> Sequence[np.ndarray]:
    """The outer outline of every connected blob of a binary uint8 mask, blobs inside holes of other
    blobs included (``RETR_CCOMP``, keeping the contours that have no parent)."""
    found = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    contours, hierarchy = (found[0], found[1]) if len(found) == 2 else (found[1], found[2])
    if hierarchy is None:
        return ()
    parents = hierarchy.reshape(-1, 4)[:, 3]
    return tuple(c for c, parent in zip(contours, parents, strict=True) if parent < 0)


def decode_image(data: bytes) -> np.ndarray | None:
    """Decode an encoded image (JPEG, PNG, ...) to BGR uint8, or ``None`` if OpenCV cannot."""
    buffer = np.frombuffer(data, dtype=np.uint8)
    if buffer.size == 0:
        return None
    image = cv2.imdecode(buffer, cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        return None
    return np.asarray(image)


def set_threads(n: int) -> None:
    """Limit OpenCV's own worker threads (the benchmark measures one core)."""
    cv2.setNumThreads(n)


def axis_variances(mu20: float, mu02: float, mu11: float) -> tuple[float, float]:
    """The variances (largest first) of a shape along its two principal axes, from its central second moments
    divided by its area (``cv2.moments``' ``mu20 / m00`` and so on): a bar's largest is its length squared
    over 12, an ellipse's its semi-axis squared over 4."""
    common = math.sqrt(max(0.0, ((mu20 - mu02) / 2) ** 2 + mu11 * mu11))
    return (mu20 + mu02) / 2 + common, (mu20 + mu02) / 2 - common
