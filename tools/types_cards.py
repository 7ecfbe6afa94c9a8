"""Temperatures of the type readers from held-out videos, and their cards.

    python3 tools/types_cards.py RUN_DIR [--cache RUN_DIR/types-items.npz] [--shipped TAG --resumed-from TAG]

A temperature fitted on photos of the videos a model trained on makes it over-sure on a video it never
saw (the first type reader: 95 of 331 "sure" readings of the wood videos were wrong). So temperatures come
from held-out predictions only:

- each held-out fold's model (``types-no-<fold>``) reads its own fold; those logits are what "a video never
  seen" looks like;
- the model of fold F is given the temperature that fits the *other* folds' held-out logits best
  (cross-fitted: nothing of F sets F's confidence), written to ``benchmarks/models/types-no-F.json``;
- the shipped model (``types``) is given the temperature that fits every fold's held-out logits, written
  with ``tools/v3_card.py``'s fields to ``vision/models/types.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from train_types import FOLDS, Item, TypeNet, logits_of, plain
from v3_card import install_calibrated
from v3_train import best_temperature

ROOT = Path(__file__).resolve().parents[1]
TEMPERATURES = np.arange(0.5, 6.01, 0.05)


def held_out_temperature(logits: torch.Tensor, truth: torch.Tensor) -> float:
    return best_temperature(logits, truth, TEMPERATURES)[0]


def fold_tag(args: argparse.Namespace, fold: str) -> str:
    tag = f"types-no-{fold}{args.fold_suffix}"
    return tag if (args.run / f"{tag}.pt").exists() else f"types-no-{fold}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("run", type=Path)
    ap.add_argument("--cache", type=Path, default=None)
    ap.add_argument("--shipped", default="types", help="the run's tag of the model to ship")
    ap.add_argument("--resumed-from", default="", help="the tag of the run it resumed, if any")
    ap.add_argument("--fold-suffix", default="", help="the folds' runs are types-no-<fold><suffix> (resumed "
                                                      "from types-no-<fold>) where that run exists")
    args = ap.parse_args()
    z = np.load(args.cache or args.run / "types-items.npz")
    items: list[Item] = [(im, int(k), str(s), str(f)) for im, k, s, f in
                         zip(z["crops"], z["kinds"], z["sources"], z["folds"], strict=True)]
    held: dict[str, tuple[torch.Tensor, torch.Tensor]] = {}
    for fold in FOLDS:
        model = TypeNet()
        model.load_state_dict(torch.load(args.run / f"{fold_tag(args, fold)}.pt"))
        model.eval()
        mine = [it for it in items if it[3] == fold]
        held[fold] = (logits_of(model, [plain(it) for it in mine]), torch.tensor([it[1] for it in mine]))
        acc = (held[fold][0].argmax(1) == held[fold][1]).float().mean().item()
        print(f"{fold}: {len(mine)} held out, {100 * acc:.1f}% right", flush=True)
    for fold in FOLDS:
        others = [f for f in FOLDS if f != fold]
        t = held_out_temperature(torch.cat([held[f][0] for f in others]),
                                 torch.cat([held[f][1] for f in others]))
        logits, truth = held[fold]
        p = F.softmax(logits / t, 1)
        conf, pred = p.max(1)
        sure = conf >= 0.8
        resumed = {}
        if fold_tag(args, fold) != f"types-no-{fold}":
            resumed = {"resumed_from": json.loads((args.run / f"types-no-{fold}.train.json").read_text())}
        dest = ROOT / "benchmarks" / "models" / f"types-no-{fold}"
        src = args.run / fold_tag(args, fold)
        install_calibrated(src, dest, t, "training_videos", {**resumed,
            "temperature_from": f"held-out logits of the folds {others}, each read by the model trained "
                                "without it (cross-fitted: nothing of this fold)",
            "held_out_crops": {"right": round(float((pred == truth).float().mean()), 4),
                               "sure": int(sure.sum()), "wrong_sure": int((sure & (pred != truth)).sum())}})
    t = held_out_temperature(torch.cat([held[f][0] for f in FOLDS]), torch.cat([held[f][1] for f in FOLDS]))
    first = {}
    if args.resumed_from:
        first = {"resumed_from": json.loads((args.run / f"{args.resumed_from}.train.json").read_text())}
        first["resumed_from"]["command"] = first["resumed_from"]["command"].replace(str(args.run), "DIR")
    shipped = ROOT / "vision" / "models" / "types"
    install_calibrated(args.run / args.shipped, shipped, t, "training_videos", {**first,
        "temperature_from": f"held-out logits of every fold {list(FOLDS)}, each read by the model trained "
                            "without it",
        "note": "Trained on Lurig (2000 photos, every video), burks and vision.poly.synth renders."})


if __name__ == "__main__":
    main()
