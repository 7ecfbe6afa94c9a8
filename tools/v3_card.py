"""Install a trained Vision III model with its card: copy ``RUN/<tag>.onnx`` to ``DEST/<name>.onnx`` and write
``DEST/<name>.json`` from the run's ``<tag>.train.json`` (command, seed, data, steps) plus the file's sha256
and any measured numbers given as JSON.

    python3 tools/v3_card.py /work/v3runs/finder2 vision/models/finder [--measured '{"...": ...}']
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("run", type=Path, help="RUN/<tag> (without .onnx)")
    ap.add_argument("dest", type=Path, help="DEST/<name> (without .onnx)")
    ap.add_argument("--measured", default="{}")
    ap.add_argument("--note", default="")
    args = ap.parse_args()
    src = args.run.with_suffix(".onnx")
    dst = args.dest.with_suffix(".onnx")
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dst)
    card = json.loads(args.run.with_suffix(".train.json").read_text())
    card["sha256"] = hashlib.sha256(dst.read_bytes()).hexdigest()
    card["bytes"] = dst.stat().st_size
    card["runtime"] = "cv2.dnn.readNet (ONNX opset 17, exported with dynamo=False)"
    card["measured"] = json.loads(args.measured)
    if args.note:
        card["note"] = args.note
    args.dest.with_suffix(".json").write_text(json.dumps(card, indent=1) + "\n")
    print(dst, card["sha256"][:12], card["bytes"])


if __name__ == "__main__":
    main()
