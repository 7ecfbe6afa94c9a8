"""Which ``cv2.dnn`` engine runs each of the product's networks faster on this machine.

    python3 benchmarks/engines.py [--rounds 7] [--passes 15]

OpenCV 5 has two engines: ``readNet`` picks the new one; ``vision.finder.CROP_ENGINE`` runs the crop readers
(the face readers, the type reader, Vision II's network) on the classic one, which was a quarter faster for
them on the development machine (x86-64, one core), while the finder stays on the new one (fifty-fourth
session, docs/vision.md). The Pi's processor is another: run this there before trusting those numbers. It
prints, per network and batch, the best of ``--rounds`` means of ``--passes`` forward passes on each engine
(one OpenCV thread, CPU time; the engines take turns so a slow moment of the machine costs both), and the
largest difference between their outputs. An OpenCV without engines (4.x) has nothing to compare.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from vision.faces import crop_side  # noqa: E402
from vision.finder import model_path  # noqa: E402
from vision.poly import INPUT, MODEL_PATH  # noqa: E402
from vision.types import CROP as TYPE_CROP  # noqa: E402

#: the engines compared, by their names in ``cv2.dnn``
ENGINES = ("ENGINE_CLASSIC", "ENGINE_NEW")


def cases() -> list[tuple[str, Path, tuple[int, int, int, int]]]:
    """(what, ONNX file, input shape) of each network at the batches the product runs it at."""
    out = [("finder 512x384 look", model_path("finder"), (1, 3, 384, 512)),
           ("finder 160x128 look", model_path("finder"), (1, 3, 128, 160))]
    for name in ("faces", "faces2"):
        side = crop_side(name)
        out += [(f"{name} ({side} px) x{n}", model_path(name), (n, 3, side, side)) for n in (1, 4, 12)]
    out += [(f"types x{n}", model_path("types"), (n, 3, TYPE_CROP, TYPE_CROP)) for n in (1, 10)]
    out += [(f"polyhedral x{n}", MODEL_PATH, (n, 2, INPUT, INPUT)) for n in (1, 3)]
    return out


def compare(path: Path, shape: tuple[int, int, int, int], rounds: int, passes: int) -> dict[str, float]:
    """Best mean ms a pass on each engine, and the largest difference between their outputs ("diff")."""
    x = np.random.default_rng(0).random(shape).astype(np.float32)
    nets = {e: cv2.dnn.readNetFromONNX(str(path), engine=getattr(cv2.dnn, e)) for e in ENGINES}
    best = dict.fromkeys(ENGINES, float("inf"))
    outs = {}
    for _ in range(rounds):
        for e, net in nets.items():
            net.setInput(x)
            outs[e] = np.asarray(net.forward()).copy()     # a first pass outside the clock
            t = time.process_time()
            for _ in range(passes):
                net.setInput(x)
                net.forward()
            best[e] = min(best[e], (time.process_time() - t) * 1000 / passes)
    return {**best, "diff": float(np.abs(outs[ENGINES[0]] - outs[ENGINES[1]]).max())}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=7, help="rounds, the engines in turn (default 7)")
    ap.add_argument("--passes", type=int, default=15, help="forward passes timed a round (default 15)")
    args = ap.parse_args(argv)
    if args.rounds < 1 or args.passes < 1:
        ap.error("--rounds and --passes must be at least 1")
    if not all(hasattr(cv2.dnn, e) for e in ENGINES):
        print(f"OpenCV {cv2.__version__} has no dnn engines to compare: every network runs on readNet")
        return
    cv2.setNumThreads(1)
    print(f"OpenCV {cv2.__version__}, one thread, best of {args.rounds} rounds of {args.passes} passes "
          "(CPU ms a pass)")
    print(f"{'network':28s} {'classic':>8s} {'new':>8s}  faster   output diff")
    for what, path, shape in cases():
        r = compare(path, shape, args.rounds, args.passes)
        c, n = r["ENGINE_CLASSIC"], r["ENGINE_NEW"]
        print(f"{what:28s} {c:8.2f} {n:8.2f}  {'classic' if c < n else 'new':7s}  {r['diff']:.1e}")


if __name__ == "__main__":
    main()
