"""Which real photos are taken for a change of light (``vision.exposure.badly_exposed``).

    python3 benchmarks/exposure_check.py [--every N]

The reading names such a frame (``TableReading.light``: the page then says the light is wrong), and a
locked Pi camera meters again after ``BAD_FRAMES`` of them in a row. The risk is a well-exposed table taken
for one (a needless note on the page, the camera metering again while the players play); the use, an
over-exposed one caught. Reads one photo in ``--every`` of each d6 set as shot and through
``camera_probe``'s "bright" (x1.6 + 20, clipped) and "dim" (x0.35) looks, and prints, per set and look, how
many are badly exposed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import camera_probe as cp

from vision.exposure import badly_exposed

LOOKS = ("as-shot", "bright", "dim")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--every", type=int, default=3, help="one photo in N")
    args = ap.parse_args(argv)
    if args.every < 1:
        ap.error(f"--every must be 1 or more, not {args.every}")
    for name in ("matteop65", "nell", "aws"):
        counts = []
        for look in LOOKS:
            rng = np.random.default_rng(20267303)
            photos = [p for p in cp.photo_set(name)[::args.every] if all(d.bbox is not None for d in p.dice)]
            bad = sum(badly_exposed(cp.LOOKS[look](p.load(), [d.bbox for d in p.dice], rng)[0])
                      for p in photos)
            counts.append(f"{look} {bad} of {len(photos)}")
        print(f"{name:<10} badly exposed: " + ", ".join(counts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
