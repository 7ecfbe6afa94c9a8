"""Loaders for the labelled dice photos (like ``skimage.data``), used by tests and the benchmark.

The photos are not bundled: they live in the shared ``dice-photos`` folder (see its README for the
sources, licences and attribution). ``photos_dir()`` finds it from ``$GOBLIN_DICE_PHOTOS``, else
``../shared/dice-photos`` next to the repository, else ``/work/shared/dice-photos``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
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
