"""Pip d6 faces: find pips, group them into faces, read the value.

The reader works on one working image (BGR uint8, at most ~640 px on its long side):

1. *Pip candidates*: blobs of an adaptive threshold in both polarities (dark pips on light dice, light
   pips on dark or coloured dice), kept when they are round (second moments), of plausible size, and
   ringed by a uniform face that contrasts with them. Pips on a die's side faces are seen foreshortened
   (ellipses), so the roundness test keeps mostly top-face pips.
2. *Faces*: two pips belong to one face when they are of similar size, near enough for one d6 face, and
   the straight line between them stays on face-coloured pixels (touching dice have a dark seam, a die
   and the table have different colours).
3. *Value*: a face of n pips reads n when its layout matches the d6 layout for n (sorted pairwise
   distances, scale-free); the confidence falls with the layout error. A group that no d6 layout
   explains (an emblem, a logo, 7+ blobs) reads ``None`` with a low confidence: never a guess.

Every threshold is a named module constant (issue 17); the numbers left in comparisons are pip counts
(a d6 shows 1 to 6 pips) and 0/1. Each constant's comment says what it means and what it was fitted
on: *dev* = the matteop65 development photos (every photo but every fifth; Vision I's tuning set, the
held-out fifth never looked at), *chase* = the chase crops of translucent casino dice, *sweep* = the
drawn dice of ``tests/vision/test_sweep.py``, *geometry* = read off a d6's geometry (not fitted),
*numeric* = a guard against division by zero or rounding. Where the history does not say which photo
moved a number, *dev* is given: the whole reader was tuned there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations, pairwise
from typing import Final

import cv2
import numpy as np

from vision import _cv

# -- parameters (see the module notes for the fitted-on tags) ---------------------------------------
#: a (relative) variance this small is degenerate: points on a line [numeric]
DEGENERATE: Final = 1e-9
#: the fine pass finds pips of radius ``MIN_PIP_R`` px .. ``view_side / MAX_R_DIVISOR`` [dev]
MIN_PIP_R: Final = 1.6
MAX_R_DIVISOR: Final = 18
#: the adaptive threshold's window: ``view_side / BLOCK_DIVISOR`` px, odd, within ``BLOCK_RANGE`` [dev]
BLOCK_DIVISOR: Final = 16
BLOCK_RANGE: Final = (15, 61)
#: the adaptive threshold's offset: a pip is this many grey levels darker than its window's mean [dev]
THRESHOLD_C: Final = 22
#: the coarse (half-size) pass runs on images this wide at least; its window is ``side / 2 /
#: COARSE_BLOCK_DIVISOR`` (at most ``COARSE_BLOCK_MAX``), its radii ``COARSE_MIN_R`` x the fine pass's
#: largest to ``side / 2 / COARSE_MAX_R_DIVISOR`` [dev, chase: big pips of close-ups and crops]
COARSE_MIN_SIDE: Final = 64
COARSE_BLOCK_DIVISOR: Final = 5
COARSE_BLOCK_MAX: Final = 101
COARSE_MIN_R: Final = 0.45
COARSE_MAX_R_DIVISOR: Final = 7
#: a pip of the coarse pass counts only above this share of the fine pass's largest radius [dev]
COARSE_ONLY_ABOVE: Final = 0.9
#: a coarse pip is plain inside: within ``COARSE_INNER`` radii its grey spread is at most
#: ``COARSE_PLAIN_SPREAD`` x its contrast + ``SPREAD_FLOOR`` (a whole small die has its pips there) [dev]
COARSE_INNER: Final = 0.7
COARSE_PLAIN_SPREAD: Final = 0.2
SPREAD_FLOOR: Final = 6
#: a die body is ``BODY_MIN_PIPS`` smallest pips wide at least and ``view_side / BODY_MAX_DIVISOR`` at
#: most, with at least ``BODY_MIN_AREA`` smallest pips' area [sweep]
BODY_MIN_PIPS: Final = 4
BODY_MAX_DIVISOR: Final = 2.5
BODY_MIN_AREA: Final = 9
#: a pip blob's box: short side at least ``PIP_BOX_ASPECT`` of the long, filled at least
#: ``PIP_BOX_FILL`` [dev]
PIP_BOX_ASPECT: Final = 0.4
PIP_BOX_FILL: Final = 0.5
#: a light blob of at least this many smallest pips' area may be touching pips, cut apart [chase]
SPLIT_MIN_AREA: Final = 1.6
#: touching discs: a core is where the distance to the blob's edge is ``TOUCHING_CORE`` of the deepest;
#: a disc's peak is ``TOUCHING_PEAK`` of the deepest at least; its deep part lies within
#: ``TOUCHING_BAND`` px of its peak; a stroke's core is longer than ``STROKE_LENGTH`` peaks (+2 px); its
#: outline is looked at ``TOUCHING_RING`` peaks out; the disc fills ``DISC_FILL`` of its circle [chase]
TOUCHING_CORE: Final = 0.6
TOUCHING_PEAK: Final = 0.8
TOUCHING_BAND: Final = 0.5
STROKE_LENGTH: Final = 1.4
TOUCHING_RING: Final = 1.4
DISC_FILL: Final = 0.85
#: a motion-smeared streak is ``SMEAR_LENGTH`` widths long, fills ``SMEAR_FILL`` of its ellipse; its face
#: is the band ``SMEAR_RING`` widths beyond its edge; its cores are cut at ``SMEAR_CUT_LEVELS`` of the way
#: from its ``SMEAR_CORE_PERCENTILE``th percentile to the face, at least ``SMEAR_CORE_AREA`` of a pip's
#: area (``SMEAR_CORE_MIN`` px); its pips count as this round [dev: six_42, six_44, six_45]
SMEAR_LENGTH: Final = (2.2, 6.5)
SMEAR_FILL: Final = 0.7
SMEAR_RING: Final = (0.6, 1.4)
SMEAR_CUT_LEVELS: Final = (0.5,)
SMEAR_CORE_PERCENTILE: Final = 10
SMEAR_CORE_AREA: Final = 0.15
SMEAR_CORE_MIN: Final = 3.0
SMEAR_ROUNDNESS: Final = 0.8
#: a pip's ring (the face around it) has this many pixels at least [numeric]
MIN_RING_PIXELS: Final = 8
#: a pip is at least this many grey levels darker (lighter) than its face [dev]
MIN_CONTRAST: Final = 35
#: a pip's equivalent ellipse: small / large variance at least this (axis ratio 0.37) and filled at
#: least ``PIP_ELLIPSE_FILL`` [dev]
PIP_AXIS_RATIO: Final = 0.14
PIP_ELLIPSE_FILL: Final = 0.75
#: a pip is measured in a window of ``PIP_WINDOW`` radii; its face is the ring ``PIP_RING`` radii out,
#: of which at least ``PIP_RING_SHARE`` lies in the picture; its inside is within ``PIP_INNER`` radii
#: [dev]
PIP_WINDOW: Final = 3.4
PIP_RING: Final = (1.6, 2.4)
PIP_RING_SHARE: Final = 0.4
PIP_INNER: Final = 0.75
#: a pip is solid: ``PIP_SOLID`` of a disc (or its own ellipse) of ``PIP_DISC`` radii lies on it [dev]
PIP_DISC: Final = 0.8
PIP_SOLID: Final = 0.92
#: a pip's face is plain (grey spread under ``RING_SPREAD`` x contrast + ``SPREAD_FLOOR``), and so is
#: the pip (``PIP_INNER_SPREAD``) [dev]
RING_SPREAD: Final = 0.25
PIP_INNER_SPREAD: Final = 0.35
#: a pip is ``wide`` when its face, ``PIP_OUTER`` radii out (``PIP_OUTER_SHARE`` of it in the
#: picture), keeps the ring's colour (within ``FACE_TOL`` x contrast, ``FACE_TOL_FLOOR`` at least) on
#: ``WIDE_SHARE`` of it [dev]
PIP_OUTER: Final = (2.4, 3.0)
PIP_OUTER_SHARE: Final = 0.5
FACE_TOL: Final = 0.3
FACE_TOL_FLOOR: Final = 18.0
WIDE_SHARE: Final = 0.75
#: two pips of one face: radii within ``SAME_FACE_SIZE`` x, centres ``SAME_FACE_REACH`` mean radii apart
#: (a 6's corner pips are ~7 radii apart: geometry, with room); faces alike within ``SAME_FACE_TOL_*`` x
#: contrast (``SAME_FACE_TOL_FLOOR`` at least) and, when coloured, chromaticity within ``SAME_HUE`` [dev]
SAME_FACE_SIZE: Final = 1.6
SAME_FACE_REACH: Final = (1.8, 10.5)
SAME_FACE_TOL_COLOURED: Final = 0.5
SAME_FACE_TOL_DARK: Final = 0.15
SAME_FACE_TOL_LIGHT: Final = 0.3
SAME_FACE_TOL_FLOOR: Final = 12.0
SAME_HUE: Final = 0.12
#: the path between two pips of one face is sampled from ``PATH_CLEAR`` radii off each pip; a dark
#: face's path may leave the face at 1 sample and 1 in ``PATH_OFF_DARK`` at most, a light face's at 1 in
#: ``PATH_OFF_LIGHT`` [dev]
PATH_CLEAR: Final = 1.5
PATH_OFF_DARK: Final = 6
PATH_OFF_LIGHT: Final = 2.5
#: two streaks of one motion: turned at most ``STREAK_TURN`` degrees apart, lengths within
#: ``STREAK_LENGTHS`` x [dev: six_42, six_44, six_45]
STREAK_TURN: Final = 20
HALF_TURN: Final = 180
STREAK_LENGTHS: Final = 1.6
#: a streak's cores lie within ``STREAK_OFF_AXIS`` widths of its axis, ``STREAK_GAPS`` widths apart,
#: the gaps even within ``STREAK_EVEN`` x [dev: six_42, six_44, six_45]
STREAK_OFF_AXIS: Final = 0.6
STREAK_GAPS: Final = (1.6, 4.5)
STREAK_EVEN: Final = 1.5
#: a layout error at most this reads a face (``_fit``: 0 perfect) [dev]
FIT: Final = 0.16
#: a read layout's confidence: 1 - ``FIT_SLOPE`` x its error, at least ``READ_CONFIDENCE``; a group no
#: layout explains: ``NO_LAYOUT_CONFIDENCE`` - its error, at least ``NO_LAYOUT_FLOOR`` [dev]
FIT_SLOPE: Final = 2.5
READ_CONFIDENCE: Final = 0.5
NO_LAYOUT_CONFIDENCE: Final = 0.3
NO_LAYOUT_FLOOR: Final = 0.05
#: the error added to a layout that is ruled out: pips of mixed sizes (``FACE_SIZES`` x) or roundness
#: (``FACE_ROUNDNESS``), a layout stretched ``STRETCH`` x its own anisotropy, a pip grid outside
#: ``GRID_OFFSET`` pip radii [dev]
FIT_PENALTY: Final = 0.3
FACE_SIZES: Final = 1.3
FACE_ROUNDNESS: Final = 0.75
STRETCH: Final = 1.9
GRID_OFFSET: Final = (1.6, 5.5)
#: the similarity error weighs this many times less than the affine one for 4+ pips [dev]
SIMILARITY_WEIGHT: Final = 3.0
#: a face's half-box: its grid offset + ``PIP_MARGIN`` pip radii; a 1's ``ONE_HALF_FACE`` radii; a lone
#: pip not read ``LONE_HALF`` radii [geometry]
PIP_MARGIN: Final = 1.8
ONE_HALF_FACE: Final = 4.2
LONE_HALF: Final = 2.4
#: a lone pip reads 1 at this confidence x sqrt(roundness) [dev]
ONE_CONFIDENCE: Final = 0.8
#: the confidence of what is found and not read: a lone pip that is no 1, one streak alone
#: (``UNREAD_CONFIDENCE``), a group of 7+ pips (``CROWD_CONFIDENCE``) [dev]
UNREAD_CONFIDENCE: Final = 0.1
CROWD_CONFIDENCE: Final = 0.15
#: a pixel is pip-coloured when it lies this far from the face's colour to the pip's [dev]
MARK_LEVEL: Final = 0.5
#: a casino 1's pip is at least this round [chase]
RINGED_ONE_ROUNDNESS: Final = 0.9
#: a lost pip's colour is sampled over ``SPOT_HALF`` pip radii around its place [sweep]
SPOT_HALF: Final = 0.5
#: a 1's top is probed along rays of ``TOP_RAY`` face sizes; a run of other colour longer than
#: ``TOP_RAY_GAP`` pip radii ends the face [dev]
TOP_RAY: Final = 1.5
TOP_RAY_GAP: Final = 2.6
#: a 1's face is looked at for lost pips from ``ONE_MARKS_FROM`` radii; a mark of ``LOST_PIP_AREA`` of
#: the pip's area, at most ``LOST_PIP_SIZE`` radii across, is a lost pip [dev, sweep]
ONE_MARKS_FROM: Final = 1.6
LOST_PIP_AREA: Final = 0.4
LOST_PIP_SIZE: Final = 3.2
#: two faces are merged when their centres lie within this share of the larger box [dev]
MERGE_REACH: Final = 0.75
#: the likely top pips of a group are ``LIKELY_TOP`` of the most top-like at least; a group of more than
#: ``CROWDED_GROUP`` pips is several dice touching [dev]
LIKELY_TOP: Final = 0.8
CROWDED_GROUP: Final = 9
#: two faces of one group closer than ``OVERLAP`` x their mean half-size overlap; a pip left out lies
#: on a face within ``ON_FACE`` of its box, or within ``LEFT_OUT_GAP`` x a 2's span of its pips; it
#: counts when ``LEFT_OUT_SIZE`` of the face's radius and ``LEFT_OUT_ROUNDNESS`` of its least roundness
#: at least [dev]
OVERLAP: Final = 0.85
ON_FACE: Final = 0.55
LEFT_OUT_GAP: Final = 1.05
LEFT_OUT_SIZE: Final = 0.8
LEFT_OUT_ROUNDNESS: Final = 0.9
#: a face is grown by pips within this many of its spans from its centre [dev]
GROW_REACH: Final = 1.25
#: pips left by a top face are another top face when their radius is ``LEFTOVER_SIZE`` of the top's at
#: least; a lone one when as big and ``LEFTOVER_ROUNDNESS`` round [dev]
LEFTOVER_SIZE: Final = 0.8
LEFTOVER_ROUNDNESS: Final = 0.8

#: d6 pip layouts in units of the pip-grid offset ``a`` (corner pips at (+-a, +-a)).
_LAYOUTS: dict[int, np.ndarray] = {
    1: np.array([[0.0, 0.0]]),
    2: np.array([[-1.0, -1.0], [1.0, 1.0]]),
    3: np.array([[-1.0, -1.0], [0.0, 0.0], [1.0, 1.0]]),
    4: np.array([[-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0], [1.0, 1.0]]),
    5: np.array([[-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0], [1.0, 1.0], [0.0, 0.0]]),
    6: np.array([[-1.0, -1.0], [1.0, -1.0], [-1.0, 0.0], [1.0, 0.0], [-1.0, 1.0], [1.0, 1.0]]),
}


Points = list[tuple[float, float]]


def _distances(points: Points) -> list[float]:
    """Sorted pairwise distances (pure Python: faces have at most 6 pips, numpy costs more here)."""
    d = [math.hypot(p[0] - q[0], p[1] - q[1]) for p, q in combinations(points, 2)]
    d.sort()
    return d


def _signature(points: Points) -> list[float]:
    d = _distances(points)
    top = d[-1] or 1.0
    return [v / top for v in d]


def _whitened(points: Points) -> Points:
    """Points with their covariance made the identity: a face seen at an angle (a near-affine view)
    looks like the face seen from above, up to a rotation."""
    n = len(points)
    mx = sum(p[0] for p in points) / n
    my = sum(p[1] for p in points) / n
    xs = [(p[0] - mx, p[1] - my) for p in points]
    a = sum(x * x for x, _ in xs) / n
    c = sum(y * y for _, y in xs) / n
    b = sum(x * y for x, y in xs) / n
    det = a * c - b * b
    if det <= DEGENERATE * max(1.0, (a + c) ** 2):
        return xs
    # inverse square root of the 2x2 covariance [[a, b], [b, c]], closed form
    sd = math.sqrt(det)
    t = math.sqrt(a + c + 2 * sd)
    ra, rb, rc = (a + sd) / t, b / t, (c + sd) / t          # sqrt(cov)
    rdet = ra * rc - rb * rb
    ia, ib, ic = rc / rdet, -rb / rdet, ra / rdet              # its inverse
    return [(ia * x + ib * y, ib * x + ic * y) for x, y in xs]


def _anisotropy(points: Points) -> float:
    """sqrt(largest / smallest variance) of a point set: 1 for a square, 2 for a 2:1 rectangle."""
    n = len(points)
    mx = sum(p[0] for p in points) / n
    my = sum(p[1] for p in points) / n
    a = sum((p[0] - mx) ** 2 for p in points) / n
    c = sum((p[1] - my) ** 2 for p in points) / n
    b = sum((p[0] - mx) * (p[1] - my) for p in points) / n
    root = math.sqrt(((a - c) / 2) ** 2 + b * b)
    hi, lo = (a + c) / 2 + root, (a + c) / 2 - root
    return math.sqrt(hi / lo) if lo > DEGENERATE else math.inf


def _as_points(layout: np.ndarray) -> Points:
    return [(float(x), float(y)) for x, y in layout]


_SIGNATURES = {n: _signature(_as_points(p)) for n, p in _LAYOUTS.items() if n >= 2}
_AFFINE_SIGNATURES = {n: _signature(_whitened(_as_points(p))) for n, p in _LAYOUTS.items() if n >= 4}
_ANISOTROPY = {n: _anisotropy(_as_points(p)) for n, p in _LAYOUTS.items() if n >= 4}
#: largest pairwise distance of each layout, in units of ``a``
_SPAN = {n: _distances(_as_points(p))[-1] for n, p in _LAYOUTS.items() if n >= 2}


@dataclass(frozen=True, slots=True)
class Pip:
    """One pip candidate in working-image pixels."""

    x: float
    y: float
    r: float            # equivalent radius (sqrt(area / pi))
    contrast: float     # |ring - blob| grey levels
    ring: tuple[float, float, float]  # mean BGR of the face around the pip
    dark: bool          # dark pip on a lighter face
    roundness: float = 1.0  # minor / major axis of the blob (1 = circle)
    wide: bool = True       # the face stays uniform out to 3.4 r (a lone pip needs room: a die's 1)
    cov: tuple[float, float, float] = (1.0, 1.0, 0.0)  # second moments (xx, yy, xy): the blob's shape
    streak: int = 0         # non-zero: cut out of one motion-smeared streak of pips (same number, same face)
    disc: bool = True       # a disc of its radius lies on it (a smeared or flat blob: not a 1 by itself)


@dataclass(frozen=True, slots=True)
class Face:
    """A group of pips read as one d6 face."""

    pips: tuple[Pip, ...]
    value: int | None
    confidence: float
    box: tuple[float, float, float, float]  # x, y, w, h of the face (estimated), working pixels

    @property
    def centre(self) -> tuple[float, float]:
        x, y, w, h = self.box
        return x + w / 2, y + h / 2


def view_side(shape: tuple[int, ...]) -> int:
    """The long side of the 4:3 view that an image's short side implies, in pixels: what sizes on the
    table scale with. 640 for a 640x480 frame and for two such frames side by side (1280x480), whose
    dice are as big as in one frame; the long side itself for a frame no wider than 4:3."""
    h, w = shape[:2]
    return min(max(h, w), round(4 * min(h, w) / 3))


def missing_corners(face: Face) -> Points:
    """Where a larger d6 layout would put pips that a face of 2 or 3 pips lacks: the corners of its
    other diagonal (a 4, 5 or 6 has pips there), in working pixels. Empty for other faces: a 4, 5 or
    6 shows its four corner pips, and every pip a larger layout adds lies between them."""
    n = len(face.pips)
    if n not in (2, 3) or face.value is None:
        return []
    pts = [(p.x, p.y) for p in face.pips]
    cx, cy = sum(x for x, _ in pts) / n, sum(y for _, y in pts) / n
    (x0, y0), (x1, y1) = max(combinations(pts, 2), key=lambda pq: math.dist(*pq))
    hx, hy = (x1 - x0) / 2, (y1 - y0) / 2       # centre to a corner pip; the other diagonal is at 90 deg
    return [(cx - hy, cy + hx), (cx + hy, cy - hx)]


def _block_size(shape: tuple[int, ...]) -> int:
    side = view_side(shape)
    b = int(side / BLOCK_DIVISOR) | 1
    return max(BLOCK_RANGE[0], min(b, BLOCK_RANGE[1]))


def find_pips(work: np.ndarray, gray: np.ndarray | None = None, *, min_r: float = MIN_PIP_R,
              max_r: float | None = None, coarse: bool = True) -> list[Pip]:
    """Round pip-like blobs of both polarities in a BGR uint8 working image (H, W, 3).

    Two scales: the working image for pips up to ``max_r`` (default: ``view_side`` / 18), and, when
    ``coarse``, a half-size copy with a wider threshold window for big pips (a die filling a close-up
    or a crop). Radii and centres are in working-image pixels.
    """
    if gray is None:
        gray = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY)
    h, w = gray.shape
    side = view_side(gray.shape)
    if max_r is None:
        max_r = side / MAX_R_DIVISOR
    pips = _find_at(work, gray, _block_size(gray.shape), min_r, max_r, smears=True)
    pips += _body_pips(work, gray, pips, min_r, max_r)
    if coarse and min(h, w) >= COARSE_MIN_SIDE:
        half = cv2.resize(work, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
        half_gray = cv2.cvtColor(half, cv2.COLOR_BGR2GRAY)
        block = max(BLOCK_RANGE[0], min(int(side / 2 / COARSE_BLOCK_DIVISOR) | 1, COARSE_BLOCK_MAX))
        for p in _find_at(half, half_gray, block, COARSE_MIN_R * max_r, side / 2 / COARSE_MAX_R_DIVISOR):
            x, y, r = 2 * p.x + 0.5, 2 * p.y + 0.5, 2 * p.r
            if r <= COARSE_ONLY_ABOVE * max_r or any(math.hypot(q.x - x, q.y - y) < max(q.r, r)
                                                      for q in pips):
                continue
            # seen at full resolution a pip is plain inside; a whole small die has its pips there
            x0, x1 = max(0, int(x - COARSE_INNER * r)), min(w, int(x + COARSE_INNER * r) + 1)
            y0, y1 = max(0, int(y - COARSE_INNER * r)), min(h, int(y + COARSE_INNER * r) + 1)
            if float(gray[y0:y1, x0:x1].std()) > COARSE_PLAIN_SPREAD * p.contrast + SPREAD_FLOOR:
                continue
            pips.append(Pip(x, y, r, p.contrast, p.ring, p.dark, p.roundness, p.wide, p.cov, p.streak,
                            p.disc))
    return pips


#: a light blob of the grey threshold is a die body (or touching bodies) when it fills this share of
#: its convex hull: a square die 1, a row of two or an L of three dice 0.75 or more
BODY_SOLIDITY: Final = 0.7
#: a face this coloured (``chroma`` of its ring, grey levels) may carry white pips that only its
#: whiteness shows
COLOURED_FACE: Final = 40


def _body_pips(work: np.ndarray, gray: np.ndarray, found: list[Pip], min_r: float,
               max_r: float) -> list[Pip]:
    """Pips of die bodies that the grey threshold took whole, pips and all, found against the body.

    On a dark tray a coloured or light die's body is brighter than the tray, so the light threshold
    takes the whole body, its pips included, as one light blob (a *swallowed* body: a compact light
    blob holding no pip the grey pass saw, ``_swallowed``), and the dark threshold, whose window mean
    the dark tray drags down, does not see its dark pips either. Inside such bodies:

    - white pips on a coloured body are found in the image's whiteness (the least of B, G, R): a white
      pip is bright in every channel, a coloured body dark in at least one, as is a dark tray; kept when
      the face around them is coloured (``COLOURED_FACE``: white, grey and black faces are read as
      before);
    - dark pips (red on a yellow die) are found against the body's own level: outside the body the
      picture is replaced by the mean of the body nearby, so the window mean is the body's, not the
      tray's.

    Pips found already (by the grey pass) are not repeated."""
    block = _block_size(gray.shape)
    side = view_side(gray.shape)
    extra: list[Pip] = []
    b, g, r = cv2.split(work)
    white = cv2.min(cv2.min(b, g), r)
    # only coloured bodies (white, grey and black dice are read by the grey pass on any tray): where the
    # picture is coloured nearby (a pip's window)
    coloured = cv2.threshold(cv2.max(cv2.max(b, g), r) - white, COLOURED_FACE - 1, 1, cv2.THRESH_BINARY)[1]
    if not cv2.countNonZero(coloured):
        return []
    near = cv2.dilate(coloured, cv2.getStructuringElement(cv2.MORPH_RECT, (block // 2 | 1,) * 2))
    light = cv2.adaptiveThreshold(255 - gray, 1, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block,
                                  THRESHOLD_C)
    light = cv2.bitwise_and(light, near)
    bodies = _swallowed(light, [p for p in found if not p.dark], min_r, side)
    if bodies is not None:
        extra += [p for p in _find_at(work, gray, block, min_r, max_r, srcs={False: 255 - white},
                                      within=cv2.dilate(bodies, np.ones((3, 3), np.uint8)))
                  if chroma(p.ring) >= COLOURED_FACE]
    bodies = _swallowed(light, [p for p in found if p.dark], min_r, side)
    if bodies is not None:
        # the body's mean level nearby (a block wide), computed at a quarter of the size: it is smooth
        h, w = gray.shape
        size = (max(1, w // 4), max(1, h // 4))
        k = max(3, block // 4) | 1
        level = cv2.blur(cv2.resize((gray * bodies).astype(np.float32), size, interpolation=cv2.INTER_AREA),
                         (k, k))
        count = cv2.blur(cv2.resize(bodies.astype(np.float32), size, interpolation=cv2.INTER_AREA), (k, k))
        fill = cv2.resize(level / np.maximum(count, 1e-3), (w, h), interpolation=cv2.INTER_LINEAR)
        src = cv2.convertScaleAbs(fill)
        cv2.copyTo(gray, bodies, src)
        extra += [p for p in _find_at(work, gray, block, min_r, max_r, srcs={True: src},
                                      within=cv2.dilate(bodies, np.ones((3, 3), np.uint8)))
                  if chroma(p.ring) >= COLOURED_FACE]
    return [p for p in extra if not any(math.hypot(q.x - p.x, q.y - p.y) < max(q.r, p.r) for q in found)]


def _swallowed(light: np.ndarray, seen: list[Pip], min_r: float, side: float) -> np.ndarray | None:
    """The die bodies (uint8 0/1) among the blobs of a light mask: compact blobs (dice touching in a
    row or a cluster included: ``BODY_SOLIDITY``; not a line of printed letters, a stroke) of a die's
    size holding none of the ``seen`` pips (a body whose pips were seen apart from it was not
    swallowed: its marks are print and glints). None when there is none."""
    bodies = np.zeros_like(light)
    for c in _cv.component_outlines(light):
        x0, y0, bw, bh = cv2.boundingRect(c)
        if not BODY_MIN_PIPS * min_r <= max(bw, bh) <= side / BODY_MAX_DIVISOR:
            continue
        if any(x0 <= p.x <= x0 + bw and y0 <= p.y <= y0 + bh
               and cv2.pointPolygonTest(c, (p.x, p.y), False) >= 0 for p in seen):
            continue
        area = cv2.contourArea(c)
        if (area >= BODY_SOLIDITY * cv2.contourArea(cv2.convexHull(c))
                and area >= BODY_MIN_AREA * math.pi * min_r * min_r):
            cv2.drawContours(bodies, [c], -1, 1, thickness=-1)
    return bodies if cv2.countNonZero(bodies) else None


def _find_at(work: np.ndarray, gray: np.ndarray, block: int, min_r: float, max_r: float,
             smears: bool = False, srcs: dict[bool, np.ndarray] | None = None,
             within: np.ndarray | None = None) -> list[Pip]:
    """Pip blobs of the adaptive threshold at one scale, dark and light. With ``srcs`` (polarity ->
    an image in which those pips are dark), only those polarities, thresholded in those images and
    measured in ``gray`` all the same; with ``within`` (uint8 0/1), only blobs there."""
    pips: list[Pip] = []
    if srcs is None:
        srcs = {True: gray, False: 255 - gray}
    for dark, src in srcs.items():
        mask = cv2.adaptiveThreshold(src, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block,
                                     THRESHOLD_C)
        if within is not None:
            mask = cv2.bitwise_and(mask, mask, mask=within)
        lo, hi = 2 * min_r - 1, 2 * max_r + 2
        for c in _cv.component_outlines(mask):
            x0, y0, ww, hh = cv2.boundingRect(c)
            big, small = max(ww, hh), min(ww, hh)
            if not lo <= big <= 2 * hi:
                continue
            if x0 == 0 or y0 == 0 or x0 + ww == gray.shape[1] or y0 + hh == gray.shape[0]:
                continue       # cut by the border: not measurable (and often a cable or a shadow)
            # the blob's own pixels (holes kept: a die seen whole has its pips as holes)
            blob = np.zeros((hh, ww), np.uint8)
            cv2.drawContours(blob, [c], -1, 1, thickness=-1, offset=(-x0, -y0))
            blob &= mask[y0 : y0 + hh, x0 : x0 + ww] > 0
            area = int(blob.sum())
            pip = None
            if (big <= hi and small >= PIP_BOX_ASPECT * big and area >= PIP_BOX_FILL * ww * hh
                    and math.pi * min_r * min_r <= area <= math.pi * max_r * max_r
                    and not _holds_pips(blob, c, x0, y0, min_r)):
                pip = _measure(work, gray, blob, mask, x0, y0, dark)
            if pip is not None:
                pips.append(pip)
                continue
            # light pips merged with their neighbours or the edge bars of a translucent die are cut
            # apart; dark blobs are not (on a white die they are shadows and seams, not pips)
            split = not dark and area >= SPLIT_MIN_AREA * math.pi * min_r * min_r
            discs = _touching_discs(blob, min_r, max_r) if split else []
            for disc, dx, dy in discs:
                pip = _measure(work, gray, disc, mask, x0 + dx, y0 + dy, dark)
                if pip is not None:
                    pips.append(pip)
            if not discs and smears:
                pips += _smeared(work, src, blob, mask, x0, y0, dark, min_r, max_r)
    return pips


def _holds_pips(blob: np.ndarray, outline: np.ndarray, x0: int, y0: int, min_r: float) -> bool:
    """Whether a blob has two or more pip-sized holes: a whole die (or two touching), seen as one
    blob with its pips as holes, not a pip (a pip's glint makes one hole at most)."""
    filled = np.zeros_like(blob)
    cv2.drawContours(filled, [outline], -1, 1, thickness=-1, offset=(-x0, -y0))
    holes = filled & (blob == 0)
    if int(holes.sum()) < 2 * math.pi * min_r * min_r:
        return False
    _, _, stats, _ = cv2.connectedComponentsWithStats(holes, connectivity=8)
    return int((stats[1:, cv2.CC_STAT_AREA] >= math.pi * min_r * min_r).sum()) >= 2


#: 32 points of the unit circle
_CIRCLE = np.stack([np.cos(np.linspace(0, 2 * np.pi, 32, endpoint=False)),
                    np.sin(np.linspace(0, 2 * np.pi, 32, endpoint=False))], axis=1)
#: at most this share of a touching disc's outline (at 1.4 radii) lies on the blob it touches
TOUCHING_OUTLINE: Final = 0.42


def _touching_discs(blob: np.ndarray, min_r: float, max_r: float) -> list[tuple[np.ndarray, int, int]]:
    """The round discs of a blob made of touching discs and bars: big pips close together (a casino
    die's 6, whose pips nearly touch, and its pips touching the white bars of its edges) merge into
    one blob of the threshold. Each disc is a peak of the distance to the blob's edge, as deep as
    the deepest (a bar is thinner than a pip, a neck between two pips narrower) whose deep part is a
    dot, not a line (the stroke of a letter); the disc is the blob's pixels within that depth of the
    peak. Returned as (pixels, x offset, y offset) in the
    blob's frame; empty when the blob holds fewer than two discs or a disc alone with bars."""
    depth = cv2.distanceTransform(blob, cv2.DIST_L2, 3)
    deepest = float(depth.max())
    if not min_r <= deepest <= max_r:
        return []
    cores = (depth >= TOUCHING_CORE * deepest).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(cores, connectivity=8)
    out = []
    hh, ww = blob.shape
    for k in range(1, n):
        core = labels == k
        peak = float(depth[core].max())
        long_side = max(stats[k, cv2.CC_STAT_WIDTH], stats[k, cv2.CC_STAT_HEIGHT])
        if peak < TOUCHING_PEAK * deepest or long_side > STROKE_LENGTH * peak + 2:
            continue        # a shallow bump, or a stroke (its deep part is a line, a disc's a dot)
        ys, xs = np.nonzero(core & (depth >= peak - TOUCHING_BAND))
        cx, cy = _mean(xs), _mean(ys)
        # a disc's outline is mostly the blob's edge, touching its neighbours at a few points; a
        # stroke carries on beyond its deepest point
        px = (cx + TOUCHING_RING * peak * _CIRCLE[:, 0] + 0.5).astype(np.intp)
        py = (cy + TOUCHING_RING * peak * _CIRCLE[:, 1] + 0.5).astype(np.intp)
        px, py = np.minimum(np.maximum(px, 0), ww - 1), np.minimum(np.maximum(py, 0), hh - 1)
        if np.count_nonzero(blob[py, px]) / len(_CIRCLE) > TOUCHING_OUTLINE:
            continue
        r = peak + 1.0
        xa, xb = max(0, int(cx - r)), min(ww, int(cx + r) + 2)
        ya, yb = max(0, int(cy - r)), min(hh, int(cy + r) + 2)
        yy, xx = _grid(ya, yb, xa, xb)
        disc = (((xx - cx) ** 2 + (yy - cy) ** 2 <= r * r) & (blob[ya:yb, xa:xb] > 0)).astype(np.uint8)
        if disc.sum() >= DISC_FILL * math.pi * peak * peak:
            out.append((disc, xa, ya))
    return out if len(out) >= 1 and (len(out) >= 2 or n >= 2) else []


#: a face holding pips cut out of a motion-smeared streak is read with at most this confidence
#: (doubtful: the companion asks the players to look)
SMEAR_CONFIDENCE: Final = 0.6


def _smeared(work: np.ndarray, src: np.ndarray, blob: np.ndarray, mask: np.ndarray, x0: int, y0: int,
             dark: bool, min_r: float, max_r: float) -> list[Pip]:
    """The pips of a motion-smeared streak: a blob far longer than wide, as wide as a pip, in which two
    or three pip cores (darker than the smear between them, for dark pips) lie evenly spaced along its
    axis. Motion blur drags each pip along the motion and merges a row of pips into one streak; the
    centres keep their layout, so the cores are the pips. ``src`` has the pips dark. Empty otherwise."""
    m = cv2.moments(blob, binaryImage=True)
    if m["m00"] <= 0:
        return []
    mu20, mu02, mu11 = m["mu20"] / m["m00"], m["mu02"] / m["m00"], m["mu11"] / m["m00"]
    l1, l2 = _cv.axis_variances(mu20, mu02, mu11)
    if l2 <= 0:
        return []
    major, minor = 2 * math.sqrt(l1), 2 * math.sqrt(l2)       # semi-axes of the equivalent ellipse
    if not (min_r <= minor <= max_r and SMEAR_LENGTH[0] * minor <= major <= SMEAR_LENGTH[1] * minor):
        return []
    if m["m00"] < SMEAR_FILL * math.pi * major * minor:
        return []           # not a filled streak (a ring, a letter, a corner)
    hh, ww = blob.shape
    H, W = src.shape
    g = math.ceil(2 * minor)
    xa, ya, xb, yb = max(0, x0 - g), max(0, y0 - g), min(W, x0 + ww + g), min(H, y0 + hh + g)
    region = src[ya:yb, xa:xb]
    inside = np.zeros(region.shape, bool)
    inside[y0 - ya : y0 - ya + hh, x0 - xa : x0 - xa + ww] = blob > 0
    # the face: a band around the streak, as a pip's ring (0.6 to 1.4 widths beyond its edge)
    def grown(k: float) -> np.ndarray:
        size = 2 * math.ceil(k * minor) + 1
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
        return cv2.dilate(inside.astype(np.uint8), disc) > 0

    face_px = (mask[ya:yb, xa:xb] == 0) & grown(SMEAR_RING[1]) & ~grown(SMEAR_RING[0])
    if face_px.sum() < MIN_RING_PIXELS:
        return []
    face = _grey_percentile(region[face_px], 50)
    core = _grey_percentile(region[inside], SMEAR_CORE_PERCENTILE)
    if face - core < MIN_CONTRAST:
        return []
    # the cores: cut the streak at levels ever closer to its darkest pixels until it falls apart
    theta = 0.5 * math.atan2(2 * mu11, mu20 - mu02)
    ux, uy = math.cos(theta), math.sin(theta)
    cx, cy = m["m10"] / m["m00"] + x0, m["m01"] / m["m00"] + y0
    small = max(SMEAR_CORE_MIN, SMEAR_CORE_AREA * math.pi * minor * minor)
    cores: Points = []
    for level in SMEAR_CUT_LEVELS:
        cut = (inside & (region <= core + level * (face - core))).astype(np.uint8)
        n, _, stats, centres = cv2.connectedComponentsWithStats(cut, connectivity=8)
        found = [(float(centres[k][0]) + xa, float(centres[k][1]) + ya) for k in range(1, n)
                 if stats[k, cv2.CC_STAT_AREA] >= small]
        if 2 <= len(found) <= 3 and _evenly_along(found, (cx, cy), (ux, uy), minor):
            cores = found
            break
    if not cores:
        return []
    ring = work[ya:yb, xa:xb][face_px].reshape(-1, 3).mean(axis=0)
    ring_bgr = (float(ring[0]), float(ring[1]), float(ring[2]))
    contrast = face - float(region[inside].mean())
    streak = hash((x0, y0, ww, hh, dark)) | 1
    shape = (mu20, mu02, mu11)
    return [Pip(x, y, minor, contrast, ring_bgr, dark, SMEAR_ROUNDNESS, False, shape, streak)
            for x, y in cores]


def _grid(ya: int, yb: int, xa: int, xb: int) -> tuple[np.ndarray, np.ndarray]:
    """``np.ogrid[ya:yb, xa:xb]`` (rows (yb - ya, 1), columns (1, xb - xa)) in a sixth of its time: the
    pip tests build one for every blob they measure."""
    return np.arange(ya, yb)[:, None], np.arange(xa, xb)[None, :]


def _mean(values: np.ndarray) -> float:
    """``values.mean()`` of a float64 or integer array, to the bit (numpy's own float64 sum over the count),
    without its checks: a third of the time on the pip tests' small arrays."""
    return float(values.sum(dtype=np.float64) / values.size)


def _std(values: np.ndarray) -> float:
    """``values.std()`` of a float64 array, to the bit (numpy's own steps), in under half its time."""
    d = values - values.sum() / values.size
    return float(np.sqrt((d * d).sum() / values.size))


#: numpy interpolates between two order statistics from the upper one when the weight is at least this (its
#: ``_lerp``); ``_grey_percentile`` must round as it does
_LERP_FROM_ABOVE: Final = 0.5


def _grey_percentile(values: np.ndarray, q: float) -> float:
    """``np.percentile(values, q)`` (its default, linear method) of uint8 grey levels, to the bit, from their
    histogram: numpy's own sort and checks cost about 60 us a call, a third of the pip counter's smear
    test."""
    n = values.size
    if n == 0:
        raise ValueError("no grey levels to take a percentile of")
    counts = np.cumsum(np.bincount(values, minlength=256))
    at = (n - 1) * (q / 100)          # numpy's virtual index (its linear method); 0 <= q <= 100
    lo = math.floor(at)
    gamma = at - lo
    a, b = (float(np.searchsorted(counts, k, side="right")) for k in (lo, min(lo + 1, n - 1)))
    return b - (b - a) * (1 - gamma) if gamma >= _LERP_FROM_ABOVE else a + (b - a) * gamma


def _measure(work: np.ndarray, gray: np.ndarray, blob: np.ndarray, mask: np.ndarray,
             x0: int, y0: int, dark: bool) -> Pip | None:
    m = cv2.moments(blob, binaryImage=True)
    if m["m00"] <= 0:
        return None
    cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
    mu20, mu02, mu11 = m["mu20"] / m["m00"], m["mu02"] / m["m00"], m["mu11"] / m["m00"]
    l1, l2 = _cv.axis_variances(mu20, mu02, mu11)
    if l2 <= 0 or l2 / l1 < PIP_AXIS_RATIO:      # axis ratio below 0.37: a seam, a scratch, a smear
        return None
    ellipse = 4 * math.pi * math.sqrt(l1 * l2)
    if m["m00"] < PIP_ELLIPSE_FILL * ellipse:
        return None
    r = math.sqrt(m["m00"] / math.pi)
    cx, cy = cx + x0, cy + y0
    # ring between 1.6 r and 2.4 r around the pip: the face
    h, w = gray.shape
    R = math.ceil(PIP_WINDOW * r) + 1
    # the window is clipped at the image border (a die at the edge of a crop): at least 40% of the
    # ring must be inside
    xa, xb = max(0, int(cx) - R), min(w, int(cx) + R + 1)
    ya, yb = max(0, int(cy) - R), min(h, int(cy) + R + 1)
    yy, xx = _grid(ya, yb, xa, xb)
    d2 = (xx - cx) ** 2 + (yy - cy) ** 2
    lo, hi = PIP_RING
    off = mask[ya:yb, xa:xb] == 0    # not the threshold's blobs: the face
    ring = (d2 >= (lo * r) ** 2) & (d2 <= (hi * r) ** 2) & off
    if np.count_nonzero(ring) < max(float(MIN_RING_PIXELS),
                                    PIP_RING_SHARE * math.pi * ((hi * r) ** 2 - (lo * r) ** 2)):
        return None
    g = gray[ya:yb, xa:xb]
    ring_vals = g[ring].astype(np.float64)
    inner = g[d2 <= (PIP_INNER * r) ** 2].astype(np.float64)
    if inner.size == 0:
        return None
    contrast = (_mean(ring_vals) - _mean(inner)) * (1 if dark else -1)
    if contrast < MIN_CONTRAST:
        return None       # the cheapest test first: most candidates fail it (the rest as before)
    # a pip is solid (a whole small die seen as a "bright blob" has its pips as holes inside): a disc of
    # its size, 0.8 r, lies on the blob. A dark pip may be an ellipse instead (a pip smeared by motion or
    # foreshortened, which a disc overlaps): its own ellipse, shrunk to 0.8, must then lie on the blob,
    # and it is not read as a 1 by itself. Light flat blobs stay out: on a translucent die they are the
    # sides' pips seen through the body and its edge bars.
    disc = d2 <= (PIP_DISC * r) ** 2
    n_disc = np.count_nonzero(disc)
    solid = (n_disc - np.count_nonzero(off[disc])) / n_disc if n_disc else 0.0
    round_disc = solid >= PIP_SOLID
    if dark and not round_disc:
        det = mu20 * mu02 - mu11 * mu11
        dx, dy = xx - cx, yy - cy
        core = (mu02 * dx * dx - 2 * mu11 * dx * dy + mu20 * dy * dy) <= 4 * PIP_DISC ** 2 * det
        n_core = np.count_nonzero(core)
        solid = (n_core - np.count_nonzero(off[core])) / n_core if n_core else 0.0
    if (_std(ring_vals) > RING_SPREAD * contrast + SPREAD_FLOOR
            or solid < PIP_SOLID or _std(inner) > PIP_INNER_SPREAD * contrast + SPREAD_FLOOR):
        return None
    patch = work[ya:yb, xa:xb]
    colour = patch[ring].reshape(-1, 3).mean(axis=0)
    o_lo, o_hi = PIP_OUTER
    outer = (d2 > (o_lo * r) ** 2) & (d2 <= (o_hi * r) ** 2) & off
    wide = False
    if np.count_nonzero(outer) >= PIP_OUTER_SHARE * math.pi * ((o_hi * r) ** 2 - (o_lo * r) ** 2):
        far = patch[outer].reshape(-1, 3).astype(np.float64)
        tol = max(FACE_TOL_FLOOR, FACE_TOL * contrast)
        wide = bool(np.count_nonzero(np.abs(far - colour).max(axis=1) <= tol) / len(far) >= WIDE_SHARE)
    ring_bgr = (float(colour[0]), float(colour[1]), float(colour[2]))
    return Pip(float(cx), float(cy), r, float(contrast), ring_bgr, dark, math.sqrt(l2 / l1), wide,
               (mu20, mu02, mu11), disc=round_disc)


def _same_face(a: Pip, b: Pip, work: np.ndarray) -> bool:
    if a.dark != b.dark:
        return False
    if a.streak and b.streak and not _parallel_streaks(a, b):
        return False
    ra, rb = a.r, b.r
    if max(ra, rb) > SAME_FACE_SIZE * min(ra, rb):
        return False
    rm = (ra + rb) / 2
    dist = math.hypot(a.x - b.x, a.y - b.y)
    if dist > SAME_FACE_REACH[1] * rm or dist < SAME_FACE_REACH[0] * rm:
        return False
    face = (np.array(a.ring) + np.array(b.ring)) / 2
    contrast = min(a.contrast, b.contrast)
    # a coloured (or translucent) face is told by its hue: its brightness varies (pips seen through
    # it, gradients), its chromaticity much less; a white or grey face by its grey level
    coloured = chroma(a.ring) >= COLOURED_FACE and chroma(b.ring) >= COLOURED_FACE
    # light pips sit on dark, coloured or translucent faces, whose look varies more than a white face
    tol = max(SAME_FACE_TOL_FLOOR, (SAME_FACE_TOL_COLOURED if coloured else SAME_FACE_TOL_DARK if a.dark
                                    else SAME_FACE_TOL_LIGHT) * contrast)
    if max(abs(u - v) for u, v in zip(a.ring, b.ring, strict=True)) > tol:
        return False
    hue_a, hue_b = _chromaticity(np.array([a.ring])), _chromaticity(np.array([b.ring]))
    if coloured and np.abs(hue_a - hue_b).max() > SAME_HUE:
        return False
    steps = max(3, int(dist / 2))
    h, w = work.shape[:2]
    t = np.arange(1, steps) / steps
    t = t[(t * dist >= PATH_CLEAR * ra) & ((1 - t) * dist >= PATH_CLEAR * rb)]
    if t.size == 0:
        return True
    xs = np.minimum(w - 1, (a.x + (b.x - a.x) * t + 0.5).astype(np.intp))
    ys = np.minimum(h - 1, (a.y + (b.y - a.y) * t + 0.5).astype(np.intp))
    samples = work[ys, xs].astype(np.float64)
    off = np.abs(samples - face).max(axis=1) > tol
    if coloured:
        off |= np.abs(_chromaticity(samples) - _chromaticity(face[None, :])).max(axis=1) > SAME_HUE
    bad = int(off.sum())
    return bad <= 1 and bad * PATH_OFF_DARK <= steps if a.dark else bad * PATH_OFF_LIGHT <= steps


def _parallel_streaks(a: Pip, b: Pip) -> bool:
    """Whether two pips come from streaks smeared alike (one motion smears all the pips of a die the
    same way: same direction, same length)."""
    if a.streak == b.streak:
        return True
    (ax, ay, axy), (bx, by, bxy) = a.cov, b.cov
    ta, tb = 0.5 * math.atan2(2 * axy, ax - ay), 0.5 * math.atan2(2 * bxy, bx - by)
    turn = abs(math.degrees(ta - tb)) % HALF_TURN
    la, lb = ax + ay, bx + by
    return min(turn, HALF_TURN - turn) <= STREAK_TURN and max(la, lb) <= STREAK_LENGTHS * min(la, lb)


def _evenly_along(cores: Points, centre: tuple[float, float], axis: tuple[float, float],
                  width: float) -> bool:
    """Whether the cores lie on the streak's axis, evenly spaced, as far apart as the pips of a face."""
    (cx, cy), (ux, uy) = centre, axis
    if any(abs(-(x - cx) * uy + (y - cy) * ux) > STREAK_OFF_AXIS * width for x, y in cores):
        return False
    along = sorted((x - cx) * ux + (y - cy) * uy for x, y in cores)
    gaps = [b - a for a, b in pairwise(along)]
    return (min(gaps) >= STREAK_GAPS[0] * width and max(gaps) <= STREAK_GAPS[1] * width
            and max(gaps) <= STREAK_EVEN * min(gaps))


def _chromaticity(bgr: np.ndarray) -> np.ndarray:
    """(N, 3) colours divided by their sums: the hue and saturation, not the brightness."""
    return np.asarray(bgr / np.maximum(bgr.sum(axis=1, keepdims=True), 1.0))


def _fit(points: Points, n: int, r: float, group: tuple[Pip, ...] | list[Pip] = ()) -> float:
    """Layout error of ``points`` (n pairs) against the d6 layout for n: 0 perfect, ~>0.15 wrong.

    The pips of one face look alike: a mix of sizes or shapes (a top pip and a foreshortened side pip)
    is penalised."""
    if n == 1:
        return 0.0
    penalty = 0.0
    if group:
        rs = [p.r for p in group]
        rounds = [p.roundness for p in group]
        if max(rs) > FACE_SIZES * min(rs) or min(rounds) < FACE_ROUNDNESS * max(rounds):
            penalty = FIT_PENALTY
    d = _distances(points)
    span = d[-1] or 1.0
    err = max(abs(v / span - w) for v, w in zip(d, _SIGNATURES[n], strict=True))
    if n >= 4:
        # 4+ pips span a plane: compare the affine-normalised layouts (tilted faces), and keep the
        # similarity error bounded so that a 2x3 grid does not pass for a stretched 2x2
        sig = _signature(_whitened(points))
        affine = max(abs(v - w) for v, w in zip(sig, _AFFINE_SIGNATURES[n], strict=True))
        # a face seen at up to ~60 degrees from above stretches at most 2x
        stretched = _anisotropy(points) > STRETCH * _ANISOTROPY[n]
        err = max(affine, err / SIMILARITY_WEIGHT) + (FIT_PENALTY if stretched else 0.0)
    # scale: the grid offset a is 2..3.5 pip radii on common dice (1.6 .. 5.5 accepted)
    a = span / _SPAN[n]
    if not GRID_OFFSET[0] * r <= a <= GRID_OFFSET[1] * r:
        err += FIT_PENALTY
    return err + penalty


def _median(values: list[float]) -> float:
    v = sorted(values)
    k = len(v) // 2
    return v[k] if len(v) % 2 else (v[k - 1] + v[k]) / 2


def group_faces(pips: list[Pip], work: np.ndarray) -> list[Face]:
    """Group pip candidates into faces and read each (see the module notes)."""
    n = len(pips)
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    streaks: dict[int, int] = {}
    for i, p in enumerate(pips):
        if p.streak:
            if p.streak in streaks:
                parent[root(i)] = root(streaks[p.streak])
            else:
                streaks[p.streak] = i
    order = sorted(range(n), key=lambda i: (pips[i].x, pips[i].y))
    for ii, i in enumerate(order):
        for j in order[ii + 1 :]:
            if pips[j].x - pips[i].x > SAME_FACE_REACH[1] * max(pips[i].r, pips[j].r):
                break
            if root(i) != root(j) and _same_face(pips[i], pips[j], work):
                parent[root(i)] = root(j)
    groups: dict[int, list[Pip]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(pips[i])
    faces = _lone_pips_joined(_merged([f for g in groups.values() for f in _split_group(g)]), pips)
    faces = [_ringed_one(f, pips, work) for f in faces]
    faces = [f if f.value is None or f.confidence <= UNEXPLAINED_CONFIDENCE or _on_a_die_top(f, work)
             else _doubted_shape(f) for f in faces]
    return [_lost_pips_doubted(_one_unexplained_doubted(_crowded_one_doubted(f, pips), work), work)
            for f in faces]


#: the text printed around a casino 1's big pip is strokes: none is wider than this share of the pip's
#: radius (a pip, a die's edge bar or a side's pip seen through the body is a disc or a bar, wider)
RINGED_ONE_STROKE: Final = 0.4
#: a casino 1's pip is this many times the radius of any other light pip candidate on its face
RINGED_ONE_SIZE: Final = 2.0
#: the ring of text around a casino 1's pip, in pip radii
RINGED_ONE_RING: Final = (1.3, 2.6)
#: a casino 1's pip is this wide (radius, working pixels) at least: its text is then resolved into strokes.
#: Smaller, a maker's logo (a star in a ring) on a small die blurs into the same light disc in thin marks
RINGED_ONE_MIN_R: Final = 10.0


def _ringed_one(face: Face, pips: list[Pip], work: np.ndarray) -> Face:
    """A casino die's 1: one big light pip ringed by printed text, so its face is not plain (the pip is
    not ``wide``) and it is not read by itself. Read as a 1 of at most ``UNEXPLAINED_CONFIDENCE`` when
    the pip is a round solid disc ``RINGED_ONE_MIN_R`` wide or more, ``RINGED_ONE_SIZE`` times any other
    light candidate on its face, centred on an about-square die top (``_on_a_die_top``), and the light
    marks around it
    (``RINGED_ONE_RING``) are all thin strokes (``RINGED_ONE_STROKE``): text, not pips."""
    if face.value is not None or len(face.pips) != 1:
        return face
    p = face.pips[0]
    if (p.dark or p.wide or not p.disc or p.streak or p.roundness < RINGED_ONE_ROUNDNESS
            or p.r < RINGED_ONE_MIN_R):
        return face
    reach = ONE_FACE * p.r
    if any(q is not p and not q.dark and q.r * RINGED_ONE_SIZE > p.r
           and math.hypot(q.x - p.x, q.y - p.y) <= reach for q in pips):
        return face
    h, w = work.shape[:2]
    lo, hi = RINGED_ONE_RING
    R = math.ceil(hi * p.r) + 1
    if p.x - R < 0 or p.y - R < 0 or p.x + R >= w or p.y + R >= h:
        return face         # the ring is not all in the picture
    xa, xb, ya, yb = int(p.x) - R, int(p.x) + R + 1, int(p.y) - R, int(p.y) + R + 1
    yy, xx = _grid(ya, yb, xa, xb)
    d2 = (xx - p.x) ** 2 + (yy - p.y) ** 2
    ring = np.array(p.ring)
    axis = work[int(p.y), int(p.x)].astype(np.float64) - ring
    norm = float(axis @ axis)
    if norm <= 0:
        return face
    proj = ((work[ya:yb, xa:xb].astype(np.float64) - ring) @ axis) / norm
    marks = ((proj >= MARK_LEVEL) & (d2 >= (lo * p.r) ** 2) & (d2 <= (hi * p.r) ** 2)).astype(np.uint8)
    if not marks.any():
        return face
    stroke = cv2.distanceTransform(marks, cv2.DIST_L2, 3)
    if float(stroke.max()) > RINGED_ONE_STROKE * p.r:
        return face
    half = ONE_HALF_FACE * p.r
    one = Face(face.pips, 1, UNEXPLAINED_CONFIDENCE, (p.x - half, p.y - half, 2 * ONE_HALF_FACE * p.r,
                                                      2 * ONE_HALF_FACE * p.r))
    return one if _on_a_die_top(one, work) else face


def _lost_pips_doubted(face: Face, work: np.ndarray) -> Face:
    """A 2 or a 3 is a proposal at most ``UNEXPLAINED_CONFIDENCE`` sure when a pip-coloured spot lies
    where a larger layout has a pip that it lacks: a corner of its other diagonal (a 4, 5 or 6 has
    pips there, ``missing_corners``) or, for a 2, its centre (a 3's or a 5's). Those pips were lost by
    the reader (merged into a column of a small 6, or too flat at a few pixels to match their
    neighbours), not absent: the die shows more than the layout read."""
    n = len(face.pips)
    if n not in (2, 3) or face.value != n or face.confidence <= UNEXPLAINED_CONFIDENCE:
        return face
    spots = missing_corners(face)
    if n == 2:
        spots.append((sum(p.x for p in face.pips) / 2, sum(p.y for p in face.pips) / 2))
    h, w = work.shape[:2]
    ring = np.mean([p.ring for p in face.pips], axis=0)
    r = _median([p.r for p in face.pips])
    k = max(1, round(SPOT_HALF * r))

    def colour(x: float, y: float) -> np.ndarray | None:
        xi, yi = round(x), round(y)
        if not (k <= xi < w - k and k <= yi < h - k):
            return None
        return np.asarray(work[yi - k : yi + k + 1, xi - k : xi + k + 1].reshape(-1, 3).mean(axis=0))

    pip_colours = [c for c in (colour(p.x, p.y) for p in face.pips) if c is not None]
    if not pip_colours:
        return face
    axis = np.mean(pip_colours, axis=0) - ring
    norm = float(axis @ axis)
    if norm <= 0:
        return face
    for x, y in spots:
        c = colour(x, y)
        if c is not None and float((c - ring) @ axis) / norm >= MARK_LEVEL:
            return _capped(face, UNEXPLAINED_CONFIDENCE)
    return face


#: a die's 1 has its face to itself: no other pip candidate within this many pip radii of it
ONE_ALONE: Final = 3.4


def _crowded_one_doubted(face: Face, pips: list[Pip]) -> Face:
    """A dark lone pip read as a 1 is not read when another pip candidate lies on its face (within
    ``ONE_ALONE`` radii, where the 1's face is plain): a dot of a printed pattern, a letter's part.
    A neighbouring die's pips and the die's own side pips lie beyond its face. Light pips are left
    alone: a translucent die shows the pips of its other faces through its body, around its 1."""
    if len(face.pips) != 1 or face.value != 1 or not face.pips[0].dark:
        return face
    p = face.pips[0]
    reach = ONE_ALONE * p.r
    if any(q is not p and math.hypot(q.x - p.x, q.y - p.y) <= reach for q in pips):
        return Face(face.pips, None, UNREAD_CONFIDENCE, face.box)
    return face


#: a 1's face reaches as far from its pip on opposite sides, within this ratio (a pip of a 2 or 3
#: whose other pips were lost lies in a corner of its face: 3x nearer one edge than the other)
ONE_CENTRED: Final = 2.0
#: how far from a 1's pip (in its radii) its face is looked at for other marks: past a 5's corner pips
#: (4.2 radii on common dice, 3-4 on dice whose 1 has a big pip)
ONE_FACE: Final = 5.6


#: a die's top is about square: its extents along two perpendicular lines through its centre are equal
#: (whatever its turn), up to ~1.4x when tilted; two touching dice of one colour read as one face (the
#: pips of a 1 and a 2 side by side make a 2) span 2x one way
TOP_EXTENTS: Final = 1.5


#: a face whose die does not look like its reading keeps this share of its confidence: never sure, and
#: still ranked against the frame's other readings (a crop's best guess stays its best guess)
SHAPE_DOUBT: Final = 0.6


def _doubted_shape(face: Face) -> Face:
    return _capped(face, SHAPE_DOUBT * face.confidence)


def _on_a_die_top(face: Face, work: np.ndarray) -> bool:
    """Whether a face lies centred on an about-square die top: along 8 rays from its centre the
    face-coloured region (pips crossed: runs of other colour up to a pip's width) reaches as far on
    both sides of each of 4 lines (within ``ONE_CENTRED``), and each extent is at most ``TOP_EXTENTS``
    times the perpendicular one. A layout read across two touching dice of one colour is centred on their
    seam and spans twice the die one way; a 2 or 3 whose other pips were lost (a 1 read) sits off the
    face's centre. A face at one end of a run twice as long is a die touching another of its colour.
    Rays that leave the picture on the face tell nothing (an enlarged crop: the die fills it)."""
    h, w = work.shape[:2]
    r = _median([p.r for p in face.pips])
    ring = np.mean([p.ring for p in face.pips], axis=0)
    tol = max(FACE_TOL_FLOOR, FACE_TOL * min(p.contrast for p in face.pips))
    cx, cy = face.centre
    longest = TOP_RAY * face.box[2]
    steps = np.arange(0.0, math.floor(longest) + 1.0)
    reach = []
    for k in range(8):
        t = math.radians(45 * k)
        # the ray's pixels, one per step, sampled at once (int() rounding, as a point at a time would)
        xs = np.trunc(cx + math.cos(t) * steps + 0.5).astype(np.intp)
        ys = np.trunc(cy + math.sin(t) * steps + 0.5).astype(np.intp)
        inside = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
        leaves = not bool(inside.all())     # the picture ends on the face: no evidence where it ends
        n = int(np.argmin(inside)) if leaves else len(steps)
        diff = np.abs(work[ys[:n], xs[:n]].astype(np.float64) - ring)
        reach.append(_ray_reach((diff.max(axis=1) if diff.ndim > 1 else diff) > tol, TOP_RAY_GAP * r, leaves))
    for k in range(4):
        a, b = reach[k], reach[k + 4]
        across = (reach[(k + 2) % 8], reach[(k + 6) % 8])    # the perpendicular line
        if a is None or b is None or across[0] is None or across[1] is None:
            continue
        off_centre = max(a, b) > ONE_CENTRED * min(a, b)
        long = a + b > TOP_EXTENTS * (across[0] + across[1])
        # off-centre on a die-sized run: a pip of a 2 or 3 in its corner; centred on a run two dice
        # long: a layout read across the seam of two touching dice. At one end of a long run is a
        # die touching another of its colour: no doubt.
        if off_centre != long:
            return False
    return True


def _ray_reach(other: np.ndarray, gap: float, leaves: bool) -> float | None:
    """How far (in steps, at least 1) the face reaches along a ray from its centre, given which steps are not
    face-coloured (``other``, bool): to the last face-coloured step before a run of other colour longer than
    ``gap`` (a pip is crossed, the die's edge is not). ``None`` when no such run ends it and the ray
    ``leaves`` the picture. Walked at once, not step by step (the Python loop was a twentieth of the pip
    counter's time)."""
    at = np.arange(len(other))
    # each step's last face-coloured step (-1: none yet)
    face_step = np.maximum.accumulate(np.where(other, -1, at)) if len(other) else at
    ends = np.flatnonzero(at - face_step > gap)
    if not len(ends) and leaves:
        return None
    last = int(face_step[ends[0]] if len(ends) else face_step[-1] if len(other) else -1)
    return max(float(last), 1.0)


def _one_unexplained_doubted(face: Face, work: np.ndarray) -> Face:
    """A lone pip read as a 1 is a proposal at most ``UNEXPLAINED_CONFIDENCE`` sure when its face does not
    look like a 1's: the 1's pip is at the centre of a plain face. Two checks on the pixels (the pips
    the reader lost are not candidates: a coloured die's light corner pips merged with its corners on
    a dark tray, a 5 then showing only its centre pip):

    - centred: along 4 lines through the pip, the face-coloured run reaches as far on both sides
      (within ``ONE_CENTRED``); a pip of a 2 or a 3 sits near a corner;
    - plain: no compact pip-coloured mark (a lost pip: at most 3.2 radii across, at least 0.4 of the
      pip's area) lies within ``ONE_FACE`` radii; the tray beyond the face's edges, a die's shadow
      and its edges are long runs, not marks."""
    if len(face.pips) != 1 or face.value != 1 or face.confidence <= UNEXPLAINED_CONFIDENCE:
        return face
    p = face.pips[0]
    h, w = work.shape[:2]
    ring = np.array(p.ring)
    if not _on_a_die_top(face, work):
        return _doubted_shape(face)
    # pip-coloured marks on the face
    R = math.ceil(ONE_FACE * p.r)
    xa, xb = max(0, int(p.x) - R), min(w, int(p.x) + R + 1)
    ya, yb = max(0, int(p.y) - R), min(h, int(p.y) + R + 1)
    yy, xx = _grid(ya, yb, xa, xb)
    d2 = (xx - p.x) ** 2 + (yy - p.y) ** 2
    pipc = work[max(0, int(p.y)), max(0, int(p.x))].astype(np.float64)
    axis = pipc - ring
    norm = float(axis @ axis)
    if norm <= 0:
        return face
    proj = ((work[ya:yb, xa:xb].astype(np.float64) - ring) @ axis) / norm
    marks = ((proj >= MARK_LEVEL) & (d2 >= (ONE_MARKS_FROM * p.r) ** 2)
             & (d2 <= (ONE_FACE * p.r) ** 2)).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(marks, connectivity=8)
    for i in range(1, n):
        area, big = stats[i, cv2.CC_STAT_AREA], max(stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT])
        if area >= LOST_PIP_AREA * math.pi * p.r * p.r and big <= LOST_PIP_SIZE * p.r:
            return _doubted_shape(face)
    return face


def _lone_pips_joined(faces: list[Face], pips: list[Pip]) -> list[Face]:
    """Grow each face of 2+ pips by pips next to it that no such face holds (lone 1s, pips left out
    of a group) when they complete a larger layout (``_grown``): pips the colour path did not link (a
    6 seen at a slant read as a 4 and a 1)."""
    held = {id(p) for f in faces if len(f.pips) > 1 for p in f.pips}
    free = [p for p in pips if id(p) not in held]
    if not free:
        return faces
    out: list[Face] = []
    taken: set[int] = set()
    for f in faces:
        if len(f.pips) > 1 and f.value is not None:
            top = _grown(list(f.pips), [p for p in free if id(p) not in taken])
            if len(top) > len(f.pips):
                taken |= {id(p) for p in top}
                f = _read_group(top)
        out.append(f)
    return [f for f in out if len(f.pips) > 1 or id(f.pips[0]) not in taken]


def _merged(faces: list[Face]) -> list[Face]:
    """Join two neighbouring faces when together they make one good layout (a face whose pips the
    colour path did not link, e.g. a 4 split into two diagonal 2s by a glint)."""
    changed = True
    while changed:
        changed = False
        for i, a in enumerate(faces):
            for j in range(i + 1, len(faces)):
                b = faces[j]
                n = len(a.pips) + len(b.pips)
                if n > 6 or a.pips[0].dark != b.pips[0].dark:
                    continue
                ca, cb = a.centre, b.centre
                if math.hypot(ca[0] - cb[0], ca[1] - cb[1]) > MERGE_REACH * max(a.box[2], b.box[2]):
                    continue
                both = [*a.pips, *b.pips]
                err = _fit([(p.x, p.y) for p in both], n, _median([p.r for p in both]), both)
                if err <= GROW_FIT:
                    faces = [f for k, f in enumerate(faces) if k not in (i, j)] + [_read_group(both)]
                    changed = True
                    break
            if changed:
                break
    return faces


def _split_group(group: list[Pip]) -> list[Face]:
    """Read a pip group; when no layout explains all of it, take the best-explained subset.

    A die seen slightly from the side shows foreshortened pips of its side faces next to the top face;
    they join the group (same colour, short path). The subset of pips that fits a d6 layout and carries
    the most evidence (area x roundness: side pips are smaller and flatter) is the top face. What is
    left is kept only if it reads as a face of similar pip size (a touching die of the same colour).
    """
    face = _read_group(group)
    if face.value is not None and (len(group) == 1 or face.confidence >= READ_CONFIDENCE):
        return [face]
    # first guess: the pips that look most like top-face pips (largest and roundest)
    tops = max(_topness(p) for p in group)
    likely = [p for p in group if _topness(p) >= LIKELY_TOP * tops]
    if len(likely) < len(group):
        first = _read_group(likely)
        if first.value is not None and first.confidence >= READ_CONFIDENCE:
            top = _grown(likely, [p for p in group if p not in likely])
            return _doubted(_read_group(top), _leftovers(group, top), group)
    if len(group) > CROWDED_GROUP or len(likely) > 6:
        # several dice touching (and their sides): split the likely top pips by place, keep the split
        # whose parts read best
        best_parts: tuple[int, list[Face]] | None = None
        for k in (2, 3):
            if len(group) < 2 * k:
                break
            seen: set[tuple[int, ...]] = set()
            for start in range(min(len(group), 6)):
                split = _kmeans(group, k, start=start)
                key = tuple(sorted(id(part[0]) for part in split))
                if key in seen or any(len(part) >= len(group) for part in split):
                    continue
                seen.add(key)
                parts = [f for part in split for f in _split_group(part)]
                explained = sum(len(f.pips) for f in parts
                                if f.value is not None and f.confidence >= READ_CONFIDENCE)
                if best_parts is None or explained > best_parts[0]:
                    best_parts = (explained, parts)
        if best_parts is None or best_parts[0] == 0:
            return [face]
        return [f for f in best_parts[1] if f.value is not None]
    best: tuple[tuple[float, int, float, float], tuple[Pip, ...]] | None = None
    for k in range(min(6, len(group) - 1), 0, -1):
        for sub in combinations(group, k):
            err = _fit([(p.x, p.y) for p in sub], k, _median([p.r for p in sub]), sub)
            if err > FIT:
                continue
            # the top face: its pips are the least foreshortened; then the split that explains the
            # most pips (two touching dice of one colour), then the best fit
            rest = [p for p in group if p not in sub]
            explained, unlike = k, _unlike(sub)
            if 2 <= len(rest) <= 6:
                rest_err = _fit([(p.x, p.y) for p in rest], len(rest), _median([p.r for p in rest]), rest)
                if rest_err <= FIT:
                    explained += len(rest)
                    unlike = max(unlike, _unlike(rest))
            mean_top = sum(_topness(p) for p in sub) / k
            # then the faces whose pips are most alike in shape (one face, one foreshortening: a top
            # pip and a pip of the side below it make a "2" of unlike ellipses)
            score = (round(mean_top / tops, 1), explained, -round(err, 2), -unlike)
            if best is None or score > best[0]:
                best = (score, sub)
    if best is None:
        return [face]
    return _doubted(_read_group(list(best[1])), _leftovers(group, list(best[1])), group)


#: a face that leaves out a pip lying on it, as round and as big as its own, is read with at most this
#: confidence (the players are asked)
UNEXPLAINED_CONFIDENCE: Final = 0.5


def _doubted(top: Face, others: list[Face], group: list[Pip]) -> list[Face]:
    """The faces read out of one pip group, with their confidence capped at ``UNEXPLAINED_CONFIDENCE``
    when one of them leaves out a pip that lies on it and looks like its own pips (as big, as round),
    or when two of them overlap.

    Side-face pips are flatter or smaller, and a touching die's pips lie beyond the face; a top-like
    pip on the face itself means the layout does not explain the die (a pip of a 4 missed, the other
    three read as a 2 and a 1; a logo's ring taken for a pip): the value is a guess. Two dice do not
    overlap: faces of one group closer than their half-sizes are one die explained two wrong ways."""
    faces = [top, *others]
    doubt = any(math.dist(top.centre, f.centre) < OVERLAP * (top.box[2] + f.box[2]) / 2 for f in others)
    for f in faces:
        if doubt or f.value is None:
            continue
        held = {id(p) for p in f.pips}
        cx, cy = f.centre
        reach = ON_FACE * f.box[2]
        r_f = _median([p.r for p in f.pips])
        low = min(p.roundness for p in f.pips)
        # a 2 is read from its two pips' distance alone: two pips along an edge of a 4 make one too,
        # and the pips it leaves out then lie beyond its box, as near to its pips as they are apart
        a, b = f.pips[0], f.pips[-1]
        span = math.dist((a.x, a.y), (b.x, b.y)) if len(f.pips) == 2 else 0.0
        for p in group:
            if id(p) in held or p.r < LEFT_OUT_SIZE * r_f or p.roundness < LEFT_OUT_ROUNDNESS * low:
                continue
            gap = min(math.dist((p.x, p.y), (q.x, q.y)) for q in f.pips)
            if math.hypot(p.x - cx, p.y - cy) <= reach or gap <= LEFT_OUT_GAP * span:
                doubt = True
                break
    return [_capped(f, UNEXPLAINED_CONFIDENCE) for f in faces] if doubt else faces


def _capped(face: Face, confidence: float) -> Face:
    return Face(face.pips, face.value, min(face.confidence, confidence), face.box)


#: a face grown by more pips must fit its larger layout at least this well (a read face: 0.16)
GROW_FIT: Final = 0.12


def _grown(top: list[Pip], others: list[Pip]) -> list[Pip]:
    """The top face's pips, with the pips of ``others`` that complete a larger d6 layout.

    The pips picked first are the most top-like; a pip of the same face near its edge can look less
    round (a glint, the edge's shading) and be left out, so a 5 reads as a 4. The largest layout that
    the top pips and some of the others fit well (``GROW_FIT``) is the face; side-face pips, smaller
    and flatter, fit no layout with the top pips."""
    n = len(top)
    if not 1 < n < 6 or not others:
        return top
    cx, cy = sum(p.x for p in top) / n, sum(p.y for p in top) / n
    span = max(math.hypot(p.x - q.x, p.y - q.y) for p, q in combinations(top, 2))
    near = [p for p in others
            if p.dark == top[0].dark and math.hypot(p.x - cx, p.y - cy) <= GROW_REACH * span]
    near = sorted(near, key=lambda p: math.hypot(p.x - cx, p.y - cy))[:6]
    for k in range(min(len(near), 6 - n), 0, -1):
        fits = []
        for extra in combinations(near, k):
            both = [*top, *extra]
            err = _fit([(p.x, p.y) for p in both], n + k, _median([p.r for p in both]), both)
            if err <= GROW_FIT:
                fits.append((err, both))
        if fits:
            return min(fits, key=lambda f: f[0])[1]
    return top


def _nearest(q: tuple[float, float], centres: list[tuple[float, float]]) -> int:
    dists = [math.hypot(q[0] - c[0], q[1] - c[1]) for c in centres]
    return dists.index(min(dists))


def _kmeans(pips: list[Pip], k: int, rounds: int = 8, start: int = 0) -> list[list[Pip]]:
    """Split pips into k groups by place (k-means from pip ``start`` and the farthest points)."""
    pts = [(p.x, p.y) for p in pips]
    centres = [pts[start]]
    while len(centres) < k:
        centres.append(max(pts, key=lambda q: min(math.hypot(q[0] - c[0], q[1] - c[1]) for c in centres)))
    assign = [0] * len(pts)
    for _ in range(rounds):
        assign = [_nearest(q, centres) for q in pts]
        for j in range(k):
            mine = [q for q, a in zip(pts, assign, strict=True) if a == j]
            if mine:
                centres[j] = (sum(q[0] for q in mine) / len(mine), sum(q[1] for q in mine) / len(mine))
    return [g for g in ([p for p, a in zip(pips, assign, strict=True) if a == j] for j in range(k)) if g]


def pip_shape(p: Pip) -> tuple[float, float]:
    """How a pip is foreshortened, as a 2-vector: ln(major / minor axis) along twice the major axis's
    angle (0 for a round pip, whatever its size). Pips of one face, seen in one plane, are alike."""
    xx, yy, xy = p.cov
    root = math.sqrt(max(0.0, ((xx - yy) / 2) ** 2 + xy * xy))
    hi, lo = (xx + yy) / 2 + root, (xx + yy) / 2 - root
    stretch = 0.5 * math.log(hi / lo) if lo > DEGENERATE else 0.0
    angle = math.atan2(2 * xy, xx - yy)
    return stretch * math.cos(angle), stretch * math.sin(angle)


def _unlike(pips: tuple[Pip, ...] | list[Pip]) -> float:
    """The largest difference of foreshortening (``pip_shape``) between two pips of a set."""
    shapes = [pip_shape(p) for p in pips]
    return max((math.dist(a, b) for a, b in combinations(shapes, 2)), default=0.0)


def _topness(p: Pip) -> float:
    return p.r * p.roundness


def _leftovers(group: list[Pip], top: list[Pip]) -> list[Face]:
    """Faces among the pips left once the top face is taken: kept if they look like another top face
    (a touching die of the same colour), not like a die's foreshortened side."""
    rest = [p for p in group if p not in top]
    out: list[Face] = []
    if not rest:
        return out
    r_top = _median([p.r for p in top])
    for other in _split_group(rest):
        r_other = _median([p.r for p in other.pips])
        if other.value is None:
            continue
        if len(other.pips) >= 2 and r_other >= LEFTOVER_SIZE * r_top:
            out.append(other)
        elif len(other.pips) == 1 and r_other >= r_top and other.pips[0].roundness >= LEFTOVER_ROUNDNESS:
            out.append(other)    # a big round lone pip: the top face's 1 next to a side face
    return out


def chroma(bgr: tuple[float, float, float]) -> float:
    """How coloured a face is, in grey levels (0 for white, grey and black faces)."""
    return max(bgr) - min(bgr)


def _read_group(group: list[Pip]) -> Face:
    pts = [(p.x, p.y) for p in group]
    r = _median([p.r for p in group])
    n = len(group)
    cx = sum(x for x, _ in pts) / n
    cy = sum(y for _, y in pts) / n
    extent = max(max(abs(x - cx), abs(y - cy)) for x, y in pts)
    value: int | None
    streaks = {p.streak for p in group}
    if n > 6:
        value, conf = None, CROWD_CONFIDENCE
        half = extent + 2 * r
    elif len(streaks) == 1 and 0 not in streaks:
        # one streak alone: its cores line up like a 2 or a 3 whatever the face
        value, conf = None, UNREAD_CONFIDENCE
        half = extent + 2 * r
    else:
        err = _fit(pts, n, r, group)
        if n == 1 and not (group[0].wide and group[0].disc):
            value, conf = None, UNREAD_CONFIDENCE
            half = LONE_HALF * r
        elif n == 1:
            # a lone pip: plausible, but less evidence than a layout
            value, conf = 1, ONE_CONFIDENCE * group[0].roundness ** 0.5
            half = ONE_HALF_FACE * r
        elif err <= FIT:
            value, conf = n, float(max(READ_CONFIDENCE, 1.0 - FIT_SLOPE * err))
            a = _distances(pts)[-1] / _SPAN[n]
            half = a + PIP_MARGIN * r
        else:
            value, conf = None, float(max(NO_LAYOUT_FLOOR, NO_LAYOUT_CONFIDENCE - err))
            half = extent + 2 * r
    if any(p.streak for p in group):
        conf = min(conf, SMEAR_CONFIDENCE)      # motion-smeared pips: read, but doubtful
    box = (float(cx - half), float(cy - half), float(2 * half), float(2 * half))
    return Face(tuple(group), value, conf, box)
