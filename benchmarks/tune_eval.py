"""What ``goblin-companion tune`` gives a table it was never trained on: each d6 set is read by the models
trained without it (as ``vision_eval.py --leave-out``); half its photos play the table's confirmed set
(``vision.tune.tune`` on them, with its own hold-back and keep rule), the other half is read before and
after with the calibration ``tune`` returns.

    python3 benchmarks/tune_eval.py [--set aws|nell|chase|matteop65|all] [--split interleaved|halves]
                                    [--confirmed N] [--noise P] [--json]

``interleaved``: every other photo is confirmed (a table whose light and dice stay the same all evening);
``halves``: the first half is confirmed, the second read (the labels' order: often other trays later).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import vision_eval as ve

from vision import read_table
from vision._cv import set_threads
from vision.data import LabelledPhoto
from vision.tune import tune

SETS = ("matteop65", "chase", "aws", "nell")
#: the draws of ``--noise``
NOISE_SEED = 20261202
KEYS = ("found_pct", "right_pct", "wrong_sure", "sure_right_pct", "phantom_per_photo")


def split(photos: list[LabelledPhoto], how: str) -> tuple[list[LabelledPhoto], list[LabelledPhoto]]:
    """(confirmed, read) halves of a set's photos."""
    if how == "interleaved":
        return photos[::2], photos[1::2]
    half = len(photos) // 2
    return photos[:half], photos[half:]


def confirmed(photos: list[LabelledPhoto], noise: float = 0.0, seed: int = NOISE_SEED
              ) -> list[tuple[object, list[tuple[tuple[float, ...], int]]]]:
    """The photos as the table's set hands them to ``tune``: each photo's dice with a box and a value
    (``companion.tuner.table_photos``'s rule). ``noise``: that share of the values replaced by another value
    (drawn with ``seed``): dice the players confirmed without looking (not part of the roll), read wrong."""
    rng = np.random.default_rng(seed)
    out = []
    for p in photos:
        image = p.load()
        h, w = image.shape[:2]
        # chase's crops are one die each, unboxed: the die is the crop (as tools/v3_data reads them)
        dice = [(d.bbox if d.bbox is not None else (0.0, 0.0, float(w), float(h)), int(d.value))
                for d in p.dice if d.value is not None and (d.bbox is not None or len(p.dice) == 1)]
        if noise:
            dice = [(box, int(rng.choice([v for v in range(1, 7) if v != value])) if rng.random() < noise
                     else value) for box, value in dice]
        if dice:
            out.append((image, dice))
    return out


def evaluate(name: str, how: str, most: int | None = None, noise: float = 0.0) -> dict[str, object]:
    models = ve.leave_out_models(name)
    fit, read = split(ve.labelled(name, False), how)
    fit = fit[:most]
    t0 = time.perf_counter()
    calibration, report = tune(confirmed(fit, noise), models=models)
    seconds = time.perf_counter() - t0
    rows = {}
    for tag, cal in (("before", None), ("after", calibration if report.kept else None)):
        r = ve.evaluate(name, read, lambda im, c=cal: read_table(im, models=models, calibration=c))
        rows[tag] = {k: r[k] for k in KEYS}
    return {"set": name, "split": how, "noise": noise, "confirmed_photos": len(fit), "read_photos": len(read),
            "tune": report.to_json(), "tune_seconds": round(seconds, 1), **rows}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--set", default="all", choices=["all", *SETS])
    ap.add_argument("--split", default="interleaved", choices=["interleaved", "halves"])
    ap.add_argument("--confirmed", type=int, default=None, metavar="N",
                    help="confirm only the first N photos of the confirmed half (how many a table needs)")
    ap.add_argument("--noise", type=float, default=0.0, metavar="P",
                    help="replace that share of the confirmed values by another value (unchecked dice)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    set_threads(1)
    for name in SETS if args.set == "all" else [args.set]:
        r = evaluate(name, args.split, args.confirmed, args.noise)
        if args.json:
            print(json.dumps(r), flush=True)
            continue
        t = r["tune"]
        print(f"== {name} ({args.split}): tune on {r['confirmed_photos']} photos, read {r['read_photos']}; "
              f"tune kept {t['kept']}{'' if t['kept'] else ' (' + str(t['reason']) + ')'} (held back: right "
              f"{t['right_before']} -> {t['right_after']} of {t['held_back_dice']}), {r['tune_seconds']} s",
              flush=True)
        for tag in ("before", "after"):
            print(f"   {tag:7s}" + "  ".join(f"{k} {r[tag][k]}" for k in KEYS), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
