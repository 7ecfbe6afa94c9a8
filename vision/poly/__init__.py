"""Polyhedral dice: which die a crop shows (d4, d6, d8, d10, d12, d20) and the numeral on its top face.

Images are BGR uint8 arrays of shape (H, W, 3) and are never modified. The classifier is a small CNN
(``poly.onnx`` beside this file, run with OpenCV's ``cv2.dnn``) trained only on synthetic renders of the
solids' real geometry by ``tools/train_poly.py``; ``poly.md`` says how the shipped file was made.

One network scores 70 joint classes (kind, value): a barrel or tetrahedral d4 (read at the top vertex)
1-4, numeral d6 1-6, d8 1-8, d10 1-10 (its "0" face means 10), percentile d10 00-90, d12 1-12, d20 1-20.
The die type's confidence is the summed probability of its classes, the value's confidence the winner's
share of them. A reading below ``CONFIDENT`` is returned as it is, for the page to ask the players.

``read_polyhedral`` weighs the network's probabilities with two more readers (``fuse``): the die's
outline (``vision.poly.silhouette``, a barrel d4 against a d10) sets the type with it, then the numeral
at the centre of the top face (``vision.poly.numeral``, read at any spin) picks the value among that
type's numerals, with a per-type weight fitted on renders (``NUMERAL_WEIGHT``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import Final

import cv2
import numpy as np

from vision.finder import CROP_ENGINE, _forget_net
from vision.finder import _net as _finder_net
from vision.poly.numeral import NumeralReading, read_numeral_and_die
from vision.poly.silhouette import side_weights, silhouette

__all__ = ["CLASSES", "CONFIDENT", "DISAGREE", "INPUT", "NUMERAL_WEIGHT", "PolyReading", "fuse", "locate_die",
           "prepare", "read_polyhedral"]

INPUT: Final = 64
"""Side of each of the two input channels: the whole die, and its centre (the top face) enlarged."""
CENTRE: Final = 0.5
"""Fraction of the die's square box that the second channel shows."""
MARGIN: Final = 1.08
NUMERAL_WEIGHT: Final[Mapping[int, tuple[float, float]]] = MappingProxyType({
    4: (8.0, 0.2), 6: (1.0, 0.03), 8: (8.0, 0.1), 10: (1.0, 0.2), 12: (1.0, 0.2), 20: (1.0, 0.1)})
"""Per die type (sides): ``(power, floor)`` of the numeral reader's vote, ``score ** power + floor``.
Fitted on renders only (``python3 benchmarks/poly_eval.py --fit-fusion``: seeds 515151 at 128 px and
616161 at 192 px, 1000 each): per type, the best log-likelihood of the true value among the settings
that mark no wrong reading sure. A high power keeps only the numeral's clear readings; a high floor
(the d4: three numerals round a tetrahedron's top vertex) leaves the network more say."""
ONE_TURN: Final = 0.95
"""A die whose unturned look the network reads as one class at this or more is not turned three more times
(``network_probabilities``), as the type reader's ``vision.types.ONE_TURN`` and the face reader's
``NUMERAL_ONE_TURN`` (0.95): the three turns were 4 of a polyhedral die's 15 ms. Taken from the face reader's
bar, then checked (fifty-fourth session, docs/vision-poly.md): 0.95 reads every set as four turns did
(burks 86, the 103 and the 261 hand-valued Lurig photos, renders 515151 and frames 919191: the same dice right
and the same wrong and sure; frames 919191 one more die sure, and right); 0.99, read beside it on the 103 and
the 919191 frames, the same, for less time saved."""
CONFIDENT: Final = 0.8
"""Readings whose type or value confidence is below this should be confirmed by the players."""
DISAGREE: Final = 0.6
"""Value confidence cap when the fused value is not the network's own first choice for that type: the
numeral reader overruled the network, so the players confirm it (a long-flagged "1" that the numeral
reader takes for a sure "7" must not become a sure 7)."""

KIND_SIDES: Final = {"d4": 4, "d6": 6, "d8": 8, "d10": 10, "d100": 10, "d12": 12, "d20": 20}


def _classes() -> tuple[tuple[str, int], ...]:
    out: list[tuple[str, int]] = []
    for kind in ("d4", "d6", "d8", "d10", "d100", "d12", "d20"):
        if kind == "d100":
            out += [(kind, v) for v in range(0, 100, 10)]
        else:
            out += [(kind, v) for v in range(1, KIND_SIDES[kind] + 1)]
    return tuple(out)


