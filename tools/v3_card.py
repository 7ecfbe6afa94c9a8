"""Install a trained Vision III model with its card: copy ``RUN/<tag>.onnx`` to ``DEST/<name>.onnx`` and write
``DEST/<name>.json`` from the run's ``<tag>.train.json`` (command, seed, data, steps) plus the file's sha256
and any measured numbers given as JSON.

    python3 tools/v3_card.py /work/v3runs/finder2 vision/models/finder [--measured '{"...": ...}']
    python3 tools/v3_card.py RUN/faces-no-aws benchmarks/models/faces2-no-aws --stage-of \
        benchmarks/models/faces2-no-aws.json

``--stage-of CARD``: the run is a further training stage of the model whose card is CARD (the second
reader of a face pair, resumed from its own export; or the first, at another side): the new card keeps CARD's
temperature and where it came from (a stage does not refit it), its ``ensemble_member_of``, or its
``ensemble`` and ``sure_from``, and CARD's command, seed, steps and sha256 under ``resumed_from``; the run's
own temperature is kept as ``temperature_trained``; the side it reads (``"crop"``) is the run's.
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


def _run_card(src: Path) -> dict[str, Any]:
    """The run's ``<tag>.train.json``, its directory written ``DIR`` in the command."""
    card: dict[str, Any] = json.loads(src.with_suffix(".train.json").read_text())
    card["command"] = card["command"].replace(str(src.parent), "DIR")
    return card


def install_calibrated(src: Path, dest: Path, temperature: float, fitted_on: str,
                       extra: dict[str, Any]) -> None:
    """``install`` a model whose temperature was fitted on held-out data: the run's own temperature is kept
    as ``temperature_fitted_on_<fitted_on>``, and the run's directory is written ``DIR`` in the command."""
    card = _run_card(src)
    card[f"temperature_fitted_on_{fitted_on}"] = card.pop("temperature")
    card["temperature"] = round(temperature, 3)
    install(src, dest, card, extra)


def install_stage(src: Path, dest: Path, old: dict[str, Any]) -> dict[str, Any]:
    """``install`` ``src`` (a run resumed from the model whose card is ``old``) with ``old``'s temperature,
    its origin, its ensemble and its "sure" bar kept (``--stage-of``)."""
    card = _run_card(src)
    card["temperature_trained"] = card.pop("temperature")
    for key in ("temperature", "temperature_from", "ensemble_member_of", "ensemble", "sure_from",
                "sure_from_fitted"):
        if key in old:
            card[key] = old[key]
    card["resumed_from"] = {k: old[k] for k in ("command", "seed", "steps", "sha256") if k in old}
    return install(src, dest, card)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("run", type=Path, help="RUN/<tag> (without .onnx)")
    ap.add_argument("dest", type=Path, help="DEST/<name> (without .onnx)")
    ap.add_argument("--measured", default="{}")
    ap.add_argument("--note", default="")
    ap.add_argument("--stage-of", type=Path, metavar="CARD",
                    help="the card of the model this run resumed (its temperature and ensemble are kept)")
    args = ap.parse_args()
    if args.stage_of is not None:
        install_stage(args.run, args.dest, json.loads(args.stage_of.read_text()))
        return
    extra: dict[str, Any] = {"measured": json.loads(args.measured)}
    if args.note:
        extra["note"] = args.note
    install(args.run, args.dest, json.loads(args.run.with_suffix(".train.json").read_text()), extra)


if __name__ == "__main__":
    main()
