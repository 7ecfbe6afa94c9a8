"""Training data for Vision III (the die finder and the face reader): real labelled photos from
``../shared/dice-photos`` and randomised renders. Training only; the product never imports this.

Every real photo becomes a ``Sample``: the image (BGR uint8), its source name, and its objects as
(cx, cy, w, h, label) in pixels, where label is a face-reader class (``vision.faces.CLASSES``).

Boxes: matteop65 and nell-byler box the top face, aws the whole die with its sides (loose), burks and
Lurig have no boxes: the one die of the photo is segmented from the tray (burks: a bright die on a
black tray; Lurig: ``_segment_one``, then tightened by GrabCut, kept in ``lurig_boxes.json`` beside this
file: ``python3 tools/v3_data.py --lurig-boxes`` remakes it). These derived boxes are only used where a
loose box does no harm (the finder's centre and size, and the crop of the face and type readers).
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.data import SETS, photos_dir
from vision.faces import CLASSES

NONE, EMBLEM, NUMERAL, TOKEN = CLASSES.index("none"), CLASSES.index("emblem"), CLASSES.index("numeral"), \
    CLASSES.index("token")

#: the sets of ``vision.data.SETS`` (one list of folders for the product's loaders and for training)
FOLDERS = SETS
#: sources the finder trains on (the others have no whole-frame photos with every die boxed)
FINDER_SOURCES = ("matteop65", "aws", "nell", "burks", "lurig")


@dataclass
class Sample:
    source: str
    name: str
    image: np.ndarray
    objects: list[tuple[float, float, float, float, int]] = field(default_factory=list)
    #: label -1 = a die whose face is unclear (kept for the finder, never for the face reader)
    crop_only: bool = False     # chase: the whole image is one die's crop
    group: str = ""             # what must be held out together (a Lurig video)
    #: die-sized round things that are no die (``render(decoys=True)``): (cx, cy, size), read as "none"
    decoys: list[tuple[float, float, float]] = field(default_factory=list)
    #: a pipped side face of a tilted render's die (``render(sides=True)``), boxed alone: (cx, cy, size, the
    #: index in ``objects`` of the die it belongs to). A box round it is no die of its own
    parts: list[tuple[float, float, float, int]] = field(default_factory=list)


def _segment_one(image: np.ndarray, dark_tray: bool) -> tuple[float, float, float, float] | None:
    """The box (cx, cy, w, h) of the single die of a photo, or None when the ways of finding it disagree.

    On a dark tray (burks): the bright blob. Else two ways that must agree (IoU > ``AGREE``): what differs
    from the border's median colour, and what colour the border rarely shows (``_rare_colour``); where
    they disagree, the rare colour at two shade resolutions must agree. A textured tray (Lurig's wooden
    table) fools the median: its grain differs from the median colour, so that way boxed grain or the
    whole photo on 60% of the wooden-table photos, and the finder, face and type readers trained on those
    boxes. A photo none of the ways agree on is left unlabelled (not trained on) rather than boxed wrong.
    """
    median = _differs_from_border(image, dark_tray)
    if dark_tray:
        return median
    rare = _rare_colour(image, shades=16)
    if median is not None and rare is not None and _iou(median, rare) > AGREE:
        return median
    coarse = _rare_colour(image, shades=4)
    if rare is not None and coarse is not None and _iou(rare, coarse) > AGREE:
        return rare
    return None


#: two boxes of one die agree above this intersection over union
AGREE = 0.6


def _iou(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    ix = max(0.0, min(a[0] + a[2] / 2, b[0] + b[2] / 2) - max(a[0] - a[2] / 2, b[0] - b[2] / 2))
    iy = max(0.0, min(a[1] + a[3] / 2, b[1] + b[3] / 2) - max(a[1] - a[3] / 2, b[1] - b[3] / 2))
    inter = ix * iy
    return inter / max(1e-9, a[2] * a[3] + b[2] * b[3] - inter)


def _central_blob(mask: np.ndarray, max_share: float) -> tuple[float, float, float, float] | None:
    """The largest component of ``mask`` (a quarter-size image), preferring the centre, in full pixels."""
    sh, sw = mask.shape
    n, _, stats, cents = cv2.connectedComponentsWithStats(mask)
    best, best_score = None, 0.0
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        if area < 30 or bw > max_share * sw or bh > max_share * sh:
            continue
        d = math.hypot(cents[i][0] - sw / 2, cents[i][1] - sh / 2)
        score = area / (1.0 + d / (0.25 * sw)) ** 2
        if score > best_score:
            best, best_score = (x, y, bw, bh), score
    if best is None:
        return None
    x, y, bw, bh = best
    return ((x + bw / 2) * 4, (y + bh / 2) * 4, bw * 4.0, bh * 4.0)


def _differs_from_border(image: np.ndarray, dark_tray: bool) -> tuple[float, float, float, float] | None:
    """A bright blob on a dark tray, or what differs from the border's median colour."""
    h, w = image.shape[:2]
    small = cv2.resize(image, (w // 4, h // 4), interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    border = np.concatenate([lab[:3].reshape(-1, 3), lab[-3:].reshape(-1, 3), lab[:, :3].reshape(-1, 3),
                             lab[:, -3:].reshape(-1, 3)])
    if dark_tray:
        ref = np.median(lab[lab.shape[0] // 4: -lab.shape[0] // 4, lab.shape[1] // 4: -lab.shape[1] // 4]
                        .reshape(-1, 3), axis=0)
    else:
        ref = np.median(border, axis=0)
    diff = np.linalg.norm(lab - ref, axis=2)
    mask = (diff > max(25.0, float(np.percentile(diff, 60)))).astype(np.uint8)
    if dark_tray:
        # the tray's own bright rim: keep the inner part only
        m = mask.copy()
        m[: m.shape[0] // 12] = 0
        m[-m.shape[0] // 12:] = 0
        m[:, : m.shape[1] // 12] = 0
        m[:, -m.shape[1] // 12:] = 0
        mask = m
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    return _central_blob(mask, 0.95)


def _rare_colour(image: np.ndarray, shades: int) -> tuple[float, float, float, float] | None:
    """What colour the photo's border (a tenth of each side) rarely shows, in a hue x saturation x value
    histogram with ``shades`` value bins: a wooden table's grain is many shades of a few colours."""
    h, w = image.shape[:2]
    small = cv2.GaussianBlur(cv2.resize(image, (w // 4, h // 4), interpolation=cv2.INTER_AREA), (3, 3), 0)
    sh, sw = small.shape[:2]
    m = max(3, sh // 10)
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    border = np.zeros((sh, sw), np.uint8)
    border[:m] = border[-m:] = 1
    border[:, :m] = border[:, -m:] = 1
    hist = cv2.calcHist([hsv], [0, 1, 2], border, [18, 16, shades], [0, 180, 0, 256, 0, 256])
    hist /= hist.sum()
    share = hist[hsv[..., 0].astype(int) * 18 // 180, hsv[..., 1].astype(int) * 16 // 256,
                 hsv[..., 2].astype(int) * shades // 256]
    mask = (share < 2e-4).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
    return _central_blob(mask, 0.9)


def _tighten(image: np.ndarray, box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """``box`` (cx, cy, w, h) shrunk to the die by GrabCut inside 1.2 times it, at half size: the rare-colour
    box of a die on wood takes its shadow along."""
    h, w = image.shape[:2]
    small = cv2.resize(image, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    cx, cy, bw, bh = (v / 2 for v in box)
    x0, y0 = int(max(1, cx - bw * 0.6)), int(max(1, cy - bh * 0.6))
    x1, y1 = int(min(small.shape[1] - 2, cx + bw * 0.6)), int(min(small.shape[0] - 2, cy + bh * 0.6))
    if x1 - x0 < 8 or y1 - y0 < 8:
        return box
    # inside the rectangle, what has the tray's chroma and is darker than it is a shadow: background
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    ring = np.ones(small.shape[:2], bool)
    ring[y0:y1, x0:x1] = False
    tray = np.median(lab[ring], axis=0)
    chroma = np.linalg.norm(lab[..., 1:] - tray[1:], axis=2)
    shadow = (chroma < SHADOW_CHROMA) & (lab[..., 0] < tray[0] - 4) & (lab[..., 0] > tray[0] - SHADOW_DEPTH)
    cv2.setRNGSeed(0)   # GrabCut's k-means draws from OpenCV's global generator: same box on every run
    mask = np.full(small.shape[:2], cv2.GC_BGD, np.uint8)
    mask[y0:y1, x0:x1] = cv2.GC_PR_FGD
    mask[(mask == cv2.GC_PR_FGD) & shadow] = cv2.GC_PR_BGD
    models = np.zeros((1, 65), np.float64), np.zeros((1, 65), np.float64)
    cv2.grabCut(small, mask, None, *models, 4, cv2.GC_INIT_WITH_MASK)
    fg = ((mask == cv2.GC_FGD) | (mask == cv2.GC_PR_FGD)).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(fg)
    if n < 2:
        return box
    i = 1 + int(np.argmax(stats[1:, 4]))
    x, y, gw, gh, _ = stats[i]
    if gw * gh < 0.2 * bw * bh:
        return box
    return ((x + gw / 2) * 2, (y + gh / 2) * 2, gw * 2.0, gh * 2.0)


#: a pixel of the tray's chroma within this (LAB a, b) and darker by up to ``SHADOW_DEPTH`` is a shadow
SHADOW_CHROMA = 10.0
SHADOW_DEPTH = 70.0

LURIG_BOXES = Path(__file__).with_name("lurig_boxes.json")


def lurig_boxes() -> dict[str, list[float] | None]:
    """Every Lurig photo's derived box (cx, cy, w, h), or None where the ways of finding it disagree."""
    root = photos_dir()
    if root is None:
        raise FileNotFoundError("dice-photos folder not found")
    folder = root / FOLDERS["lurig"]
    out: dict[str, list[float] | None] = {}
    for entry in _labels(folder)["images"]:
        image = cv2.imread(str(folder / entry["file"]), cv2.IMREAD_COLOR)
        if image is None or not entry["dice"]:
            continue
        box = _segment_one(image, dark_tray=False)
        out[entry["file"]] = None if box is None else [round(v, 1) for v in _tighten(image, box)]
    return out


def _labels(folder: Path) -> dict:
    return json.loads((folder / "labels.json").read_text(encoding="utf-8"))


def load_source(name: str, *, limit: int | None = None) -> list[Sample]:
    root = photos_dir()
    if root is None:
        raise FileNotFoundError("dice-photos folder not found")
    folder = root / FOLDERS[name]
    known = json.loads(LURIG_BOXES.read_text()) if name == "lurig" and LURIG_BOXES.exists() else {}
    out = []
    for entry in _labels(folder)["images"][:limit]:
        image = cv2.imread(str(folder / entry["file"]), cv2.IMREAD_COLOR)
        if image is None:
            continue
        s = Sample(name, entry["file"], image)
        if name == "chase":
            s.crop_only = True
            h, w = image.shape[:2]
            s.objects.append((w / 2, h / 2, float(w), float(h), int(entry["dice"][0]["value"])))
        elif name in ("burks", "lurig"):
            if not entry["dice"]:
                out.append(s)   # burks' empty tray: a negative
                continue
            if entry["file"] in known:
                box = None if known[entry["file"]] is None else tuple(known[entry["file"]])
            else:
                box = _segment_one(image, dark_tray=(name == "burks"))
            if box is None:
                continue
            s.objects.append((*box, NUMERAL))
            stem = Path(entry["file"]).stem
            s.group = stem.rstrip("0123456789") if name == "lurig" else stem
        else:
            for d in entry["dice"]:
                if d.get("bbox") is None:
                    continue
                x, y, w, h = (float(v) for v in d["bbox"])
                value = d.get("value")
                label = int(value) if value is not None and not d.get("unclear") else -1
                s.objects.append((x + w / 2, y + h / 2, w, h, label))
        out.append(s)
    return out


def reboxed(samples: list[Sample], given: list[str]) -> None:
    """Each ``SOURCE=FILE`` of ``given``: SOURCE's samples boxed as ``FILE`` says (``tools/rebox.py``: each
    photo's dice as a camera boxes them, in ``labels.json`` order), centres and sizes; values kept. A photo
    FILE does not hold, or holds with another count of dice, keeps its boxes."""
    for spec in given:
        name, _, file = spec.partition("=")
        boxes = json.loads(Path(file).read_text(encoding="utf-8"))
        for sample in samples:
            new = boxes.get(sample.name) if sample.source == name else None
            if new is not None and len(new) == len(sample.objects):
                sample.objects = [(x + w / 2, y + h / 2, w, h, o[4])
                                  for (x, y, w, h), o in zip(new, sample.objects, strict=True)]


# --- renders -----------------------------------------------------------------------------------

def _noise(rng: np.random.Generator, h: int, w: int, cell: float, octaves: int) -> np.ndarray:
    """Smooth random field of (h, w): ``octaves`` layers of cubic-upscaled noise, the first of ``cell`` px."""
    out = np.zeros((h, w), np.float32)
    for k in range(octaves):
        c = max(1.5, cell / 2 ** k)
        small = rng.normal(0, 1, (max(2, int(h / c)), max(2, int(w / c)))).astype(np.float32)
        out += cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC) * 0.55 ** k
    return out


def _natural(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A tray of no drawn shape: a shag carpet, stone or gravel, worn cloth. Two to five colours, each
    owning the pixels where its own multi-octave noise field is the strongest, edges soft or hard,
    grain on top. Blobs at a die's or a pip's size that are no die (aws's carpets were read as emblems)."""
    k = int(rng.integers(2, 6))
    cell = float(np.exp(rng.uniform(math.log(3), math.log(40))))
    octaves = int(rng.integers(1, 4))
    fields = np.stack([_noise(rng, h, w, cell * rng.uniform(0.7, 1.4), octaves) for _ in range(k)])
    soft = np.exp(fields * rng.uniform(2, 12))
    soft /= soft.sum(axis=0, keepdims=True)
    base = np.array(_colour(rng))
    palette = np.stack([np.clip(base + rng.normal(0, rng.uniform(10, 90), 3), 0, 255) if rng.random() < 0.7
                        else np.array(_colour(rng)) for _ in range(k)])
    img = np.einsum("khw,kc->hwc", soft, palette).astype(np.float32)
    img += rng.normal(0, rng.uniform(0, 12), img.shape)
    return img


def _texture(rng: np.random.Generator, h: int, w: int, natural: bool = False) -> np.ndarray:
    """A tray: plain, felt, wood, granite, mesh, stripes or a printed board, in random colours; with
    ``natural``, as often as any of them, a carpet, stone or cloth of no drawn shape (``_natural``)."""
    if natural and rng.random() < 0.5:
        return np.clip(_natural(rng, h, w), 0, 255).astype(np.uint8)
    kind = rng.choice(["plain", "felt", "wood", "granite", "mesh", "print", "stripes", "cloth"])
    base = rng.integers(0, 256, 3).astype(np.float32)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "felt":
        img += rng.normal(0, 6, img.shape)
    elif kind == "wood":
        f = rng.uniform(3, 10)
        grain = np.sin(yy / f + rng.uniform(1, 5) * np.sin(xx / rng.uniform(40, 150))) * rng.uniform(8, 25)
        img += grain[..., None]
    elif kind == "granite":
        img += rng.normal(0, 10, img.shape)
        n = int(h * w / rng.uniform(30, 200))
        ys, xs = rng.integers(0, h, n), rng.integers(0, w, n)
        col = rng.integers(0, 256, (n, 3))
        for y, x, c in zip(ys, xs, col, strict=True):
            cv2.circle(img, (int(x), int(y)), int(rng.integers(1, 4)), c.tolist(), -1)
    elif kind == "mesh":
        p = rng.uniform(4, 16)
        r = p * rng.uniform(0.2, 0.42)
        hole = rng.integers(0, 256, 3).astype(np.float32)
        d = np.hypot((xx % p) - p / 2, (yy % p) - p / 2)
        img[d < r] = hole
        ang = rng.uniform(0, 180)
        m = cv2.getRotationMatrix2D((w / 2, h / 2), ang, 1.0)
        img = cv2.warpAffine(img, m, (w, h), borderMode=cv2.BORDER_REFLECT)
    elif kind == "print":
        img = np.clip(img, 0, 255).astype(np.uint8)
        for _ in range(int(rng.integers(5, 40))):
            c = rng.integers(0, 256, 3).tolist()
            t = rng.integers(0, 4)
            p1 = (int(rng.integers(0, w)), int(rng.integers(0, h)))
            if t == 0:
                cv2.putText(img, str(rng.integers(0, 99999)), p1, int(rng.integers(0, 7)),
                            float(rng.uniform(0.4, 3)), c, int(rng.integers(1, 4)))
            elif t == 1:
                cv2.circle(img, p1, int(rng.integers(2, 40)), c, int(rng.choice([-1, 1, 2])))
            elif t == 2:
                p2 = (int(rng.integers(0, w)), int(rng.integers(0, h)))
                cv2.line(img, p1, p2, c, int(rng.integers(1, 5)))
            else:
                p2 = (p1[0] + int(rng.integers(5, 80)), p1[1] + int(rng.integers(5, 80)))
                cv2.rectangle(img, p1, p2, c, int(rng.choice([-1, 1, 3])))
    elif kind == "stripes":
        p = rng.uniform(5, 40)
        img += (np.sin((xx * rng.uniform(-1, 1) + yy) / p * math.pi) * rng.uniform(10, 50))[..., None]
    elif kind == "cloth":
        p = rng.uniform(2, 6)
        img += ((np.sin(xx / p) * np.sin(yy / p)) * rng.uniform(5, 30))[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


_LAYOUTS = {
    1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def _colour(rng: np.random.Generator) -> tuple[float, float, float]:
    hsv = np.uint8([[[rng.integers(0, 180), rng.integers(0, 256), rng.integers(20, 256)]]])
    return tuple(float(v) for v in cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0])


def _patterned_body(img: np.ndarray, rng: np.random.Generator, mask: np.ndarray, body: np.ndarray,
                    size: float, tray: np.ndarray, ink: np.ndarray) -> None:
    """Paint the die's body (``mask``) as real dice are made: marbled or swirled in two colours, speckled,
    or translucent (``tray``, the image before the die was drawn, and the far faces' pips show through);
    never veined in the pips' colour (``ink``).
    Veins and specks of the body are what a face reader must not count as pips (nell-byler's marbled
    dice were read as 6s)."""
    ys, xs = np.nonzero(mask)
    if not len(ys):
        return
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    h, w = y1 - y0, x1 - x0
    inside = mask[y0:y1, x0:x1] > 0
    region = img[y0:y1, x0:x1].astype(np.float32)
    kind = rng.choice(["marble", "marble", "speckle", "translucent"])
    if kind == "marble":
        other = np.array(_colour(rng)) if rng.random() < 0.7 else 255 - body
        if np.abs(other - ink).sum() < 120:   # veins in the pips' colour would hide them
            other = (body + 255 - ink) / 2
        field = cv2.resize(rng.normal(0, 1, (int(rng.integers(2, 6)),) * 2).astype(np.float32), (w, h),
                           interpolation=cv2.INTER_CUBIC)
        veins = np.abs(np.sin(field * rng.uniform(2, 6) + rng.uniform(0, math.pi)))
        t = (veins ** rng.uniform(0.5, 4))[..., None]
        paint = body * (1 - t) + other * t
    elif kind == "speckle":
        paint = np.empty((h, w, 3), np.float32)
        paint[:] = body
        other = np.array(_colour(rng))
        for _ in range(int(rng.integers(10, 60))):
            r = max(1, int(size * rng.uniform(0.01, 0.035)))
            cv2.circle(paint, (int(rng.integers(0, w)), int(rng.integers(0, h))), r, other.tolist(), -1,
                       cv2.LINE_AA)
    else:
        alpha = rng.uniform(0.35, 0.75)
        paint = tray[y0:y1, x0:x1].astype(np.float32) * (1 - alpha) + body * alpha
        ghost = body * rng.uniform(0.4, 0.8)
        for _ in range(int(rng.integers(1, 7))):   # pips of the far faces, blurred through the body
            r = max(1, int(size * rng.uniform(0.06, 0.1)))
            cv2.circle(paint, (int(rng.integers(0, w)), int(rng.integers(0, h))), r, ghost.tolist(), -1,
                       cv2.LINE_AA)
        paint = cv2.GaussianBlur(paint, (0, 0), max(0.5, size * 0.03))
    shade = region.mean(axis=2, keepdims=True) / max(1.0, float(body.mean()))   # the side faces' shade
    shade = np.where(shade < 0.95, shade, 1.0)
    region[inside] = (paint * shade)[inside]
    img[y0:y1, x0:x1] = np.clip(region, 0, 255).astype(np.uint8)


def _printed_token(img: np.ndarray, rng: np.random.Generator, cx: float, cy: float, half: float,
                   ink: np.ndarray) -> None:
    """A printed counter's art on a disc already drawn: a rim, then a random figure (a filled outline of
    5-10 points, eyes, a mouth arc, strokes or a letter) in random colours with an ink outline. Tokens of
    real games are printed pictures (a goblin's head, a skull, a crest), not dots."""
    t = max(1, round(half / rng.uniform(8, 16)))
    if rng.random() < 0.7:
        cv2.circle(img, (int(cx), int(cy)), int(half), ink.tolist(), t, cv2.LINE_AA)
    ang = rng.uniform(0, 2 * math.pi)
    rot = np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]])

    def at(u: float, v: float) -> tuple[int, int]:
        x, y = rot @ np.array([u, v]) * half
        return int(cx + x), int(cy + y)

    n = int(rng.integers(5, 11))
    a = np.sort(rng.uniform(0, 2 * math.pi, n))
    rad = rng.uniform(0.3, 0.75, n)
    shape = np.array([at(r * math.cos(q), r * math.sin(q)) for r, q in zip(rad, a, strict=True)], np.int32)
    cv2.fillPoly(img, [shape], _colour(rng), cv2.LINE_AA)
    if rng.random() < 0.7:
        cv2.polylines(img, [shape], True, ink.tolist(), t, cv2.LINE_AA)
    for _ in range(int(rng.integers(0, 4))):
        kind = rng.integers(0, 4)
        u, v = rng.uniform(-0.4, 0.4, 2)
        colour = _colour(rng) if rng.random() < 0.5 else ink.tolist()
        if kind == 0:   # a pair of eyes
            for side in (-1, 1):
                cv2.circle(img, at(side * abs(u) * 0.6, v), max(1, int(rng.uniform(0.05, 0.15) * half)),
                           colour, -1, cv2.LINE_AA)
        elif kind == 1:  # a mouth
            cv2.ellipse(img, at(u * 0.5, abs(v)), (max(1, int(0.25 * half)), max(1, int(0.1 * half))),
                        math.degrees(ang), 0, 180, colour, t, cv2.LINE_AA)
        elif kind == 2:  # a stroke
            cv2.line(img, at(u, v), at(-v, u), colour, t, cv2.LINE_AA)
        else:            # a letter or a digit
            glyph = chr(int(rng.choice([rng.integers(65, 91), rng.integers(48, 58)])))
            cv2.putText(img, glyph, at(u - 0.2, v + 0.2), int(rng.integers(0, 7)), half / 40, colour, t,
                        cv2.LINE_AA)


def _draw_object(img: np.ndarray, rng: np.random.Generator, cx: float, cy: float, size: float,
                 tilt: tuple[float, float], patterned: bool = False,
                 sides: tuple[np.random.Generator, tuple[float, float]] | None = None,
                 faint: np.random.Generator | None = None, plain_emblems: bool = False,
                 parts: list[tuple[float, float, float]] | None = None,
                 ringed: np.random.Generator | None = None) -> int:
    """Draw one die (top face, and side faces when the camera is tilted) or token; return its class.
    ``patterned``: half the pip d6s get a marbled, speckled or translucent body (``_patterned_body``), half
    drilled pips (an emblem on a marbled body taught the face reader that a textured square is an emblem,
    and aws's carpet was read as emblems). ``sides``: a generator of its own (so the rest of the render
    is drawn as without it) and the tilt the sides are seen at, which replaces ``tilt``; the side faces
    then carry pips (``_side_faces``). ``faint``: a generator of its own, from which the ink is drawn near
    the body (``_faint_ink``). ``plain_emblems``: an emblem's letter is never one that looks like a digit
    (``UNLIKE_DIGITS``). ``parts``: where the side faces drawn with pips are boxed alone (``_side_faces``).
    ``ringed``: a generator of its own, from which half the 1s get a ring round their pip (``_ring``)."""
    kind = rng.choice(["d6", "d6", "d6", "d6", "emblem", "token", "numeral"])
    ang = rng.uniform(0, 2 * math.pi)
    c, s = math.cos(ang), math.sin(ang)
    body = np.array(_colour(rng))
    if rng.random() < 0.3:
        body = np.array([rng.uniform(200, 250)] * 3)
    ink = np.array(_colour(rng))
    if rng.random() < 0.6:
        grey = rng.uniform(0, 40) if body.mean() > 110 else rng.uniform(200, 255)
        ink = np.array([grey] * 3)
    if np.abs(ink - body).sum() < 120:
        ink = 255 - body
    if faint is not None:
        ink = _faint_ink(faint, body)
    half = size / 2
    # hard shadow from one lamp
    sh = np.array([rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3)]) * size
    if kind == "token":
        cv2.circle(img, (int(cx + sh[0]), int(cy + sh[1])), int(half), (img[int(cy) % img.shape[0],
                   int(cx) % img.shape[1]].astype(float) * 0.55).tolist(), -1, cv2.LINE_AA)
        cv2.circle(img, (int(cx), int(cy)), int(half), body.tolist(), -1, cv2.LINE_AA)
        if rng.random() < 0.5:
            _printed_token(img, rng, cx, cy, half, ink)
            return TOKEN
        for _ in range(int(rng.integers(2, 6))):
            p = (int(cx + rng.uniform(-0.5, 0.5) * half), int(cy + rng.uniform(-0.5, 0.5) * half))
            cv2.circle(img, p, max(1, int(rng.uniform(0.05, 0.3) * half)), _colour(rng), -1, cv2.LINE_AA)
        return TOKEN
    tray = img.copy() if patterned and kind == "d6" else img   # only a pip die's body is patterned
    square = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    top = square @ np.array([[c, -s], [s, c]]).T + np.array([cx, cy])
    rounding = rng.uniform(0, 0.25) * size
    under = img[int(cy) % img.shape[0], int(cx) % img.shape[1]].astype(float)
    shadow_col = (under * rng.uniform(0.3, 0.7)).tolist()
    cv2.fillConvexPoly(img, np.round((top + sh) * 16).astype(np.int32), shadow_col, cv2.LINE_AA, 4)
    # side faces: the top seen from a tilted camera shows the faces on the far side of the tilt
    dx, dy = tilt[0] * size, tilt[1] * size
    shade = rng.uniform(0.5, 0.85) if abs(dx) + abs(dy) > 1 else None
    if sides is not None:   # the sides' own tilt; ``rng`` draws what it drew without them
        dx, dy = sides[1][0] * size, sides[1][1] * size
        if shade is None:
            shade = sides[0].uniform(0.5, 0.85)
    if abs(dx) + abs(dy) > 1:
        base = top + np.array([dx, dy])
        hull = cv2.convexHull(np.round(np.vstack([top, base]) * 16).astype(np.int32))
        cv2.fillConvexPoly(img, hull, (body * shade).tolist(), cv2.LINE_AA, 4)
    if rounding > 1:
        m = np.zeros(img.shape[:2], np.uint8)
        cv2.fillConvexPoly(m, np.round(top).astype(np.int32), 255)
        k = int(rounding) | 1
        m = cv2.erode(m, np.ones((k, k), np.uint8))
        m = cv2.dilate(m, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
        img[m > 0] = body.astype(np.uint8)
    else:
        cv2.fillConvexPoly(img, np.round(top * 16).astype(np.int32), body.tolist(), cv2.LINE_AA, 4)
    if patterned and kind == "d6" and rng.random() < 0.5:
        m = np.zeros(img.shape[:2], np.uint8)
        cv2.fillConvexPoly(m, np.round(top).astype(np.int32), 255)
        if abs(dx) + abs(dy) > 1:
            cv2.fillConvexPoly(m, hull // 16, 255)
        _patterned_body(img, rng, m, body, size, tray, ink)
    rot = np.array([[c, -s], [s, c]])
    if kind == "d6":
        value = int(rng.integers(1, 7))
        a = size * rng.uniform(0.24, 0.3)
        r = size * rng.uniform(0.07, 0.11)
        drilled = patterned and rng.random() < 0.5   # a drilled pip: its wall in shade on one side
        wall = (ink * rng.uniform(0.3, 0.7)).tolist() if drilled else None
        off = r * 0.25 * np.array([math.cos(ang * 3), math.sin(ang * 3)])
        for px, py in np.array(_LAYOUTS[value], float) @ rot.T * a + [cx, cy]:
            if drilled:
                centre = (round((px + off[0]) * 16), round((py + off[1]) * 16))
                cv2.circle(img, centre, round(r * 16), wall, -1, cv2.LINE_AA, 4)
            cv2.circle(img, (round(px * 16), round(py * 16)), round(r * (0.85 if drilled else 1) * 16),
                       ink.tolist(), -1, cv2.LINE_AA, 4)
        if ringed is not None and value == 1 and ringed.random() < 0.5:
            _ring(img, ringed, cx, cy, r, ink)
        if sides is not None and abs(dx) + abs(dy) > 1:
            _side_faces(img, sides[0], top, np.array([dx, dy]), body, ink, value, parts)
        return value
    if kind == "emblem":
        for _ in range(int(rng.integers(1, 4))):
            t = rng.integers(0, 3)
            if t == 0:
                pts = [(cx + size * rng.uniform(-0.35, 0.35), cy + size * rng.uniform(-0.35, 0.35))
                       for _ in range(int(rng.integers(3, 8)))]
                poly = np.round(np.array(pts) * 16).astype(np.int32)
                cv2.fillPoly(img, [poly], ink.tolist(), cv2.LINE_AA, 4)
            elif t == 1:
                cv2.circle(img, (int(cx), int(cy)), int(size * rng.uniform(0.15, 0.4)), ink.tolist(),
                           max(1, int(size * 0.05)), cv2.LINE_AA)
            else:
                at = (int(cx - size * 0.2), int(cy + size * 0.2))
                letter = chr(int(rng.integers(65, 91)))
                if plain_emblems:
                    letter = UNLIKE_DIGITS[(ord(letter) - 65) % len(UNLIKE_DIGITS)]
                cv2.putText(img, letter, at, int(rng.integers(0, 7)), size / 40,
                            ink.tolist(), max(1, int(size / 15)), cv2.LINE_AA)
        if sides is not None and abs(dx) + abs(dy) > 1:
            _side_faces(img, sides[0], top, np.array([dx, dy]), body, ink, 6, parts)
        return EMBLEM
    txt = str(int(rng.integers(1, 21)))
    scale = size / 45 / max(1, len(txt) * 0.8)
    (tw, th), _ = cv2.getTextSize(txt, cv2.FONT_HERSHEY_SIMPLEX, scale, max(1, int(size / 18)))
    cv2.putText(img, txt, (int(cx - tw / 2), int(cy + th / 2)), cv2.FONT_HERSHEY_SIMPLEX, scale, ink.tolist(),
                max(1, int(size / 18)), cv2.LINE_AA)
    return NUMERAL


#: the capital letters an emblem of ``render(plain_emblems=True)`` is drawn with: none that a Hershey font
#: draws like a digit (A 4, B 8, D O Q 0, G 6, I J L T 1 or 7, S 5, Z 2). The face reader learnt from the
#: others that a lone big "5" or "2" on a numeral d6 is an emblem (rendered frames, Vision IV)
UNLIKE_DIGITS = "CEFHKMNPRUVWXY"

#: the body-to-ink difference (|B| + |G| + |R|) of ``render(faint=True)``'s dice: from about what nell-byler's
#: dark dice with red pips show (pips (34, 31, 94) on a body of (46, 51, 59): 67) to the 120 every other
#: render keeps at least
FAINT_CONTRAST = (45.0, 120.0)


def _ring(img: np.ndarray, rng: np.random.Generator, cx: float, cy: float, r: float, ink: np.ndarray) -> None:
    """A ring round the lone pip of a 1 at (``cx``, ``cy``) (pip radius ``r``): closed on three in ten,
    else an arc of 200-330 degrees, 1.5-2.6 pip radii out, a quarter to half a pip radius thick, near
    white on three in four, else the pips' ink. Brands mark the 1 so (a swirl or a circle round the pip);
    nell-byler's dice with red pips on dark, blue, pink and purple bodies carry a white arc round it, and
    the face reader, which had only seen rings on emblems, read 27 of them as emblems or other values left
    out, none sure (sixty-first session)."""
    colour = np.array([rng.uniform(200, 255)] * 3) if rng.random() < 0.75 else ink
    radius = r * rng.uniform(1.5, 2.6)
    start = rng.uniform(0, 360)
    span = 360.0 if rng.random() < 0.3 else rng.uniform(200, 330)
    axes = (round(radius * 16), round(radius * 16))
    cv2.ellipse(img, (round(cx * 16), round(cy * 16)), axes, 0, start, start + span, colour.tolist(),
                max(1, round(r * rng.uniform(0.25, 0.5))), cv2.LINE_AA, 4)


def _faint_ink(rng: np.random.Generator, body: np.ndarray) -> np.ndarray:
    """An ink that differs from ``body`` by ``FAINT_CONTRAST``, towards a random colour: on a dark body a
    saturated colour comes out as a dark red or blue that differs more in hue than in light."""
    target = rng.uniform(*FAINT_CONTRAST)
    for _ in range(8):
        d = np.array(_colour(rng)) - body
        n = float(np.abs(d).sum())
        if n >= target:
            return np.clip(body + d * (target / n), 0, 255)
    return np.clip(body + (target / 3 if body.mean() < 128 else -target / 3), 0, 255)


def _side_faces(img: np.ndarray, rng: np.random.Generator, top: np.ndarray, d: np.ndarray, body: np.ndarray,
                ink: np.ndarray, value: int, parts: list[tuple[float, float, float]] | None = None) -> None:
    """Paint the side faces of a d6 whose top face is the square ``top`` (4 corners) seen by a camera tilted
    so that the sides stick out by ``d`` (px): each visible side in its own shade of ``body`` with the pips
    of a value next to ``value`` on a real die (not it, not its opposite), foreshortened along ``d``. Only
    what lies outside the top face is painted: the top stays the face that is up (the label). A phone photo
    at an angle shows these sides, larger than the top when the tilt is steep (aws), and the face reader read
    them for the top. Each side painted is added to ``parts`` as the square box round it (centre, side): a
    finder that splits touching dice boxed such a side alone, and the face reader read its pips (sixtieth
    session)."""
    centre = top.mean(0)
    size = float(np.linalg.norm(top[1] - top[0]))
    depth = float(np.linalg.norm(d))
    layer = img.copy()
    faces = np.zeros(img.shape[:2], np.uint8)
    free = [v for v in range(1, 7) if v not in (value, 7 - value)]
    a, r = size * rng.uniform(0.24, 0.3), size * rng.uniform(0.07, 0.11)
    k = a / size
    axes = (max(1, round(r * 16)), max(1, round(r * depth / size * 16)))   # foreshortened along ``d``
    for i in range(4):
        p, q = top[i], top[(i + 1) % 4]
        if float(np.dot((p + q) / 2 - centre, d)) <= 0 or not free:
            continue
        quad = np.array([p, q, q + d, p + d])
        shade = rng.uniform(0.45, 0.9)
        cv2.fillConvexPoly(layer, np.round(quad * 16).astype(np.int32), (body * shade).tolist(),
                           cv2.LINE_AA, 4)
        cv2.fillConvexPoly(faces, np.round(quad).astype(np.int32), 255)
        if parts is not None:
            lo, hi = quad.min(0), quad.max(0)
            parts.append((float(lo[0] + hi[0]) / 2, float(lo[1] + hi[1]) / 2, float(max(hi - lo))))
        v = int(rng.choice(free))
        free = [x for x in free if x not in (v, 7 - v)]
        e = q - p
        angle = math.degrees(math.atan2(e[1], e[0]))
        for lu, lv in _LAYOUTS[v]:
            c = p + e * (0.5 + lu * k) + d * (0.5 + lv * k)
            cv2.ellipse(layer, (round(c[0] * 16), round(c[1] * 16)), axes, angle, 0, 360,
                        (ink * shade).tolist(), -1, cv2.LINE_AA, 4)
    if not faces.any():
        return
    cv2.fillConvexPoly(faces, np.round(top).astype(np.int32), 0)
    img[faces > 0] = layer[faces > 0]


def _draw_decoy(img: np.ndarray, rng: np.random.Generator, cx: float, cy: float, size: float) -> None:
    """A die-sized round thing that is no die: a tray's well (a round recess, shaded on the lamp's far
    side), a coin, a punch hole or screw head, or a printed ring. nell-byler's tray has round wells the
    size of its dice; the face reader, never shown one, read them as a "1" (1.9 phantoms a photo, left
    out). Drawn on the tray before the lamp, so the lamp, blur and JPEG fall on them as on the dice."""
    kind = rng.choice(["well", "well", "coin", "hole", "ring"])
    under = img[int(cy) % img.shape[0], int(cx) % img.shape[1]].astype(float)
    c = (round(cx * 16), round(cy * 16))
    r = size * rng.uniform(0.4, 0.6)
    if kind == "well":
        ang = rng.uniform(0, 2 * math.pi)
        off = r * rng.uniform(0.05, 0.2) * np.array([math.cos(ang), math.sin(ang)])
        rim = (under * rng.uniform(0.35, 0.7)).tolist()
        floor = (under * rng.uniform(0.6, 1.05)).tolist()   # the tray's own material: a plain disc of
        # another colour is a token's blank side
        cv2.circle(img, c, round(r * 16), rim, -1, cv2.LINE_AA, 4)
        cv2.circle(img, (round((cx + off[0]) * 16), round((cy + off[1]) * 16)), round(r * 0.92 * 16), floor,
                   -1, cv2.LINE_AA, 4)
        if rng.random() < 0.5:   # a lit lip, all round (the recess is offset towards the shade)
            cv2.circle(img, c, round(r * 16), np.clip(under * 1.25 + 20, 0, 255).tolist(),
                       max(1, round(r * 0.08)), cv2.LINE_AA, 4)
    elif kind == "coin":
        metal = np.array(rng.choice([(60, 160, 200), (170, 170, 170), (60, 110, 180)]))
        metal = metal * rng.uniform(0.6, 1.2)
        cv2.circle(img, (round((cx + size * 0.08) * 16), round((cy + size * 0.08) * 16)), round(r * 16),
                   (under * 0.5).tolist(), -1, cv2.LINE_AA, 4)
        cv2.circle(img, c, round(r * 16), np.clip(metal, 0, 255).tolist(), -1, cv2.LINE_AA, 4)
        cv2.circle(img, c, round(r * 0.8 * 16), np.clip(metal * 0.7, 0, 255).tolist(),
                   max(1, round(r * 0.06)), cv2.LINE_AA, 4)
        if rng.random() < 0.6:
            cv2.putText(img, str(int(rng.integers(1, 100))), (int(cx - r * 0.5), int(cy + r * 0.3)),
                        cv2.FONT_HERSHEY_SIMPLEX, r / 30, np.clip(metal * 0.6, 0, 255).tolist(),
                        max(1, int(r / 12)), cv2.LINE_AA)
    elif kind == "hole":
        dark = (under * rng.uniform(0, 0.4) if rng.random() < 0.7 else rng.uniform(0, 255, 3)).tolist()
        cv2.circle(img, c, round(r * rng.uniform(0.3, 0.8) * 16), dark, -1, cv2.LINE_AA, 4)
    else:
        ink = rng.uniform(0, 255, 3).tolist()
        cv2.circle(img, c, round(r * 16), ink, max(1, round(r * rng.uniform(0.05, 0.2))), cv2.LINE_AA, 4)


def _rounded_bar(cx: float, cy: float, length: float, width: float, angle: float, corner: float
                 ) -> np.ndarray:
    """The outline of a rounded rectangle (``length`` along ``angle``, ``width`` across, corners of radius
    ``corner``) as int32 points in sixteenths of a pixel, for ``cv2.fillPoly(..., shift=4)``."""
    hl, hw = length / 2 - corner, width / 2 - corner
    pts = []
    for (sx, sy), a0 in (((1, 1), 0.0), ((-1, 1), 90.0), ((-1, -1), 180.0), ((1, -1), 270.0)):
        for a in np.radians(np.linspace(a0, a0 + 90, 7)):
            pts.append((sx * hl + corner * math.cos(a), sy * hw + corner * math.sin(a)))
    c, s = math.cos(angle), math.sin(angle)
    out = [(cx + x * c - y * s, cy + x * s + y * c) for x, y in pts]
    return np.array(np.rint(np.array(out) * 16), np.int32)


def _from_bar(x: float, y: float, cx: float, cy: float, ux: float, uy: float, length: float) -> float:
    """How far (``x``, ``y``) lies from the segment of ``length`` centred on (``cx``, ``cy``) along the unit
    direction (``ux``, ``uy``)."""
    along = max(-length / 2, min(length / 2, (x - cx) * ux + (y - cy) * uy))
    return math.hypot(x - cx - along * ux, y - cy - along * uy)


def _draw_rims(img: np.ndarray, rng: np.random.Generator, die: float,
               placed: list[tuple[float, float, float]], fakes: list[tuple[float, float, float]]) -> None:
    """One or two bars of a tray's rim or handle, each with a dark screw hole near one end or both: a
    light rounded bar about a die wide, 2-6 dice long, with one round dark dot, is a "1" without its die.
    The sixty-fourth session's finders that saw dice filling their window read the screw hole in
    nell-byler's tray rim as a "1" (24 photos of 250, against 8 for the installed finder). Each bar is
    tried at six places and drawn only where it passes every die in ``placed`` by half a die; each hole
    is kept in ``fakes`` (read as "none"), and each bar's ends in ``placed``."""
    h, w = img.shape[:2]
    for _ in range(int(rng.integers(1, 3))):
        width = die * rng.uniform(0.8, 1.4)
        length = die * rng.uniform(2.0, 6.0)
        angle = float(rng.choice([0.0, math.pi / 2])) + rng.uniform(-0.25, 0.25)
        ux, uy = math.cos(angle), math.sin(angle)
        for _ in range(6):
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            ends = [(cx + ux * (length / 2 - width * 0.6) * k, cy + uy * (length / 2 - width * 0.6) * k)
                    for k in (1, -1)]
            if all(_from_bar(x, y, cx, cy, ux, uy, length) > width / 2 + s2 * 0.5 + die * 0.5
                   for x, y, s2 in placed):
                break
        else:
            continue
        under = img[int(np.clip(cy, 0, h - 1)), int(np.clip(cx, 0, w - 1))].astype(float)
        body = np.clip(under * rng.uniform(0.9, 1.25) + rng.uniform(-10, 30), 0, 255)
        corner = width * rng.uniform(0.15, 0.5)
        # a shadow to one side, the bar, and on three bars in five an edge lighter or darker than it
        sh = rng.uniform(0.03, 0.1) * width
        cv2.fillPoly(img, [_rounded_bar(cx + sh, cy + sh, length, width, angle, corner)],
                     (under * rng.uniform(0.5, 0.8)).tolist(), cv2.LINE_AA, 4)
        bar = _rounded_bar(cx, cy, length, width, angle, corner)
        cv2.fillPoly(img, [bar], body.tolist(), cv2.LINE_AA, 4)
        if rng.random() < 0.6:
            cv2.polylines(img, [bar], True,
                          np.clip(body * rng.uniform(0.7, 1.15), 0, 255).tolist(),
                          max(1, round(width * 0.04)), cv2.LINE_AA, 4)
        r = width * rng.uniform(0.12, 0.3)
        dark = np.clip(body * rng.uniform(0.15, 0.55), 0, 255).tolist()
        for k, (x, y) in enumerate(ends):
            if k and rng.random() < 0.5:
                continue
            cv2.circle(img, (round(x * 16), round(y * 16)), round(r * 16), dark, -1, cv2.LINE_AA, 4)
            fakes.append((x, y, width * 1.2))
            placed.append((x, y, width))


#: what ``_draw_printed`` writes: keys' legends, and labels', cards' and boards' short strings. Never one
#: digit alone: a digit on a square is a numeral die, which the face reader must keep reading
KEY_LEGENDS = ("fn", "alt", "ctrl", "esc", "tab", "shift", "Q", "W", "E", "R", "T", "Y", "A", "S", "D", "F",
               "G", "H", "J", "K", "L", "Z", "X", "C", "V", "B", "N", "M", "F1", "F5", "F12", "del", "home")


def _printed_text(rng: np.random.Generator) -> str:
    """A short string as labels and cards print it ("C12.0", "USB", "A7", "x3"): two to five characters."""
    alphabet = "ABCDEFGHKLMNPRSTUVXYZ0123456789"
    txt = "".join(rng.choice(list(alphabet), int(rng.integers(2, 5))))
    if rng.random() < 0.3:
        at = int(rng.integers(1, len(txt)))
        txt = txt[:at] + rng.choice([".", "-", "/"]) + txt[at:]
    return txt


def _draw_printed(img: np.ndarray, rng: np.random.Generator, cx: float, cy: float, size: float) -> None:
    """A die-sized printed thing that is no die: a key of a keyboard (a dark or light rounded square with
    a small legend), a label or tag (a strip with a short string, a cable's "C12.0"), or bare print of a
    card or board. matteop65's desk shows a laptop's keys and a cable's label beside the dice, which the
    face readers trained without it read as dice (sure "3"s, left out, twenty-fourth session). Drawn on a
    patch turned at any angle, before the lamp, so light, blur and JPEG fall on it as on the dice."""
    kind = rng.choice(["key", "label", "print"])
    if kind == "key":
        pw, ph = size * rng.uniform(0.8, 1.0), size * rng.uniform(0.75, 1.0)
        dark = rng.random() < 0.6
        body = rng.uniform(10, 60, 3) if dark else rng.uniform(180, 245, 3)
        ink = rng.uniform(190, 255, 3) if dark else rng.uniform(0, 70, 3)
        txt = str(rng.choice(KEY_LEGENDS))
        scale = size / 75 * rng.uniform(0.5, 1.0) / max(1.0, len(txt) * 0.5)
    elif kind == "label":
        ph = size * rng.uniform(0.35, 0.6)
        pw = ph * rng.uniform(1.6, 3.5)
        body = rng.choice([(235, 235, 235), (40, 40, 40), (60, 210, 235), (230, 230, 200)])
        body = body * rng.uniform(0.8, 1.05)
        ink = np.array((20, 20, 20)) if body.mean() > 128 else np.array((230, 230, 230))
        txt = _printed_text(rng)
        scale = ph / 40 * rng.uniform(0.6, 0.9)
    else:   # print straight on the tray: its "body" is the tray under it
        pw, ph = size * rng.uniform(1.0, 1.8), size * rng.uniform(0.4, 0.7)
        body = img[int(cy) % img.shape[0], int(cx) % img.shape[1]].astype(float)
        ink = rng.uniform(0, 255, 3)
        txt = _printed_text(rng)
        scale = ph / 40 * rng.uniform(0.6, 1.0)
    pw, ph = max(4, int(pw)), max(4, int(ph))
    deck = kind == "key" and rng.random() < 0.7   # a keyboard: the key among its neighbours on the deck
    gap = max(2, int(size * rng.uniform(0.08, 0.2)))
    half = int(math.hypot(pw, ph) / 2) + 2 + (max(pw, ph) + gap if deck else 0)
    body = np.clip(body, 0, 255)
    patch = np.zeros((2 * half, 2 * half, 3), np.uint8)
    mask = np.zeros((2 * half, 2 * half), np.float32)
    if deck:
        under_keys = rng.choice([(190, 190, 195), (60, 60, 62), (225, 225, 225)])
        patch[:] = np.clip(under_keys * rng.uniform(0.8, 1.1), 0, 255).astype(np.uint8)
        mask[:] = 1.0
    x0, y0 = half - pw // 2, half - ph // 2
    corner = int(min(pw, ph) * (0.15 if kind == "key" else 0.05))
    keys = [(0, 0)] + ([(i, j) for i in (-1, 0, 1) for j in (-1, 0, 1) if (i, j) != (0, 0)] if deck else [])
    for i, j in keys:
        kx, ky = x0 + i * (pw + gap), y0 + j * (ph + gap)
        for m, v in ((patch, body.tolist()), (mask, 1.0)):
            cv2.rectangle(m, (kx + corner, ky), (kx + pw - corner, ky + ph), v, -1)
            cv2.rectangle(m, (kx, ky + corner), (kx + pw, ky + ph - corner), v, -1)
            for ccx, ccy in ((kx + corner, ky + corner), (kx + pw - corner, ky + corner),
                             (kx + corner, ky + ph - corner), (kx + pw - corner, ky + ph - corner)):
                cv2.circle(m, (ccx, ccy), corner, v, -1)
        if (i, j) != (0, 0) and rng.random() < 0.7:   # the neighbours' own legends
            cv2.putText(patch, str(rng.choice(KEY_LEGENDS)), (kx + pw // 6, ky + ph // 2), 0,
                        size / 75 * 0.6, ink.tolist(), 1, cv2.LINE_AA)
    if kind == "key" and rng.random() < 0.6:   # the key's lit edge
        cv2.rectangle(patch, (x0, y0), (x0 + pw, y0 + ph), np.clip(body * 1.5 + 30, 0, 255).tolist(), 1)
    thick = max(1, int(scale * 2))
    (tw, th), _ = cv2.getTextSize(txt, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    tx = half - tw // 2 if kind != "key" or rng.random() < 0.5 else x0 + max(1, pw // 8)
    ty = half + th // 2 if kind != "key" or rng.random() < 0.5 else y0 + th + max(1, ph // 8)
    cv2.putText(patch, txt, (tx, ty), int(rng.choice([0, 1, 2, 3, 4, 6])), scale, ink.tolist(), thick,
                cv2.LINE_AA)
    if kind == "print":
        mask = mask * (np.abs(patch.astype(np.float32) - body).sum(axis=2) > 30)   # the ink alone
    m = cv2.getRotationMatrix2D((half, half), float(rng.uniform(0, 360)), 1.0)
    m[:, 2] += (cx - half, cy - half)
    h, w = img.shape[:2]
    drawn = cv2.warpAffine(patch, m, (w, h), flags=cv2.INTER_LINEAR).astype(np.float32)
    alpha = cv2.warpAffine(mask, m, (w, h), flags=cv2.INTER_LINEAR)[..., None]
    if kind != "print" and not deck:   # a key or a label on the tray: its shadow on the lamp's far side
        shadow = np.roll(alpha, (max(1, int(size * 0.05)),) * 2, axis=(0, 1))
        img[:] = img * (1 - 0.4 * np.clip(shadow - alpha, 0, 1))
    img[:] = img * (1 - alpha) + drawn * alpha


#: no two things a render draws (dice, decoys, print) have centres closer than this times their summed sizes
APART = 0.75


def _scatter(img: np.ndarray, rng: np.random.Generator, draw: Callable[..., None], tries: int, most: int,
             die: float, placed: list[tuple[float, float, float]], fakes: list[tuple[float, float, float]]
             ) -> None:
    """Things that are no die (``draw(img, rng, cx, cy, size)``), 0.8-1.3 times ``die``, at ``tries`` places
    drawn at random, each kept off everything ``placed`` (``APART`` of their summed sizes), until ``fakes``
    holds ``most``; each drawn one is added to both (its box 1.2 times its size, as a die's)."""
    h, w = img.shape[:2]
    for _ in range(tries):
        if len(fakes) >= most:
            break
        sz = die * rng.uniform(0.8, 1.3)
        cx, cy = rng.uniform(sz * 0.5, w - sz * 0.5), rng.uniform(sz * 0.5, h - sz * 0.5)
        if any(math.hypot(cx - x, cy - y) < APART * (sz + s2) for x, y, s2 in placed):
            continue
        draw(img, rng, cx, cy, sz)
        placed.append((cx, cy, sz))
        fakes.append((cx, cy, sz * 1.2))


def _dotted_cloth(rng: np.random.Generator, h: int, w: int, die: float) -> np.ndarray:
    """A polka-dot cloth whose dots are a die's pips in size and spacing, or up to a die apart: any two by
    two of its dots is a "4" without its die (twenty-seventh session: a cloth of red dots on cream, dots
    a twentieth of the frame apart, was read as 28 dice, 10 of them a sure "4"). Cloth and dots of any two
    colours far enough apart in light, in rows or staggered, a little turned."""
    period = die * rng.uniform(0.25, 1.3)
    radius = max(1.0, period * rng.uniform(0.12, 0.36))
    cloth = np.array(_colour(rng), np.float32)
    dot = np.array(_colour(rng), np.float32)
    while abs(float(dot.mean()) - float(cloth.mean())) < 60:
        dot = np.array(_colour(rng), np.float32)
    stagger = rng.random() < 0.4
    big = int(math.hypot(w, h)) + int(2 * period) + 2
    img = np.empty((big, big, 3), np.float32)
    img[:] = cloth
    x0, y0 = rng.uniform(0, period, 2)
    for row, y in enumerate(np.arange(y0, big, period)):
        shift = period / 2 if stagger and row % 2 else 0.0
        for x in np.arange(x0 + shift, big, period):
            centre = (int(np.rint(x * 4)), int(np.rint(y * 4)))
            cv2.circle(img, centre, int(np.rint(radius * 4)), dot.tolist(), -1, cv2.LINE_AA, shift=2)
    m = cv2.getRotationMatrix2D((big / 2, big / 2), float(rng.uniform(-20, 20)), 1.0)
    m[:, 2] -= ((big - w) / 2, (big - h) / 2)
    out: np.ndarray = cv2.warpAffine(img, m, (w, h), borderMode=cv2.BORDER_REFLECT)
    return out + rng.normal(0, rng.uniform(0, 6), out.shape).astype(np.float32)


#: on a packed tray (``render(touching=True)``), no two dice's centres closer than this times their summed
#: sizes (a die apart when both are the same size: two squares side by side touch), against ``APART``
#: elsewhere
PACKED_APART = 0.5
#: ...and each die after the first is put against one already placed this often
PACKED_NEXT = 0.75


def _packed_at(rng: np.random.Generator, cx: float, cy: float, size: float,
               placed: list[tuple[float, float, float]]) -> tuple[float, float]:
    """Where a die of ``size`` goes on a packed tray: against one of ``placed`` (``PACKED_NEXT`` of the
    time), its centre 1.02-1.3 times their mean size away in any direction (side to side, or corner to
    side when turned: a cluster of two to many); else at (``cx``, ``cy``), drawn as on any tray."""
    if not placed or rng.random() >= PACKED_NEXT:
        return cx, cy
    x, y, s2 = placed[int(rng.integers(len(placed)))]
    a, d = rng.uniform(0, 2 * math.pi), rng.uniform(1.02, 1.3) * (size + s2) / 2
    return x + d * math.cos(a), y + d * math.sin(a)


def render(seed: int, size: tuple[int, int] = (512, 384), patterned: bool = False,
           decoys: bool = False, sides: bool = False, faint: bool = False, plain_emblems: bool = False,
           printed: bool = False, dotted: bool = False, touching: bool = False,
           ringed: bool = False, rims: bool = False) -> Sample:
    """One randomised tray photo with dice, emblems, numeral dice and tokens at known places.
    ``patterned`` (since 2026-11-26's sixth session; off, a seed draws the tray it always drew): half the
    trays natural (``_natural``), pip dice's bodies marbled, speckled or translucent, pips drilled.
    ``decoys`` (eighth session): half the trays get die-sized round things that are no die
    (``_draw_decoy``): 3 to 18 places are tried (three times a count of one to six), each off every die,
    and at most six are kept (as trained: faces11). They are kept in ``Sample.decoys`` and drawn from
    their own generator, so a seed's dice and tray stay what they were.
    ``sides`` (twelfth session): the camera is tilted on three renders in four, up to twice as steeply,
    and the pip dice's side faces carry pips (``_side_faces``); a die's box is then its whole outline,
    top and sides, as aws labels it and the finder boxes it. Drawn from its own generator too.
    ``faint`` (eighteenth session): every die's ink (pips, emblem, numeral) differs from its body by less
    than the 120 the others keep (``FAINT_CONTRAST``), more in hue than in light, as the red pips of
    nell-byler's dark dice do (most of its wrong readings left out); from its own generator too.
    ``plain_emblems`` (eighteenth session): the emblems' letters are ``UNLIKE_DIGITS``; the same draws, so
    the tray is otherwise the one it always was.
    ``printed`` (twenty-fourth session): half the trays get one to four keys, labels or bits of print
    (``_draw_printed``), placed as the decoys are, from their own generator, kept in ``Sample.decoys``.
    ``dotted`` (twenty-seventh session): half the trays are polka-dot cloths at the pips' scale or up to a
    die's (``_dotted_cloth``), drawn from their own generator under the same dice.
    ``touching`` (sixtieth session): on half the trays the dice lie in touching clusters (``_packed_at``):
    most dice are put against one already placed, and dice may lie a die apart instead of a die and a half.
    Without it no two rendered dice came within half a die of each other, and the finders trained on these
    renders drew one box round two or three touching dice of aws left out (46 of its 173 missed dice lie in
    a box holding two labelled dice or more). The places come from a generator of their own, so the other
    half of the trays are drawn as without it.
    ``ringed`` (sixty-first session): half the 1s get a ring round their pip (``_ring``), from a generator of
    its own.
    ``rims`` (sixty-fifth session): a third of the trays get one or two bars of a tray's rim with a dark
    screw hole near an end (``_draw_rims``), from a generator of their own, kept in ``Sample.decoys``."""
    rng = np.random.default_rng(seed)
    w, h = size
    img = _texture(rng, h, w, natural=patterned)
    die = float(np.exp(rng.uniform(math.log(14), math.log(110))))
    dotrng = np.random.default_rng([seed, 5])
    if dotted and dotrng.random() < 0.5:
        img = np.clip(_dotted_cloth(dotrng, h, w, die), 0, 255).astype(np.uint8)
    n = int(rng.integers(0, max(2, min(30, int(w * h / (die * die * 4))))))
    tilt = (rng.uniform(-0.35, 0.35), rng.uniform(-0.35, 0.35)) if rng.random() < 0.5 else (0.0, 0.0)
    srng = np.random.default_rng([seed, 2]) if sides else None
    frng = np.random.default_rng([seed, 3]) if faint else None
    steep = tilt
    if srng is not None:
        if tilt == (0.0, 0.0) and srng.random() < 0.5:
            steep = (srng.uniform(-0.35, 0.35), srng.uniform(-0.35, 0.35))
        k = srng.uniform(1.0, 2.0)
        steep = (steep[0] * k, steep[1] * k)
    objs: list[tuple[float, float, float, float, int]] = []
    parts: list[tuple[float, float, float, int]] = []
    placed: list[tuple[float, float, float]] = []
    trng = np.random.default_rng([seed, 6])
    rrng = np.random.default_rng([seed, 7]) if ringed else None
    packed = touching and trng.random() < 0.5
    apart = PACKED_APART if packed else APART
    for _ in range(n * 3):
        if len(objs) >= n:
            break
        sz = die * rng.uniform(0.85, 1.15)
        cx, cy = rng.uniform(sz * 0.3, w - sz * 0.3), rng.uniform(sz * 0.3, h - sz * 0.3)
        if packed:
            cx, cy = _packed_at(trng, cx, cy, sz, placed)
            if not (sz * 0.3 <= cx <= w - sz * 0.3 and sz * 0.3 <= cy <= h - sz * 0.3):
                continue
        if any(math.hypot(cx - x, cy - y) < apart * (sz + s2) for x, y, s2 in placed):
            continue
        sides_of: list[tuple[float, float, float]] = []
        label = _draw_object(img, rng, cx, cy, sz, tilt, patterned, None if srng is None else (srng, steep),
                             frng, plain_emblems, sides_of, rrng)
        parts += [(x, y, s, len(objs)) for x, y, s in sides_of]
        placed.append((cx, cy, sz))
        if srng is not None and label != TOKEN:
            dx, dy = steep[0] * sz, steep[1] * sz
            objs.append((cx + dx / 2, cy + dy / 2, sz * 1.2 + abs(dx), sz * 1.2 + abs(dy), label))
        else:
            objs.append((cx, cy, sz * 1.2, sz * 1.2, label))
    fakes: list[tuple[float, float, float]] = []
    drng = np.random.default_rng([seed, 1])
    if decoys and drng.random() < 0.5:
        _scatter(img, drng, _draw_decoy, int(drng.integers(1, 7)) * 3, 6, die, placed, fakes)
    prng = np.random.default_rng([seed, 4])
    if printed and prng.random() < 0.5:
        _scatter(img, prng, _draw_printed, int(prng.integers(1, 5)) * 3, 10, die, placed, fakes)
    mrng = np.random.default_rng([seed, 8])
    if rims and mrng.random() < 1 / 3:
        _draw_rims(img, mrng, die, placed, fakes)
    # one lamp: a gradient and a glare spot
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    img = img.astype(np.float32)
    lx, ly = rng.uniform(0, w), rng.uniform(0, h)
    fall = 1.0 - rng.uniform(0, 0.5) * np.hypot(xx - lx, yy - ly) / math.hypot(w, h)
    img = img * fall[..., None] * rng.uniform(0.6, 1.3)
    if rng.random() < 0.3:
        glare = np.exp(-((xx - lx) ** 2 + (yy - ly) ** 2) / (2 * (rng.uniform(10, 80)) ** 2)) * 120
        img += glare[..., None]
    img += rng.normal(0, rng.uniform(0, 8), img.shape)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.5))
    q = int(rng.integers(35, 95))
    out = cv2.imdecode(cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])[1], cv2.IMREAD_COLOR)
    return Sample("render", f"render-{seed}", out, objs, decoys=fakes, parts=parts)


def off_other_dice(s: Sample, x: float, y: float, skip: int = -1) -> bool:
    """Whether (x, y) is farther from the centre of each of ``s``'s dice but the ``skip``-th than 0.6 of
    that die's box: a crop centred there would not be that die's, so it may be read as ``none``."""
    return all(math.hypot(x - o[0], y - o[1]) > 0.6 * max(o[2], o[3])
               for i, o in enumerate(s.objects) if i != skip)


def lone_parts(s: Sample) -> list[tuple[float, float, float]]:
    """``s``'s side faces boxed alone (``Sample.parts``: centre, side) that are no die: those whose crop
    would not be another die's (``off_other_dice``, their own die skipped)."""
    return [(cx, cy, size) for cx, cy, size, own in s.parts if off_other_dice(s, cx, cy, own)]


#: seed of ``pasted``'s trays (tray i from (PASTE_SEED, i))
PASTE_SEED = 20263601
#: the real sets whose boxes take in a whole die (``donor_dice``): aws and nell-byler in whole photos, chase
#: crops; matteop65 boxes only the pip pattern, and Lurig and burks are numeral dice boxed by segmenting
DONOR_SOURCES = ("aws", "nell", "chase")


def donor_dice(samples: list[Sample]) -> list[tuple[np.ndarray, np.ndarray, int]]:
    """(crop BGR, mask float32 0..1, label) of every boxed real die of ``samples`` from ``DONOR_SOURCES`` at
    least 14 px across and wholly inside its photo (a chase crop is one die). The mask is the die cut from
    what its box also holds of its own table (GrabCut from the box's edge, the largest part, filled);
    where that keeps under a third of the box (a die filling its crop) a rounded square fills the box."""
    out: list[tuple[np.ndarray, np.ndarray, int]] = []
    for s in samples:
        if s.source not in DONOR_SOURCES:
            continue
        h, w = s.image.shape[:2]
        for cx, cy, bw, bh, label in s.objects:
            x0, y0 = round(cx - bw / 2), round(cy - bh / 2)
            x1, y1 = x0 + round(bw), y0 + round(bh)
            if min(bw, bh) >= 14 and x0 >= 0 and y0 >= 0 and x1 <= w and y1 <= h:
                crop = s.image[y0:y1, x0:x1].copy()
                out.append((crop, _die_mask(crop), label))
    return out


def _rounded_mask(h: int, w: int, radius: float) -> np.ndarray:
    """A float32 (h, w) mask of a rounded rectangle filling it, softened over a pixel or two."""
    m = np.zeros((h * 4, w * 4), np.uint8)
    r = round(radius * 4)
    cv2.rectangle(m, (r, 0), (w * 4 - 1 - r, h * 4 - 1), 255, -1)
    cv2.rectangle(m, (0, r), (w * 4 - 1, h * 4 - 1 - r), 255, -1)
    for x, y in ((r, r), (w * 4 - 1 - r, r), (r, h * 4 - 1 - r), (w * 4 - 1 - r, h * 4 - 1 - r)):
        cv2.circle(m, (x, y), r, 255, -1)
    out: np.ndarray = cv2.resize(m, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    return out


def _die_mask(crop: np.ndarray) -> np.ndarray:
    h, w = crop.shape[:2]
    gc = np.zeros((h, w), np.uint8)
    bgd, fgd = np.zeros((1, 65), np.float64), np.zeros((1, 65), np.float64)
    try:
        cv2.grabCut(crop, gc, (1, 1, w - 2, h - 2), bgd, fgd, 3, cv2.GC_INIT_WITH_RECT)
    except cv2.error:
        return _rounded_mask(h, w, 0.15 * min(h, w))
    fg = ((gc == cv2.GC_FGD) | (gc == cv2.GC_PR_FGD)).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(fg)
    if n < 2:
        return _rounded_mask(h, w, 0.15 * min(h, w))
    big = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    pts = cv2.findNonZero((labels == big).astype(np.uint8))
    hull = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(hull, cv2.convexHull(pts), 255)
    if hull.mean() / 255 < 1 / 3:
        return _rounded_mask(h, w, 0.15 * min(h, w))
    out: np.ndarray = cv2.GaussianBlur(hull.astype(np.float32) / 255, (0, 0), 0.7)
    return out


def pasted(index: int, donors: list[tuple[np.ndarray, np.ndarray, int]], backgrounds: list[Sample],
           size: tuple[int, int] = (512, 384), seed: int = PASTE_SEED) -> Sample:
    """One tray of real dice on another table (thirty-sixth session: the left-out finders find 88.7% of
    aws's dice where the finder that saw aws finds 95.7%; renders draw dice, and the real sets show their
    dice on one or two tables each). One to twelve of ``donors`` (``donor_dice``: real dice cut from their
    photos) are turned, scaled and laid, each with the shadow of one
    lamp, on a Lurig photo of ``backgrounds`` (a real table, its own die kept as an object where no pasted
    die covers it) or a drawn tray (``_texture``, natural ones included: mesh, granite, print). Boxed by the
    pasted die's outline. From its own generator: (``seed``, ``index``)."""
    rng = np.random.default_rng([seed, index])
    w, h = size
    objs: list[tuple[float, float, float, float, int]] = []
    if backgrounds and rng.random() < 0.5:
        bg = backgrounds[int(rng.integers(len(backgrounds)))]
        k = max(w / bg.image.shape[1], h / bg.image.shape[0])
        img = cv2.resize(bg.image, None, fx=k, fy=k,
                         interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR)
        ox, oy = (img.shape[1] - w) // 2, (img.shape[0] - h) // 2
        img = img[oy:oy + h, ox:ox + w].astype(np.float32)
        own = [((cx * k - ox), (cy * k - oy), bw * k, bh * k, lab) for cx, cy, bw, bh, lab in bg.objects]
    else:
        img = _texture(rng, h, w, natural=True).astype(np.float32)
        own = []
    die = float(np.exp(rng.uniform(math.log(18), math.log(90))))
    lamp = rng.uniform(0, 2 * math.pi)
    shade = rng.uniform(0.25, 0.6)
    n = int(rng.integers(1, 13))
    placed: list[tuple[float, float, float]] = [(o[0], o[1], max(o[2], o[3])) for o in own]
    for _ in range(n * 4):
        if len(objs) >= n:
            break
        crop, cut, label = donors[int(rng.integers(len(donors)))]
        sz = die * rng.uniform(0.85, 1.15)
        cx, cy = rng.uniform(sz * 0.4, w - sz * 0.4), rng.uniform(sz * 0.4, h - sz * 0.4)
        if any(math.hypot(cx - x, cy - y) < 0.55 * (sz + s2) for x, y, s2 in placed):
            continue
        ch, cw = crop.shape[:2]
        f = sz / max(ch, cw)
        angle = rng.uniform(0, 360)
        m = cv2.getRotationMatrix2D((cw / 2, ch / 2), angle, f)
        m[:, 2] += (cx - cw / 2, cy - ch / 2)
        body = cv2.warpAffine(crop, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        mask = cv2.warpAffine(cut, m, (w, h), flags=cv2.INTER_LINEAR)
        if mask.max() < 0.5:
            continue
        ys, xs = np.nonzero(mask > 0.5)
        shadow = cv2.warpAffine(mask, np.float32([[1, 0, math.cos(lamp) * 0.18 * sz],
                                                  [0, 1, math.sin(lamp) * 0.18 * sz]]), (w, h))
        shadow = cv2.GaussianBlur(shadow, (0, 0), max(0.5, 0.06 * sz))
        img *= 1 - shade * shadow[..., None]
        gain = rng.uniform(0.8, 1.2)
        img = img * (1 - mask[..., None]) + body.astype(np.float32) * gain * mask[..., None]
        x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
        objs.append(((x0 + x1) / 2, (y0 + y1) / 2, float(x1 - x0), float(y1 - y0), label))
        placed.append((cx, cy, sz))
    for o in own:   # the table's own die, unless a pasted one lies over it
        if all(math.hypot(o[0] - q[0], o[1] - q[1]) > 0.5 * (max(o[2], o[3]) + max(q[2], q[3]))
               for q in objs):
            objs.append(o)
    img += rng.normal(0, rng.uniform(0, 6), img.shape)
    out = np.clip(img, 0, 255).astype(np.uint8)
    q = int(rng.integers(50, 95))
    out = cv2.imdecode(cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])[1], cv2.IMREAD_COLOR)
    return Sample("pasted", f"pasted-{index}", out, objs)


#: the die's side in a ``pip_transplant`` sample (the face reader's crop is 40 px: detail beyond is lost)
TRANSPLANT_SIDE = 96


def draw_swirls(img: np.ndarray, rng: np.random.Generator, box: tuple[float, float, float, float]
                ) -> np.ndarray:
    """``img`` with one to four light swirl veins inside the die's ``box`` (cx, cy, w, h): curved strokes,
    2-6% of the die's side thick, near white or a light tint, partly transparent and softened, as the
    white veins of nell-byler's dark marbled dice (the face reader, left out, took them for a numeral's
    strokes on about 110 of its found pip dice: twenty-second session). The strokes are cut to the box's
    inner 90%, then softened (a pixel or two past it)."""
    h, w = img.shape[:2]
    cx, cy, bw, bh = box
    side = min(bw, bh)
    inside = np.zeros((h, w), np.uint8)
    cv2.rectangle(inside, (round(cx - 0.45 * bw), round(cy - 0.45 * bh)), (round(cx + 0.45 * bw),
                                                                             round(cy + 0.45 * bh)), 255, -1)
    layer = img.astype(np.float32)
    for _ in range(int(rng.integers(1, 5))):
        if rng.random() < 0.6:
            colour = np.array([rng.uniform(170, 255)] * 3)
        else:
            colour = np.array(_colour(rng)) * 0.4 + 150
        at = np.array([cx, cy]) + rng.uniform(-0.4, 0.4, 2) * side
        ang = rng.uniform(0, 2 * math.pi)
        bend = rng.uniform(-2.5, 2.5) / side
        length = side * rng.uniform(0.4, 1.1)
        pts = []
        for t in np.linspace(0, 1, 24):
            a = ang + bend * t * length
            at = at + np.array([math.cos(a), math.sin(a)]) * length / 24
            pts.append(at.copy())
        mask = np.zeros((h, w), np.uint8)
        cv2.polylines(mask, [np.round(np.array(pts) * 16).astype(np.int32)], False, 255,
                      max(1, round(side * rng.uniform(0.02, 0.06))), cv2.LINE_AA, 4)
        mask = cv2.bitwise_and(mask, inside)
        alpha = (cv2.GaussianBlur(mask, (0, 0), rng.uniform(0.5, 1.5)).astype(np.float32) / 255
                 * rng.uniform(0.5, 0.9))[..., None]
        layer = layer * (1 - alpha) + colour[None, None, :] * alpha
    return np.clip(layer, 0, 255).astype(np.uint8)


def pip_transplant(s: Sample, rng: np.random.Generator,
                   weights: tuple[float, ...] | None = None, faint: bool = False,
                   swirls: bool = False, casino: bool = False, logo: bool = False) -> Sample | None:
    """A real numeral d6 (a Lurig photo) made a pip d6 of the same body: the numeral inpainted away
    (``erase_numeral``) and the pips of a random value painted at the top face's centre (``paint_pips``),
    in the numeral's own ink (as a set of marbled dice prints both) or another colour.

    Why: every marbled, speckled or swirled real die the face reader saw was a numeral die (Lurig), and
    every real pip die plain; left out, it read 333 of nell's found pip dice (marbled, translucent) as
    numerals.
    Renders of patterned pip dice did not undo it (their bodies are flat noise, not a real die's gloss and
    shading). Returns a small sample around the die (its side ``TRANSPLANT_SIDE`` px, ``crop_only``: the
    face reader takes the die's crop and no tray from it), or ``None`` when the photo has no box or its
    numeral could not be wholly erased (Vision II's numeral reader still reads it). ``weights``: how often
    each value 1..6 is painted (default: equally; a value drawn as before, so older recipes replay).
    ``faint`` (twenty-second session): the pips differ from the body by ``FAINT_CONTRAST`` only, more in hue
    than in light (``_faint_ink``), as the red pips of nell-byler's dark marbled dice do; the others keep a
    difference of 90 or more, and left out the face reader still called 110 of nell's found pip dice,
    mostly those, numerals. ``swirls`` (the same session): light veins drawn across the body under the pips
    (``draw_swirls``). ``casino`` (twenty-fifth session): print around the pips as casino dice carry it
    (``_casino_print``: a ring of letters around a big "1", a serial number between other pips). ``logo``
    (seventy-fifth session): a mark the size of a pip or larger in the middle of a 2, 4 or 6
    (``_centre_logo``)."""
    from vision.poly.numeral import read_numeral

    if not s.objects:
        return None
    w, h = s.objects[0][2:4]
    img, k = die_window(s)
    half = img.shape[0] / 2
    got = erase_numeral(img)
    if got is None:
        return None
    erased, ink, at = got
    die = slice(round(half - 0.6 * TRANSPLANT_SIDE), round(half + 0.6 * TRANSPLANT_SIDE))
    was, now = read_numeral(img[die, die]), read_numeral(erased[die, die])
    if was.score >= 0.5 and now.text == was.text and now.score >= 0.5:
        return None    # a numeral left under the pips would teach that a numeral with pips is a pip die
    body = np.median(erased[die, die].reshape(-1, 3), axis=0).astype(float)
    if faint:
        ink = _faint_ink(rng, body)
    elif rng.random() < 0.3 or np.abs(ink - body).sum() < 90:
        ink = np.array(_colour(rng)) if rng.random() < 0.5 else np.array([rng.choice([20.0, 235.0])] * 3)
        if np.abs(ink - body).sum() < 90:
            ink = 255 - body
    if weights is None:
        value = int(rng.integers(1, 7))
    else:
        p = np.array(weights, float)
        value = int(rng.choice(6, p=p / p.sum())) + 1
    if swirls:
        erased = draw_swirls(erased, rng, (half, half, w * k, h * k))
    out = paint_pips(erased, rng, ink, at, value, TRANSPLANT_SIDE * rng.uniform(0.5, 0.7), casino=casino,
                     logo=logo)
    return Sample("lurig-pips", s.name, out, [(half, half, w * k, h * k, value)], crop_only=True,
                  group=s.group)


def die_window(s: Sample) -> tuple[np.ndarray, float]:
    """The square around ``s``'s first object, scaled by k so that the die's side is ``TRANSPLANT_SIDE``,
    1.8 times its long side across (edges replicated), and k."""
    cx, cy, w, h, _ = s.objects[0]
    k = TRANSPLANT_SIDE / min(w, h)
    half = 0.9 * max(w, h) * k
    m = np.array([[k, 0, half - cx * k], [0, k, half - cy * k]], np.float32)
    return cv2.warpAffine(s.image, m, (round(2 * half), round(2 * half)), flags=cv2.INTER_AREA,
                          borderMode=cv2.BORDER_REPLICATE), k


def erase_numeral(img: np.ndarray) -> tuple[np.ndarray, np.ndarray, tuple[float, float]] | None:
    """``img`` (a die of side ``TRANSPLANT_SIDE`` at its centre) with the ink of its top face inpainted
    away, the ink's colour (BGR) and the ink's centre; ``None`` when no ink stands out. The ink is what
    differs from the die's median colour (Lab, chroma doubled, Otsu), as ``vision.poly``'s numeral, and is
    nearer the ink's colour than the body's (not the die's shaded edges)."""
    c = img.shape[0] / 2
    weight = np.array([1.0, 2.0, 2.0], np.float32)
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(np.float32)
    yy, xx = np.mgrid[0:img.shape[0], 0:img.shape[1]].astype(np.float32)
    centre = np.hypot(xx - c, yy - c) < 0.42 * TRANSPLANT_SIDE
    body = np.median(lab[centre], axis=0)
    dist = np.linalg.norm((lab - body) * weight, axis=2)
    t, _ = cv2.threshold(np.clip(dist * 2, 0, 255).astype(np.uint8)[centre], 0, 255,
                         cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    t /= 2
    far = centre & (dist > t)
    if far.sum() < 0.005 * centre.sum():
        return None
    strongest = far & (dist >= np.percentile(dist[far], 60))
    ink_lab = np.median(lab[strongest], axis=0)
    ink_mask = (centre & (dist > 0.5 * t)      # the faint ink of a translucent die too
                & (np.linalg.norm((lab - ink_lab) * weight, axis=2) < dist)).astype(np.uint8)
    if ink_mask.sum() < 0.005 * centre.sum():
        return None
    my, mx = np.nonzero(ink_mask)
    erased = cv2.inpaint(img, cv2.dilate(ink_mask, np.ones((7, 7), np.uint8)), 7, cv2.INPAINT_TELEA)
    lab = cv2.cvtColor(erased, cv2.COLOR_BGR2LAB).astype(np.float32)
    dist = np.linalg.norm((lab - body) * weight, axis=2)
    left = centre & (dist > 0.7 * t) & (np.linalg.norm((lab - ink_lab) * weight, axis=2) < dist)
    if left.sum() > 0.003 * centre.sum():
        return None    # ink left: not wholly erased
    return erased, np.median(img[strongest], axis=0).astype(float), (float(mx.mean()), float(my.mean()))


def paint_pips(img: np.ndarray, rng: np.random.Generator, ink: np.ndarray, at: tuple[float, float],
               value: int, face: float, casino: bool = False, logo: bool = False) -> np.ndarray:
    """``img`` with the pips of ``value`` painted in ``ink`` (BGR) on a face of side ``face`` centred at
    ``at``: turned at random, foreshortened up to 0.75 across a random axis (an oblique top face), each pip
    shaded like the body under it. ``casino``: print beside the pips in the same ink (``_casino_print``)."""
    a, r = face * rng.uniform(0.26, 0.32), face * rng.uniform(0.07, 0.11)
    ang, squash = rng.uniform(0, 2 * math.pi), rng.uniform(0.75, 1.0)
    r = min(r, 0.42 * a * squash)      # neighbouring pips never touch
    rot = np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]])
    tilt = rng.uniform(0, math.pi)
    tr = np.array([[math.cos(tilt), -math.sin(tilt)], [math.sin(tilt), math.cos(tilt)]])
    shape = tr @ np.diag([1.0, squash]) @ tr.T
    alpha = np.zeros(img.shape[:2], np.uint8)
    if casino and value == 1:
        r = face * rng.uniform(0.13, 0.18)     # a casino's "1" is a big pip
    for px, py in np.array(_LAYOUTS[value], float) @ rot.T @ shape.T * a + np.array(at):
        axes = (round(r * 16), round(r * squash * 16))
        cv2.ellipse(alpha, (round(px * 16), round(py * 16)), axes, math.degrees(tilt), 0, 360, 255, -1,
                    cv2.LINE_AA, 4)
    if casino:
        _casino_print(alpha, rng, value, np.array(at, float), a, r, rot, shape, face)
    if logo:
        _centre_logo(alpha, rng, value, np.array(at, float), a, r, ang)
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    x, y = round(at[0]), round(at[1])
    f = round(face / 2)
    under = grey[max(0, y - f):y + f, max(0, x - f):x + f]
    shade = np.clip(cv2.GaussianBlur(grey, (0, 0), 3) / max(1.0, float(np.median(under))), 0.6, 1.3)
    a3 = (cv2.GaussianBlur(alpha, (0, 0), 0.6).astype(np.float32) / 255)[..., None]
    out = img.astype(np.float32) * (1 - a3) + (ink[None, None, :] * shade[..., None]) * a3
    return np.clip(out, 0, 255).astype(np.uint8)


#: words a casino prints around its dice's "1" (stand-ins: what matters is small letters in a ring)
CASINO_WORDS = ("CASINO", "ROYAL", "PALACE", "HOTEL", "GRAND", "LAS VEGAS", "CLUB", "RESORT", "GOLDEN",
                "STAR", "LUCKY", "RIVIERA", "SANDS", "No.")


def _glyph_alpha(ch: str, height: float) -> np.ndarray:
    """One character, ``height`` px tall, white on black (drawn four times larger, then shrunk: small letters
    as a camera sees them, not one-pixel strokes)."""
    big = max(8, round(height * 4))
    scale = big / 22   # FONT_HERSHEY_SIMPLEX's capitals are about 22 px tall at scale 1
    thick = max(1, round(big / 7))
    (tw, th), _ = cv2.getTextSize(ch, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    side = max(tw, th) + 2 * thick + 4
    patch = np.zeros((side, side), np.uint8)
    cv2.putText(patch, ch, ((side - tw) // 2, (side + th) // 2), cv2.FONT_HERSHEY_SIMPLEX, scale, 255, thick,
                cv2.LINE_AA)
    small = max(3, round(side / 4))
    return cv2.resize(patch, (small, small), interpolation=cv2.INTER_AREA)


def _stamp(alpha: np.ndarray, glyph: np.ndarray, x: float, y: float, degrees: float) -> None:
    """``glyph`` turned by ``degrees`` and laid (brightest wins) on ``alpha`` with its centre at (x, y)."""
    gs = glyph.shape[0]
    m = cv2.getRotationMatrix2D((gs / 2, gs / 2), degrees, 1.0)
    m[:, 2] += (x - gs / 2, y - gs / 2)
    h, w = alpha.shape
    x0, y0 = max(0, int(x - gs)), max(0, int(y - gs))
    x1, y1 = min(w, int(x + gs) + 1), min(h, int(y + gs) + 1)
    if x1 <= x0 or y1 <= y0:
        return
    m[:, 2] -= (x0, y0)
    turned = cv2.warpAffine(glyph, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
    np.maximum(alpha[y0:y1, x0:x1], turned, out=alpha[y0:y1, x0:x1])


def _casino_print(alpha: np.ndarray, rng: np.random.Generator, value: int, at: np.ndarray, a: float, r: float,
                  rot: np.ndarray, shape: np.ndarray, face: float) -> None:
    """Print on a pip face, as casino and promotional dice carry it (chase's red and blue casino dice): on
    a "1", a ring of small letters (the casino's name) around the big pip; on a 2, 3 or 4, half the time, a
    short serial number in a space the pips leave (a 5 or 6 leaves none). Drawn into the pips' ``alpha``
    (the same ink), with the face's turn ``rot`` and foreshortening ``shape``. The face stays the pip face
    of ``value``: this teaches the face reader that letters around a pip are no numeral (twenty-fourth
    session: the polyhedral renders made it call chase's ringed "1"s numerals, which Vision II then read as
    sure "6"s). The ring clears the pip by 0.9-1.4 letters on the face's foreshortened axis."""
    height = face * rng.uniform(0.09, 0.14)
    if value == 1:
        radius = r + height * rng.uniform(0.9, 1.4) / np.linalg.svd(shape, compute_uv=False).min()   # clear
        step = height * 0.85 / radius                       # the angle one letter takes
        room = int(2 * math.pi / step) - 1
        text = str(rng.choice(CASINO_WORDS))
        while len(text) < rng.uniform(0.6, 1.0) * room:      # most of the ring, as casinos print it
            text += " " + str(rng.choice(CASINO_WORDS))
        text = text[:room]
        start = rng.uniform(0, 2 * math.pi)
        for i, ch in enumerate(text):
            if ch == " ":
                continue
            t = start + i * step
            x, y = at + shape @ (radius * np.array([math.cos(t), math.sin(t)]))
            _stamp(alpha, _glyph_alpha(ch, height), x, y, -math.degrees(t) - 90)
        return
    free = [(i, j) for i in (-1, 0, 1) for j in (-1, 0, 1)
            if min(math.hypot(i - p, j - q) for p, q in _LAYOUTS[value]) > 1.4]   # clear of every pip
    if not free or rng.random() < 0.5:
        return
    i, j = free[int(rng.integers(len(free)))]
    x, y = at + shape @ (rot @ np.array([i, j], float) * a)
    text = _printed_text(rng)[:3]
    height *= 0.7
    along = rot @ np.array([-j, i], float) if (i, j) != (0, 0) else rot @ np.array([1.0, 0.0])   # across
    turn = -math.degrees(math.atan2(along[1], along[0])) + 180 * int(rng.integers(2))
    t = math.radians(-turn)
    for k, ch in enumerate(text):
        off = (k + 0.5 - len(text) / 2) * height * 0.8
        _stamp(alpha, _glyph_alpha(ch, height), x + off * math.cos(t), y + off * math.sin(t), turn)


#: letters a logo may be (no digit: a lone digit on a face is a numeral die's)
LOGO_LETTERS = "SGBRKAWMEZ&$%@"
#: the marks ``_centre_logo`` draws
LOGO_KINDS = ("letter", "ring", "curve", "star", "diamond", "loops")


def _centre_logo(alpha: np.ndarray, rng: np.random.Generator, value: int, at: np.ndarray, a: float, r: float,
                 ang: float) -> None:
    """A maker's mark in the middle of a 2, 4 or 6, the faces with room there (chase's red and blue casino
    dice carry a white outline "S" between the two pips of their "2"): a letter, a ring, a wave, a star, a
    diamond or two loops, in the pips' ink (drawn into ``alpha``), 1-1.8 pip diameters tall on a 2 or a
    4 and narrower than the gap between a 6's columns; lines, never a filled disc, so the face stays the
    pip face of ``value`` (the face reader learns that such a mark is no middle pip). Nothing on a 1, 3 or
    5."""
    if value not in (2, 4, 6):
        return
    size = 2 * r * (rng.uniform(1.0, 1.8) if value != 6 else rng.uniform(0.7, 1.0))
    if value == 6:
        size = min(size, 0.8 * (2 * a - 2 * r))
    if size < 4:
        return
    kind = str(rng.choice(LOGO_KINDS))
    big = max(16, round(size * 4))      # drawn four times larger, then shrunk, as ``_glyph_alpha``
    patch = np.zeros((big + 8, big + 8), np.uint8)
    c = (big + 8) / 2
    thick = max(2, round(big * rng.uniform(0.1, 0.2)))
    if kind == "letter":
        glyph = _glyph_alpha(str(rng.choice(list(LOGO_LETTERS))), 1.3 * size)
    else:
        half = big / 2 - thick
        if kind == "ring":
            cv2.circle(patch, (round(c), round(c)), round(half), 255, thick, cv2.LINE_AA)
        elif kind == "curve":
            t = np.linspace(-1, 1, 40)
            pts = np.stack([c + 0.5 * half * np.sin(math.pi * t), c + half * t], axis=1)
            cv2.polylines(patch, [np.round(pts).astype(np.int32)], False, 255, thick, cv2.LINE_AA)
        elif kind == "star":
            k = np.arange(10)
            rad = np.where(k % 2 == 0, half, 0.45 * half)
            pts = np.stack([c + rad * np.sin(k * math.pi / 5), c - rad * np.cos(k * math.pi / 5)], axis=1)
            cv2.polylines(patch, [np.round(pts).astype(np.int32)], True, 255, thick, cv2.LINE_AA)
        elif kind == "diamond":
            pts = np.array([[c, c - half], [c + 0.7 * half, c], [c, c + half], [c - 0.7 * half, c]])
            cv2.polylines(patch, [np.round(pts).astype(np.int32)], True, 255, thick, cv2.LINE_AA)
        else:   # two loops, one over the other
            for dy in (-0.5, 0.5):
                cv2.circle(patch, (round(c), round(c + dy * half)), round(0.45 * half), 255, thick,
                           cv2.LINE_AA)
        small = max(4, round((big + 8) / 4))
        glyph = cv2.resize(patch, (small, small), interpolation=cv2.INTER_AREA)
    _stamp(alpha, glyph, float(at[0]), float(at[1]), -math.degrees(ang) + 90 * int(rng.integers(4)))


POLY_SEED = 20261126
"""Seed of ``poly_render``'s scenes (scene i from (POLY_SEED, i)): other dice than vision.poly's tests."""


def poly_render(index: int, size: tuple[int, int] = (512, 384)) -> Sample:
    """One tray of polyhedral dice as ``vision.poly.synth.scene`` draws them (d4 to d20 and percentile
    d10s, numeral d6s; "table" or "brands" profile at random), every die of class ``numeral``. The
    boxes are the dice's silhouettes, sides and all, like the aws labels."""
    from vision.poly import synth

    rng = np.random.default_rng([POLY_SEED, index])
    w, h = size
    profile = "brands" if rng.random() < 0.5 else "table"
    count = int(rng.integers(1, 9))
    scene = synth.scene(rng, count=count, width=w, height=h, sizes=(40, 150), profile=profile)
    return _boxed("polyrender", f"poly-{profile}-{index}", scene, lambda d: NUMERAL)


def _boxed(source: str, name: str, scene: Any, label: Callable[[Any], int]) -> Sample:
    """A ``vision.poly.synth`` scene as a training sample: each die boxed by its silhouette (sides and all,
    like the aws labels), of class ``label(die)``."""
    objs = [(bx + bw / 2, by + bh / 2, float(bw), float(bh), label(d))
            for d in scene.dice for bx, by, bw, bh in (d.bbox,)]
    return Sample(source, name, scene.image, objs)


NUMERAL_D6_SEED = 20262901
"""Seed of ``numeral_d6_render``'s trays (tray i from (NUMERAL_D6_SEED, i))."""


def numeral_d6_render(index: int, size: tuple[int, int] = (512, 384), *,
                      seed: int = NUMERAL_D6_SEED) -> Sample:
    """One tray of numeral d6s only (``numeral_d6_scene``), every die of class ``numeral``. Why (twenty-ninth
    session): the face reader called 19 of 81 rendered numeral d6s emblems (a lone big "4" most often: 9 of
    22), which are asked with no value; ``poly_render``'s trays hold about one numeral d6 in eight dice."""
    profile, scene = numeral_d6_scene(index, size, seed=seed)
    return _boxed("numeral-d6", f"numeral-d6-{profile}-{index}", scene, lambda d: NUMERAL)


def numeral_d6_scene(index: int, size: tuple[int, int] = (512, 384), *,
                     seed: int = NUMERAL_D6_SEED) -> tuple[str, Any]:
    """The profile and ``vision.poly.synth`` scene of ``numeral_d6_render``'s tray ``index`` (whose dice keep
    their values):
    numeral d6s only (``synth.scene(kind="d6")``), "table" or "brands" bodies, seen from above or up to 45
    degrees off. ``seed``: another seed's trays, drawn alike (``benchmarks/pair_confusions.py`` reads the
    tuning seed's)."""
    from vision.poly import synth

    rng = np.random.default_rng([seed, index])
    w, h = size
    profile = "brands" if rng.random() < 0.5 else "table"
    count = int(rng.integers(1, 9))
    tilt = (0.0, 45.0) if rng.random() < 0.5 else None
    return profile, synth.scene(rng, count=count, width=w, height=h, sizes=(40, 150), profile=profile,
                                kind="d6", tilt=tilt)


FAINT_SEED = 20261801
"""Seed of the ``render(faint=True)`` trays that ``train_faces.py --faint`` adds (tray i from
FAINT_SEED * 10_000 + i)."""
PIP3D_SEED = 20261701
"""Seed of ``pip3d_render``'s trays (tray i from (PIP3D_SEED, i))."""


def pip3d_render(index: int, size: tuple[int, int] = (512, 384), *, top: bool = False) -> Sample:
    """One tray of pip d6s drawn in 3D by ``vision.poly.synth.scene(pips=True)``: each die's camera 0-60
    degrees off the vertical, so the side faces' pips show foreshortened beside the top, as in an oblique
    phone photo; "table" or "brands" bodies (speckled, marbled, translucent with the far faces' pips
    showing through). Each die is of its top face's value class; the boxes are the silhouettes, sides and
    all, like the aws labels. Why: the flat renders' drawn side faces (``render(sides=True)``) did not
    teach the face reader that a die's front face is not its top (docs/vision.md, sixteenth session).

    ``top``: each die's box centred on its top face instead (its size the silhouette's), so the crop the
    reader learns from has the top at its centre and the side faces off it, as the product's top reading
    (``vision.learned.TOP_READ``) reads an oblique die (seventy-third session)."""
    from vision.poly import synth

    rng = np.random.default_rng([PIP3D_SEED, index])
    w, h = size
    profile = "brands" if rng.random() < 0.5 else "table"
    count = int(rng.integers(1, 9))
    scene = synth.scene(rng, count=count, width=w, height=h, sizes=(40, 150), profile=profile, kind="d6",
                        pips=True, tilt=(0.0, 60.0))
    sample = _boxed("pip3d", f"pip3d-{profile}-{index}", scene, lambda d: CLASSES.index(str(d.value)))
    if top:
        sample.objects = [(d.centre[0], d.centre[1], w, h, lab)
                          for d, (_x, _y, w, h, lab) in zip(scene.dice, sample.objects, strict=True)]
    return sample



REALCUBE_SEED = 20267601
"""Seed of ``realcube_render``'s trays (tray i from (REALCUBE_SEED, i))."""
#: sources whose boxes frame a die's top face seen from above, and the share of the box that is the face
#: (matteop65's boxes hold the pip pattern only; chase's crops show the sides round the top). aws is never
#: one: its boxes take in the side faces.
FACE_SOURCES = {"nell": 0.9, "matteop65": 1.2, "chase": 0.75}
FACE_TEXTURE = 64


@dataclass
class FacePool:
    """Real photographed top faces of pip d6s, square ``FACE_TEXTURE`` px, by source and value, with each
    face's body colour (the median of its border ring) to dress one die's faces alike."""
    faces: dict[tuple[str, int], list[np.ndarray]] = field(default_factory=dict)
    colours: dict[tuple[str, int], np.ndarray] = field(default_factory=dict)

    def add(self, source: str, value: int, face: np.ndarray) -> None:
        ring = np.concatenate([face[:6].reshape(-1, 3), face[-6:].reshape(-1, 3),
                               face[:, :6].reshape(-1, 3), face[:, -6:].reshape(-1, 3)])
        self.faces.setdefault((source, value), []).append(face)
        cols = self.colours.get((source, value), np.zeros((0, 3), np.float32))
        self.colours[(source, value)] = np.vstack([cols, np.median(ring, axis=0)[None].astype(np.float32)])

    def sources(self) -> list[str]:
        return sorted({s for s, v in self.faces if all((s, k) in self.faces for k in range(1, 7))})

    def nearest(self, source: str, value: int, colour: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One of the five faces of ``value`` whose body colour is nearest ``colour``."""
        d = np.linalg.norm(self.colours[(source, value)] - colour, axis=1)
        close = np.argsort(d)[:5]
        return self.faces[(source, value)][int(close[int(rng.integers(len(close)))])]


def face_pool(samples: list[Sample]) -> FacePool:
    """The top faces of the pip dice of ``samples`` from ``FACE_SOURCES`` (whatever is left out of
    ``samples`` is left out of the pool), each cut as a square of its box's long side times the source's
    share, whole inside its photo."""
    pool = FacePool()
    for s in samples:
        share = FACE_SOURCES.get(s.source)
        if share is None:
            continue
        ih, iw = s.image.shape[:2]
        for cx, cy, w, h, label in s.objects:
            if not 1 <= label <= 6:
                continue
            side = max(w, h) * share
            x0, y0 = round(cx - side / 2), round(cy - side / 2)
            x1, y1 = x0 + round(side), y0 + round(side)
            if side < 12 or x0 < 0 or y0 < 0 or x1 > iw or y1 > ih:
                continue
            pool.add(s.source, int(label), cv2.resize(s.image[y0:y1, x0:x1], (FACE_TEXTURE, FACE_TEXTURE),
                                                      interpolation=cv2.INTER_AREA))
    return pool


#: a cube's faces: (normal, the face's u axis, v axis); its corners are normal +- u +- v
_CUBE = ((np.array([0., 0., 1.]), np.array([1., 0., 0.]), np.array([0., 1., 0.])),
         (np.array([0., 1., 0.]), np.array([1., 0., 0.]), np.array([0., 0., -1.])),
         (np.array([0., -1., 0.]), np.array([-1., 0., 0.]), np.array([0., 0., -1.])),
         (np.array([1., 0., 0.]), np.array([0., -1., 0.]), np.array([0., 0., -1.])),
         (np.array([-1., 0., 0.]), np.array([0., 1., 0.]), np.array([0., 0., -1.])))


def realcube_render(index: int, pool: FacePool, size: tuple[int, int] = (512, 384)) -> Sample | None:
    """One tray of pip d6s built as cubes dressed in real photographed faces (``face_pool``), the tray seen
    0-55 degrees off the vertical and each die up to 10 more or less as it lies further up or down it (at
    most 65), as a phone held over a table sees them: the top face of value v, the four round it of the
    other values but 7 - v, each a real face of one source and of the nearest body colour, shaded by one
    lamp, with a soft shadow, on a drawn tray (``_texture``). Each die is boxed by its silhouette, sides
    and all (like the aws labels), of its top's class. Why (seventy-sixth session): the 3D renders' side
    faces are drawn; the pips and bodies a reader meets beside an oblique top are real ones here. None
    when the pool lacks a value."""
    from vision.poly import synth

    sources = pool.sources()
    if not sources:
        return None
    rng = np.random.default_rng([REALCUBE_SEED, index])
    w, h = size
    img = _texture(rng, h, w, natural=True).astype(np.float32)
    img *= rng.uniform(0.6, 1.2)
    tilt = math.radians(rng.uniform(0.0, 55.0))
    light = np.array([rng.uniform(-0.7, 0.7), rng.uniform(-0.7, 0.7), 1.0])
    light /= np.linalg.norm(light)
    shadow_dir = -light[:2] / max(1e-3, light[2])
    taken: list[tuple[float, float, float]] = []
    objects: list[tuple[float, float, float, float, int]] = []
    for _ in range(int(rng.integers(1, 9))):
        half = float(np.exp(rng.uniform(math.log(9), math.log(40))))
        for _try in range(20):
            cx, cy = rng.uniform(half * 2, w - half * 2), rng.uniform(half * 2, h - half * 2)
            if all(abs(cx - x) > (half + r) * 1.5 or abs(cy - y) > (half + r) * 1.5 for x, y, r in taken):
                break
        else:
            continue
        far = (0.5 - cy / h) * math.radians(20)
        lean = float(np.clip(tilt + far + rng.normal(0, 0.08), 0.0, math.radians(65)))
        rot = synth._rot(0, lean) @ synth._rot(2, rng.uniform(0, 2 * math.pi))
        source = sources[int(rng.integers(len(sources)))]
        value = int(rng.integers(1, 7))
        pick = int(rng.integers(len(pool.faces[(source, value)])))
        top, colour = pool.faces[(source, value)][pick], pool.colours[(source, value)][pick]
        ring = [k for k in range(1, 7) if k not in (value, 7 - value)]
        ring = [ring[i] for i in rng.permutation(4)]
        faces = [top] + [pool.nearest(source, k, colour, rng) for k in ring]
        silhouette: list[np.ndarray] = []
        die = np.zeros_like(img)
        alpha = np.zeros((h, w), np.float32)
        for (normal, u, v), face in zip(_CUBE, faces, strict=True):
            n = rot @ normal
            if n[2] <= 0.05:
                continue
            corners = [normal - u - v, normal + u - v, normal + u + v, normal - u + v]
            quad = np.array([[cx + half * (rot @ c)[0], cy + half * (rot @ c)[1]] for c in corners],
                            np.float32)
            silhouette.append(quad)
            tex = np.rot90(face, int(rng.integers(4))).astype(np.float32)
            shade = 0.45 + 0.6 * max(0.0, float(n @ light))
            src = np.array([[0, 0], [FACE_TEXTURE, 0], [FACE_TEXTURE, FACE_TEXTURE], [0, FACE_TEXTURE]],
                           np.float32)
            m = cv2.getPerspectiveTransform(src, quad)
            warped = cv2.warpPerspective(np.ascontiguousarray(tex) * shade, m, (w, h), flags=cv2.INTER_LINEAR)
            mask = cv2.warpPerspective(np.ones((FACE_TEXTURE, FACE_TEXTURE), np.float32), m, (w, h))
            die = die * (1 - mask[..., None]) + warped * mask[..., None]
            alpha = np.maximum(alpha, mask)
        hull = cv2.convexHull(np.vstack(silhouette).astype(np.float32))
        shadow = np.zeros((h, w), np.float32)
        cv2.fillConvexPoly(shadow, (hull + shadow_dir * half * rng.uniform(0.3, 1.0)).astype(np.int32), 1.0)
        k = int(half * 0.6) * 2 + 1
        shadow = cv2.GaussianBlur(shadow, (k, k), 0) * rng.uniform(0.2, 0.6)
        img *= (1 - shadow)[..., None]
        alpha = cv2.GaussianBlur(alpha, (3, 3), 0)
        img = img * (1 - alpha[..., None]) + die * alpha[..., None]
        bx, by, bw, bh = cv2.boundingRect(hull.astype(np.int32))
        objects.append((bx + bw / 2, by + bh / 2, float(bw), float(bh), value))
        taken.append((cx, cy, half))
    if rng.random() < 0.5:
        img += rng.normal(0, rng.uniform(1, 6), img.shape)
    return Sample("realcube", f"realcube-{index}", np.clip(img, 0, 255).astype(np.uint8), objects)


if __name__ == "__main__":
    import time
    if sys.argv[1:] == ["--lurig-boxes"]:
        boxes = lurig_boxes()
        LURIG_BOXES.write_text("{\n" + ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in
                                                 sorted(boxes.items())) + "\n}\n")
        print(len(boxes), "photos,", sum(b is None for b in boxes.values()), "left unboxed")
        sys.exit()
    t = time.time()
    for name in ():
        ss = load_source(name)
        print(name, len(ss), sum(len(s.objects) for s in ss), f"{time.time() - t:.1f}s")
    grid = [cv2.resize(render(i).image, (256, 192)) for i in range(8)]
    for i in range(8):
        r = render(i)
        for cx, cy, bw, bh, lab in r.objects:
            cv2.rectangle(r.image, (int(cx - bw / 2), int(cy - bh / 2)), (int(cx + bw / 2), int(cy + bh / 2)),
                          (0, 0, 255), 1)
            cv2.putText(r.image, str(lab), (int(cx), int(cy)), 0, 0.5, (0, 255, 0), 1)
        grid[i] = cv2.resize(r.image, (384, 288))
    cv2.imwrite("/tmp/renders.png", np.vstack([np.hstack(grid[:4]), np.hstack(grid[4:])]))
