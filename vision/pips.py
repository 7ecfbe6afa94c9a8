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
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations

import cv2
import numpy as np

#: d6 pip layouts in units of the pip-grid offset ``a`` (corner pips at (+-a, +-a)).
_LAYOUTS: dict[int, np.ndarray] = {
    1: np.array([[0.0, 0.0]]),
    2: np.array([[-1.0, -1.0], [1.0, 1.0]]),
    3: np.array([[-1.0, -1.0], [0.0, 0.0], [1.0, 1.0]]),
    4: np.array([[-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0], [1.0, 1.0]]),
    5: np.array([[-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0], [1.0, 1.0], [0.0, 0.0]]),
    6: np.array([[-1.0, -1.0], [1.0, -1.0], [-1.0, 0.0], [1.0, 0.0], [-1.0, 1.0], [1.0, 1.0]]),
}


def _signature(points: np.ndarray) -> np.ndarray:
    d = np.array([np.hypot(*(p - q)) for p, q in combinations(points, 2)])
    d.sort()
    return np.asarray(d / d[-1])


_SIGNATURES = {n: _signature(p) for n, p in _LAYOUTS.items() if n >= 2}
#: largest pairwise distance of each layout, in units of ``a``
_SPAN = {n: float(max(np.hypot(*(p - q)) for p, q in combinations(pts, 2))) for n, pts in _LAYOUTS.items()
         if n >= 2}


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


def _block_size(shape: tuple[int, ...]) -> int:
    side = max(shape[:2])
    b = int(side / 16) | 1
    return max(15, min(b, 61))


def find_pips(work: np.ndarray, gray: np.ndarray | None = None, *, min_r: float = 1.6,
              max_r: float | None = None) -> list[Pip]:
    """Round pip-like blobs of both polarities in a BGR uint8 working image (H, W, 3)."""
    if gray is None:
        gray = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY)
    h, w = gray.shape
    if max_r is None:
        max_r = max(h, w) / 18
    block = _block_size(gray.shape)
    pips: list[Pip] = []
    for dark in (True, False):
        src = gray if dark else 255 - gray
        mask = cv2.adaptiveThreshold(src, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, 22)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        if n <= 1:
            continue
        area = stats[1:, cv2.CC_STAT_AREA].astype(np.float64)
        bw = stats[1:, cv2.CC_STAT_WIDTH].astype(np.float64)
        bh = stats[1:, cv2.CC_STAT_HEIGHT].astype(np.float64)
        ok = (
            (area >= math.pi * min_r * min_r)
            & (area <= math.pi * max_r * max_r)
            & (area >= 0.5 * bw * bh)
            & (np.minimum(bw, bh) >= 0.45 * np.maximum(bw, bh))
        )
        for i in np.flatnonzero(ok) + 1:
            x0, y0, ww, hh = (int(v) for v in stats[i, :4])
            pip = _measure(work, gray, labels, mask, int(i), x0, y0, ww, hh, dark)
            if pip is not None:
                pips.append(pip)
    return pips


def _measure(work: np.ndarray, gray: np.ndarray, labels: np.ndarray, mask: np.ndarray, i: int,
             x0: int, y0: int, ww: int, hh: int, dark: bool) -> Pip | None:
    blob = (labels[y0 : y0 + hh, x0 : x0 + ww] == i).astype(np.uint8)
    m = cv2.moments(blob, binaryImage=True)
    if m["m00"] <= 0:
        return None
    cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
    mu20, mu02, mu11 = m["mu20"] / m["m00"], m["mu02"] / m["m00"], m["mu11"] / m["m00"]
    common = math.sqrt(max(0.0, ((mu20 - mu02) / 2) ** 2 + mu11 * mu11))
    l1, l2 = (mu20 + mu02) / 2 + common, (mu20 + mu02) / 2 - common
    if l2 <= 0 or l2 / l1 < 0.40:          # axis ratio below ~0.63: foreshortened side pip, seam, scratch
        return None
    ellipse = 4 * math.pi * math.sqrt(l1 * l2)
    if m["m00"] < 0.75 * ellipse:
        return None
    r = math.sqrt(m["m00"] / math.pi)
    cx, cy = cx + x0, cy + y0
    # ring between 1.6 r and 2.4 r around the pip: the face
    h, w = gray.shape
    R = math.ceil(2.4 * r) + 1
    xa, xb, ya, yb = int(cx) - R, int(cx) + R + 1, int(cy) - R, int(cy) + R + 1
    if xa < 0 or ya < 0 or xb > w or yb > h:
        return None
    yy, xx = np.ogrid[ya:yb, xa:xb]
    d2 = (xx - cx) ** 2 + (yy - cy) ** 2
    ring = (d2 >= (1.6 * r) ** 2) & (d2 <= (2.4 * r) ** 2) & (mask[ya:yb, xa:xb] == 0)
    if ring.sum() < 8:
        return None
    g = gray[ya:yb, xa:xb]
    ring_vals = g[ring].astype(np.float64)
    inner = g[d2 <= (0.75 * r) ** 2].astype(np.float64)
    if inner.size == 0:
        return None
    contrast = (ring_vals.mean() - inner.mean()) * (1 if dark else -1)
    # a pip is uniform inside (a whole small die seen as a "bright blob" has its pips inside)
    if contrast < 35 or ring_vals.std() > 0.25 * contrast + 6 or inner.std() > 0.2 * contrast + 6:
        return None
    colour = work[ya:yb, xa:xb][ring].reshape(-1, 3).mean(axis=0)
    ring_bgr = (float(colour[0]), float(colour[1]), float(colour[2]))
    return Pip(float(cx), float(cy), r, float(contrast), ring_bgr, dark, math.sqrt(l2 / l1))


