"""What the camera reads on a patterned cloth with no die on it: phantoms a frame, how many sure, the time.

    python3 benchmarks/cloth_phantoms.py [--size 2028x1520] [--repeats 3] [--models FINDER FACES]

A stress test, not an accuracy measure: the cloths are drawn here (polka dots at pip scale and larger,
light on dark and dark on light, a checkerboard, gingham), because the real photo sets hold no such cloth.
Every object reported on them is a phantom. The issue's targets are 0.2 phantoms a photo and no sure
mistake; a cloth whose dots are the size and spacing of pips is the worst case the finder and the face
reader can meet, since any 2x2 of dots *is* a "4" face without its die. Prints, per cloth: dice and tokens
reported, how many of them sure (>= 0.8), the most confident one, and the median CPU ms per frame (one
OpenCV thread).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision import read_table
from vision.synth import polka_dots as polka

SURE = 0.8


def checks(w: int, h: int, *, period: int, a: tuple[int, int, int], b: tuple[int, int, int]) -> np.ndarray:
    yy, xx = np.mgrid[0:h, 0:w]
    on = ((yy // period + xx // period) % 2).astype(bool)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = a
    img[on] = b
    return img


def gingham(w: int, h: int, *, period: int, colour: tuple[int, int, int]) -> np.ndarray:
    yy, xx = np.mgrid[0:h, 0:w]
    band = ((yy // period) % 2).astype(np.float32) + ((xx // period) % 2).astype(np.float32)
    white = np.array([245, 245, 245], np.float32)
    ink = np.array(colour, np.float32)
    img = white[None, None] + (ink - white)[None, None] * (band / 2)[..., None]
    return img.astype(np.uint8)


def cloths(w: int, h: int) -> dict[str, Callable[[], np.ndarray]]:
    """Each cloth's name and how to draw it at ``w`` x ``h``; the scales are fractions of the frame, so
    a dot is a pip of a die about a twentieth to a tenth of the frame wide."""
    p = max(8, w // 85)
    return {
        "black dots on white, pip scale": lambda: polka(w, h, period=p, radius=max(2, p // 5),
                                                        cloth=(230, 230, 230), dot=(20, 20, 20)),
        "white dots on red, pip scale": lambda: polka(w, h, period=p, radius=max(2, p // 5),
                                                      cloth=(40, 40, 180), dot=(240, 240, 240)),
        "white dots on navy, staggered, twice": lambda: polka(w, h, period=2 * p, radius=max(2, p // 3),
                                                              cloth=(90, 30, 20), dot=(235, 235, 235),
                                                              stagger=True),
        "red dots on cream, four times": lambda: polka(w, h, period=4 * p, radius=max(3, (4 * p) // 6),
                                                       cloth=(200, 235, 245), dot=(30, 30, 200)),
        "checkerboard, pip scale": lambda: checks(w, h, period=max(2, p // 2), a=(30, 30, 30),
                                                  b=(220, 220, 220)),
        "gingham, blue": lambda: gingham(w, h, period=max(3, p // 2), colour=(160, 80, 20)),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", default="2028x1520", help="frame size WxH (default: the Pi HQ camera's)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--models", nargs=2, metavar=("FINDER", "FACES"), default=None,
                    help="read with these finder and face reader (names or .onnx paths; default: shipped)")
    args = ap.parse_args(argv)
    models = ("finder", "faces", "types") if args.models is None else (*args.models, "types")
    w, h = (int(v) for v in args.size.lower().split("x"))
    cv2.setNumThreads(1)
    print(f"cloths of {w}x{h} with no die on them: everything reported is a phantom")
    print(f"   {'cloth':40s} {'dice':>5s} {'tokens':>6s} {'sure':>5s} {'most':>5s} {'ms':>7s}  read as")
    total = sure_total = 0
    for name, draw in cloths(w, h).items():
        img = draw()
        times = []
        for _ in range(max(1, args.repeats)):
            t = time.process_time()
            reading = read_table(img, models=models)
            times.append(1000 * (time.process_time() - t))
        items = [*reading.dice, *reading.tokens]
        sure = sum(1 for it in items if it.confidence >= SURE)
        most = max((it.confidence for it in items), default=0.0)
        kinds = Counter(f"d{d.sides} {d.value}" for d in reading.dice).most_common(3)
        total += len(items)
        sure_total += sure
        print(f"   {name:40s} {len(reading.dice):5d} {len(reading.tokens):6d} {sure:5d} {most:5.2f} "
              f"{statistics.median(times):7.0f}  {', '.join(f'{k} x{n}' for k, n in kinds)}")
    print(f"   all cloths: {total} phantoms, {sure_total} sure")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
