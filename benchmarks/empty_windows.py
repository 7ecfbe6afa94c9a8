"""Windows of real photos with no labelled die in them, read with and without ``vision.learned.FILLING``.

    python3 benchmarks/empty_windows.py [--set aws|nell|matteop65|all] [--seed S]

A frame in which nothing is reported is read once more as one die filling it (``FILLING``). Its risk is a
picture of empty table read as a die. From each labelled photo this cuts one square window, 60 px to half
the photo's short side at a random place (``--seed``; up to 20 tries), that no labelled die's box comes
within 5 px of, and reads it left out (``vision_eval.leave_out_models``) with the rule off and on. Prints,
per set, the windows read and the dice reported each way, and every window the rule alone made a die of.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import vision_eval as ve

from vision import learned, read_table

SETS = ("aws", "nell", "matteop65")


def empty_window(boxes: list[tuple[float, float, float, float]], shape: tuple[int, ...],
                 rng: np.random.Generator) -> tuple[int, int, int] | None:
    """(x, y, side) of a square window no box comes within 5 px of, or None after 20 tries."""
    h, w = shape[:2]
    for _ in range(20):
        s = int(rng.integers(60, min(h, w) // 2))
        x, y = int(rng.integers(0, w - s)), int(rng.integers(0, h - s))
        if not any(bx < x + s + 5 and x - 5 < bx + bw and by < y + s + 5 and y - 5 < by + bh
                   for bx, by, bw, bh in boxes):
            return x, y, s
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", choices=(*SETS, "all"), default="all")
    ap.add_argument("--seed", type=int, default=20267202)
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    for name in SETS if args.set == "all" else (args.set,):
        models = ve.leave_out_models(name)
        windows = without = with_rule = 0
        for photo in ve.labelled(name, True):
            image = photo.load()
            at = empty_window([d.bbox for d in photo.dice if d.bbox is not None], image.shape, rng)
            if at is None:
                continue
            x, y, s = at
            window = image[y:y + s, x:x + s].copy()
            learned.FILLING = False
            a = len(read_table(window, models=models).dice)
            learned.FILLING = True
            b = len(read_table(window, models=models).dice)
            windows, without, with_rule = windows + 1, without + a, with_rule + b
            if b > a:
                print(f"  {photo.path.name} window {at}: read as a die filling it")
        print(f"{name}: {windows} empty windows, dice reported without FILLING {without}, with {with_rule}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
