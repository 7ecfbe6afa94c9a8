"""A diagnostic: the left-out face readers' batch norms set on a table's own unlabelled crops (AdaBN).

    python3 tools/adabn_study.py --set aws --half second --out DIR [--only-first] [--seed 20265601]
    python3 benchmarks/vision_eval.py --leave-out --set aws --half first --candidates DIR

Every batch norm of a network the product reads is folded into the conv before it. Loaded back with
``v3_train.load_fused_onnx`` on crops of the other sets (the "source": what the finder trained without
``--set`` hands its face readers on 40 photos of each other d6 set), each batch norm passes its conv's
output through unchanged; then its statistics are set, layer by layer, on the crops the finder hands the
readers on one half of the left-out set (``--half``, photos in the set's order; no label is read), so
that set's features are shifted and scaled to the source's. The first reader (56 px) and its second
reader (40 px, or kept as installed with ``--only-first``) are written to ``DIR`` with their cards, for
``vision_eval.py --candidates DIR`` on the other half. Nothing here tunes a threshold: the adapting half
is never measured. Training tool: needs torch and onnx.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from train_faces import Net, export, to_tensor
from v3_train import load_fused_onnx
from vision_eval import LEAVE_OUT, half, labelled, leave_out_models

import vision.faces as faces
import vision.learned as learned
from vision import read_table
from vision.data import LabelledPhoto

#: the sides the product's pair reads: the first reader's, the second's
SIDES = (56, 40)
#: objects a photo gives at most (the finder's strongest first), source crops at most
PER_PHOTO, MOST_SOURCE = 60, 3000


def record(photos: list[LabelledPhoto], models: tuple[str, str, str]) -> dict[int, list[np.ndarray]]:
    """Crops at both readers' sides of every object the finder hands the face reader in ``photos``, read
    as the product reads them (``read_table`` with ``models``)."""
    got: dict[int, list[np.ndarray]] = {s: [] for s in SIDES}
    real = learned.read_faces

    def spy(frame: np.ndarray, found: list[Any], **kw: Any) -> Any:
        for f in found[:PER_PHOTO]:
            for s in SIDES:
                got[s].append(faces.crop(frame, f, size=s))
        return real(frame, found, **kw)

    learned.read_faces = spy
    try:
        for p in photos:
            read_table(p.load(), models=models)
    finally:
        learned.read_faces = real
    return got


def turned(crops: list[np.ndarray], rng: np.random.Generator) -> list[np.ndarray]:
    """Each crop at a random quarter turn (the readers read four)."""
    return [np.ascontiguousarray(np.rot90(c, int(rng.integers(4)))) for c in crops]


def adapt(onnx_path: Path, source: list[np.ndarray], target: list[np.ndarray], side: int, out: Path,
          rng: np.random.Generator, layers: int = 0) -> float:
    """Write to ``out`` the reader ``onnx_path`` whose batch norms map ``target``'s statistics onto
    ``source``'s (``layers``: only the first so many, the others kept; 0: all). Returns the load's largest
    difference from the ONNX graph."""
    model = Net()
    diff = load_fused_onnx(model, str(onnx_path), to_tensor(turned(source, rng)))
    model.eval()
    bns = [m for m in model.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    for bn in bns[: layers or len(bns)]:
        bn.reset_running_stats()
        bn.momentum = None     # a running mean over the target's chunks
        bn.train()             # each layer normalised by the target's statistics as the next is set
    t = turned(target, rng)
    order = rng.permutation(len(t))
    with torch.no_grad():
        for i in range(0, len(t), 512):
            chunk = [t[j] for j in order[i:i + 512]]
            if len(chunk) >= 64 or i == 0:
                model(to_tensor(chunk))
    model.eval()
    export(model, side, out)
    return diff


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--set", required=True, choices=LEAVE_OUT)
    ap.add_argument("--half", required=True, choices=["first", "second"], help="the half adapted on")
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--only-first", action="store_true", help="the second reader kept as installed")
    ap.add_argument("--layers", type=int, default=0, help="adapt only the first N batch norms (0: all)")
    ap.add_argument("--source-photos", type=int, default=40)
    ap.add_argument("--seed", type=int, default=20265601)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    torch.manual_seed(a.seed)
    torch.set_num_threads(1)
    cv2.setNumThreads(1)
    models = leave_out_models(a.set)
    target = record(half(labelled(a.set, False), a.half), models)
    source: dict[int, list[np.ndarray]] = {s: [] for s in SIDES}
    for other in LEAVE_OUT:
        if other != a.set:
            photos = labelled(other, False)
            picks = np.linspace(0, len(photos) - 1, min(a.source_photos, len(photos))).astype(int)
            for s, crops in record([photos[i] for i in picks], models).items():
                source[s] += crops
    a.out.mkdir(parents=True, exist_ok=True)
    first = Path(models[1])
    second = first.parent / json.loads(first.with_suffix(".json").read_text())["ensemble"][0]
    for path, side in ((first, SIDES[0]), (second, SIDES[1])):
        card_out = a.out / path.with_suffix(".json").name
        if a.only_first and path == second:
            shutil.copy(path, a.out / path.name)
            shutil.copy(path.with_suffix(".json"), card_out)
            continue
        src = source[side]
        if len(src) > MOST_SOURCE:
            src = [src[i] for i in rng.choice(len(src), MOST_SOURCE, replace=False)]
        diff = adapt(path, src, target[side], side, a.out / path.name, rng, a.layers)
        card = json.loads(path.with_suffix(".json").read_text())
        card["adabn"] = {"command": "python3 tools/adabn_study.py " + " ".join(sys.argv[1:]), "seed": a.seed,
                         "half": a.half, "layers": a.layers or "all", "target_crops": len(target[side]),
                         "source_crops": len(src), "load_difference": diff}
        card.pop("sha256", None)
        card.pop("bytes", None)
        card_out.write_text(json.dumps(card, indent=1))
        print(f"{path.name}: adapted on {len(target[side])} crops of {a.set} ({a.half} half), "
              f"source {len(src)} crops; load difference {diff:.2g}", flush=True)


if __name__ == "__main__":
    main()
