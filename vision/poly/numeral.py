"""The numeral on a die's top face: segment its ink, find the numeral nearest the centre, read it.

Images are BGR uint8 arrays of shape (H, W, 3) and are never modified; masks are uint8 (H, W), 255 on.

The glyph reader is a small multilayer perceptron over HOG features of the numeral's ink, turned to
each of ``ANGLES`` spins: it was trained (``tools/build_numerals.py``, fixed seed, renders of Hershey and
DejaVu numerals only, no photo) to name an upright numeral and to answer ``TURNED`` for one that is not
upright, so the spin at which a numeral reads best is also its orientation. A 6 or 9 carries its dot or
bar below it on most polyhedral dice: upside down that mark is above, which the reader was taught is
``TURNED``, so the mark tells 6 from 9.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

import cv2
import numpy as np

from vision._cv import axis_variances, find_contours

__all__ = [
    "GLYPHS",
    "TURNED",
    "NumeralReading",
    "die_mask",
    "find_numeral",
    "glyph_features",
    "ink_mask",
    "numeral_mask",
    "read_numeral",
    "score_glyph",
    "spans_crop",
]

GLYPHS: Final = tuple([str(d) for d in range(10)] + [str(n) for n in range(10, 21)]
                      + ["00", "30", "40", "50", "60", "70", "80", "90"])
"""Numerals the reader knows: 0-9 (a d10 prints 0-9), 10-20, and the percentile's 00, 30..90."""
TURNED: Final = len(GLYPHS)
"""Index of the reader's extra class: "this is not an upright numeral"."""
ANGLES: Final = 24
"""Spins tried, evenly over the full turn (15 degrees apart)."""
BOX: Final = 32
"""Side of the square the numeral is fitted into before its HOG features are taken."""
WORK: Final = 160
"""Crops are read at most this many pixels on their longer side."""
GAP: Final = 0.45
"""Most ink-free space between the two digits of a numeral, as a share of the first digit's extent
(the percentile dice set their digits wide: "1" and "0" of "10" are 0.3 of a digit apart)."""
MOST_MARKS: Final = 2
"""Most small parts taken beside a numeral as its 6/9 mark (a dot, or a bar that may break in two); more
are the specks of a speckled body, and none is taken (forty-sixth session, docs/vision-poly.md)."""
SPAN: Final = 0.8
"""A die mask found without help must span this share of the crop's width and of its height: the crop
is the die's box, so a smaller mask is a part of the die (a face, a highlight) or of the tray."""
LINE_LONG: Final = 0.3
LINE_THIN: Final = 12.0
"""An ink part at least ``LINE_LONG`` of the die long whose length is at least ``LINE_THIN`` times its mean
width (length squared over area, the length taken from its spread along its axis) is a line, not a digit:
the edge between two faces, or the glare along it, which runs across the top face and can pass nearer its
centre than the numeral does (a d20's edge read "1" beside its "15", docs/vision-poly.md). A digit is at
most 0.3 of a d20 and stands about 4-8 times as tall as its stroke is wide; a big numeral (a d4's or a
d6's, up to 0.45 of the die) is drawn with a stroke as heavy. Set from those proportions, not fitted."""
MODEL_PATH: Final = Path(__file__).with_name("numerals.npz")


@dataclass(frozen=True)
class NumeralReading:
    """The numeral read on a top face.

    ``scores`` maps every numeral text in ``GLYPHS`` to the best probability it got at any spin;
    ``angle`` is the spin (degrees, counter-clockwise) at which ``text`` reads upright.
    ``digits`` is the count of glyph parts found (1 or 2, 0 when there is no ink near the centre).
    """

    text: str
    score: float
    angle: float
    scores: dict[str, float]
    digits: int

    def __repr__(self) -> str:
        return f"<NumeralReading {self.text!r} {self.score:.2f} at {self.angle:.0f} deg>"


def _check_image(image: np.ndarray, name: str) -> None:
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"{name} must be a BGR uint8 array of shape (H, W, 3), not "
                         f"{type(image).__name__} shape {getattr(image, 'shape', None)}")


def _contours(mask: np.ndarray) -> list[np.ndarray]:
    """External contours of a uint8 mask."""
    return list(find_contours(mask))


def die_mask(crop_bgr: np.ndarray) -> np.ndarray:
    """Mask (H, W) uint8, 255 on the die: the pixels unlike the crop's border, largest blob, holes filled.

    Parameters
    ----------
    crop_bgr : (H, W, 3) uint8
        One die, roughly filling the crop; the crop's border is mostly background.

    Returns
    -------
    (H, W) uint8
        The die's silhouette (its convex hull); all zero for an empty or uniform crop.
    """
    _check_image(crop_bgr, "crop_bgr")
    return _die_mask(_lab(crop_bgr))


