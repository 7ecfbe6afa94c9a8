"""Adapt the face reader to one table's dice (``goblin-companion tune``): the table's head, the reader's last
layer fitted to the table's own confirmed photos, measured before and after on a held-back part of them.

The head (``vision.teach.TableHead``) adds ``weights @ embedding + bias`` to the log-probabilities of every
face reading (``vision.learned.adapted``), after the pip dice of the frame's upper half had their values read
at their tops (``vision.learned.TOP_READ``), and is fitted on readings made the same way. It is fitted here,
in numpy, by class-weighted logistic regression on the face reader's embeddings of:

- every object the finder found that matches a confirmed die: its confirmed value;
- every object outside every confirmed die that the reader does not itself read as a sure pip die nor
  as a numeral die or token: "not a die" (what the table's cloth, clutter and light make the finder see).
  A die the players did not confirm (not part of the roll) is read sure, so it is not taken for cloth.

A head is fitted only when the set holds ``LEAST_EXAMPLES`` confirmed dice of every one of the six values:
fitted on fewer values it learns "everything is a 1" (chase left out, its first ten photos: the read half
went from 82.7 to 20.9% right, and the two held-back dice, both 1s, did not show it). "Not a die" is
adapted when the set holds ``LEAST_EXAMPLES`` of it; emblem, numeral and token keep the reader's logits.
One photo in ``HOLD_BACK`` is held back and never fitted on; the tuned calibration is offered only if the
held-back photos hold ``LEAST_HELD_BACK`` dice at least and it reads them at least as well as before, with
no more of them wrong and sure. ``TuneReport.reason`` says why a head was not kept.

Measured on tables the readers never saw (``benchmarks/tune_eval.py``, docs/vision.md). Until the
thirty-fifth session ``tune`` taught one prototype embedding per value instead; on nell left out it took
the held-back half's sure mistakes from 4 to 12, so the head replaced it (calibrations holding such
prototypes are still read as before).

Images are BGR uint8 arrays of shape (H, W, 3); they are never modified.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from vision.data import match_boxes
from vision.faces import CLASSES, EMBEDDING, read_faces, reader_id
from vision.finder import find_objects
from vision.learned import MAX_TURNED, MODELS, SCREEN, TOP_READ, read_tops
from vision.teach import Calibration, TableHead

#: every HOLD_BACK-th photo is held back for the measurement
HOLD_BACK = 5
#: a die whose value is read at least this sure counts as "sure"
SURE = 0.8
#: the head's weight decay; chosen on nell left out (0.001, 0.01, 0.1 tried), then measured on the others
DECAY = 0.001
#: full-batch gradient steps and their rate (the loss is convex: a fixed schedule reaches its minimum)
STEPS = 1500
RATE = 1.0
#: a head is fitted when the set holds at least this many confirmed dice of each value ("not a die" is
#: adapted when it holds this many of it)
LEAST_EXAMPLES = 5
#: a head is kept only when the held-back photos hold at least this many dice to judge it on
LEAST_HELD_BACK = 10
#: objects fitted at most (a full set of crowded photos stays minutes on a Pi): "not a die" is thinned first
MOST_FITTED = 6000
#: the classes a head may adapt: "not a die" and the six pip values
ADAPTED = ("none", "1", "2", "3", "4", "5", "6")

# (bbox, value) per die; value None: a confirmed die that is not a pip d6 (neither fitted nor "not a die")
LabelledDice = Sequence[tuple[tuple[float, float, float, float], int | None]]


@dataclass(frozen=True, slots=True)
class TuneReport:
    photos: int
    taught_dice: int
    held_back_dice: int
    right_before: int
    right_after: int
    sure_wrong_before: int
    sure_wrong_after: int
    kept: bool
    #: objects fitted as "not a die"
    not_dice: int = 0
    #: dice reported on the held-back photos that match no confirmed die (cloth, clutter; or a die the
    #: players did not confirm)
    unconfirmed_before: int = 0
    unconfirmed_after: int = 0
    #: why no head was kept: "too-few-faces" (a value confirmed under ``LEAST_EXAMPLES`` times), "too-few-
    #: held-back" (under ``LEAST_HELD_BACK`` dice to judge it on), "reads-worse"; None when kept
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        n = max(1, self.held_back_dice)
        return {"photos": self.photos, "taught_dice": self.taught_dice, "held_back_dice": self.held_back_dice,
                "right_before": self.right_before, "right_after": self.right_after,
                "right_before_pct": round(100 * self.right_before / n, 2),
                "right_after_pct": round(100 * self.right_after / n, 2),
                "sure_wrong_before": self.sure_wrong_before, "sure_wrong_after": self.sure_wrong_after,
                "kept": self.kept, "method": "head", "not_dice": self.not_dice,
                "unconfirmed_before": self.unconfirmed_before, "unconfirmed_after": self.unconfirmed_after,
                "reason": self.reason}


def _score(photos: Iterable[tuple[np.ndarray, LabelledDice]], calibration: Calibration | None,
           models: tuple[str, ...] = MODELS) -> tuple[int, int, int, int]:
    """(right, wrong and sure, unconfirmed, dice with a value) of ``read_table`` on the labelled dice of
    ``photos``, matched as the benchmark matches (``vision.data.match_boxes``)."""
    from vision.table import read_table

    right = sure_wrong = unconfirmed = valued = 0
    for image, dice in photos:
        valued += sum(value is not None for _, value in dice)
        got = list(read_table(image, calibration=calibration, models=models).dice)
        pairs = match_boxes([box for box, _ in dice], [d.bbox for d in got])
        unconfirmed += len(got) - len(pairs)
        for i, j in pairs:
            value, d = dice[i][1], got[j]
            if value is None:
                continue
            right += d.value == value
            sure_wrong += d.value != value and d.confidence >= SURE
    return right, sure_wrong, unconfirmed, valued


def examples(photos: Iterable[tuple[np.ndarray, LabelledDice]], models: tuple[str, ...] = MODELS
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(embeddings (n, 64), probabilities (n, classes), class index (n,)) of the objects the finder finds in
    ``photos``, read as ``vision.learned`` reads them, each with the class the module docstring says."""
    embeddings, probabilities, classes = [], [], []
    pip = [CLASSES.index(v) for v in ADAPTED[1:]]
    for image, dice in photos:
        found = find_objects(image, model=models[0])
        # read as ``vision.learned`` reads them before a head (pip values at the dice's tops): what a head
        # fitted here adapts
        readings = read_tops(image, found, read_faces(image, found, model=models[1], screen=SCREEN,
                                                       most=MAX_TURNED), models[1], None, None)
        boxes = [f.box(image.shape) for f in found]
        matched = {j: i for i, j in match_boxes([box for box, _ in dice], boxes)}
        for j, (f, r) in enumerate(zip(found, readings, strict=True)):
            if j in matched:
                value = dice[matched[j]][1]
                if value is None or str(value) not in ADAPTED:
                    continue
                k = CLASSES.index(str(value))
            else:
                inside = any(x <= f.cx <= x + w and y <= f.cy <= y + h for (x, y, w, h), _ in dice)
                best = int(np.argmax(r.probabilities))
                if inside or (best in pip and r.probabilities[best] >= SURE) \
                        or CLASSES[best] in ("emblem", "numeral", "token"):
                    continue
                k = CLASSES.index("none")
            embeddings.append(r.embedding)
            probabilities.append(r.probabilities)
            classes.append(k)
    if not classes:
        return np.zeros((0, EMBEDDING)), np.zeros((0, len(CLASSES))), np.zeros(0, np.int64)
    return np.array(embeddings), np.array(probabilities), np.array(classes)


