"""Whether a frame's exposure fits the light: burnt white (a lamp switched on over a camera that locked its
exposure, a phone's flash on a white tray) or dark (the lamp switched off).

Both the reader and the Pi camera use it. ``vision.table.read_table`` names it in the reading's ``light``
(the page tells the players: over-exposed, the reader finds 7-8 points fewer dice on aws and matteop65).
The companion gives ``badly_exposed`` to the Pi camera source (``hardware.picam.PiCamera2Source``'s
``light_check``), which meters again after some such frames in a row. The reading's confidences are not
capped in such a frame: measured, the over-exposed sure mistakes lie in frames it does not flag
(docs/vision.md, "Seventy-fourth session").

Measured on every real photo (``benchmarks/exposure_check.py --every 1``): no photo as shot is flagged
(matteop65 0 of 396, nell-byler 0 of 250, aws 0 of 290); over-exposed (x1.6 + 20, clipped) 389, 250 and
136 are; dimmed to 0.35 none are.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.reading import Light

#: A frame is burnt when more than this share of its pixels is white in every channel (``WHITE`` or more),
BURNT_SHARE = 0.2
WHITE = 250
#: ... and dark when the 99th percentile of its brightest channel is under this. Read on one pixel in
#: ``STEP`` each way (nearest, by OpenCV: 0.1 ms for a 2028x1520 frame, 0.5 ms for 12 MP on one core here;
#: numpy's strided view and percentile took 5 and 17 ms).
DARK_P99 = 40
STEP = 8


def light(frame: np.ndarray) -> Light | None:
    """``"burnt"`` or ``"dark"`` when ``frame`` (BGR or grey, uint8) is exposed for another light
    (``BURNT_SHARE``, ``DARK_P99``), else None (also for an empty frame)."""
    if frame.size == 0:
        return None
    h, w = frame.shape[:2]
    sample = cv2.resize(frame, (max(1, w // STEP), max(1, h // STEP)), interpolation=cv2.INTER_NEAREST)
    if sample.ndim == 2 or sample.shape[2] == 1:
        low = high = sample.reshape(sample.shape[:2])
    else:
        channels = cv2.split(sample)
        low, high = channels[0], channels[0]
        for c in channels[1:]:
            low, high = cv2.min(low, c), cv2.max(high, c)
    if np.count_nonzero(low >= WHITE) > BURNT_SHARE * low.size:
        return "burnt"
    counts = np.cumsum(np.bincount(high.ravel(), minlength=256))
    p99 = int(np.searchsorted(counts, 0.99 * counts[-1]))
    return "dark" if p99 < DARK_P99 else None


def badly_exposed(frame: np.ndarray) -> bool:
    """Whether ``light(frame)`` is burnt or dark."""
    return light(frame) is not None
