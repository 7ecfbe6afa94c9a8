"""Teach mode: a per-table calibration of printed faces (goblin tokens, icon dice, logo faces).

A calibration is a set of labelled examples taken from the table's own camera, and optionally the table's
head (``TableHead``: the face reader's last layer adapted to this table by ``goblin-companion tune``,
``vision.tune``). Each example is the
object's crop, grey, scaled to 32x32 and masked to its inscribed circle (tokens and dice turn freely on
the tray, so only the disc is compared, at 24 rotations). Reading compares a new crop with every
example by normalised cross-correlation: the best label wins if it scores well and clearly beats the
other labels; otherwise the reading is ``None`` with a low confidence.
"""

from __future__ import annotations

import base64
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import cv2
import numpy as np

from vision.errors import InvalidVisionInput
from vision.faces import CLASSES

Kind = Literal["token", "face"]
KINDS: tuple[Kind, ...] = ("token", "face")
SIZE = 32
ROTATIONS = 24
#: objects the face reader gives at least this probability of "none" are not taught
TEACH_NONE = 0.5
#: the nearest taught label must beat every other label's cosine by this much
NEAREST_MARGIN = 0.05
FORMAT = "goblin-companion-calibration"
#: length of the face reader's embedding (``vision.faces.EMBEDDING``)
EMBEDDING = 64
#: the face reader's classes: a table head has one row of weights for each
HEAD_CLASSES = CLASSES
#: a head's weights and biases lie within +-HEAD_LIMIT (fitted ones stay near 1: a file with larger numbers
#: was not written by ``tune``, and numbers near float's limit would turn readings into NaN)
HEAD_LIMIT = 1000.0
#: a head's ``top_read`` (a share of a box's height) lies within 0..TOP_READ_MOST
TOP_READ_MOST = 0.5

_yy, _xx = np.mgrid[0:SIZE, 0:SIZE]
_DISC = ((_xx - (SIZE - 1) / 2) ** 2 + (_yy - (SIZE - 1) / 2) ** 2) <= (SIZE / 2 - 1) ** 2


def _unit(v: np.ndarray) -> np.ndarray:
    out: np.ndarray = v / (np.linalg.norm(v) + 1e-9)
    return out


def _patch(crop: np.ndarray) -> np.ndarray:
    """Grey 32x32 uint8 patch of the square centred in a BGR crop."""
    h, w = crop.shape[:2]
    s = min(h, w)
    y0, x0 = (h - s) // 2, (w - s) // 2
    square = crop[y0 : y0 + s, x0 : x0 + s]
    grey = cv2.cvtColor(square, cv2.COLOR_BGR2GRAY) if square.ndim == 3 else square
    patch: np.ndarray = cv2.resize(grey, (SIZE, SIZE), interpolation=cv2.INTER_AREA)
    return patch


def _vector(patch: np.ndarray) -> np.ndarray:
    v: np.ndarray = patch[_DISC].astype(np.float64)
    v = v - float(v.mean())
    n = float(np.linalg.norm(v))
    return v / n if n > 1e-6 else v


def _rotations(patch: np.ndarray) -> np.ndarray:
    centre = ((SIZE - 1) / 2, (SIZE - 1) / 2)
    out = []
    for k in range(ROTATIONS):
        m = cv2.getRotationMatrix2D(centre, 360.0 * k / ROTATIONS, 1.0)
        out.append(_vector(cv2.warpAffine(patch, m, (SIZE, SIZE), borderMode=cv2.BORDER_REPLICATE)))
    return np.stack(out)


@dataclass(frozen=True, slots=True)
class Example:
    kind: Kind
    label: str
    patch: np.ndarray  # (32, 32) uint8
    #: the learned face reader's unit embedding of the object (``vision.faces``), when it was taught from
    #: objects the finder found (``Calibration.teach_found``); ``None`` for examples taught as crops
    embedding: np.ndarray | None = None

    def __repr__(self) -> str:
        return f"Example(kind={self.kind!r}, label={self.label!r})"


