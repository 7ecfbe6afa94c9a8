"""A labelled set's dice boxed as a camera boxes them: each labelled die's box replaced by the box the whole
reader (with ``--finder``) gives it, where it finds the die (the benchmark's matching rule); the label's own
box where it does not. For training the finder on one box convention: matteop65 boxes the pip pattern (a
third of each die), aws and nell-byler the die, and a finder trained on both boxes white dice with black
pips as their pips (docs/vision.md, "A finder fitted on the table").

    python3 tools/rebox.py matteop65 --finder benchmarks/models/finder-no-matteop65.onnx --out rebox.json

The output maps each photo's ``file`` to its dice's boxes [x, y, w, h] in ``labels.json`` order (the dice
with a box); ``tools/train_finder.py --reboxed matteop65=rebox.json`` trains with them.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from v3_data import FOLDERS, _labels

from vision import read_table
from vision.data import match_boxes, photos_dir
from vision.learned import MODELS


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source", help="a set of ../shared/dice-photos with boxes (matteop65, aws, nell)")
    ap.add_argument("--finder", required=True, help="the finder the reader boxes with (trained without it)")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    root = photos_dir()
    assert root is not None, "dice-photos folder not found"
    folder = root / FOLDERS[args.source]
    models = (args.finder, *MODELS[1:])
    out: dict[str, list[list[float]]] = {}
    moved = kept = 0
    for entry in _labels(folder)["images"]:
        image = cv2.imread(str(folder / entry["file"]), cv2.IMREAD_COLOR)
        boxes = [[float(v) for v in d["bbox"]] for d in entry["dice"] if d.get("bbox") is not None]
        if image is None or not boxes:
            continue
        got = [d.bbox for d in read_table(image, models=models).dice]
        for i, j in match_boxes([tuple(b) for b in boxes], got):
            boxes[i] = [float(v) for v in got[j]]
            moved += 1
        kept += len(boxes)
        out[entry["file"]] = boxes
    args.out.write_text(json.dumps(out), encoding="utf-8")
    print(json.dumps({"source": args.source, "dice": kept, "reboxed": moved, "finder": args.finder}))


if __name__ == "__main__":
    main()
