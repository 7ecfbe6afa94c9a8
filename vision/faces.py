"""The learned face reader (Vision III): what lies on each object the finder found.

A small CNN (``models/faces.onnx``, trained by ``tools/train_faces.py``, run by ``cv2.dnn``) reads a
``CROP`` x ``CROP`` square around each object (or the side its card names, ``crop_side``), at four quarter
turns whose logits are averaged, and gives the probabilities of ``CLASSES``:

- ``"none"``: not a die (tray texture, print, half a die at the edge of the crop);
- ``"1"`` .. ``"6"``: the top face of a pip d6;
- ``"emblem"``: a printed face (a maker's logo in place of the 6): never read without teaching;
- ``"numeral"``: a die with numerals (d4 .. d20), read by ``vision.poly``;
- ``"token"``: a round token, read by the table's teach mode.

It also gives a 64-d unit embedding of the crop, for teach mode (nearest taught face). Probabilities
are the softmax of the logits divided by the temperature in the model card, fitted on photos of the
training sources kept aside (never on a source the model is measured on).

A card may name other readers under ``"ensemble"`` (ONNX files beside it, each with its own card): the
probabilities are then the softmax of the mean of every reader's logits, each divided by its own
temperature (``members``); each reads its own side's square, as it was trained. The embedding stays the
first reader's: teach mode's ``taught_cosine`` was fitted for it.

Images are BGR uint8 arrays of shape (H, W, 3); they are never modified.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache, lru_cache

import cv2
import numpy as np

from vision.finder import Found, model_card, model_path, turned_outputs

CLASSES = ("none", "1", "2", "3", "4", "5", "6", "emblem", "numeral", "token")
#: the pip values' places in ``CLASSES``
PIPS = slice(1, 7)
#: the reader's input: a CROP x CROP square around the object, CROP_SCALE times the found box's long side
CROP = 40
CROP_SCALE = 1.25
EMBEDDING = 64
#: crops per forward pass (bounds the memory of one call)
BATCH = 256
#: crops of one call that the other readers of an ensemble read, the first reader's least sure first; the
#: rest keep the first reader's reading alone. Bounds a crowded frame: 150 objects read by two readers took
#: the nested worst frame from 815 to 986 ms (docs/vision.md, twentieth session)
MAX_ENSEMBLE = 48
#: a crop the first reader calls "numeral" at this or more is read by it alone: Vision II's type and numeral
#: readers say what it is, and the siblings' four turns each were a quarter of a polyhedral die's time
NUMERAL_ALONE = 0.8
#: a crop the screen's one look calls "numeral" at this or more is not turned (``read_faces``): Vision II's
#: type and numeral readers, at four turns each, say what it is, and the face reader's three more turns were
#: 13% of a polyhedral die's time (docs/vision-poly.md, twenty-seventh session; 0.8 cost aws and nell three
#: pip dice read right, 0.95 one)
NUMERAL_ONE_TURN = 0.95
#: nor is a crop whose one look reads one pip value at this or more: its reading stays that look, by the first
#: reader alone (one network pass instead of eight), and the pip counter still checks it when it is sure. The
#: eight passes were a quarter of a one-die 640x480 frame's time. 0.95: ``NUMERAL_ONE_TURN``'s bar and
#: ``vision.poly.ONE_TURN``'s, chosen before measuring; measured after on the four sets left out
#: (fifty-fifth session, docs/vision.md): the same dice found and read right and the same sure mistakes on
#: each, one phantom more on nell (a real die its labels left out, asked); the 640x480 frame 34.0 -> 26.9
#: ms (turn about)
PIP_ONE_TURN = 0.95
#: with a ``stop`` (a frame's time budget, ``vision.learned.FRAME_SECONDS``), crops are read this many at a
#: time and ``stop`` is asked before each step: 16 crops are 48 to 64 crops through a network, 40-60 ms of one
#: core, the most a frame can overrun its budget here (cv2.dnn reads a crop the same, bit for bit, in a batch
#: of any size, so the steps change no reading)
STEP = 16
#: a box taller than this share of its frame is never moved to a die's top (``moved_up``): a die that fills
#: its frame was framed at its top (chase's crops)
FILLS_FRAME = 0.6


@dataclass(frozen=True, slots=True)
class FaceReading:
    """The face reader's view of one object: class probabilities (``CLASSES`` order) and embedding."""

    probabilities: np.ndarray   # (10,) float, sums to 1
    embedding: np.ndarray       # (64,) float, unit length
    #: read as asked (every quarter turn, every reader); False for a screen reading that ``read_faces``'s
    #: ``most`` left at one turn: the caller must not call it sure
    whole: bool = True
    #: False when the frame's time ran out before the reader looked at the object at all (``read_faces``'s
    #: ``screen_stop``): its probabilities are even and its embedding zero, no evidence of anything
    seen: bool = True

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