CLASSES: Final = _classes()
"""The network's classes in output order: (kind, value); d10 value 10 is the face printed "0"."""
MODEL_PATH: Final = Path(__file__).with_name("poly.onnx")


@dataclass(frozen=True)
class PolyReading:
    """What ``read_polyhedral`` saw: the die's sides and its top value, each with a confidence 0..1.

    ``percentile`` marks a percentile d10, whose ``value`` is 0, 10, ..., 90 (the face "00" is 0).
    """

    sides: int
    sides_confidence: float
    value: int
    value_confidence: float
    percentile: bool = False

    @property
    def confidence(self) -> float:
        """Both right: the product of the two confidences."""
        return self.sides_confidence * self.value_confidence

    @property
    def sure(self) -> bool:
        return self.sides_confidence >= CONFIDENT and self.value_confidence >= CONFIDENT

    def to_json(self) -> dict[str, object]:
        return {"sides": self.sides, "sides_confidence": round(self.sides_confidence, 4),
                "value": self.value, "value_confidence": round(self.value_confidence, 4),
                "percentile": self.percentile}

    def __repr__(self) -> str:
        kind = "d%" if self.percentile else f"d{self.sides}"
        return (f"<PolyReading {kind}={self.value} sides {self.sides_confidence:.2f} "
                f"value {self.value_confidence:.2f}>")


def _check_image(image: np.ndarray, name: str) -> None:
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        shape = getattr(image, "shape", None)
        dtype = getattr(image, "dtype", None)
        raise ValueError(f"{name} must be a BGR uint8 array of shape (H, W, 3), not {type(image).__name__} "
                         f"shape {shape} dtype {dtype}")
    if image.shape[0] < 1 or image.shape[1] < 1:
        raise ValueError(f"{name} is {image.shape[1]}x{image.shape[0]} pixels; it is empty")


