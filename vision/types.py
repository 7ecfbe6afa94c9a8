"""The learned die-type reader (Vision IV): which polyhedral die an object the finder found is.

A small CNN (``models/types.onnx``, trained by ``tools/train_types.py`` on real photos of many brands and on
renders, run by ``cv2.dnn``) reads a ``CROP`` x ``CROP`` square around the object, ``CROP_SCALE`` times the
found box's long side, at four quarter turns of the crop and four of its mirror image whose logits are
averaged (``dihedral_outputs``; once, when the first look is sure: ``ONE_TURN``), and gives the probabilities
of ``TYPES``. The type is read from the die's outline and face
shapes, which the whole crop shows; the value is then read by ``vision.poly`` among that type's faces only.

Probabilities are the softmax of the logits divided by the temperature in the model card, fitted on photos
of the training sources kept aside. A reader whose card lists a seventh class, ``NONE`` (``classes``; trained
with ``tools/train_types.py --none``), also says how likely the object is no die at all (a printed label, a
key, a coin): the types' probabilities are then their share of the whole, and ``no_die`` is the rest.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from companion.dicesizes import DIE_SIDES
from vision.faces import _softmax, crop
from vision.finder import Found, model_card, turned_outputs

TYPES = ("d4", "d6", "d8", "d10", "d12", "d20")
#: the class after ``TYPES`` of a reader trained to say that an object is no die
NONE = "none"
SIDES = DIE_SIDES
CROP = 64
CROP_SCALE = 1.6
#: crops per forward pass (bounds the memory of one call)
BATCH = 64
#: a crop whose type the first look (no turn) reads at this or more is not turned: the three more turns
#: were a fifth of a polyhedral die's time. One unturned look is surer than four averaged (the temperature
#: was fitted on four), so the bar is high: 0.95, the face reader's ``NUMERAL_ONE_TURN``, typed one wooden
#: table's die fewer with one more sure mistake; 0.99, tried second, read every set as before
#: (docs/vision-poly.md, thirtieth session)
ONE_TURN = 0.99


@cache
def temperature(model: str = "types") -> float:
    return float(model_card(model).get("temperature", 1.0))


def classes(model: str = "types") -> tuple[str, ...]:
    """What the reader's outputs are, in order (its card's ``classes``): ``TYPES``, then ``NONE`` or not."""
    got = tuple(model_card(model).get("classes", TYPES))
    if got not in (TYPES, (*TYPES, NONE)):
        raise ValueError(f"type reader {model!r}: classes {list(got)} are neither {list(TYPES)} nor those "
                         f"and {NONE!r}")
    return got


def no_die(p_types: np.ndarray) -> np.ndarray:
    """How likely each object read by ``read_type_crops`` (rows of ``p_types``) is no die: what the types'
    probabilities leave (0 for a reader without ``NONE``)."""
    rest: np.ndarray = np.clip(1.0 - np.asarray(p_types, np.float64).sum(axis=-1), 0.0, 1.0)
    return rest


def dihedral_outputs(crops: list[np.ndarray], model: str = "types", *, known: np.ndarray | None = None
                     ) -> np.ndarray:
    """The mean raw output (N, K) of the type reader over the four quarter turns of each crop and the four of
    its mirror image. A die's outline and face shapes are its type's whatever side it is seen from, so the
    mirror is as good a look as a turn (thirty-second session: held out, every fold typed at least as well
    as with the four turns alone, the wood fold 96.6 -> 96.96%, its one sure mistake gone;
    docs/vision-poly.md).
    ``known``: the output of the crops as they are (no turn), when the caller has it."""
    turned = turned_outputs(crops, model, turns=4, batch=BATCH, known=known)
    mirrored = turned_outputs([np.ascontiguousarray(c[:, ::-1]) for c in crops], model, turns=4, batch=BATCH)
    out: np.ndarray = (turned + mirrored) / 2
    return out


def read_type_crops(crops: list[np.ndarray], *, model: str = "types", turns: int = 4) -> np.ndarray:
    """(N, len(TYPES)) probabilities of ``CROP`` x ``CROP`` BGR crops: the eight looks of
    ``dihedral_outputs`` averaged (``turns=1``: the crop as it is only), but for the crops whose first look
    reads a class at ``ONE_TURN`` or more, which keep that look. With a ``NONE`` class the rows sum to one
    less the probability that the object is no die (``no_die``)."""
    if turns not in (1, 4):
        raise ValueError(f"turns must be 1 or 4, not {turns}")
    if not crops:
        return np.zeros((0, len(TYPES)))
    first = turned_outputs(crops, model, turns=1, batch=BATCH)
    p = _probabilities(first, model)
    if turns > 1:
        unsure = np.flatnonzero(p.max(axis=1) < ONE_TURN)
        if len(unsure):
            logits = dihedral_outputs([crops[i] for i in unsure], model, known=first[unsure])
            p[unsure] = _probabilities(logits, model)
    return p[:, :len(TYPES)]


def _probabilities(logits: np.ndarray, model: str) -> np.ndarray:
    """Softmax of raw outputs (N, K) over the model's temperature; K must be its card's ``classes``."""
    logits = np.asarray(logits, np.float64)
    if logits.shape[-1] != len(classes(model)):
        raise ValueError(f"type reader {model!r} gives {logits.shape[-1]} outputs, its card names "
                         f"{len(classes(model))} classes")
    return _softmax(logits / temperature(model))


def read_types(frame: np.ndarray, found: list[Found], *, model: str = "types") -> np.ndarray:
    """(len(found), len(TYPES)) type probabilities of the found objects of ``frame`` (BGR uint8 (H, W, 3))."""
    return read_type_crops([crop(frame, f, scale=CROP_SCALE, size=CROP) for f in found], model=model)