def _thinned(classes: np.ndarray) -> np.ndarray:
    """Indexes of at most ``MOST_FITTED`` examples: every die, and "not a die" evenly spaced."""
    none = np.flatnonzero(classes == CLASSES.index("none"))
    dice = np.flatnonzero(classes != CLASSES.index("none"))[:MOST_FITTED]
    room = MOST_FITTED - len(dice)
    if len(none) > room:
        none = none[np.linspace(0, len(none) - 1, max(0, room)).astype(int)] if room > 0 else none[:0]
    return np.sort(np.concatenate([dice, none]))


def fit_head(embeddings: np.ndarray, probabilities: np.ndarray, classes: np.ndarray, reader: str,
             top_read: float = 0.0) -> TableHead | None:
    """The head that best reads ``classes`` from the reader's ``probabilities`` and ``embeddings``
    (class-weighted cross-entropy, weight decay ``DECAY``), on the classes of ``ADAPTED`` that hold
    ``LEAST_EXAMPLES``; ``None`` unless every pip value does. Deterministic: no randomness, a fixed
    schedule. ``top_read``: the ``vision.learned.TOP_READ`` the probabilities were read with (the head
    keeps it: ``TableHead.top_read``)."""
    keep = _thinned(classes)
    x, p, y = embeddings[keep], probabilities[keep], classes[keep]
    counts = np.bincount(y, minlength=len(CLASSES)).astype(float)
    mask = np.zeros(len(CLASSES))
    for name in ADAPTED:
        k = CLASSES.index(name)
        mask[k] = counts[k] >= LEAST_EXAMPLES
    if not all(mask[CLASSES.index(v)] for v in ADAPTED[1:]):
        return None
    n = len(y)
    weight = (1.0 / np.maximum(counts, 1.0))[y]
    weight *= n / weight.sum()
    onehot = np.eye(len(CLASSES))[y]
    base = np.log(p + 1e-9)
    w = np.zeros((len(CLASSES), x.shape[1]))
    b = np.zeros(len(CLASSES))
    for _ in range(STEPS):
        z = base + x @ w.T + b
        z = np.exp(z - z.max(axis=1, keepdims=True))
        q = z / z.sum(axis=1, keepdims=True)
        g = (q - onehot) * weight[:, None] / n
        w -= RATE * (g.T @ x + DECAY * w) * mask[:, None]
        b -= RATE * g.sum(axis=0) * mask
    return TableHead(w, b, reader, top_read)