def prepare(crop_bgr: np.ndarray, *, mask: np.ndarray | None = None) -> np.ndarray:
    """The network input for one die crop: float32 (2, INPUT, INPUT), each channel zero mean, unit std.

    Parameters
    ----------
    crop_bgr : (H, W, 3) uint8
        The die, roughly centred; the crop's box is taken as the die's box unless ``mask`` is given.
    mask : (H, W) array, optional
        Nonzero on the die: its bounding box then places the die.
    """
    _check_image(crop_bgr, "crop_bgr")
    h, w = crop_bgr.shape[:2]
    if mask is not None:
        mask = np.asarray(mask)
        if mask.shape[:2] != (h, w):
            raise ValueError(f"mask must have the crop's shape {(h, w)}, not {mask.shape}")
        ys, xs = np.nonzero(mask)
        if len(xs) == 0:
            raise ValueError("mask is empty: no die pixel in it")
        x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
    else:
        x0, x1, y0, y1 = 0, w, 0, h
    gray = cv2.cvtColor(crop_bgr, cv2.COLOR_BGR2GRAY)
    # outside the crop: the crop's own border colour (a die touching the edge is not smeared outward)
    ring = np.concatenate([gray[0], gray[-1], gray[:, 0], gray[:, -1]])
    fill = float(np.median(ring))
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    side = max(x1 - x0, y1 - y0) * MARGIN
    chans = []
    for frac in (1.0, CENTRE):
        s = side * frac
        scale = INPUT / s
        m = np.array([[scale, 0, INPUT / 2 - cx * scale], [0, scale, INPUT / 2 - cy * scale]], np.float32)
        interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
        if scale < 0.5:   # warpAffine does not average: shrink first
            f = max(1, int(1 / scale / 1.5))
            small = cv2.resize(gray, (max(1, w // f), max(1, h // f)), interpolation=cv2.INTER_AREA)
            m2 = m.copy()
            m2[:, :2] *= gray.shape[1] / small.shape[1]
            out = cv2.warpAffine(small, m2, (INPUT, INPUT), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=fill)
        else:
            out = cv2.warpAffine(gray, m, (INPUT, INPUT), flags=interp, borderMode=cv2.BORDER_CONSTANT,
                                 borderValue=fill)
        o = out.astype(np.float32)
        chans.append((o - o.mean()) / (o.std() + 8.0))
    return np.stack(chans)


def _net() -> cv2.dnn.Net:
    """The network in ``MODEL_PATH``, loaded once per thread as ``vision.finder._net`` keeps every network: a
    ``cv2.dnn`` net holds its input and buffers, so one net run from two threads at once breaks (the camera's
    reader and a finder fit measuring photos in the background both read polyhedral dice)."""
    if not MODEL_PATH.exists():
        raise FileNotFoundError(f"the polyhedral dice model {MODEL_PATH} is missing; run tools/train_poly.py")
    net: cv2.dnn.Net = _finder_net(str(MODEL_PATH), engine=CROP_ENGINE)
    return net


def _forget_nets() -> None:
    """Load ``MODEL_PATH`` again on this thread's next read: its file was written anew."""
    _forget_net(str(MODEL_PATH))


def class_probabilities(inputs: np.ndarray) -> np.ndarray:
    """Softmax over ``CLASSES`` for a batch of prepared inputs (N, 2, INPUT, INPUT) -> (N, len(CLASSES))."""
    net = _net()
    net.setInput(np.ascontiguousarray(inputs, dtype=np.float32))
    logits = np.asarray(net.forward(), dtype=np.float64).reshape(len(inputs), -1)
    logits -= logits.max(axis=1, keepdims=True)
    p: np.ndarray = np.exp(logits)
    out: np.ndarray = p / p.sum(axis=1, keepdims=True)
    return out


def network_probabilities(x: np.ndarray) -> np.ndarray:
    """The network's class probabilities (len(CLASSES),) for one prepared input (2, INPUT, INPUT): its
    first look when that reads a class at ``ONE_TURN`` or more, else the mean of its four quarter turns (the
    network is trained for any spin; averaging the turns steadies it)."""
    x = np.asarray(x, np.float32)[None]
    p: np.ndarray = class_probabilities(x)[0]
    if p.max() >= ONE_TURN:
        return p
    turned = class_probabilities(np.concatenate([np.rot90(x, k, axes=(2, 3)) for k in (1, 2, 3)]))
    out: np.ndarray = (p + turned.sum(axis=0)) / 4
    return out


def reading_from_probabilities(p: np.ndarray) -> PolyReading:
    """The reading that one row of class probabilities supports (see the module docstring)."""
    by_sides: dict[int, float] = {}
    for (kind, _), q in zip(CLASSES, p, strict=True):
        by_sides[KIND_SIDES[kind]] = by_sides.get(KIND_SIDES[kind], 0.0) + float(q)
    sides = max(by_sides, key=lambda s: by_sides[s])
    best = max((i for i, (k, _) in enumerate(CLASSES) if KIND_SIDES[k] == sides), key=lambda i: p[i])
    kind, value = CLASSES[best]
    return PolyReading(sides, by_sides[sides], value, float(p[best]) / by_sides[sides], kind == "d100")


def class_text(kind: str, value: int) -> str:
    """The numeral a class shows on the die: a d10's 10 is printed "0", a percentile's 0 is "00"."""
    if kind == "d100":
        return f"{value:02d}"
    if kind == "d10" and value == 10:
        return "0"
    return str(value)


CLASS_TEXTS: Final = tuple(class_text(k, v) for k, v in CLASSES)


def fuse(p: np.ndarray, weights: Mapping[int, float], numeral: NumeralReading | None, *,
         numeral_weight: Mapping[int, tuple[float, float]] = NUMERAL_WEIGHT) -> np.ndarray:
    """Joint class scores (len(CLASSES),) from the network's probabilities ``p``, the outline's weight
    per die type and the numeral reader's scores, normalised to sum 1.

    Two steps. The type: the network's probability of each type (its classes summed) times the
    outline's weight; the numeral does not vote here (a d20's "3" is a d8's "3" too). The value, among
    the classes of the winning type only: the network's share of that type times
    ``numeral score ** power + floor``, with the type's ``(power, floor)`` from ``numeral_weight``
    (the numeral reader's best score at any spin; a numeral it cannot read, score 0, still leaves
    the class a chance). The other types' classes keep their first-step scores, so the type's
    confidence is the first step's.
    """
    sides_of = np.array([KIND_SIDES[k] for k, _ in CLASSES])
    q: np.ndarray = np.asarray(p, np.float64) * np.array([weights.get(int(s), 1.0) for s in sides_of])
    q = q / max(float(q.sum()), 1e-12)
    if numeral is None or not numeral.digits:
        return q
    by_sides = {int(s): float(q[sides_of == s].sum()) for s in np.unique(sides_of)}
    sides = max(by_sides, key=lambda k: by_sides[k])
    power, floor = numeral_weight[sides]
    own = sides_of == sides
    s = np.array([numeral.scores.get(t, 0.0) for t in CLASS_TEXTS])
    v = q[own] * (s[own] ** power + floor)
    q[own] = v / max(float(v.sum()), 1e-12) * by_sides[sides]
    return q


def read_polyhedral(crop_bgr: np.ndarray, *, mask: np.ndarray | None = None,
                    sides: int | None = None, percentile: bool = True) -> PolyReading:
    """Type and top value of the one die in ``crop_bgr`` (BGR uint8 (H, W, 3), the die roughly filling it).

    ``mask`` (H, W), nonzero on the die, places it more exactly when the crop has a wide margin.
    ``sides``: the die's type when another reader knows it (``vision.types``, Vision IV): the value is then
    read among that type's faces only, and ``sides_confidence`` is 1 (the caller keeps its own).
    ``percentile=False``: no percentile d10 is on the table (none of the five games rolls one), so a
    10-sided die is read among the plain d10's faces; the percentile faces' share still counts against
    the value's confidence, so the reading is never surer than with them.
    Low-confidence readings are returned as they are: check ``reading.sure``.

    Three readers vote (``fuse``): the network over the whole crop, the die's outline
    (``vision.poly.silhouette``: rules a barrel d4 in or out against a d10) and the numeral at the
    centre (``vision.poly.numeral``).
    """
    p = network_probabilities(prepare(crop_bgr, mask=mask))
    numeral, die = read_numeral_and_die(crop_bgr, mask=mask)
    if sides is None:
        weights = side_weights(silhouette(die))
    elif sides in set(KIND_SIDES.values()):
        weights = {int(k): (1.0 if k == sides else 1e-9) for k in set(KIND_SIDES.values())}
    else:
        raise ValueError(f"sides must be one of {sorted(set(KIND_SIDES.values()))}, not {sides!r}")
    fused = fuse(p, weights, numeral)
    reading = reading_from_probabilities(fused)
    own = [i for i, (k, _) in enumerate(CLASSES) if KIND_SIDES[k] == reading.sides]
    if not percentile and reading.sides == KIND_SIDES["d10"]:
        own = [i for i in own if CLASSES[i][0] == "d10"]
        best = max(own, key=lambda i: fused[i])
        reading = replace(reading, value=CLASSES[best][1], percentile=False,
                          value_confidence=float(fused[best]) / max(reading.sides_confidence, 1e-12))
    net_kind, net_value = CLASSES[max(own, key=lambda i: p[i])]
    if (net_value, net_kind == "d100") != (reading.value, reading.percentile):
        return replace(reading, value_confidence=min(reading.value_confidence, DISAGREE))
    return reading


def locate_die(image: np.ndarray, *, min_area: float = 0.0005) -> tuple[int, int, int, int] | None:
    """Bounding box (x, y, w, h) of the largest bright or colourful blob that does not touch the
    image border, on a dark tray; None when there is none of at least ``min_area`` of the image.

    Meant for single-die photos (the benchmark); ``vision.read_table`` finds dice in table frames.
    """
    _check_image(image, "image")
    h, w = image.shape[:2]
    f = max(1, int(max(h, w) / 600))
    small = cv2.resize(image, (w // f, h // f), interpolation=cv2.INTER_AREA) if f > 1 else image
    hsv = cv2.cvtColor(cv2.GaussianBlur(small, (5, 5), 0), cv2.COLOR_BGR2HSV)
    sat, val = hsv[..., 1].astype(np.int32), hsv[..., 2].astype(np.int32)
    raw = ((val > 90) & ((sat > 80) | (val > 170))).astype(np.uint8)
    closed = cv2.morphologyEx(raw, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    fg = cv2.morphologyEx(closed, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(fg)
    sh, sw = fg.shape
    best = None
    for i in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        if x == 0 or y == 0 or x + bw >= sw or y + bh >= sh or area < min_area * sw * sh:
            continue
        if best is None or area > best[4]:
            best = (x, y, bw, bh, area)
    if best is None:
        return None
    x, y, bw, bh, _ = best
    return (x * f, y * f, bw * f, bh * f)


def load_json(path: str | Path) -> object:
    return json.loads(Path(path).read_text())
