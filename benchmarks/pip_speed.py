"""The pip counter's time a crop, and whether a change to it changes what it finds.

    python3 benchmarks/pip_speed.py [--per-set N] [--save FILE | --compare FILE]

Builds the crops the learned reader's pip counter sees (``vision.learned.pip_square``: a square of
``PIP_CROP`` times the die's side at ``PIP_WORK`` px) around every object the shipped finder finds, up to 25 a
photo, in the first N photos of each labelled set (every set's own spread of photos), then reads each with
``find_pips`` and ``group_faces`` on one OpenCV thread and prints the milliseconds a crop. ``--save`` keeps
every crop's pips and faces in FILE (a pickle); ``--compare`` reads FILE, written by another version of the
code on this machine, and counts the crops whose pips or faces differ in any number. That is how the
thirty-fourth session showed its faster pip tests change nothing (1,119 crops, 0 differ; docs/vision.md):
save on the commit before a change, compare on the commit after. The crops depend on the finder, so both
runs need the same finder model.
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from vision._cv import set_threads
from vision.data import SETS, photo_set
from vision.finder import find_objects
from vision.learned import PIP_WORK, pip_square
from vision.pips import find_pips, group_faces

#: objects of one photo cropped at most (the strongest first, as the finder returns them)
PER_PHOTO = 25


def crops(per_set: int) -> list[np.ndarray]:
    """The pip counter's crops of the objects the shipped finder finds in ``per_set`` photos of each set,
    spread over the set."""
    out = []
    for name in SETS:
        photos = photo_set(name)
        for photo in photos[:: max(1, len(photos) // per_set)][:per_set]:
            image = photo.load()
            out += [pip_square(image, f) for f in find_objects(image)[:PER_PHOTO]]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--per-set", type=int, default=40, help="photos of each set (default 40)")
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--save", type=Path, help="keep every crop's pips and faces in this file")
    group.add_argument("--compare", type=Path,
                       help="count the crops whose pips or faces differ from this file's")
    args = ap.parse_args(argv)
    if args.per_set < 1:
        ap.error("--per-set must be at least 1")
    if args.compare is not None and not args.compare.is_file():
        ap.error(f"--compare {args.compare}: no such file")
    set_threads(1)
    squares = crops(args.per_set)
    if not squares:
        print("no crops: the labelled photos are not on this machine (vision.data.photos_dir)")
        return 1
    found, ms = [], []
    for square in squares:
        t0 = time.perf_counter()
        faces = group_faces(pips := find_pips(square), square)
        ms.append((time.perf_counter() - t0) * 1000)
        found.append((pips, faces))
    print(f"{len(squares)} crops of {PIP_WORK} px: median {statistics.median(ms):.2f} ms, mean "
          f"{statistics.fmean(ms):.2f} ms a crop (one thread)")
    if args.save is not None:
        args.save.write_bytes(pickle.dumps(found))
        print(f"pips and faces kept in {args.save}")
    if args.compare is not None:
        before = pickle.loads(args.compare.read_bytes())
        if len(before) != len(found):
            print(f"{args.compare} holds {len(before)} crops, this run {len(found)}: not the same crops")
            return 1
        differ = [i for i, (a, b) in enumerate(zip(before, found, strict=True)) if repr(a) != repr(b)]
        print(f"crops whose pips or faces differ from {args.compare}: {len(differ)}"
              + (f" (first: {differ[:10]})" if differ else ""))
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
