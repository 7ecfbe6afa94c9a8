"""The temperature of a pair of face readers, cross-fitted as each reader's own (tools/faces_cards.py).

    python3 tools/ensemble_temperature.py [--write]

A card that names siblings (``"ensemble"``) is read as the mean of each reader's logits divided by its own
temperature (``vision.faces.read_crops``). Each temperature was fitted for its reader alone; the mean of two
can be more or less sure than either. So, as for one reader: each left-out pair (``faces-no-S`` and its
sibling) reads the held-out crops of its own source S (labelled dice, tray, half dice, and what the finder
trained without S finds that is no die), through ``cv2.dnn`` as the product reads; the pair of S is given
the ``ensemble_temperature`` (dividing the mean) that fits the *other* sources' crops best, nothing of S;
the shipped pair the one that fits every source's. ``--write`` writes it to the first reader's card.
Training only (the crops come from ``tools/train_faces.py``, which needs torch).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from faces_cards import SOURCES, summary  # noqa: E402
from train_faces import crop, hard_negatives, items  # noqa: E402
from v3_data import load_source  # noqa: E402
from v3_train import best_temperature  # noqa: E402

from vision.faces import BATCH, CLASSES, crop_side, members, temperature  # noqa: E402
from vision.finder import turned_outputs  # noqa: E402

GRID = np.arange(0.5, 2.01, 0.05)
MODELS = ROOT / "benchmarks" / "models"


def pair_logits(model: str, source: str, finder: str) -> tuple[torch.Tensor, torch.Tensor]:
    """The mean of the calibrated logits of ``model``'s readers on ``source``'s held-out crops, and truth."""
    rng = np.random.default_rng(7)
    samples = load_source(source)
    its = items(samples, rng) + hard_negatives(samples, finder, rng)
    n = len(CLASSES)
    readers = members(model)
    mean = np.mean([turned_outputs([crop(it, None, size=crop_side(m)) for it in its], m, turns=4,
                                   batch=BATCH)[:, :n] / temperature(m) for m in readers], axis=0)
    return torch.tensor(mean, dtype=torch.float32), torch.tensor([it[4] for it in its])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", action="store_true", help="write ensemble_temperature to the cards")
    args = ap.parse_args()
    torch.set_num_threads(1)
    held = {}
    for s in SOURCES:
        finder = "finder" if s == "chase" else str(MODELS / f"finder-no-{s}.onnx")
        held[s] = pair_logits(str(MODELS / f"faces-no-{s}.onnx"), s, finder)
        print(s, "pair at 1.0", summary(*held[s], 1.0), flush=True)
    fitted = {}
    for s in SOURCES:
        others = [o for o in SOURCES if o != s]
        t = best_temperature(torch.cat([held[o][0] for o in others]), torch.cat([held[o][1] for o in others]),
                             GRID)[0]
        fitted[MODELS / f"faces-no-{s}.json"] = (t, others, summary(*held[s], t))
        print(s, "cross-fitted", round(t, 3), summary(*held[s], t), flush=True)
    t = best_temperature(torch.cat([held[s][0] for s in SOURCES]), torch.cat([held[s][1] for s in SOURCES]),
                         GRID)[0]
    fitted[ROOT / "vision" / "models" / "faces.json"] = (t, list(SOURCES), {s: summary(*held[s], t)
                                                                            for s in SOURCES})
    print("shipped", round(t, 3), flush=True)
    if not args.write:
        return
    for path, (t, others, measured) in fitted.items():
        card = json.loads(path.read_text())
        card["ensemble_temperature"] = round(t, 3)
        card["ensemble_temperature_from"] = (f"held-out crops of {others}, each read by the pair trained "
                                             "without it (tools/ensemble_temperature.py)")
        card["ensemble_held_out_crops"] = measured
        path.write_text(json.dumps(card, indent=1) + "\n")
        print(path, "ensemble_temperature", round(t, 3))


if __name__ == "__main__":
    main()
