"""Loaders for the labelled dice photos (like ``skimage.data``), used by tests and the benchmark.

The photos are not bundled: they live in the shared ``dice-photos`` folder (see its README for the
sources, licences and attribution). ``photos_dir()`` finds it from ``$GOBLIN_DICE_PHOTOS``, else
``../shared/dice-photos`` next to the repository, else ``/work/shared/dice-photos``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

SETS = {
    "matteop65": "matteop65__Dice_Detection_Recognition",
    "chase": "chaseelliottpatterson__dice-reader",
    "burks": "burksbuilds__dicetower-dev",
    "aws": "aws-samples__amazon-sagemaker-mxnet-dice-aim403-workshop-reinvent2019",
    "nell": "nell-byler__dice_detection",
    "lurig": "Ferwardo__dice_classifier",
}


@dataclass(frozen=True, slots=True)
class LabelledDie:
    sides: int | None
    value: int | None     # None: the labeller could not tell (aws ``unclear``), or a type-only set (Lurig)
    bbox: tuple[float, float, float, float] | None


@dataclass(frozen=True, slots=True)
class LabelledPhoto:
    path: Path
    dice: tuple[LabelledDie, ...]
    index: int          # position in labels.json (the held-out split is index % 5 == 4)

    @property
    def held_out(self) -> bool:
        return self.index % 5 == 4

    def load(self) -> np.ndarray:
        """The photo as BGR uint8 (H, W, 3)."""
        image = cv2.imread(str(self.path), cv2.IMREAD_COLOR)
        if image is None:
            raise FileNotFoundError(f"cannot read photo {str(self.path)!r}")
        return np.asarray(image)


def photos_dir() -> Path | None:
    """The shared photo folder, or ``None`` when it is not on this machine."""
    env = os.environ.get("GOBLIN_DICE_PHOTOS")
    candidates = [Path(env)] if env else []
    candidates += [Path(__file__).resolve().parents[2] / "shared" / "dice-photos",
                   Path("/work/shared/dice-photos")]
    for c in candidates:
        if (c / "README.md").is_file():
            return c
    return None


def photo_set(name: str) -> list[LabelledPhoto]:
    """The labelled photos of one set (a key of ``SETS``) in labels.json order."""
    root = photos_dir()
    if root is None:
        raise FileNotFoundError("dice-photos folder not found (set GOBLIN_DICE_PHOTOS)")
    folder = root / SETS[name]
    labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    out = []
    for i, entry in enumerate(labels["images"]):
        dice = tuple(LabelledDie(d.get("sides"), None if d.get("value") is None or d.get("unclear")
                                 else int(d["value"]),
                                 None if d.get("bbox") is None else tuple(float(v) for v in d["bbox"]))  # type: ignore[arg-type]
                     for d in entry["dice"])
        out.append(LabelledPhoto(folder / entry["file"], dice, i))
    return out


def iter_split(photos: list[LabelledPhoto], split: str) -> Iterator[LabelledPhoto]:
    """``"all"``, ``"dev"`` (4 of every 5) or ``"held-out"`` (every 5th, never used for tuning)."""
    for p in photos:
        if split == "all" or (split == "held-out") == p.held_out:
            yield p


#: the folds of the Lurig set that hold out whole videos, by what they show (``lurig_fold``)
LURIG_FOLDS = ("wood", "color", "other")


def lurig_video(path: Path | str) -> str:
    """The video a Lurig photo is a frame of: its file name without the frame number (``d20_wood``)."""
    return Path(path).stem.rstrip("0123456789")


def lurig_fold(path: Path | str) -> str:
    """Which fold of ``LURIG_FOLDS`` holds a Lurig photo out: every type's video on a wooden table
    (``wood``), its colour videos (``color``), or the rest (top, off-angle, 45-degree, the plain d4 video)."""
    video = lurig_video(path)
    return "wood" if "wood" in video else "color" if "color" in video else "other"


Box = tuple[float, float, float, float]


def match_boxes(labels: Sequence[Box], found: Sequence[Box], *, reach: float = 0.6) -> list[tuple[int, int]]:
    """Greedy one-to-one matching of labelled boxes to found boxes (x, y, w, h), nearest centres first: a pair
    counts when the centres lie within ``reach`` times the largest side of the two boxes. Returns
    (label index, found index) pairs. The rule of the benchmark (``benchmarks/vision_eval.py``) and of
    ``vision.tune``."""
    pairs = []
    for i, (lx, ly, lw, lh) in enumerate(labels):
        for j, (dx, dy, dw, dh) in enumerate(found):
            dist = float(np.hypot(lx + lw / 2 - dx - dw / 2, ly + lh / 2 - dy - dh / 2))
            if dist <= reach * max(lw, lh, dw, dh):
                pairs.append((dist, i, j))
    pairs.sort()
    used_l: set[int] = set()
    used_f: set[int] = set()
    out = []
    for _, i, j in pairs:
        if i not in used_l and j not in used_f:
            used_l.add(i)
            used_f.add(j)
            out.append((i, j))
    return out
