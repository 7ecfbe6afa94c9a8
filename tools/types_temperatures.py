"""Re-fit the type readers' temperatures on held-out photos read at the finder's boxes, as the product reads.

    python3 tools/types_temperatures.py [--finder finder] [--write]

``tools/types_cards.py`` fits them on the training crops of each held-out fold, cut at the label's box.
The product cuts its crop at the finder's box, and a finder that boxes a die differently moves the
logits: finder7 (tenth session) boxes Lurig's dice at 1.005 of the label's side where finder6 boxed them
at 1.07, and read through it the wood fold's type reader was wrong and sure on 6 of 411 photos against 2.
So here each fold's photos (Lurig's three folds, whole videos out, and burks) are read by the finder
(the die nearest the photo's centre) and by the type reader trained without that fold; the reader of
fold F gets the temperature that fits the *other* folds' logits best (cross-fitted: nothing of F), the
shipped reader the one that fits every fold's. ``--write`` writes them to the cards
(``benchmarks/models/types-no-F.json``, ``vision/models/types.json``); the temperature they had is kept
as ``temperature_at_training_crops``, and the finder's sha256 as ``temperature_finder_sha256`` (a finder
installed without fitting them again fails ``tests/vision4/test_type_temperatures.py``). Training only;
needs no torch.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.data import LURIG_FOLDS, lurig_fold, photo_set  # noqa: E402
from vision.faces import crop  # noqa: E402
from vision.finder import find_objects, model_path, sha256  # noqa: E402
from vision.types import CROP, CROP_SCALE, SIDES, dihedral_outputs  # noqa: E402

#: types_cards.TEMPERATURES (not imported: that module needs torch, this tool does not)
GRID = np.arange(0.5, 6.01, 0.05)
FOLDS = (*LURIG_FOLDS, "burks")


def card_path(fold: str | None) -> Path:
    return ROOT / ("vision/models/types.json" if fold is None else f"benchmarks/models/types-no-{fold}.json")


def held_out_logits(fold: str, finder: str) -> tuple[np.ndarray, np.ndarray]:
    """Raw logits (the eight looks of ``vision.types.dihedral_outputs`` averaged, no temperature) of
    ``fold``'s photos read by the type reader trained without it, at the finder's box of the die nearest each
    photo's centre; and the true classes."""
    photos = ([p for p in photo_set("burks") if p.dice] if fold == "burks"
              else [p for p in photo_set("lurig") if lurig_fold(p.path) == fold])
    crops, truth = [], []
    for p in photos:
        if p.dice[0].sides not in SIDES:
            continue
        image = p.load()
        h, w = image.shape[:2]
        found = find_objects(image, model=finder)
        if not found:
            continue
        f = min(found, key=lambda f: math.hypot(f.cx - w / 2, f.cy - h / 2))
        crops.append(crop(image, f, scale=CROP_SCALE, size=CROP))
        truth.append(SIDES.index(p.dice[0].sides))
    model = str(card_path(fold).with_suffix(".onnx"))
    return dihedral_outputs(crops, model), np.array(truth)


def best_temperature(logits: np.ndarray, truth: np.ndarray) -> float:
    """The temperature of ``GRID`` whose softmax gives ``truth`` the lowest mean negative log-likelihood."""
    def nll(t: float) -> float:
        z = logits / t
        z = z - z.max(axis=1, keepdims=True)
        return float(np.mean(np.log(np.exp(z).sum(axis=1)) - z[np.arange(len(truth)), truth]))
    return float(GRID[int(np.argmin([nll(t) for t in GRID]))])


def sure_counts(logits: np.ndarray, truth: np.ndarray, t: float) -> tuple[int, int, int]:
    """(photos, sure at >= 0.8, wrong and sure) at temperature ``t``."""
    z = logits / t
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    sure = p.max(axis=1) >= 0.8
    return len(truth), int(sure.sum()), int((sure & (p.argmax(axis=1) != truth)).sum())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--finder", default="finder", help="the finder whose boxes are read (default: shipped)")
    ap.add_argument("--write", action="store_true", help="write the temperatures to the cards")
    args = ap.parse_args()
    held = {fold: held_out_logits(fold, args.finder) for fold in FOLDS}
    plan: dict[str | None, tuple[float, str, dict[str, int]]] = {}
    for fold in FOLDS:
        others = [f for f in FOLDS if f != fold]
        t = best_temperature(np.concatenate([held[f][0] for f in others]),
                             np.concatenate([held[f][1] for f in others]))
        n, sure, wrong = sure_counts(*held[fold], t)
        old = json.loads(card_path(fold).read_text())["temperature"]
        _, sure0, wrong0 = sure_counts(*held[fold], old)
        print(f"{fold}: {n} photos, temperature {old} -> {t:.2f}: sure {sure0} -> {sure}, "
              f"wrong and sure {wrong0} -> {wrong}", flush=True)
        plan[fold] = (t, f"held-out photos of the folds {others} read at the finder's boxes "
                         f"({args.finder}), each by the type reader trained without its fold (cross-fitted: "
                         "nothing of this fold)", {"photos": n, "sure": sure, "wrong_sure": wrong})
    t = best_temperature(np.concatenate([held[f][0] for f in FOLDS]),
                         np.concatenate([held[f][1] for f in FOLDS]))
    print(f"shipped: temperature {json.loads(card_path(None).read_text())['temperature']} -> {t:.2f}")
    plan[None] = (t, f"held-out photos of every fold {list(FOLDS)} read at the finder's boxes "
                     f"({args.finder}), each by the type reader trained without its fold", {})
    if not args.write:
        return
    finder_hash = sha256(model_path(args.finder))   # the test suite checks it against the shipped finder's
    for fold, (t, source, counts) in plan.items():
        path = card_path(fold)
        card = json.loads(path.read_text())
        card.setdefault("temperature_at_training_crops", card["temperature"])
        card["temperature"] = round(t, 3)
        card["temperature_from"] = source
        card["temperature_finder_sha256"] = finder_hash
        if counts:
            card["held_out_photos_at_finder_boxes"] = counts
        path.write_text(json.dumps(card, indent=1) + "\n")
        print("wrote", path.relative_to(ROOT))


if __name__ == "__main__":
    main()