def _part(photos: Sequence[tuple[np.ndarray, LabelledDice]], *, held: bool
          ) -> Iterator[tuple[np.ndarray, LabelledDice]]:
    """The photos fitted on (``held`` False) or held back (every ``HOLD_BACK``-th), one at a time."""
    for i in range(len(photos)):
        if (i % HOLD_BACK == HOLD_BACK - 1) == held:
            yield photos[i]


def tune(photos: Sequence[tuple[np.ndarray, LabelledDice]], calibration: Calibration | None = None, *,
         models: tuple[str, ...] = MODELS) -> tuple[Calibration, TuneReport]:
    """The table's calibration with a head fitted on its confirmed photos, and what was measured.

    ``photos``: (frame, [(bbox, value), ...]) of the table's labelled set, oldest first; indexed one at a
    time, so a sequence that reads each frame when indexed keeps one frame in memory. The returned
    calibration is the input one unchanged when the head did not read the held-back dice at least as well,
    with no more of them wrong and sure (``report.kept`` is False). Taught examples are kept as they were.
    """
    base = calibration or Calibration()
    x, p, y = examples(_part(photos, held=False), models)
    head = fit_head(x, p, y, reader_id(models[1]), TOP_READ) if len(y) else None
    tuned = base.with_head(head) if head is not None else base
    before = _score(_part(photos, held=True), calibration, models)
    after = _score(_part(photos, held=True), tuned, models) if head is not None else before
    held = before[3]   # counted while reading them: a third pass would decode every held-back frame again
    reason = ("too-few-faces" if head is None else "too-few-held-back" if held < LEAST_HELD_BACK
              else "reads-worse" if after[0] < before[0] or after[1] > before[1] else None)
    kept = reason is None
    none = int(np.sum(y == CLASSES.index("none")))
    report = TuneReport(len(photos), len(y) - none, held, before[0], after[0], before[1], after[1], kept,
                        none, before[2], after[2], reason)
    return (tuned if kept else base), report