def sure_from(model: str = "faces", default: float = 0.8) -> float:
    """The confidence from which the dice read with ``model`` as face reader are right 99.5% of the time:
    the card's ``sure_from`` (fitted by ``benchmarks/sure_study.py`` on sets the reader is not measured
    on), else ``default``. ``vision.learned`` reports that confidence as "sure" (0.8). A bar under
    ``default`` or at 1 or more is an error in the card, not a quieter reader."""
    bar = float(model_card(model).get("sure_from", default))
    if not default <= bar < 1.0:
        raise ValueError(f"the card of {model}: \"sure_from\" must lie in [{default}, 1), not {bar}")
    return bar


def crop_side(model: str = "faces") -> int:
    """The side (px) of the square ``model`` reads: the card's ``crop`` (a reader trained at another size,
    ``tools/train_faces.py --crop``), else ``CROP``. A side outside 24-128 px is an error in the card."""
    side = model_card(model).get("crop", CROP)
    if not isinstance(side, int) or not 24 <= side <= 128:
        raise ValueError(f"the card of {model}: \"crop\" must be a whole number of pixels, 24 to 128, "
                         f"not {side!r}")
    return side


def taught_cosine(model: str = "faces", default: float = 0.8) -> float:
    """The cosine at which an embedding of ``model`` is read as a taught face or token: the card's
    ``taught_cosine`` (fitted by ``tools/faces_cards.py``: objects of different classes on real photos come
    that near each other once in a hundred pairs), else ``default``. Each trained reader has its own
    embedding, so one number cannot serve them all."""
    return float(model_card(model).get("taught_cosine", default))


def reader_id(model: str = "faces") -> str:
    """The sha256 of ``model``'s ONNX file: what a table head (``vision.teach.TableHead``) was fitted on."""
    path = model_path(model)
    st = path.stat()
    return _file_sha256(str(path), st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=8)
def _file_sha256(path: str, mtime_ns: int, size: int) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def crop(frame: np.ndarray, f: Found, *, scale: float = CROP_SCALE, size: int = CROP) -> np.ndarray:
    """The ``size`` x ``size`` square centred on ``f``, ``scale`` times its long side (edges replicated)."""
    side = max(2.0, scale * f.side)
    k = size / side
    m = np.array([[k, 0, size / 2 - f.cx * k], [0, k, size / 2 - f.cy * k]], np.float32)
    interp = cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR
    out: np.ndarray = cv2.warpAffine(frame, m, (size, size), flags=interp, borderMode=cv2.BORDER_REPLICATE)
    return out


def moved_up(f: Found, shape: tuple[int, ...], share: float, rows: float) -> Found:
    """``f``'s box moved up by ``share`` of its height when its centre lies in the top ``rows`` of a frame of
    ``shape`` and it is no taller than ``FILLS_FRAME`` of it; ``f`` itself otherwise (the square at a die's
    top: ``vision.learned.read_tops``; ``benchmarks/top_shift.py`` moves every box so)."""
    if not share or f.h > FILLS_FRAME * shape[0] or f.cy > rows * shape[0]:
        return f
    return replace(f, cy=f.cy - share * f.h)