def _lab(crop_bgr: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(crop_bgr, cv2.COLOR_BGR2LAB).astype(np.float32)


def _die_mask(lab: np.ndarray) -> np.ndarray:
    h, w = lab.shape[:2]
    out = np.zeros((h, w), np.uint8)
    if h < 4 or w < 4:
        return out
    lab = cv2.blur(lab, (3, 3))
    ring = np.concatenate([lab[0], lab[-1], lab[:, 0], lab[:, -1]])
    bg = np.median(ring, axis=0)
    dist = np.sqrt(((lab - bg) ** 2).sum(axis=2))
    d8 = np.clip(dist * 2, 0, 255).astype(np.uint8)
    t, _ = cv2.threshold(d8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    fg = (d8 > max(t, 24)).astype(np.uint8) * 255
    k = max(3, (min(h, w) // 40) | 1)
    fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    contours = _contours(fg)
    if not contours:
        return out
    big = max(contours, key=cv2.contourArea)
    if cv2.contourArea(big) < 0.05 * h * w:
        return out
    cv2.fillPoly(out, [cv2.convexHull(big)], 255)
    return out


def ink_mask(crop_bgr: np.ndarray, die: np.ndarray) -> np.ndarray:
    """Mask (H, W) uint8, 255 on the numerals' ink inside ``die``, light-on-dark or dark-on-light.

    The ink is what differs from the die's own body colour more than the body's shading does: the
    distance (Lab) to the body's median colour, thresholded by Otsu inside the die's inner part.
    """
    _check_image(crop_bgr, "crop_bgr")
    return _ink_mask(_lab(crop_bgr), die)


def _ink_mask(lab: np.ndarray, die: np.ndarray) -> np.ndarray:
    h, w = die.shape[:2]
    out = np.zeros((h, w), np.uint8)
    size = int(np.sqrt(max(1, int(np.count_nonzero(die)))))
    if size < 8:
        return out
    inner = cv2.erode(die, np.ones((3, 3), np.uint8), iterations=max(1, size // 40))
    on = inner > 0
    if np.count_nonzero(on) < 16:
        return out
    body = np.median(lab[on], axis=0)
    # light and chroma differences count; the shading of a face mostly changes lightness a little
    diff = lab - body
    dist = np.sqrt(diff[..., 0] ** 2 + 2.0 * (diff[..., 1] ** 2 + diff[..., 2] ** 2))
    d8 = np.clip(dist, 0, 255).astype(np.uint8)
    vals = d8[on].reshape(-1, 1)
    t, _ = cv2.threshold(vals, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    out[(d8 > max(t, 30)) & on] = 255
    return out


def numeral_mask(ink: np.ndarray, die: np.ndarray) -> tuple[np.ndarray, int]:
    """The ink of the numeral nearest the die's centre (its digits and its 6/9 mark), and its part count.

    Returns
    -------
    mask : (H, W) uint8
        255 on the chosen components; all zero when none qualifies.
    digits : int
        How many of the chosen components are digit-sized (1 or 2; 0 when nothing was found).
    """
    h, w = ink.shape[:2]
    out = np.zeros((h, w), np.uint8)
    m = cv2.moments(die, binaryImage=True)
    if m["m00"] < 1:
        return out, 0
    cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
    size = float(np.sqrt(m["m00"]))
    n, lab, stats, cents = cv2.connectedComponentsWithStats(ink, connectivity=8)
    comps = []
    for i in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        ext = max(bw, bh)
        if area < 4:
            continue
        comps.append((i, x, y, bw, bh, area, ext, float(cents[i][0]), float(cents[i][1])))
    # a digit: extent between 0.1 and 0.75 of the die, not a sliver along an edge, nor a line (LINE_THIN)
    digits = [c for c in comps if 0.1 * size <= c[6] <= 0.75 * size
              and not (c[6] >= LINE_LONG * size and _line(lab[c[2]:c[2] + c[4], c[1]:c[1] + c[3]] == c[0]))]
    if not digits:
        return out, 0
    seed = min(digits, key=lambda c: np.hypot(c[7] - cx, c[8] - cy) / (1 + 0.5 * c[6] / size))
    if np.hypot(seed[7] - cx, seed[8] - cy) > 0.35 * size:
        return out, 0
    ext = seed[6]
    axis = _major_axis(lab == seed[0])
    chosen = [seed]
    # the second digit of "10".."20" or "00".."90": about the seed's size, its own axis parallel to
    # the seed's, close beside it across that axis (digits stand side by side), near the centre too
    for c in digits:
        if c is seed or not _alike(seed, c):
            continue
        off = np.array([c[7] - seed[7], c[8] - seed[8]])
        if _gap(seed, c) > GAP * ext or float(np.hypot(*off)) > 1.3 * ext:
            continue
        # beside the seed: its centre at the seed's height along the seed's axis, and upright alike
        if abs(float(off @ axis)) > 0.25 * ext or abs(float(_major_axis(lab == c[0]) @ axis)) < 0.9:
            continue
        if np.hypot(c[7] - cx, c[8] - cy) < 0.45 * size:
            chosen.append(c)
    chosen = sorted(chosen, key=lambda c: np.hypot(c[7] - seed[7], c[8] - seed[8]))[:2]
    ndig = len(chosen)
    # marks: small parts close to the numeral (a dot or bar of a 6 or 9); more than ``MOST_MARKS`` are a
    # speckled body's specks, not a mark, and none is taken
    x0 = min(c[1] for c in chosen)
    y0 = min(c[2] for c in chosen)
    x1 = max(c[1] + c[3] for c in chosen)
    y1 = max(c[2] + c[4] for c in chosen)
    pad = 0.35 * ext
    marks = [c for c in comps if c not in chosen and c[5] < 0.4 * seed[5] and c[6] <= 1.2 * ext
             and x0 - pad <= c[7] <= x1 + pad and y0 - pad <= c[8] <= y1 + pad]
    if len(marks) <= MOST_MARKS:
        chosen += marks
    for c in chosen:
        out[lab == c[0]] = 255
    return out, ndig


def _line(on: np.ndarray) -> bool:
    """Whether an ink part (a boolean mask) is a line: its length (from its spread along its major axis, a
    bar's being its length squared over 12) squared over its area is ``LINE_THIN`` or more."""
    m = cv2.moments(on.astype(np.uint8), binaryImage=True)
    if m["m00"] <= 0:
        return False
    spread = axis_variances(m["mu20"] / m["m00"], m["mu02"] / m["m00"], m["mu11"] / m["m00"])[0]
    return bool(12 * spread >= LINE_THIN * m["m00"])


def spans_crop(die: np.ndarray) -> bool:
    """Whether the die mask (H, W) spans at least ``SPAN`` of the crop's width and height."""
    ys, xs = np.nonzero(die)
    if len(xs) == 0:
        return False
    h, w = die.shape[:2]
    return bool(xs.max() - xs.min() + 1 >= SPAN * w and ys.max() - ys.min() + 1 >= SPAN * h)


def _inscribed_ellipse(shape: tuple[int, int]) -> np.ndarray:
    h, w = shape
    out = np.zeros((h, w), np.uint8)
    cv2.ellipse(out, (((w - 1) / 2, (h - 1) / 2), (float(w), float(h)), 0.0), 255, -1)
    return out


def _alike(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """Whether two ink parts (component rows: ..., area at 5, extent at 6) can be digits of one numeral:
    alike in extent and in area, or, for a thin "1" beside a round digit (a third of its ink or
    less), as tall as it within a third."""
    ext = b[6] / a[6]
    area = b[5] / a[5]
    if 0.5 <= ext <= 1.6 and 0.3 <= area <= 1 / 0.3:
        return True
    return bool(0.75 <= ext <= 1 / 0.75 and 0.12 <= area <= 1 / 0.12)


def _major_axis(on: np.ndarray) -> np.ndarray:
    """Unit vector (x, y) along the longer principal axis of a boolean mask."""
    ys, xs = np.nonzero(on)
    if len(xs) < 3:
        return np.array([0.0, 1.0])
    cov = np.cov(np.stack([xs, ys]).astype(np.float64))
    w, v = np.linalg.eigh(cov)
    return v[:, int(np.argmax(w))]


def _gap(a: tuple[Any, ...], b: tuple[Any, ...]) -> float:
    dx = max(0, max(a[1], b[1]) - min(a[1] + a[3], b[1] + b[3]))
    dy = max(0, max(a[2], b[2]) - min(a[2] + a[4], b[2] + b[4]))
    return float(np.hypot(dx, dy))


def _hog(boxes: np.ndarray) -> np.ndarray:
    """HOG-like features of uint8 images (N, BOX, BOX): unsigned gradient orientation (9 bins) per 8x8
    cell, L2-normalised over overlapping 2x2-cell blocks, plus the image itself at 8x8 (N, 324 + 64)."""
    n = len(boxes)
    f = boxes.astype(np.float32) / 255
    gx = np.zeros_like(f)
    gy = np.zeros_like(f)
    gx[:, :, 1:-1] = f[:, :, 2:] - f[:, :, :-2]
    gy[:, 1:-1, :] = f[:, 2:, :] - f[:, :-2, :]
    mag = np.sqrt(gx * gx + gy * gy).ravel()
    # only where the gradient is not zero (a numeral's mask is flat but for its edges): a zero magnitude
    # adds nothing to any bin, and the angles were most of the time
    on = np.flatnonzero(mag)
    mag = mag[on]
    ang = np.mod(np.arctan2(gy.ravel()[on], gx.ravel()[on]), np.pi) * (9 / np.pi)
    lo = np.floor(ang).astype(np.int64) % 9
    frac = ang - np.floor(ang)
    cells = BOX // 8
    cell = (np.arange(BOX) // 8)[:, None] * cells + (np.arange(BOX) // 8)[None, :]
    base = ((np.arange(n)[:, None, None] * cells * cells + cell[None]) * 9).ravel()[on]
    size = n * cells * cells * 9
    counts = (np.bincount(base + lo, mag * (1 - frac), size)
              + np.bincount(base + (lo + 1) % 9, mag * frac, size))
    hist = counts.astype(np.float32).reshape(n, cells, cells, 9)
    blocks = np.concatenate([hist[:, :-1, :-1], hist[:, 1:, :-1], hist[:, :-1, 1:], hist[:, 1:, 1:]], axis=3)
    blocks = blocks / (np.sqrt((blocks ** 2).sum(axis=3, keepdims=True)) + 0.2)
    small = f.reshape(n, 8, BOX // 8, 8, BOX // 8).mean(axis=(2, 4))
    return np.concatenate([blocks.reshape(n, -1), small.reshape(n, -1)], axis=1)


def glyph_features(mask: np.ndarray, angles: np.ndarray) -> np.ndarray:
    """Features (len(angles), F) float32 of ``mask``'s ink turned by each angle (degrees, CCW).

    At each spin the ink's bounding box is fitted, aspect kept, into a BOX x BOX square (its longer
    side spanning 80% of it), so the features see the numeral's shape and not its size.
    """
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return _hog(np.zeros((len(angles), BOX, BOX), np.uint8))
    pts = np.stack([xs, ys], 1).astype(np.float32)
    c = pts.mean(axis=0)
    # a square patch around the ink, big enough for any spin, at a working scale of 64 px
    r = float(np.sqrt(((pts - c) ** 2).sum(axis=1).max())) + 2
    s = 32.0 / r
    m0 = np.array([[s, 0, 32 - c[0] * s], [0, s, 32 - c[1] * s]], np.float32)
    src = mask if s >= 1 else cv2.GaussianBlur(mask, (0, 0), 0.5 / s)
    big = cv2.warpAffine(src, m0, (64, 64), flags=cv2.INTER_LINEAR)
    boxes = np.zeros((len(angles), BOX, BOX), np.uint8)
    for i, a in enumerate(angles):
        rot = cv2.warpAffine(big, cv2.getRotationMatrix2D((32, 32), float(a), 1.0), (64, 64),
                             flags=cv2.INTER_LINEAR)
        # the ink's box in one call (numpy's nonzero and four reductions were a third of the loop)
        bx0, by0, bw, bh = cv2.boundingRect(cv2.threshold(rot, 100, 255, cv2.THRESH_BINARY)[1])
        if bw:
            k = 0.8 * BOX / max(bw, bh)
            mx, my = bx0 + bw / 2, by0 + bh / 2
            m = np.array([[k, 0, BOX / 2 - mx * k], [0, k, BOX / 2 - my * k]], np.float32)
            boxes[i] = cv2.warpAffine(rot, m, (BOX, BOX), flags=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR)
    return _hog(boxes)


@cache
def _model() -> dict[str, np.ndarray]:
    if not MODEL_PATH.exists():
        raise FileNotFoundError(f"the numeral reader {MODEL_PATH} is missing; run tools/build_numerals.py")
    with np.load(MODEL_PATH) as z:
        return {k: z[k] for k in z.files}


def mlp_probabilities(features: np.ndarray, model: dict[str, np.ndarray] | None = None) -> np.ndarray:
    """Softmax (N, len(GLYPHS) + 1) of the numeral reader for features (N, F); the last is ``TURNED``."""
    mdl = _model() if model is None else model
    # einsum's own loops, not numpy's BLAS: on a shared two-core Pi a threaded BLAS can cost 100x more
    # here; cv2.gemm took 2.8 times einsum's time (24 spins: 0.53 against 0.19 ms a layer, one core)
    x = np.ascontiguousarray((features - mdl["mean"]) / mdl["std"], np.float32)
    hdn = np.maximum(np.einsum("ij,jk->ik", x, mdl["w1"]) + mdl["b1"], 0)
    z = (np.einsum("ij,jk->ik", hdn, mdl["w2"]) + mdl["b2"]).astype(np.float64)
    z = z - z.max(axis=1, keepdims=True)
    p: np.ndarray = np.exp(z)
    out: np.ndarray = p / p.sum(axis=1, keepdims=True)
    return out


def score_glyph(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Reader probabilities (ANGLES, len(GLYPHS) + 1) for ``mask``'s ink at each spin, and the spins."""
    angles = np.arange(ANGLES) * (360.0 / ANGLES)
    return mlp_probabilities(glyph_features(mask, angles)), angles


def read_numeral(crop_bgr: np.ndarray, *, mask: np.ndarray | None = None) -> NumeralReading:
    """The numeral at the centre of the die in ``crop_bgr`` (BGR uint8 (H, W, 3)), read at any spin.

    Parameters
    ----------
    crop_bgr : (H, W, 3) uint8
        One die roughly filling the crop.
    mask : (H, W) array, optional
        Nonzero on the die; found from the crop's border colour when not given.

    Returns
    -------
    NumeralReading
        ``text`` is "" with score 0 when no numeral-sized ink lies near the centre.
    """
    return read_numeral_and_die(crop_bgr, mask=mask)[0]


def read_numeral_and_die(crop_bgr: np.ndarray, *,
                         mask: np.ndarray | None = None) -> tuple[NumeralReading, np.ndarray]:
    """``read_numeral``'s reading and the die's mask (uint8, at the working scale ``WORK``).

    The mask is all zero when the die's outline was not found (``spans_crop``): its shape is then no
    evidence, and the numeral was looked for inside the ellipse inscribed in the crop.
    """
    glyph, digits, die = find_numeral(crop_bgr, mask=mask)
    if digits == 0:
        return NumeralReading("", 0.0, 0.0, {g: 0.0 for g in GLYPHS}, 0), die
    p, angles = score_glyph(glyph)
    best = p[:, :TURNED].max(axis=0)
    i = int(best.argmax())
    j = int(p[:, i].argmax())
    return NumeralReading(GLYPHS[i], float(best[i]), float(angles[j]),
                          {g: float(q) for g, q in zip(GLYPHS, best, strict=True)}, digits), die


def find_numeral(crop_bgr: np.ndarray, *,
                 mask: np.ndarray | None = None) -> tuple[np.ndarray, int, np.ndarray]:
    """The ink that ``read_numeral`` reads, its digit count and the die's mask, all at the working scale.

    The crop is shrunk to at most ``WORK`` pixels on its longer side first (the returned masks have
    that shape). ``tools/build_numerals.py`` teaches the reader on what this cuts out of renders.
    """
    _check_image(crop_bgr, "crop_bgr")
    if mask is not None and np.asarray(mask).shape[:2] != crop_bgr.shape[:2]:
        raise ValueError(f"mask must have the crop's shape {crop_bgr.shape[:2]}, "
                         f"not {np.asarray(mask).shape}")
    h, w = crop_bgr.shape[:2]
    f = WORK / max(h, w)
    if f < 1:   # a working scale: the numeral stays 20 px or more, the time stays small
        size = (max(1, round(w * f)), max(1, round(h * f)))
        crop_bgr = cv2.resize(crop_bgr, size, interpolation=cv2.INTER_AREA)
        if mask is not None:
            mask = cv2.resize((np.asarray(mask) > 0).astype(np.uint8), size, interpolation=cv2.INTER_NEAREST)
    lab = _lab(crop_bgr)
    die = _die_mask(lab) if mask is None else (np.asarray(mask) > 0).astype(np.uint8) * 255
    where = die
    if mask is None and not spans_crop(die):
        # the outline was not found (a die the colour of its tray): it says nothing, and the numeral is
        # looked for inside the ellipse inscribed in the crop, which is the die's box
        die = np.zeros_like(die)
        where = _inscribed_ellipse(die.shape[:2])
    glyph, digits = numeral_mask(_ink_mask(lab, where), where)
    return glyph, digits, die
