"""What ``goblin-companion tune`` costs at the table's cap: a set of ``--photos`` confirmed photos (400, the
dataset's ``MAX_IMAGES``) at the Pi HQ camera's 2028x1520, read one at a time, on one core.

    python3 benchmarks/tune_cost.py [--photos N] [--source nell|aws|matteop65]

The set is built in a temporary folder from a real labelled set's photos, enlarged to 2028x1520 with their
boxes, kept as the companion keeps them (``companion.dataset.TableDataset``, JPEG quality 90). Prints the
seconds ``tune`` took and the process's peak memory (``ru_maxrss``) before and after: the frames are read
when tune needs them, so the peak grows by a few frames, not by the set (400 decoded frames: 3.7 GB).
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

import cv2

from companion.dataset import TableDataset
from companion.tuner import table_photos
from vision._cv import set_threads
from vision.data import photo_set
from vision.tune import tune

HQ = (2028, 1520)


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def build(folder: Path, source: str, n: int) -> TableDataset:
    """``n`` photos of ``source`` (repeated when it has fewer), enlarged to ``HQ``, kept as the table
    keeps them."""
    data = TableDataset(folder, max_images=n)
    photos = [p for p in photo_set(source) if any(d.bbox is not None and d.value is not None for d in p.dice)]
    for i in range(n):
        p = photos[i % len(photos)]
        image = p.load()
        kx, ky = HQ[0] / image.shape[1], HQ[1] / image.shape[0]
        big = cv2.resize(image, HQ, interpolation=cv2.INTER_LINEAR)
        dice = [{"sides": 6, "value": d.value, "bbox": [round(d.bbox[0] * kx), round(d.bbox[1] * ky),
                                                          round(d.bbox[2] * kx), round(d.bbox[3] * ky)]}
                for d in p.dice if d.bbox is not None and d.value is not None]
        jpeg = cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()
        data.add(jpeg, {"dice": dice}, width=HQ[0], height=HQ[1])
    return data


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--photos", type=int, default=400)
    ap.add_argument("--source", default="nell", choices=["nell", "aws", "matteop65"])
    args = ap.parse_args(argv)
    set_threads(1)
    with tempfile.TemporaryDirectory() as tmp:
        data = build(Path(tmp) / "dataset", args.source, args.photos)
        photos = table_photos(data)
        before = peak_mb()
        t0, c0 = time.perf_counter(), time.process_time()
        _, report = tune(photos)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    per_photo = cpu / len(photos) * 1000
    print(f"tune on {len(photos)} photos of {args.source} at {HQ[0]}x{HQ[1]}: {wall:.1f} s wall, "
          f"{cpu:.1f} s CPU, {per_photo:.0f} ms CPU a photo; peak memory {before:.0f} MB before, "
          f"{peak_mb():.0f} MB after; kept {report.kept} ({report.reason}), held-back right "
          f"{report.right_before} -> {report.right_after} of {report.held_back_dice}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
