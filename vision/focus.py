"""How sharp the camera's picture is: the figure the settings page shows while the lens is being focused.

``sharpness(frame)`` compares the frame's strongest edges at two scales: the gradient of the picture
as it is (a 3x3 Gaussian against sensor noise) and of the picture blurred by ``COARSE_SIGMA`` px, over the
pixels whose blurred gradient is in the top ``EDGE_SHARE`` of the middle square (``MIDDLE_SIDE`` px
a side, at the camera's full resolution: shrinking the frame would hide the very blur being measured).
An edge that is sharp is much steeper as it is than blurred; an edge already blurred by the lens changes
little. The ratio does not depend on the edge's contrast (a pale die on white or a black one on felt),
and barely on noise: measured on photos of four sets (nell-byler, aws, matteop65, burks), as shot it is
2.1-2.6; blurred by 0.75 px about 0.86 of that, by 1.5 px about 0.69, and noise of sigma 12 moves it by
2% or less. So the page shows it against the best seen while the lens turns: the focus is right at the
top. The figure is no verdict by itself: a photo of few, soft edges (an empty tray's seams) reads 1.6 in
focus, so the page compares it with the best seen, never with a fixed bar.

A frame with too few edges (an empty white tray) has no figure: ``edges`` is False and the page asks for
a die in the middle of the tray.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.table import check_frame

#: the side of the middle square measured, full resolution (about 1 MP: a few ms on one core)
MIDDLE_SIDE = 1024
#: px of the coarse blur the picture is compared with
COARSE_SIGMA = 2.0
#: share of the middle square's pixels, strongest blurred gradient first, that are measured
EDGE_SHARE = 0.01
#: what a Sobel gradient of the blurred picture must reach for a pixel to count as an edge: above the
#: camera's noise (a flat grey picture with noise of sigma 12 reaches 23 at most on 1 MP), under an edge
#: of 20 grey levels; so the edges measured are the same whether the dice stand out much or little
EDGE_LEAST = 25.0
#: edge pixels needed for a figure (a die of 20 px across has about 60)
EDGES_NEEDED = 50


@dataclass(frozen=True)
class Focus:
    """``sharpness``: the ratio of the edges' steepness as seen to blurred (higher is sharper; None
    without edges); ``edges``: how many pixels were measured."""

    sharpness: float | None
    edges: int

    def to_json(self) -> dict[str, Any]:
        return {"sharpness": None if self.sharpness is None else round(self.sharpness, 3),
                "edges": self.edges}


def _steepness(grey: np.ndarray) -> np.ndarray:
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1)
    return cv2.magnitude(gx, gy)


def middle(frame: np.ndarray) -> np.ndarray:
    """The part of ``frame`` that is measured: its middle square of ``MIDDLE_SIDE`` px (all of a smaller
    side), at full resolution (a view, not a copy); raises ``InvalidVisionInput`` for what is not a frame."""
    frame = check_frame(frame)
    h, w = frame.shape[:2]
    y, x = max(0, (h - MIDDLE_SIDE) // 2), max(0, (w - MIDDLE_SIDE) // 2)
    return frame[y:y + MIDDLE_SIDE, x:x + MIDDLE_SIDE]


def sharpness(frame: np.ndarray) -> Focus:
    """The focus figure of ``frame`` (BGR uint8); raises ``InvalidVisionInput`` for what is not a frame."""
    grey = cv2.cvtColor(middle(frame), cv2.COLOR_BGR2GRAY).astype(np.float32)
    coarse = _steepness(cv2.GaussianBlur(grey, (0, 0), COARSE_SIGMA))
    fine = cv2.dilate(_steepness(cv2.GaussianBlur(grey, (3, 3), 0)), np.ones((3, 3), np.uint8))
    flat = coarse.ravel()
    n = max(1, int(flat.size * EDGE_SHARE))
    least = max(EDGE_LEAST, float(np.partition(flat, flat.size - n)[flat.size - n]))
    edges = coarse >= least
    count = int(np.count_nonzero(edges))
    if count < EDGES_NEEDED:
        return Focus(None, count)
    return Focus(float(fine[edges].mean() / coarse[edges].mean()), count)