@dataclass(frozen=True, slots=True)
class TableHead:
    """The face reader's last layer adapted to one table (``vision.tune.fit_head``): the logits of a
    reading become ``log(probabilities) + weights @ embedding + bias``, so a head of zeros changes nothing.

    ``reader``: the sha256 of the face reader's ONNX file the head was fitted on (``vision.faces.reader_id``):
    an embedding belongs to one reader, so ``vision.learned`` uses the head with that reader only (a
    product update that ships a new reader leaves the old head unused until ``tune`` runs again).

    ``top_read``: ``vision.learned.TOP_READ`` when the head was fitted, the readings it adapts having had
    their pip values read at the dice's tops; 0 for a head fitted on the squares at the boxes' centres
    (every head before the sixty-ninth session: ``vision.learned`` reads at the centre for it)."""

    weights: np.ndarray   # (len(HEAD_CLASSES), EMBEDDING) float
    bias: np.ndarray      # (len(HEAD_CLASSES),) float
    reader: str
    top_read: float = 0.0

    def adapt(self, probabilities: np.ndarray, embeddings: np.ndarray) -> np.ndarray:
        """The table's probabilities (n, classes) of readings given as ``probabilities`` (n, classes) and
        unit ``embeddings`` (n, EMBEDDING)."""
        z = np.log(probabilities + 1e-9) + embeddings @ self.weights.T + self.bias
        z = np.exp(z - z.max(axis=1, keepdims=True))
        out: np.ndarray = z / z.sum(axis=1, keepdims=True)
        return out

    def same(self, other: TableHead | None) -> bool:
        return other is not None and self.reader == other.reader and self.top_read == other.top_read \
            and np.array_equal(self.weights, other.weights) and np.array_equal(self.bias, other.bias)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "reader": self.reader, "classes": list(HEAD_CLASSES),
            "weights": base64.b64encode(self.weights.astype("<f4").tobytes()).decode("ascii"),
            "bias": base64.b64encode(self.bias.astype("<f4").tobytes()).decode("ascii")}
        if self.top_read:
            out["top_read"] = self.top_read
        return out

    @classmethod
    def from_json(cls, obj: Any) -> TableHead:
        if not isinstance(obj, dict) or not isinstance(obj.get("reader"), str) \
                or obj.get("classes") != list(HEAD_CLASSES):
            raise InvalidVisionInput(f"calibration: the head must name its reader and the classes "
                                     f"{list(HEAD_CLASSES)}")
        arrays = []
        for key, size in (("weights", len(HEAD_CLASSES) * EMBEDDING), ("bias", len(HEAD_CLASSES))):
            try:
                a = np.frombuffer(base64.b64decode(obj[key], validate=True), dtype="<f4")
            except (KeyError, TypeError, ValueError) as err:
                raise InvalidVisionInput(f"calibration: the head's {key} are malformed ({err})") from None
            if a.size != size or not np.all(np.isfinite(a)) or np.any(np.abs(a) > HEAD_LIMIT):
                raise InvalidVisionInput(f"calibration: the head's {key} are not {size} numbers within "
                                         f"+-{HEAD_LIMIT:g}")
            arrays.append(a.astype(np.float64))
        top = obj.get("top_read", 0.0)
        if isinstance(top, bool) or not isinstance(top, (int, float)) or not 0.0 <= top <= TOP_READ_MOST:
            raise InvalidVisionInput(f"calibration: the head's top_read must be a number from 0 to "
                                     f"{TOP_READ_MOST:g}, not {top!r}")
        return cls(arrays[0].reshape(len(HEAD_CLASSES), EMBEDDING), arrays[1], obj["reader"], float(top))