def _same_face(a: Pip, b: Pip, work: np.ndarray) -> bool:
    if a.dark != b.dark:
        return False
    ra, rb = a.r, b.r
    if max(ra, rb) > 1.6 * min(ra, rb):
        return False
    rm = (ra + rb) / 2
    dist = math.hypot(a.x - b.x, a.y - b.y)
    if dist > 10.5 * rm or dist < 2.2 * rm:
        return False
    face = (np.array(a.ring) + np.array(b.ring)) / 2
    tol = max(18.0, 0.35 * min(a.contrast, b.contrast))
    if np.abs(np.array(a.ring) - np.array(b.ring)).max() > tol:
        return False
    steps = max(3, int(dist / 2))
    h, w = work.shape[:2]
    bad = 0
    for k in range(1, steps):
        t = k / steps
        px, py = a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t
        if math.hypot(px - a.x, py - a.y) < 1.5 * ra or math.hypot(px - b.x, py - b.y) < 1.5 * rb:
            continue
        c = work[min(h - 1, int(py + 0.5)), min(w - 1, int(px + 0.5))].astype(np.float64)
        if np.abs(c - face).max() > tol:
            bad += 1
    return bad <= 1 and bad * 6 <= steps


def _fit(points: np.ndarray, n: int, r: float) -> float:
    """Layout error of ``points`` (n x 2) against the d6 layout for n: 0 perfect, ~>0.15 wrong."""
    if n == 1:
        return 0.0
    sig = _signature(points)
    err = float(np.abs(sig - _SIGNATURES[n]).max())
    # scale: the grid offset a is about 3.4 pip radii on common dice (2.4 .. 5 accepted)
    span = float(sig.size and max(np.hypot(*(p - q)) for p, q in combinations(points, 2)))
    a = span / _SPAN[n]
    if not 1.6 * r <= a <= 5.5 * r:
        err += 0.3
    return err


def group_faces(pips: list[Pip], work: np.ndarray) -> list[Face]:
    """Group pip candidates into faces and read each (see the module notes)."""
    n = len(pips)
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    order = sorted(range(n), key=lambda i: (pips[i].x, pips[i].y))
    for ii, i in enumerate(order):
        for j in order[ii + 1 :]:
            if pips[j].x - pips[i].x > 10.5 * max(pips[i].r, pips[j].r):
                break
            if root(i) != root(j) and _same_face(pips[i], pips[j], work):
                parent[root(i)] = root(j)
    groups: dict[int, list[Pip]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(pips[i])
    return [f for g in groups.values() for f in _split_group(g)]


def _weight(group: tuple[Pip, ...] | list[Pip]) -> float:
    return float(sum(p.r * p.r * p.roundness for p in group))


def _split_group(group: list[Pip]) -> list[Face]:
    """Read a pip group; when no layout explains all of it, take the best-explained subset.

    A die seen slightly from the side shows foreshortened pips of its side faces next to the top face;
    they join the group (same colour, short path). The subset of pips that fits a d6 layout and carries
    the most evidence (area x roundness: side pips are smaller and flatter) is the top face. What is
    left is kept only if it reads as a face of similar pip size (a touching die of the same colour).
    """
    face = _read_group(group)
    if face.value is not None and (len(group) == 1 or face.confidence >= 0.5):
        return [face]
    if len(group) > 9:
        return [face]
    best: tuple[float, tuple[Pip, ...]] | None = None
    for k in range(min(6, len(group) - 1), 0, -1):
        for sub in combinations(group, k):
            pts = np.array([[p.x, p.y] for p in sub])
            r = float(np.median([p.r for p in sub]))
            err = _fit(pts, k, r)
            if err > 0.16:
                continue
            score = _weight(sub) * (1.0 - err)
            if best is None or score > best[0]:
                best = (score, sub)
    if best is None:
        return [face]
    top = _read_group(list(best[1]))
    rest = [p for p in group if p not in best[1]]
    out = [top]
    r_top = float(np.median([p.r for p in best[1]]))
    if len(rest) >= 2:
        for other in _split_group(rest):
            r_other = float(np.median([p.r for p in other.pips]))
            if other.value is not None and len(other.pips) >= 2 and r_other >= 0.8 * r_top:
                out.append(other)
    return out


def _read_group(group: list[Pip]) -> Face:
    pts = np.array([[p.x, p.y] for p in group])
    r = float(np.median([p.r for p in group]))
    cx, cy = pts.mean(axis=0)
    n = len(group)
    value: int | None
    if n > 6:
        value, conf = None, 0.15
        half = float(np.abs(pts - [cx, cy]).max()) + 2 * r
    else:
        err = _fit(pts, n, r)
        if n == 1:
            # a lone pip: plausible, but less evidence than a layout
            value, conf = 1, 0.8
            half = 3.5 * r
        elif err <= 0.16:
            value, conf = n, float(max(0.5, 1.0 - 2.5 * err))
            span = float(max(np.hypot(*(p - q)) for p, q in combinations(pts, 2)))
            a = span / _SPAN[n]
            half = a + 1.8 * r
        else:
            value, conf = None, float(max(0.05, 0.3 - err))
            half = float(np.abs(pts - [cx, cy]).max()) + 2 * r
    box = (float(cx - half), float(cy - half), float(2 * half), float(2 * half))
    return Face(tuple(group), value, conf, box)
