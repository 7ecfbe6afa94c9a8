"""What ``vision.faces.PIP_ONE_TURN`` saves: frames read with every pip face turned, then with the sure ones
read once, in turn.

    python3 benchmarks/face_turns.py [--rounds 7] [--reads 15]

The fifty-fifth session's measurement (docs/vision.md): a crop whose first unturned look reads one pip value
at ``PIP_ONE_TURN`` or more keeps that look instead of eight network passes. This reads the same frames
(matteop65's ``five_1`` at 640x480, the frame ``vision_eval.py --time-only`` times, and aws's 84-dice photo)
with the rule off (the bar above 1: every pip face turned, as before) and on, the two taking turns within
each round so that a slow moment of the machine costs both; per frame and arm it prints the median over the
rounds of each round's median CPU milliseconds (one OpenCV thread), and whether the two arms reported the same
dice (boxes and values) on every read. Readings may differ in confidence; the dice are what must not.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import cv2

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from vision import faces, read_table  # noqa: E402
from vision._cv import set_threads  # noqa: E402
from vision.data import photo_set  # noqa: E402

#: the rule's arms: its bar off (no one-look reading reaches it) and as shipped
ARMS = (("every face turned", 1.01), ("sure faces read once", faces.PIP_ONE_TURN))


def frames() -> list[tuple[str, Any]]:
    """(name, BGR frame) of the frames timed."""
    one = photo_set("matteop65")[50]
    crowded = max(photo_set("aws"), key=lambda p: len(p.dice))
    small = cv2.resize(one.load(), (640, 480), interpolation=cv2.INTER_CUBIC)
    return [(f"{one.path.name} at 640x480", small),
            (f"{crowded.path.name} ({len(crowded.dice)} dice)", crowded.load())]


def _dice(frame: Any) -> list[tuple[tuple[int, int, int, int], int | None]]:
    return sorted((d.bbox, d.value) for d in read_table(frame).dice)


def measure(rounds: int, reads: int) -> list[dict[str, Any]]:
    """Per frame: each arm's median CPU ms and whether the arms reported the same dice on every read."""
    set_threads(1)
    shipped = faces.PIP_ONE_TURN
    out = []
    try:
        for name, frame in frames():
            ms: dict[str, list[float]] = {arm: [] for arm, _ in ARMS}
            seen: dict[str, set[str]] = {arm: set() for arm, _ in ARMS}
            for _ in range(rounds):
                for arm, bar in ARMS:
                    faces.PIP_ONE_TURN = bar
                    seen[arm].add(repr(_dice(frame)))           # also the untimed first read
                    times = []
                    for _ in range(reads):
                        t0 = time.process_time()
                        read_table(frame)
                        times.append((time.process_time() - t0) * 1000)
                    ms[arm].append(statistics.median(times))
            out.append({"frame": name, **{arm: round(statistics.median(v), 2) for arm, v in ms.items()},
                        "same_dice": len(set.union(*seen.values())) == 1})
    finally:
        faces.PIP_ONE_TURN = shipped
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=7, help="rounds, each arm in turn (default 7)")
    ap.add_argument("--reads", type=int, default=15, help="timed reads of a frame per arm and round (15)")
    args = ap.parse_args(argv)
    if args.rounds < 1 or args.reads < 1:
        ap.error("--rounds and --reads must be at least 1")
    for r in measure(args.rounds, args.reads):
        arms = ", ".join(f"{arm} {r[arm]} ms" for arm, _ in ARMS)
        print(f"== {r['frame']}: {arms}; the same dice: {'yes' if r['same_dice'] else 'NO'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
