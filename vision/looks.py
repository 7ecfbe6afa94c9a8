"""What a die looks like: the colour of its body, to tell the players' named dice apart on the tray.

A *look* is three numbers of the die's central region (the middle half of its box, where the body shows
around the numerals or pips, which are a minority of the pixels and do not move a median): its median
brightness relative to the tray just around it (50: as bright as the tray there) and its median
chromaticity ``r = R / (R + G + B)``, ``g = G / (R + G + B)`` (times 100). Two dice of the same sides
are told apart by colour, never by the face they show: the face reader's embedding is trained to tell
faces apart, and sees a red d20's 17 and a blue d20's 17 alike.

The light over the tray (a lamp, a shadow, the camera's exposure) scales the pixel values: the
chromaticity does not move, and neither does the brightness measured against the tray next to the die
(an absolute lightness does: a white die at 70% exposure reads as a grey one; and L*a*b* chroma shrinks
by a third, which is why it is not used). The tray must be the one the dice were taught on. Lightness
tells a white die from a grey or a black one; :func:`look_distance` weighs it at
:data:`LIGHTNESS_WEIGHT` and the chromaticity at :data:`CHROMA_WEIGHT`.

Images are BGR uint8 HxWx3, never modified; boxes are ``(x, y, w, h)`` in frame pixels (as
``vision.reading.Die.bbox``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from vision.errors import InvalidVisionInput

#: How much a unit of lightness (L*) counts in :func:`look_distance`.
LIGHTNESS_WEIGHT = 0.35
#: How much a unit of chromaticity (r or g times 100) counts in :func:`look_distance`.
CHROMA_WEIGHT = 1.5
#: The nearest taught die must be at most this far (weighted units of :func:`look_distance`)...
MATCH = 22.0
#: ...and nearer than the second nearest die by this much; else nobody knows which die it was.
MARGIN = 8.0

Look = tuple[float, float, float]


def die_look(frame: np.ndarray, bbox: Sequence[float]) -> Look:
    """The look of the die whose box is ``bbox`` in ``frame``.

    Parameters
    ----------
    frame : ndarray, shape (H, W, 3), uint8
        BGR image, not modified.
    bbox : (x, y, w, h)
        The die's box in frame pixels; clipped to the frame.

    Returns
    -------
    (lightness, r, g)
        The middle half of the box's median brightness, 50 times its ratio to the median brightness of
        the ring around the box (from 1.3 to 1.8 times its size: the tray), and its median
        chromaticities ``R/(R+G+B)``, ``G/(R+G+B)`` (times 100).
    """
    if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise InvalidVisionInput("frame: expected a BGR uint8 array of shape (H, W, 3)")
    if len(bbox) != 4 or not all(np.isfinite(float(v)) for v in bbox):
        raise InvalidVisionInput(f"bbox: expected (x, y, w, h), got {bbox!r}")
    x, y, w, h = (float(v) for v in bbox)
    height, width = frame.shape[:2]
    if w <= 0 or h <= 0:
        raise InvalidVisionInput(f"bbox: a box has a width and a height, got {bbox!r}")
    x0, y0 = round(x + w / 4), round(y + h / 4)
    x1, y1 = max(round(x + 3 * w / 4), x0 + 1), max(round(y + 3 * h / 4), y0 + 1)
    x0, x1, y0, y1 = max(0, x0), min(width, x1), max(0, y0), min(height, y1)
    if x1 <= x0 or y1 <= y0:
        raise InvalidVisionInput(f"bbox: {bbox!r} is not inside the {width}x{height} frame")
    bgr = frame[y0:y1, x0:x1].reshape(-1, 3).astype(np.float64) + 1.0  # +1: black has a (grey) chromaticity
    total = bgr.sum(axis=1)
    r, g = bgr[:, 2] / total * 100.0, bgr[:, 1] / total * 100.0
    tray = _ring(frame, x + w / 2, y + h / 2, max(w, h))
    brightness = float(np.median(total)) / max(3.0, tray) * 50.0
    return brightness, float(np.median(r)), float(np.median(g))


def _ring(frame: np.ndarray, cx: float, cy: float, side: float) -> float:
    """Median brightness (B + G + R + 3) of the square ring from 1.3 to 1.8 times ``side`` around the
    centre, inside the frame; of the whole frame when the ring falls outside it."""
    height, width = frame.shape[:2]
    outer, inner = 0.9 * side, 0.65 * side
    x0, x1 = max(0, int(cx - outer)), min(width, int(cx + outer) + 1)
    y0, y1 = max(0, int(cy - outer)), min(height, int(cy + outer) + 1)
    box = frame[y0:y1, x0:x1].astype(np.float64)
    yy, xx = np.mgrid[y0:y1, x0:x1]
    ring = np.maximum(np.abs(xx - cx), np.abs(yy - cy)) >= inner
    pixels = box[ring] if box.size and ring.any() else frame.reshape(-1, 3).astype(np.float64)
    return float(np.median(pixels.sum(axis=1) + 3.0))


def look_distance(one: Sequence[float], other: Sequence[float]) -> float:
    """Distance between two looks (weighted: :data:`LIGHTNESS_WEIGHT`, :data:`CHROMA_WEIGHT`)."""
    dl = (float(one[0]) - float(other[0])) * LIGHTNESS_WEIGHT
    dr = (float(one[1]) - float(other[1])) * CHROMA_WEIGHT
    dg = (float(one[2]) - float(other[2])) * CHROMA_WEIGHT
    return float(np.sqrt(dl * dl + dr * dr + dg * dg))


def nearest_die(look: Sequence[float], taught: Mapping[int, Iterable[Sequence[float]]], *,
                match: float = MATCH, margin: float = MARGIN) -> int | None:
    """The taught die (``id -> its taught looks``) whose nearest look is nearest ``look``, when it is at
    most ``match`` away and the next die is ``margin`` further; None otherwise (or with nothing taught)."""
    best: list[tuple[float, int]] = []
    for die, looks in taught.items():
        distances = [look_distance(look, known) for known in looks]
        if distances:
            best.append((min(distances), die))
    if not best:
        return None
    best.sort()
    distance, die = best[0]
    if distance > match or (len(best) > 1 and best[1][0] - distance < margin):
        return None
    return die
