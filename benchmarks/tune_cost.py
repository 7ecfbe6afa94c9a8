"""What ``goblin-companion tune`` costs at the table's cap: a set of ``--photos`` confirmed photos (400, the
dataset's ``MAX_IMAGES``) at the Pi HQ camera's 2028x1520, read one at a time, on one core.

    python3 benchmarks/tune_cost.py [--photos N] [--source nell|aws|matteop65] [--beside]

The set is built in a temporary folder from a real labelled set's photos, enlarged to 2028x1520 with their
boxes, kept as the companion keeps them (``companion.dataset.TableDataset``, JPEG quality 90). Prints the
seconds ``tune`` took and the process's peak memory (``ru_maxrss``) before and after: the frames are read
when tune needs them, so the peak grows by a few frames, not by the set (400 decoded frames: 3.7 GB).

``--beside``: instead, what a run costs the camera: the median and worst time of reading a 640x480 photo
(``read_table``, OpenCV's default threads, as ``serve`` reads) with no run, then while ``companion.tuner``
runs over the set in the background as the companion runs it (its thread niced).
"""

from __future__ import annotations

import argparse
import resource
import statistics
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


def frame_ms(frame: object, n: int = 40) -> tuple[float, float]:
    """(median, worst) ms of ``read_table`` on ``frame``, ``n`` reads."""
    from vision import read_table

    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        read_table(frame)
        out.append((time.perf_counter() - t0) * 1000)
    return statistics.median(out), max(out)


def beside(data: TableDataset) -> None:
    from companion.calibration import Calibrator
    from companion.tuner import Tuner

    frame = photo_set("matteop65")[50].load()
    frame_ms(frame, 3)
    idle = frame_ms(frame)
    tuner = Tuner(data, Calibrator(data.root.parent / "calibration.json"))
    tuner.start()
    busy = frame_ms(frame)
    running = tuner.state()["running"]
    tuner.stop()
    print(f"a 640x480 frame read by the camera's reader ({cv2.getNumThreads()} OpenCV threads): median "
          f"{idle[0]:.1f} ms, worst {idle[1]:.1f} alone; {busy[0]:.1f} / {busy[1]:.1f} ms while tune runs"
          f"{'' if running else ' (the run ended before the last read)'}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--photos", type=int, default=400)
    ap.add_argument("--source", default="nell", choices=["nell", "aws", "matteop65"])
    ap.add_argument("--beside", action="store_true", help="the camera's frame time while tune runs")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        data = build(Path(tmp) / "dataset", args.source, args.photos)
        if args.beside:
            beside(data)
            return 0
        set_threads(1)
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
