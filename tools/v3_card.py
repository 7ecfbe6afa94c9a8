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
from typing import Any

RUNTIME = "cv2.dnn.readNet (ONNX opset 17, exported with dynamo=False)"


def install(src: Path, dest: Path, card: dict[str, Any],
            extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """Copy ``src.onnx`` to ``dest.onnx`` and write ``dest.json``: ``card`` with the copy's sha256, size and
    runtime, then ``extra``. Returns the card written."""
    dst = dest.with_suffix(".onnx")
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src.with_suffix(".onnx"), dst)
    card["sha256"] = hashlib.sha256(dst.read_bytes()).hexdigest()
    card["bytes"] = dst.stat().st_size
    card["runtime"] = RUNTIME
    card.update(extra or {})
    dest.with_suffix(".json").write_text(json.dumps(card, indent=1) + "\n")
    print(dst, card.get("temperature", ""), card["sha256"][:12], card["bytes"], flush=True)
    return card


def install_calibrated(src: Path, dest: Path, temperature: float, fitted_on: str,
                       extra: dict[str, Any]) -> None:
    """``install`` a model whose temperature was fitted on held-out data: the run's own temperature is kept
    as ``temperature_fitted_on_<fitted_on>``, and the run's directory is written ``DIR`` in the command."""
    card = json.loads(src.with_suffix(".train.json").read_text())
    card["command"] = card["command"].replace(str(src.parent), "DIR")
    card[f"temperature_fitted_on_{fitted_on}"] = card.pop("temperature")
    card["temperature"] = round(temperature, 3)
    install(src, dest, card, extra)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("run", type=Path, help="RUN/<tag> (without .onnx)")
    ap.add_argument("dest", type=Path, help="DEST/<name> (without .onnx)")
    ap.add_argument("--measured", default="{}")
    ap.add_argument("--note", default="")
    args = ap.parse_args()
    extra: dict[str, Any] = {"measured": json.loads(args.measured)}
    if args.note:
        extra["note"] = args.note
    install(args.run, args.dest, json.loads(args.run.with_suffix(".train.json").read_text()), extra)


if __name__ == "__main__":
    main()
