"""Rebuild the bundled demo photos from the labelled development set (kept for provenance).

    python3 -m companion.demo.build /work/shared/dice-photos/matteop65__Dice_Detection_Recognition

Each demo photo puts two real webcam photos side by side: the left one is player 0's half of the tray
(zone ``p0``), the right one player 1's (``p1``), as ``vision.Zones.halves()`` splits a frame. The labels
of the source photos (their authors' own) are carried over into ``labels.json`` with the boxes moved.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

HERE = Path(__file__).parent
#: (left photo, right photo) for each demo frame, in replay order.
PAIRS = (
    ("images/Valid/valid_51.jpg", "images/Train/four_31.jpg"),
    ("images/Train/five_32.jpg", "images/Valid/valid_57.jpg"),
    ("images/Train/six_36.jpg", "images/Train/three_36.jpg"),
    ("images/Valid/valid_60.jpg", "images/Train/two_36.jpg"),
)
QUALITY = 82


def build(source: Path) -> list[dict[str, Any]]:
    labels = json.loads((source / "labels.json").read_text())
    by_file = {image["file"]: image for image in labels["images"]}
    out: list[dict[str, Any]] = []
    for n, pair in enumerate(PAIRS, 1):
        halves, dice = [], []
        for side, name in enumerate(pair):
            image = cv2.imread(str(source / name))
            if image is None:
                raise SystemExit(f"cannot read {source / name}")
            halves.append(image)
            offset = sum(h.shape[1] for h in halves[:-1])
            for die in by_file[name]["dice"]:
                x, y, w, h = die["bbox"]
                dice.append({"sides": die["sides"], "value": die["value"], "zone": f"p{side}",
                             "bbox": [x + offset, y, w, h]})
        frame = np.hstack(halves)
        file = f"table_{n:02d}.jpg"
        cv2.imwrite(str(HERE / file), frame, [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
        out.append({"file": file, "from": list(pair), "dice": dice})
    (HERE / "labels.json").write_text(json.dumps(
        {"source": labels["source"], "license": labels["license"], "images": out}, indent=1) + "\n")
    return out


if __name__ == "__main__":  # pragma: no cover
    for image in build(Path(sys.argv[1])):
        print(image["file"], [d["value"] for d in image["dice"]])