class Calibration:
    """Labelled examples of printed faces for one table, and the table's head when ``tune`` fitted one;
    immutable (``teach`` and ``with_head`` return a new one).

    >>> cal = Calibration()
    >>> cal.has("token")
    False
    """

    __slots__ = ("_bank", "examples", "head")

    def __init__(self, examples: tuple[Example, ...] = (), head: TableHead | None = None) -> None:
        self.examples = tuple(examples)
        self.head = head
        self._bank: dict[Kind, tuple[list[str], np.ndarray]] = {}
        for kind in KINDS:
            mine = [e for e in self.examples if e.kind == kind]
            if mine:
                labels = [e.label for e in mine for _ in range(ROTATIONS)]
                self._bank[kind] = (labels, np.concatenate([_rotations(e.patch) for e in mine]))

    def __repr__(self) -> str:
        return f"Calibration({list(self.examples)!r}{', head' if self.head is not None else ''})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Calibration):
            return NotImplemented
        heads = (self.head is None and other.head is None) or (self.head is not None
                                                                and self.head.same(other.head))
        return heads and len(self.examples) == len(other.examples) and all(
            a.kind == b.kind and a.label == b.label and np.array_equal(a.patch, b.patch)
            for a, b in zip(self.examples, other.examples, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def has(self, kind: Kind) -> bool:
        return kind in self._bank

    def with_head(self, head: TableHead | None) -> Calibration:
        """The same examples with ``head`` (``None``: without a head)."""
        return Calibration(self.examples, head)

    def labels(self, kind: Kind) -> list[str]:
        return sorted({e.label for e in self.examples if e.kind == kind})

    def teach(self, image: np.ndarray, *, kind: Kind, label: str) -> Calibration:
        """A new calibration with one more example.

        Parameters
        ----------
        image : ndarray, shape (H, W, 3), uint8
            A crop of the object (BGR), or a whole frame with that one object on the tray: the object is
            then found and cropped (the largest compact object in the frame).
        kind : ``"token"`` or ``"face"``
            Tokens (labels ``"alive"``/``"dead"``) or die faces (label: the value they stand for,
            e.g. ``"6"``).
        label : str
        """
        from vision.table import check_frame

        image = check_frame(image, "image")
        if kind not in KINDS:
            raise InvalidVisionInput(f"kind: expected one of {KINDS}, got {kind!r}")
        if not isinstance(label, str) or not label.strip():
            raise InvalidVisionInput(f"label: expected a non-empty string, got {label!r}")
        if kind == "face" and not label.isdigit():
            raise InvalidVisionInput(f"label: a taught die face stands for a value like '6', got {label!r}")
        crop = object_crop(image)
        return Calibration((*self.examples, Example(kind, label.strip(), _patch(crop))), self.head)

    def teach_found(self, frame: np.ndarray, *, kind: Kind, label: str,
                    models: tuple[str, str] = ("finder", "faces")) -> tuple[Calibration, int]:
        """A new calibration with every object the finder found in ``frame`` taught as ``label``, and how
        many that is (0: nothing found, the calibration is unchanged).

        Put only objects showing the face to teach under the camera (three emblem faces, say, for
        ``kind="face", label="6"``): each is kept with its face-reader embedding, and read later by the
        nearest taught embedding (``nearest``), on other photos of the same dice or tokens.
        """
        from vision.faces import crop as square
        from vision.faces import read_faces
        from vision.finder import find_objects
        from vision.table import check_frame

        frame = check_frame(frame, "frame")
        self._check(kind, label)
        found = find_objects(frame, model=models[0])
        readings = read_faces(frame, found, model=models[1])
        new = [Example(kind, label.strip(), _patch(square(frame, f, scale=1.0, size=SIZE * 2)), r.embedding)
               for f, r in zip(found, readings, strict=True) if r.p("none") < TEACH_NONE]
        return Calibration((*self.examples, *new), self.head), len(new)

    @staticmethod
    def _check(kind: object, label: object) -> None:
        if kind not in KINDS:
            raise InvalidVisionInput(f"kind: expected one of {KINDS}, got {kind!r}")
        if not isinstance(label, str) or not label.strip():
            raise InvalidVisionInput(f"label: expected a non-empty string, got {label!r}")
        if kind == "face" and not label.strip().isdigit():
            raise InvalidVisionInput(f"label: a taught die face stands for a value like '6', got {label!r}")

    def nearest(self, embedding: np.ndarray, *, kinds: tuple[Kind, ...] = KINDS, threshold: float = 0.8
                ) -> tuple[Kind, str, float] | None:
        """(kind, label, confidence) of the taught example nearest ``embedding`` (cosine), when it is at
        least ``threshold`` near; ``None`` otherwise, or when no example of ``kinds`` was taught with an
        embedding.

        Which label, once the nearest example's kind is known: with one label of that kind taught, that
        label when it is nearer than any example of another kind by ``NEAREST_MARGIN``; with two or more
        (a live and a dead token), the label is chosen by the cosines **about their common centre** (the
        mean of each label's mean embedding), which must tell it from the next label's by
        ``NEAREST_MARGIN``. The face reader puts every token near one "token" direction (a longer
        trained reader the nearer: the two drawn tokens of tests/vision/test_teach.py sit at 0.85 of
        each other), so the raw cosines of two tokens differ by a few hundredths, while about their
        centre they point apart; the raw cosine still says whether the object is one of the taught at
        all, and is the confidence."""
        mine = [(e, e.embedding) for e in self.examples if e.kind in kinds and e.embedding is not None]
        if not mine:
            return None
        sims = np.stack([v for _, v in mine]) @ embedding
        best: dict[tuple[Kind, str], float] = {}
        for (e, _), sim in zip(mine, sims.tolist(), strict=True):
            best[(e.kind, e.label)] = max(best.get((e.kind, e.label), -1.0), float(sim))
        ranked = sorted(best.items(), key=lambda kv: -kv[1])
        (kind, label), top = ranked[0]
        if top < threshold:
            return None
        labels = sorted({e.label for e, _ in mine if e.kind == kind})
        if len(labels) < 2:
            other = max((sim for (k, _), sim in ranked[1:] if k != kind), default=-1.0)
            return None if top - other < NEAREST_MARGIN else (kind, label, float(min(0.95, top)))
        groups = {lab: np.stack([v for e, v in mine if e.kind == kind and e.label == lab]) for lab in labels}
        centre = np.mean([g.mean(axis=0) for g in groups.values()], axis=0)
        x = _unit(embedding - centre)
        about = sorted(((float(np.max(np.stack([_unit(v) for v in g - centre]) @ x)), lab)
                        for lab, g in groups.items()), reverse=True)
        if about[0][0] - about[1][0] < NEAREST_MARGIN:
            return None
        label = about[0][1]
        return kind, label, float(min(0.95, best[(kind, label)]))

    def classify(self, crop: np.ndarray, *, kind: Kind) -> tuple[str | None, float]:
        """(label, confidence) of the example that best matches a BGR crop; (None, low) if none does."""
        if kind not in self._bank:
            return None, 0.0
        labels, bank = self._bank[kind]
        scores = bank @ _vector(_patch(crop))
        best: dict[str, float] = {}
        for lab, s in zip(labels, scores, strict=True):
            best[lab] = max(best.get(lab, -1.0), float(s))
        ranked = sorted(best.items(), key=lambda kv: -kv[1])
        top_label, top = ranked[0]
        second = ranked[1][1] if len(ranked) > 1 else 0.0
        margin = top - second
        if top < 0.45 or (len(ranked) > 1 and margin < 0.05):
            return None, float(max(0.0, min(0.3, top * 0.3)))
        confidence = float(min(1.0, max(0.0, 0.4 + top * 0.4 + margin)))
        return top_label, confidence

    # -- files -------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        examples: list[dict[str, Any]] = []
        for e in self.examples:
            item = {"kind": e.kind, "label": e.label,
                    "patch": base64.b64encode(e.patch.tobytes()).decode("ascii")}
            if e.embedding is not None:
                item["embedding"] = base64.b64encode(e.embedding.astype("<f4").tobytes()).decode("ascii")
            examples.append(item)
        out = {"format": FORMAT, "version": 1, "size": SIZE, "examples": examples}
        if self.head is not None:
            out["head"] = self.head.to_json()
        return out

    @classmethod
    def from_json(cls, obj: Any) -> Calibration:
        if not isinstance(obj, dict) or obj.get("format") != FORMAT:
            raise InvalidVisionInput(f"calibration: not a {FORMAT} object")
        if obj.get("version") != 1 or obj.get("size") != SIZE:
            raise InvalidVisionInput(
                f"calibration: unsupported version/size {obj.get('version')!r}/{obj.get('size')!r}")
        examples = []
        for i, e in enumerate(obj.get("examples", [])):
            try:
                kind, label = e["kind"], e["label"]
                patch = np.frombuffer(base64.b64decode(e["patch"], validate=True), dtype=np.uint8)
            except (KeyError, TypeError, ValueError) as err:
                raise InvalidVisionInput(f"calibration: example {i} is malformed ({err})") from None
            if kind not in KINDS or not isinstance(label, str) or patch.size != SIZE * SIZE:
                raise InvalidVisionInput(f"calibration: example {i} has a bad kind, label or patch")
            embedding = None
            if e.get("embedding") is not None:
                try:
                    embedding = np.frombuffer(base64.b64decode(e["embedding"], validate=True), dtype="<f4")
                except (TypeError, ValueError) as err:
                    raise InvalidVisionInput(
                        f"calibration: example {i}'s embedding is malformed ({err})") from None
                if embedding.size != EMBEDDING or not np.all(np.isfinite(embedding)):
                    raise InvalidVisionInput(
                        f"calibration: example {i}'s embedding is not {EMBEDDING} numbers")
                embedding = embedding.astype(np.float64)
            examples.append(Example(kind, label, patch.reshape(SIZE, SIZE).copy(), embedding))
        head = obj.get("head")
        if isinstance(head, dict) and isinstance(head.get("classes"), list) \
                and head["classes"] != list(HEAD_CLASSES):
            head = None   # fitted for a reader of other classes (an update since): unused
        return cls(tuple(examples), None if head is None else TableHead.from_json(head))

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the calibration as a JSON file (atomically: a temporary file, then a rename)."""
        p = Path(path)
        tmp = p.with_name(p.name + ".tmp")
        tmp.write_text(json.dumps(self.to_json()), encoding="utf-8")
        tmp.replace(p)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Calibration:
        try:
            obj = json.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as err:
            raise InvalidVisionInput(f"calibration file {str(path)!r}: {err.strerror or err}") from None
        except (UnicodeDecodeError, json.JSONDecodeError) as err:
            raise InvalidVisionInput(f"calibration file {str(path)!r} is not JSON: {err}") from None
        try:
            return cls.from_json(obj)
        except InvalidVisionInput as err:
            raise InvalidVisionInput(f"calibration file {str(path)!r}: {err}") from None


def object_crop(image: np.ndarray) -> np.ndarray:
    """The one object of a frame cropped square (with a small margin), or the image if it is a crop."""
    from vision.pips import view_side
    from vision.table import find_bodies, foreground, working_image

    work, scale = working_image(image)
    side = view_side(work.shape)
    bodies = find_bodies(foreground(work), min_side=side / 30, max_side=side / 2.5)
    if not bodies:
        return image
    b = max(bodies, key=lambda b: b.area)
    x, y, w, h = (v / scale for v in b.box)
    s = max(w, h)
    cx, cy = x + w / 2, y + h / 2
    H, W = image.shape[:2]
    x0, y0 = max(0, int(cx - s / 2)), max(0, int(cy - s / 2))
    x1, y1 = min(W, int(cx + s / 2) + 1), min(H, int(cy + s / 2) + 1)
    return image[y0:y1, x0:x1]
