"""Temperatures of the face readers from sources never trained on, and their cards.

    python3 tools/faces_cards.py RUN_DIR [--shipped TAG_OR_STEM] [--finders benchmarks/models]
                                          [--resumed-from DIR]

A temperature fitted on photos of the sources a reader trained on makes it over-sure on a table it never
saw (the leave-one-out readers of 2026-11-25, calibrated on their training sources, were right on only
96.8% of their "sure" aws dice). So temperatures come from held-out predictions only, as for the type reader
(tools/types_cards.py):

- each leave-one-out reader (``faces-no-S``) reads the crops of its own source S: labelled dice at their
  boxes, the tray away from every die, half dice at a crop's edge, and what the finder trained without S
  finds there that is no die (``none``), the way ``vision.faces`` reads them (quarter turns averaged);
- the reader of S is given the temperature that fits the *other* sources' held-out logits best
  (cross-fitted: nothing of S sets S's confidence), written to ``benchmarks/models/faces-no-S.json``;
- the shipped reader is given the temperature that fits every source's held-out logits, written to
  ``vision/models/faces.json``, and its ``taught_cosine`` (``TAUGHT_QUANTILE`` of the cosines between
  objects of different classes in the photos its training kept aside, one in ten of each source): the
  cosine at which teach mode takes an object for a taught one must sit above what unrelated dice reach,
  and every trained reader's embedding spreads differently (0.82 for the reader of 2026-11-25, 0.72 for
  one trained 62 minutes more).
Training only; the product reads the temperature from the card.
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

from train_faces import Net, crop, hard_negatives, items, to_tensor
from v3_card import install_calibrated
from v3_data import load_source
from v3_train import best_temperature, load_fused_onnx

from vision.faces import CLASSES, CROP

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("matteop65", "chase", "aws", "nell")
TEMPERATURES = np.arange(0.3, 4.01, 0.05)
#: teach mode's cosine: objects of different classes come this near once in a hundred pairs
TAUGHT_QUANTILE = 0.99


def fit_taught_cosine(onnx: Path) -> dict[str, float | int]:
    """``taught_cosine`` of the reader ``onnx``: ``TAUGHT_QUANTILE`` of the cosines between the product's
    embeddings (``vision.faces.read_crops``) of labelled objects of different classes, on the photos the
    training kept aside (one in ten of each source, as in tools/train_faces.py)."""
    from vision.faces import crop_side, read_crops

    its = []
    for s in SOURCES:
        kept = [x for i, x in enumerate(load_source(s)) if i % 10 == 0]
        its += items(kept, np.random.default_rng(7))
    side = crop_side(str(onnx))     # the square this reader reads (its card's "crop")
    emb = np.stack([r.embedding for r in read_crops([crop(it, None, size=side) for it in its],
                                                    model=str(onnx))])
    lab = np.array([it[4] for it in its])
    other = (emb @ emb.T)[lab[:, None] != lab[None, :]]
    return {"taught_cosine": round(float(np.quantile(other, TAUGHT_QUANTILE)), 3),
            "taught_cosine_from": f"{TAUGHT_QUANTILE} quantile of the cosines between {len(lab)} objects of "
                                  f"different classes on the kept-aside photos of {list(SOURCES)}"}


def load_reader(stem: Path, source: str) -> Net:
    """The reader ``stem.pt``, or, when a new machine kept only ``stem.onnx`` (the product's file), that
    export recovered for reading (``v3_train.load_fused_onnx``, exact in eval mode, calibrated on crops of
    ``source``'s kept-aside photos at the side it reads, ``reader_side``)."""
    model = Net()
    if stem.with_suffix(".pt").exists():
        model.load_state_dict(torch.load(stem.with_suffix(".pt")))
    else:
        its = items([x for i, x in enumerate(load_source(source)) if i % 10 == 0], np.random.default_rng(3))
        side = reader_side(stem)   # its BatchNorms are set on crops of the size it reads
        calibration = to_tensor([crop(it, np.random.default_rng(i), size=side)
                                 for i, it in enumerate(its[:512])])
        print(stem.name, "recovered from its ONNX export, largest difference",
              load_fused_onnx(model, str(stem.with_suffix(".onnx")), calibration), flush=True)
    model.eval()
    return model


def reader_stem(run: Path, installed: Path, source: str) -> tuple[Path, bool]:
    """The reader trained without ``source``: the run's when it has one (``True``), else the installed one
    in ``installed``, unchanged, whose temperature is fitted again with the others' (``False``)."""
    stem = run / f"faces-no-{source}"
    if stem.with_suffix(".pt").exists() or stem.with_suffix(".onnx").exists():
        return stem, True
    return installed / f"faces-no-{source}", False


def reader_side(stem: Path) -> int:
    """The side of the square the reader ``stem`` reads: its card's or its training record's ``"crop"``."""
    for card in (stem.with_suffix(".json"), stem.with_suffix(".train.json")):
        if card.exists():
            return int(json.loads(card.read_text()).get("crop", CROP))
    return CROP


def held_logits(model: Net, source: str, finder: str, side: int = CROP) -> tuple[torch.Tensor, torch.Tensor]:
    rng = np.random.default_rng(7)
    samples = load_source(source)
    its = items(samples, rng) + hard_negatives(samples, finder, rng)
    xs = [crop(it, None, size=side) for it in its]
    total = torch.zeros(len(xs), len(CLASSES))
    with torch.no_grad():
        for k in range(4):
            turned = [np.ascontiguousarray(np.rot90(x, k)) for x in xs]
            total += torch.cat([model(to_tensor(turned[i:i + 256]))[:, : len(CLASSES)]
                                for i in range(0, len(turned), 256)])
    return total / 4, torch.tensor([it[4] for it in its])


def summary(logits: torch.Tensor, truth: torch.Tensor, t: float) -> dict[str, float | int]:
    conf, pred = F.softmax(logits / t, 1).max(1)
    sure = conf >= 0.8
    return {"crops": len(truth), "right": round(float((pred == truth).float().mean()), 4),
            "sure": int(sure.sum()), "wrong_sure": int((sure & (pred != truth)).sum())}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("run", type=Path, help="the directory with faces-no-<source>.pt (or only its .onnx); a "
                    "source it has none of keeps its installed reader (in --finders), temperature refitted")
    ap.add_argument("--shipped", type=Path, default=Path("faces"),
                    help="the shipped reader's stem: a tag in RUN_DIR, or a path without suffix")
    ap.add_argument("--finders", type=Path, default=ROOT / "benchmarks" / "models",
                    help="where finder-no-<source>.onnx are (chase: the shipped finder)")
    ap.add_argument("--resumed-from", type=Path, default=None,
                    help="the directory of the runs these resumed (their cards are kept in the new ones)")
    args = ap.parse_args()
    torch.set_num_threads(1)
    held: dict[str, tuple[torch.Tensor, torch.Tensor]] = {}
    stems = {s: reader_stem(args.run, args.finders, s) for s in SOURCES}
    for s in SOURCES:
        model = load_reader(stems[s][0], s)
        finder = "finder" if s == "chase" else str(args.finders / f"finder-no-{s}.onnx")
        held[s] = held_logits(model, s, finder, reader_side(stems[s][0]))
        print(s, summary(*held[s], 1.0), flush=True)

    def resumed(tag: str) -> dict[str, object]:
        if args.resumed_from is None or not (args.resumed_from / f"{tag}.train.json").exists():
            return {}
        first = json.loads((args.resumed_from / f"{tag}.train.json").read_text())
        first["command"] = first["command"].replace(str(args.resumed_from), "DIR0")
        return {"resumed_from": first}

    for s in SOURCES:
        others = [o for o in SOURCES if o != s]
        t = best_temperature(torch.cat([held[o][0] for o in others]), torch.cat([held[o][1] for o in others]),
                             TEMPERATURES)[0]
        dest = args.finders / f"faces-no-{s}"
        fitted = {"temperature_from": f"held-out crops of {others}, each read by the reader trained without "
                                      "it (cross-fitted: nothing of this source)",
                  "held_out_crops": summary(*held[s], t)}
        if stems[s][1]:
            install_calibrated(args.run / f"faces-no-{s}", dest, t, "training_sources",
                               {**resumed(f"faces-no-{s}"), **fitted})
        else:   # not retrained: only its temperature moves, with the other readers
            card = json.loads(dest.with_suffix(".json").read_text())
            card.update({"temperature": round(t, 3), **fitted})
            dest.with_suffix(".json").write_text(json.dumps(card, indent=1) + "\n")
            print(dest, "kept, temperature", round(t, 3), flush=True)
    t = best_temperature(torch.cat([held[s][0] for s in SOURCES]), torch.cat([held[s][1] for s in SOURCES]),
                         TEMPERATURES)[0]
    shipped = args.shipped if args.shipped.parent != Path(".") else args.run / args.shipped
    install_calibrated(shipped, ROOT / "vision" / "models" / "faces", t, "training_sources", {
        **resumed(shipped.name), **fit_taught_cosine(shipped.with_suffix(".onnx")),
        "temperature_from": f"held-out crops of every source {list(SOURCES)}, each read by the reader "
                            "trained without it",
        "held_out_crops": {s: summary(*held[s], t) for s in SOURCES}})


if __name__ == "__main__":
    main()