def members(model: str = "faces") -> list[str]:
    """The readers ``model`` reads with: itself, then the files its card names under ``"ensemble"``
    (beside the card). A card naming a file that is not there is an error, not a quieter reader."""
    names = model_card(model).get("ensemble", [])
    if not isinstance(names, list) or not all(isinstance(n, str) and n.endswith(".onnx") for n in names):
        raise ValueError(f"the card of {model}: \"ensemble\" must list .onnx file names, not {names!r}")
    folder = model_path(model).parent
    missing = [n for n in names if not (folder / n).is_file()]
    if missing:
        raise FileNotFoundError(f"the card of {model} names {', '.join(missing)} in its ensemble, "
                                f"and {folder} does not hold it")
    readers = [model, *(str(folder / n) for n in names)]
    for m in readers:
        crop_side(m)     # a card naming a side no reader could read is an error before any frame is read
    return readers


def _softmax(logits: np.ndarray) -> np.ndarray:
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    p: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return p


def read_crops(crops: list[np.ndarray], *, model: str = "faces", turns: int = 4,
               ensemble: bool = True, known: np.ndarray | None = None,
               stop: Callable[[], bool] | None = None,
               cut: Callable[[int, list[int]], list[np.ndarray]] | None = None) -> list[FaceReading]:
    """Face readings of square BGR crops of the reader's side (``crop_side``; quarter turns averaged; with
    ``ensemble``, the readers of ``members`` averaged too, on at most ``MAX_ENSEMBLE`` crops, the first
    reader's least sure, none it calls "numeral" at ``NUMERAL_ALONE`` or more). ``known``: the first reader's
    raw output of the crops unturned, when the caller has it (``finder.turned_outputs``).

    A reader of the ensemble whose card names another side reads ``cut(side, indices)``: the crops of those
    indices cut again at its side, as it was trained (``read_faces`` cuts them from the frame); without
    ``cut``, the crops resized to its side.

    ``stop`` (with ``known``): asked before every ``STEP`` crops; once it says True, the crops not yet read
    at every turn keep their one-turn reading of ``known``, marked ``whole=False`` (the caller must not call
    them sure), and the other readers read no more: the crops they have not reached (the surest of those
    they would read: they read the least sure first) keep the first reader's reading, as the crops past
    ``MAX_ENSEMBLE`` do. While it says False the readings are those of a call without it, to the bit."""
    if not crops:
        return []
    n = len(CLASSES)
    readers = members(model) if ensemble else [model]
    late = stop if stop is not None and known is not None else None
    done = len(crops)        # crops read at every turn by the first reader: the first ``done``
    if late is None:
        out = turned_outputs(crops, model, turns=turns, batch=BATCH, known=known)
    else:
        assert known is not None
        parts: list[np.ndarray] = []
        done = 0
        while done < len(crops) and not late():
            parts.append(turned_outputs(crops[done:done + STEP], model, turns=turns, batch=BATCH,
                                        known=known[done:done + STEP]))
            done += len(parts[-1])
        parts.append(np.asarray(known[done:], np.float64))     # one turn: its mean is itself
        out = np.concatenate(parts)
    logits, emb = out[:, :n] / temperature(model), out[:, n:]
    whole = np.arange(len(crops)) < done
    if len(readers) > 1:
        first = _softmax(logits[:done])
        asked = np.flatnonzero(first[:, CLASSES.index("numeral")] < NUMERAL_ALONE)
        least_sure = asked[np.argsort(first[asked].max(axis=1), kind="stable")[:MAX_ENSEMBLE]]  # least first
        step = STEP if late is not None else max(1, len(least_sure))     # no clock: one step
        for j in range(0, len(least_sure), step):
            if late is not None and late():
                break
            some = least_sure[j:j + step]
            total = logits[some]
            for m in readers[1:]:
                total = total + turned_outputs(_at_side([int(i) for i in some], crops, crop_side(m), cut),
                                               m, turns=turns, batch=BATCH)[:, :n] / temperature(m)
            logits[some] = total / len(readers)
    p = _softmax(logits)
    emb /= np.linalg.norm(emb, axis=1, keepdims=True) + 1e-9
    return [FaceReading(p[i], emb[i], bool(whole[i])) for i in range(len(crops))]


def cutter(frame: np.ndarray, found: list[Found]) -> Callable[[int, list[int]], list[np.ndarray]]:
    """``read_crops``'s ``cut`` for crops of ``found`` in ``frame``: those of the given indices cut again at a
    reader's side."""
    return lambda side, indices: [crop(frame, found[i], size=side) for i in indices]


