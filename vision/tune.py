"""Adapt the face reader to one table's dice (``goblin-companion tune``): prototypes of the table's own
confirmed faces, kept as taught examples of its calibration, measured before and after on a held-back
part of the table's labelled set.

The prototypes are the mean face-reader embedding of each confirmed value (``vision.faces``), taught as
``"face"`` examples: the learned reader uses them where it is not sure itself (``vision.learned``). One
photo in ``HOLD_BACK`` is held back and never used to build them; the tuned calibration is offered only
if it reads the held-back dice at least as well as before.

Images are BGR uint8 arrays of shape (H, W, 3); they are never modified.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from vision.data import match_boxes
from vision.faces import crop, read_crops
from vision.finder import Found
from vision.teach import SIZE, Calibration, Example, _patch

#: every HOLD_BACK-th photo is held back for the measurement
HOLD_BACK = 5
#: a die whose value is read at least this sure counts as "sure"
SURE = 0.8

LabelledDice = Sequence[tuple[tuple[float, float, float, float], int]]   # (bbox, value) per die


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

    def to_json(self) -> dict[str, Any]:
        n = max(1, self.held_back_dice)
        return {"photos": self.photos, "taught_dice": self.taught_dice, "held_back_dice": self.held_back_dice,
                "right_before": self.right_before, "right_after": self.right_after,
                "right_before_pct": round(100 * self.right_before / n, 2),
                "right_after_pct": round(100 * self.right_after / n, 2),
                "sure_wrong_before": self.sure_wrong_before, "sure_wrong_after": self.sure_wrong_after,
                "kept": self.kept}


def _found(bbox: tuple[float, float, float, float]) -> Found:
    x, y, w, h = bbox
    return Found(x + w / 2, y + h / 2, w, h, 1.0)


def _score(photos: Sequence[tuple[np.ndarray, LabelledDice]], calibration: Calibration | None
           ) -> tuple[int, int]:
    """(right, wrong and sure) of ``read_table`` on the labelled dice of ``photos``, matched as the benchmark
    matches (``vision.data.match_boxes``)."""
    from vision.table import read_table

    right = sure_wrong = 0
    for image, dice in photos:
        got = list(read_table(image, calibration=calibration).dice)
        for i, j in match_boxes([box for box, _ in dice], [d.bbox for d in got]):
            value, d = dice[i][1], got[j]
            right += d.value == value
            sure_wrong += d.value != value and d.confidence >= SURE
    return right, sure_wrong


def tune(photos: Sequence[tuple[np.ndarray, LabelledDice]], calibration: Calibration | None = None
         ) -> tuple[Calibration, TuneReport]:
    """The table's calibration with one prototype per confirmed value added, and what was measured.

    ``photos``: (frame, [(bbox, value), ...]) of the table's labelled set, oldest first. The returned
    calibration is the input one unchanged when the prototypes did not read the held-back dice at least
    as well (``report.kept`` is False).
    """
    base = calibration or Calibration()
    teach = [p for i, p in enumerate(photos) if i % HOLD_BACK != HOLD_BACK - 1]
    held = [p for i, p in enumerate(photos) if i % HOLD_BACK == HOLD_BACK - 1]
    by_value: dict[int, list[np.ndarray]] = {}
    patches: dict[int, np.ndarray] = {}
    for image, dice in teach:
        crops = [crop(image, _found(b)) for b, _ in dice]
        # only the embeddings are used: the first reader alone gives them (vision.faces.read_crops)
        for (_, value), r, c in zip(dice, read_crops(crops, ensemble=False), crops, strict=True):
            by_value.setdefault(value, []).append(r.embedding)
            patches.setdefault(value, _patch(c))
    examples = []
    for value, embs in sorted(by_value.items()):
        mean = np.mean(embs, axis=0)
        mean /= np.linalg.norm(mean) + 1e-9
        patch = patches.get(value, np.zeros((SIZE, SIZE), np.uint8))
        examples.append(Example("face", str(value), patch, mean))
    tuned = Calibration((*base.examples, *examples))
    before = _score(held, calibration)
    after = _score(held, tuned)
    kept = bool(examples) and bool(held) and after[0] >= before[0] and after[1] <= before[1]
    report = TuneReport(len(photos), sum(len(v) for v in by_value.values()), sum(len(d) for _, d in held),
                        before[0], after[0], before[1], after[1], kept)
    return (tuned if kept else base), report
