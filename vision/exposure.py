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

from typing import Literal

import numpy as np

#: A frame is burnt when more than this share of its pixels is white in every channel (``WHITE`` or more),
BURNT_SHARE = 0.2
WHITE = 250
#: ... and dark when the 99th percentile of its brightest channel is under this. Read on every ``STEP``-th
#: pixel of every ``STEP``-th row: 1/64 of the frame, so a 12 MP frame costs a few ms.
DARK_P99 = 40
STEP = 8

Light = Literal["burnt", "dark"]


def light(frame: np.ndarray) -> Light | None:
    """``"burnt"`` or ``"dark"`` when ``frame`` (BGR, uint8) is exposed for another light (``BURNT_SHARE``,
    ``DARK_P99``), else None (also for an empty frame)."""
    sample = frame[::STEP, ::STEP]
    if sample.size == 0:
        return None
    if sample.ndim == 2:
        sample = sample[:, :, None]
    if float((sample.min(axis=2) >= WHITE).mean()) > BURNT_SHARE:
        return "burnt"
    return "dark" if float(np.percentile(sample.max(axis=2), 99)) < DARK_P99 else None


def badly_exposed(frame: np.ndarray) -> bool:
    """Whether ``light(frame)`` is burnt or dark."""
    return light(frame) is not None