def _at_side(indices: list[int], crops: list[np.ndarray], side: int,
             cut: Callable[[int, list[int]], list[np.ndarray]] | None) -> list[np.ndarray]:
    """The crops of ``indices`` at ``side`` px: as given when they are that side, else cut again (``cut``) or
    resized."""
    if not indices or crops[indices[0]].shape[0] == side:
        return [crops[i] for i in indices]
    if cut is not None:
        return cut(side, indices)
    return [cv2.resize(crops[i], (side, side), interpolation=cv2.INTER_AREA if side < crops[i].shape[0]
                       else cv2.INTER_LINEAR) for i in indices]


def read_faces(frame: np.ndarray, found: list[Found], *, model: str = "faces", turns: int = 4,
               screen: float | None = None, most: int | None = None,
               stop: Callable[[], bool] | None = None,
               screen_stop: Callable[[], bool] | None = None) -> list[FaceReading]:
    """One ``FaceReading`` per found object of ``frame`` (BGR uint8 (H, W, 3)), in the same order.

    ``screen``: read every crop once first (by the first reader of an ensemble alone), and at ``turns``
    quarter turns only those whose ``none`` probability is under ``screen``, whose ``numeral`` probability
    is under ``NUMERAL_ONE_TURN`` and whose likeliest pip value's is under ``PIP_ONE_TURN`` (the others keep
    their one-turn reading): a frame of carpet or mesh with a hundred candidates costs a hundred crops, not
    four hundred times the readers. ``most`` (with
    ``screen``): of those, at most this many, the least likely "none" first; the rest keep their one-turn
    reading marked ``whole=False`` (a frame of a hundred and fifty dice costs at most ``most`` crops at
    every turn). ``stop`` (with ``screen``): the frame's time budget for the turned reads, asked before every
    ``STEP`` crops as ``read_crops`` asks it; the crops it leaves unread at every turn keep their one-turn
    reading, marked ``whole=False``. ``screen_stop`` (``stop`` when not given): the budget of the screen's
    look, asked before every ``STEP`` crops after the first (the strongest objects are always looked at);
    the objects it leaves unscreened get an even reading marked ``seen=False`` (``found`` comes strongest
    first, so those are the finder's weakest: a mesh or carpet of 150 candidates on a slow board).
    """
    screen_stop = stop if screen_stop is None else screen_stop
    side = crop_side(model)

    if screen is None or turns == 1 or not found:
        return read_crops([crop(frame, f, size=side) for f in found], model=model, turns=turns,
                          cut=cutter(frame, found))
    # the screen's look is the first of the turns: read once, used twice
    if screen_stop is None:
        crops = [crop(frame, f, size=side) for f in found]
        unturned = turned_outputs(crops, model, turns=1, batch=BATCH)
    else:
        crops, parts = [], []
        while len(crops) < len(found) and (not crops or not screen_stop()):
            step = [crop(frame, f, size=side) for f in found[len(crops):len(crops) + STEP]]
            parts.append(turned_outputs(step, model, turns=1, batch=BATCH))
            crops += step
        unturned = np.concatenate(parts)
    first = read_crops(crops, model=model, turns=1, ensemble=False, known=unturned)
    keep = [i for i, r in enumerate(first) if r.p("none") < screen and r.p("numeral") < NUMERAL_ONE_TURN
            and float(r.probabilities[PIPS].max()) < PIP_ONE_TURN]
    unseen = FaceReading(np.full(len(CLASSES), 1 / len(CLASSES)), np.zeros(EMBEDDING), False, seen=False)
    out = first + [unseen] * (len(found) - len(crops))
    if most is not None and len(keep) > most:
        by_none = sorted(keep, key=lambda i: first[i].p("none"))
        keep = sorted(by_none[:most])
        for i in by_none[most:]:
            out[i] = replace(first[i], whole=False)
    again = read_crops([crops[i] for i in keep], model=model, turns=turns, known=unturned[keep], stop=stop,
                       cut=cutter(frame, [found[i] for i in keep]))
    for i, r in zip(keep, again, strict=True):
        out[i] = r
    return out
