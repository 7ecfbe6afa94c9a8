"""The learned face reader (Vision III): what lies on each object the finder found.

A small CNN (``models/faces.onnx``, trained by ``tools/train_faces.py``, run by ``cv2.dnn``) reads a
``CROP`` x ``CROP`` square around each object, at four quarter turns whose logits are averaged, and gives
the probabilities of ``CLASSES``:

- ``"none"``: not a die (tray texture, print, half a die at the edge of the crop);
- ``"1"`` .. ``"6"``: the top face of a pip d6;
- ``"emblem"``: a printed face (a maker's logo in place of the 6): never read without teaching;
- ``"numeral"``: a die with numerals (d4 .. d20), read by ``vision.poly``;
- ``"token"``: a round token, read by the table's teach mode.

It also gives a 64-d unit embedding of the crop, for teach mode (nearest taught face). Probabilities
are the softmax of the logits divided by the temperature in the model card, fitted on photos of the
training sources kept aside (never on a source the model is measured on).

Images are BGR uint8 arrays of shape (H, W, 3); they are never modified.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from vision.finder import Found, model_card, turned_outputs

CLASSES = ("none", "1", "2", "3", "4", "5", "6", "emblem", "numeral", "token")
#: the reader's input: a CROP x CROP square around the object, CROP_SCALE times the found box's long side
CROP = 40
CROP_SCALE = 1.25
EMBEDDING = 64
#: crops per forward pass (bounds the memory of one call)
BATCH = 256


@dataclass(frozen=True, slots=True)
class FaceReading:
    """The face reader's view of one object: class probabilities (``CLASSES`` order) and embedding."""

    probabilities: np.ndarray   # (10,) float, sums to 1
    embedding: np.ndarray       # (64,) float, unit length

    @property
    def label(self) -> str:
        return CLASSES[int(np.argmax(self.probabilities))]

    @property
    def confidence(self) -> float:
        return float(np.max(self.probabilities))

    def p(self, label: str) -> float:
        return float(self.probabilities[CLASSES.index(label)])


@cache
def temperature(model: str = "faces") -> float:
    return float(model_card(model).get("temperature", 1.0))


def taught_cosine(model: str = "faces", default: float = 0.8) -> float:
    """The cosine at which an embedding of ``model`` is read as a taught face or token: the card's
    ``taught_cosine`` (fitted by ``tools/faces_cards.py``: objects of different classes on real photos come
    that near each other once in a hundred pairs), else ``default``. Each trained reader has its own
    embedding, so one number cannot serve them all."""
    return float(model_card(model).get("taught_cosine", default))


def crop(frame: np.ndarray, f: Found, *, scale: float = CROP_SCALE, size: int = CROP) -> np.ndarray:
    """The ``size`` x ``size`` square centred on ``f``, ``scale`` times its long side (edges replicated)."""
    side = max(2.0, scale * f.side)
    k = size / side
    m = np.array([[k, 0, size / 2 - f.cx * k], [0, k, size / 2 - f.cy * k]], np.float32)
    interp = cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR
    out: np.ndarray = cv2.warpAffine(frame, m, (size, size), flags=interp, borderMode=cv2.BORDER_REPLICATE)
    return out


def read_crops(crops: list[np.ndarray], *, model: str = "faces", turns: int = 4) -> list[FaceReading]:
    """Face readings of ``CROP`` x ``CROP`` BGR crops (quarter turns averaged)."""
    if not crops:
        return []
    n = len(CLASSES)
    out = turned_outputs(crops, model, turns=turns, batch=BATCH)
    logits, emb = out[:, :n] / temperature(model), out[:, n:]
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    emb /= np.linalg.norm(emb, axis=1, keepdims=True) + 1e-9
    return [FaceReading(p[i], emb[i]) for i in range(len(crops))]


def read_faces(frame: np.ndarray, found: list[Found], *, model: str = "faces", turns: int = 4,
               screen: float | None = None) -> list[FaceReading]:
    """One ``FaceReading`` per found object of ``frame`` (BGR uint8 (H, W, 3)), in the same order.

    ``screen``: read every crop once first, and at ``turns`` quarter turns only those whose ``none``
    probability is under ``screen`` (the others keep their one-turn reading): a frame of carpet or mesh
    with a hundred candidates costs a hundred crops, not four hundred.
    """
    crops = [crop(frame, f) for f in found]
    if screen is None or turns == 1:
        return read_crops(crops, model=model, turns=turns)
    first = read_crops(crops, model=model, turns=1)
    keep = [i for i, r in enumerate(first) if r.p("none") < screen]
    again = read_crops([crops[i] for i in keep], model=model, turns=turns)
    out = list(first)
    for i, r in zip(keep, again, strict=True):
        out[i] = r
    return out
