"""A die the camera missed, added by a tap on the page: how well ``vision.finder.found_at`` boxes it.

    python3 benchmarks/tap_eval.py aws nell --spread 0.6 --seed 1

For every labelled die of a set that ``read_table`` misses with the models trained without that set
(``vision_eval.leave_out_models``), a tap lands at a random place within ``--spread`` of the die's side
from its centre (a finger on a phone's picture misses a small die's centre by half a die). Printed: how
many missed dice ``found_at`` boxes, how many of its boxes match the label (IoU >= 0.5), and the same for
what the session gives without it (a square of the frame's dice size centred on the tap), and its time.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import vision_eval as ve

from vision import read_table
from vision._cv import set_threads
from vision.data import match_boxes
from vision.finder import found_at


def iou(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    ix = max(0.0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
    return ix * iy / (a[2] * a[3] + b[2] * b[3] - ix * iy)


def measure(name: str, spread: float, rng: np.random.Generator) -> dict[str, float]:
    models = ve.leave_out_models(name)
    missed = boxed = finder_good = square_good = either_good = 0
    ms: list[float] = []
    for photo in ve.labelled(name, False):
        image = photo.load()
        reading = read_table(image, models=models)
        labels = [tuple(d.bbox) for d in photo.dice]
        hit = {i for i, _ in match_boxes(labels, [d.bbox for d in reading.dice])}
        sides = sorted(max(d.bbox[2], d.bbox[3]) for d in reading.dice)
        side = sides[len(sides) // 2] if sides else None
        for i, lab in enumerate(labels):
            if i in hit:
                continue
            missed += 1
            r, a = spread * max(lab[2], lab[3]) * np.sqrt(rng.random()), rng.random() * 2 * np.pi
            x, y = lab[0] + lab[2] / 2 + r * np.cos(a), lab[1] + lab[3] / 2 + r * np.sin(a)
            t0 = time.perf_counter()
            found = found_at(image, x, y, side=side, model=models[0])
            ms.append((time.perf_counter() - t0) * 1000)
            square = iou((x - side / 2, y - side / 2, side, side), lab) >= 0.5 if side else False
            square_good += square
            if found is None:
                either_good += square
                continue
            boxed += 1
            good = iou(found.box(image.shape), lab) >= 0.5
            finder_good += good
            either_good += good
    return {"missed": missed, "boxed": boxed, "finder_iou50": finder_good, "square_iou50": square_good,
            "given_iou50": either_good, "ms_median": float(np.median(ms)) if ms else 0.0,
            "ms_max": max(ms, default=0.0)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="+", help="set names, as vision_eval.py takes them (aws, nell, ...)")
    parser.add_argument("--spread", type=float, default=0.6, help="tap off the centre, in die sides")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    set_threads(1)
    rng = np.random.default_rng(args.seed)
    print("set     missed  boxed  box IoU>=.5  square IoU>=.5  given IoU>=.5  ms median/max")
    for name in args.sets:
        m = measure(name, args.spread, rng)
        print(f"{name:<7} {m['missed']:>6} {m['boxed']:>6} {m['finder_iou50']:>12} {m['square_iou50']:>15} "
              f"{m['given_iou50']:>14}  {m['ms_median']:.0f}/{m['ms_max']:.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
