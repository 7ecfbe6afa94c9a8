"""The die's outline seen from above, and which die types it rules out.

Masks are uint8 (H, W), nonzero on the die, and are never modified.

Two outlines are told apart by rules from the solids' geometry, not fitted to photos:

- a **barrel d4** (a long prism with rounded ends) is a long rounded rectangle: its area fills at least
  ``1 - (1 - pi/4) / aspect`` of its minimum-area rectangle (0.83 at aspect 1.3, even with fully round
  ends);
- a **d10** (pentagonal trapezohedron) lying on a face is a hexagon with two sharp ends: long, but its
  sharp ends leave the rectangle's corners empty (fill 0.70-0.82).

Every other outline (square d6, diamond d8, round d12 and d20, triangular d4) rules nothing out here:
the network's reading stands. ``Silhouette.cube_like`` (short and full: no tetrahedron's outline) lets
``vision.learned`` turn a d4 the type reader is not sure of.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np

from vision._cv import find_contours

__all__ = ["Silhouette", "side_weights", "silhouette"]

LONG: Final = 1.3
"""Aspect (long / short side of the minimum-area rectangle) from which an outline counts as a barrel."""
ROUNDED_RECT: Final = 0.84
"""Fill of the minimum-area rectangle from which a long outline is a rounded rectangle (a barrel d4)."""
KITE_ASPECT: Final = 1.18
KITE_FILL: Final = (0.68, 0.82)
"""A d10's outline: at least this long, and filling this much of its rectangle."""
CUBE_FILL: Final = 0.85
"""Fill of the minimum-area rectangle from which a short outline (aspect under ``LONG``) is no tetrahedron's:
a tetrahedron's outline is a triangle (half its rectangle) or, seen nearly along the line between two
opposite edges' midpoints, a quadrilateral; rendered tetrahedral d4s tilted 0-50 degrees fill 0.59
(median) to 0.83 (most) through the crop Vision II reads, d6s 0.93 (median). Real masks take in shadows and
glare, so it only turns an unsure d4 (``vision.learned``)."""
RULED_OUT: Final = 0.02
"""Weight left to a die type that the outline rules out (not zero: masks can be wrong)."""


@dataclass(frozen=True)
class Silhouette:
    """Shape numbers of a die's outline: ``aspect`` >= 1 of its minimum-area rectangle, ``fill`` the
    share of that rectangle the outline covers, ``area`` in pixels (0 for an empty mask)."""

    aspect: float
    fill: float
    area: float

    @property
    def cube_like(self) -> bool:
        """Short and full (``CUBE_FILL``): the outline of no tetrahedral d4 (a d6 seen from above is)."""
        return self.area > 0 and self.aspect < LONG and self.fill >= CUBE_FILL

    @property
    def shape(self) -> str:
        """'barrel', 'kite' or 'other' (see the module docstring)."""
        if self.area <= 0:
            return "other"
        if self.aspect >= LONG and self.fill >= ROUNDED_RECT:
            return "barrel"
        if self.aspect >= KITE_ASPECT and KITE_FILL[0] <= self.fill <= KITE_FILL[1]:
            return "kite"
        return "other"


def silhouette(mask: np.ndarray) -> Silhouette:
    """Shape numbers of the largest blob in ``mask`` (H, W), nonzero on the die.

    Returns
    -------
    Silhouette
        ``Silhouette(1.0, 0.0, 0.0)`` when the mask is empty.
    """
    m = (np.asarray(mask) > 0).astype(np.uint8)
    if m.ndim != 2:
        raise ValueError(f"mask must be a 2-D array, not shape {m.shape}")
    found = find_contours(m)
    if not found:
        return Silhouette(1.0, 0.0, 0.0)
    cnt = cv2.convexHull(max(found, key=cv2.contourArea))
    area = float(cv2.contourArea(cnt))
    (_, _), (rw, rh), _ = cv2.minAreaRect(cnt)
    if area <= 0 or min(rw, rh) <= 0:
        return Silhouette(1.0, 0.0, 0.0)
    return Silhouette(max(rw, rh) / min(rw, rh), area / (rw * rh), area)


def side_weights(sil: Silhouette) -> dict[int, float]:
    """Weight (0..1) per die type (by its sides) that the outline leaves: 1 where it says nothing.

    A barrel outline leaves only 4 sides; a kite outline rules out the d4 (a barrel's ends are round,
    a tetrahedron is a triangle) and the d6.
    """
    w = {s: 1.0 for s in (4, 6, 8, 10, 12, 20)}
    if sil.shape == "barrel":
        w = {s: (1.0 if s == 4 else RULED_OUT) for s in w}
    elif sil.shape == "kite":
        w[4] = w[6] = RULED_OUT
    return w
