"""Fit the die finder to one table: a short stage of training on the table's own confirmed photos.

    goblin-companion dataset export ~/table-set            # on the Pi: the table's set (companion.dataset)
    python3 tools/fit_table_finder.py ~/table-set --out finder-table.onnx [--minutes 6] [--seed 20263701]
    goblin-companion finder install finder-table.onnx      # on the Pi: the table reads with it

Where torch is (a laptop; the Pi reads ONNX with cv2.dnn and needs no torch). The shipped finder
(``vision/models/finder.onnx``, or ``--start``) is trained further on the set's photos alone for
``--minutes`` on one thread, as ``tools/train_finder.py`` trains it (windows, jitter, loss). One photo in
five is held back (``companion.finderfit.held_back``, as on the Pi): the whole reader is measured on them
with the finder before and after (dice found, read right, phantoms per photo; the benchmark's matching
rule), and the numbers (``"better"``: found no fewer, no more phantoms), the command and the seed go in
the card beside the model (``<out>.json``) and inside
it (its metadata, key ``goblin.card``: an upload from the phone carries it), which ``goblin-companion finder
install`` and the settings page show. A set of fewer than 10 photos is refused.

What it rests on (docs/vision.md, "A finder fitted on the table"): aws read by the finder trained without
it, its first 30 photos as the table's set, six minutes of this stage: found 89.7 -> 93.4% of its second
half (145 photos), phantoms 0.52 -> 0.03 per photo.

A set must box whole dice, as the camera boxes them (a table's own set does: its boxes are the camera's,
and the page's added dice are boxed by the finder). A set boxing part of each die (matteop65 boxes the pip
pattern, a third of the die) teaches the finder those boxes, and the reader then loses dice (matteop65 fitted
on its first half: 100 -> 93.5% found on its second half; the same photos boxed as the camera boxed them:
99.8%). So the set's boxes are compared with the shipped finder's on the held-back photos (``box_ratio``,
the median of label side / found side) and a set under ``SMALLEST_BOX_RATIO`` is refused
(``--any-boxes`` fits it anyway). In play, the table reads its latest confirmed photos with the fitted
finder and the shipped one and says when the fit misses more (``goblin-companion finder compare``, by itself
every 20 photos, and on the settings page: ``companion.tablefinder.compare``).

Mind: a die the players did not need in a roll may be unlabelled in the set (and then taught as "no die"):
add the dice the camera missed on the page before confirming (``POST /api/add-die``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from train_finder import batch, export, focal
from v3_data import Sample, render
from v3_models import Finder
from v3_train import budgeted_steps, load_fused_onnx

from companion.finderfit import FEWEST, SMALLEST_BOX_RATIO, better, held_back, measure
from companion.tablefinder import CARD_KEY
from vision.learned import MODELS

ROOT = Path(__file__).resolve().parents[1]


def load_set(folder: Path) -> list[Sample]:
    """The photos of a set in the ``labels.json`` format, each with its boxed dice."""
    labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    out = []
    for entry in labels["images"]:
        image = cv2.imread(str(folder / entry["file"]), cv2.IMREAD_COLOR)
        if image is None:
            print(f"skipped {entry['file']}: unreadable", file=sys.stderr)
            continue
        s = Sample("table", entry["file"], image)
        for d in entry.get("dice", []):
            if d.get("bbox") is not None:
                x, y, w, h = (float(v) for v in d["bbox"][:4])
                s.objects.append((x + w / 2, y + h / 2, w, h, int(d.get("value") or -1)))
        out.append(s)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("set", type=Path, help="a table's set (goblin-companion dataset export DIR)")
    ap.add_argument("--out", type=Path, required=True, help="the fitted finder (.onnx; its card beside it)")
    ap.add_argument("--start", type=Path, default=ROOT / "vision" / "models" / "finder.onnx",
                    help="the finder to start from (default: the shipped one)")
    ap.add_argument("--minutes", type=float, default=6.0)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=20263701)
    ap.add_argument("--renders", type=int, default=0,
                    help="randomised renders (tools/v3_data.render) drawn beside the table's photos, a fifth "
                         "of the windows: what the finder knew of other tables, kept as it learns this one")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--any-boxes", action="store_true",
                    help=f"fit a set whose boxes are under {SMALLEST_BOX_RATIO} of the finder's "
                         "(part of each die) all the same")
    args = ap.parse_args(argv)
    photos = load_set(args.set)
    if len(photos) < FEWEST:
        ap.error(f"{args.set} holds {len(photos)} readable photos; a fit needs {FEWEST} or more")
    held, taught = held_back(photos, lambda s: s.name)   # the same photos as the Pi's own fits hold back
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    pools = {"table": taught}
    if args.renders:
        pools["render"] = [render(args.seed * 10_000 + i) for i in range(args.renders)]
    model = Finder()
    x = torch.cat([batch(pools, rng, 16)[0] for _ in range(4)])
    load_fused_onnx(model, str(args.start), x)
    model.train()
    before = measure(held, (str(args.start), *MODELS[1:]))
    if (before["box_ratio"] or 1.0) < SMALLEST_BOX_RATIO and not args.any_boxes:
        ap.error(f"the set's boxes are {before['box_ratio']} of the finder's (median, on the {len(held)} "
                 f"held-back photos): they box part of each die, and a finder fitted on them loses dice "
                 f"(docs/vision.md). Box whole dice, or fit it all the same with --any-boxes")
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    t0 = time.time()
    steps = 0
    for _ in budgeted_steps(opt, args.minutes, args.lr):
        steps += 1
        xb, hm, box, mask = batch(pools, rng, 16)
        out = model(xb)
        loss = focal(out[:, :1], hm) + (torch.abs(out[:, 1:5] - box) * mask).sum() / mask.sum().clamp(min=1)
        opt.zero_grad()
        loss.backward()
        opt.step()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    export(model, args.out)
    after = measure(held, (str(args.out), *MODELS[1:]))
    given = sys.argv[1:] if argv is None else argv
    card = {"command": "python3 tools/fit_table_finder.py " + " ".join(given), "seed": args.seed,
            "steps": steps, "minutes": round((time.time() - t0) / 60, 1),
            "start": args.start.name, "photos": len(photos), "held_back": len(held),
            "before": before, "after": after, "torch": torch.__version__,
            "better": better(before, after)}
    Path(str(args.out) + ".json").write_text(json.dumps(card, indent=1), encoding="utf-8")
    # and inside the model, so a finder uploaded from the phone alone still shows what the fit measured
    # (companion.tablefinder.embedded_card reads it; the graph is unchanged)
    import onnx

    fitted = onnx.load(str(args.out))
    onnx.helper.set_model_props(fitted, {CARD_KEY: json.dumps(card)})
    onnx.save(fitted, str(args.out))
    print(json.dumps(card))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
