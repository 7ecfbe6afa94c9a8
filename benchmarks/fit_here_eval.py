"""The finder fitted without torch (``vision.netfit``, what ``goblin-companion finder fit`` runs on the Pi),
measured as ``tools/fit_table_finder.py`` was (docs/vision.md, "A finder fitted on the table"): the first
``--first`` photos of a set's first half (``tune_eval.split`` halves; ``--skip`` photos in, ``--second``
the halves swapped) are the table's set, one in five of them held back (by place, the first of each five:
these photos have no number in a table's set); the finder trained without the set is fitted on the rest,
then the whole reader (face reader trained without the set, the shipped type reader) reads the set's other
half, which the fit never saw, with the fitted finder (and with the one it started from: ``--before``).
Each row also says what the product's rule would have decided from the held-back photos alone
(``would_install``: ``companion.finderfit.better`` on them, read with the same models).

    python3 benchmarks/fit_here_eval.py SET [--first 30] [--steps N | --minutes M] [--seed S] [--before]
        [--out FILE.onnx] [--json]
    python3 benchmarks/fit_here_eval.py --step-time [--batch 16]   # ms a step: forward, backward, windows
    python3 benchmarks/fit_here_eval.py SET --beside                # what a fit costs the camera's reader

One line of JSON per finder read with ``--json``. ``--steps`` fixes the work (a slower machine, the Pi, does
the same steps in more minutes); ``--minutes`` fixes the time on this machine. One thread for numpy and
OpenCV (``OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1`` set before numpy loads, unless already set).

``--beside``: instead, the median and worst time of reading a 640x480 photo as ``serve`` reads (OpenCV's and
numpy's default threads), alone and then while ``TableFinder.fit`` runs on the set's first ``--first``
photos in its background thread, as the settings page starts it.
"""

from __future__ import annotations

import os
import sys

if "--beside" not in sys.argv:   # beside the camera: the product's own thread counts
    for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ.setdefault(_name, "1")

import argparse
import json
import resource
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import vision_eval as ve
from tune_eval import split

from companion.finderfit import HELD, SEED, Photo, better, measure, rendered_trays
from vision import read_table
from vision._cv import set_threads
from vision.data import LabelledPhoto
from vision.netfit import Network, fit, loss_and_grad
from vision.windows import batch as windows

KEYS = ("found_pct", "right_pct", "wrong_sure", "wrong_sure_pct", "sure_right_pct", "phantom_per_photo")


def as_photos(photos: list[LabelledPhoto]) -> list[Photo]:
    out = []
    for p in photos:
        objects = [(x + w / 2, y + h / 2, w, h, int(d.value or -1))
                   for d in p.dice if d.bbox is not None for x, y, w, h in [d.bbox]]
        out.append(Photo(p.load(), objects))
    return out


def step_time(batch: int, repeats: int = 8) -> dict[str, float]:
    """Median ms of one step's parts on aws windows: drawing the windows, forward, loss and backward."""
    start = ve.leave_out_models("aws")[0]
    net = Network(Path(start).read_bytes())
    photos = as_photos(ve.labelled("aws", False)[:20])
    rng = np.random.default_rng(1)
    parts: dict[str, list[float]] = {"windows": [], "forward": [], "backward": []}
    for _ in range(repeats):
        t0 = time.perf_counter()
        x, hm, box, mask = windows(lambda: photos[int(rng.integers(len(photos)))], rng, batch)
        t1 = time.perf_counter()
        tape: list = []
        out = net.forward(x, tape)
        t2 = time.perf_counter()
        _, grad = loss_and_grad(out, hm, box, mask)
        net.backward(tape, grad)
        t3 = time.perf_counter()
        for k, v in zip(parts, (t1 - t0, t2 - t1, t3 - t2), strict=True):
            parts[k].append(1000 * v)
    got = {k: round(float(np.median(v)), 1) for k, v in parts.items()}
    got["step"] = round(sum(got.values()), 1)
    return {"batch": batch, **got, "peak_mb": peak_mb()}


def peak_mb() -> int:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)


def frame_ms(frame: np.ndarray, n: int = 40) -> tuple[float, float]:
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        read_table(frame)
        times.append(1000 * (time.perf_counter() - t0))
    return float(np.median(times)), max(times)


def beside(name: str, first: int) -> None:
    import tempfile

    import cv2

    from companion.dataset import TableDataset
    from companion.tablefinder import TableFinder

    frame = ve.labelled("matteop65", False)[50].load()
    with tempfile.TemporaryDirectory() as folder:
        data = TableDataset(Path(folder) / "dataset")
        for p in split(ve.labelled(name, False), "halves")[0][:first]:
            image = p.load()
            data.add(cv2.imencode(".jpg", image)[1].tobytes(), {"dice": [
                {"bbox": list(d.bbox), "sides": 6, "value": d.value} for d in p.dice if d.bbox is not None]},
                width=image.shape[1], height=image.shape[0])
        frame_ms(frame, 3)
        idle = frame_ms(frame)
        table = TableFinder(Path(folder), data)
        table.fit(30)
        while (table.state()["fit"] or {}).get("phase") != "fitting":
            time.sleep(0.2)
        busy = frame_ms(frame, 200)
        steps = table.state()["fit"]["steps"]
        table.stop(60)
    print(json.dumps({"opencv_threads": cv2.getNumThreads(), "alone_ms": [round(v, 1) for v in idle],
                      "while_fitting_ms": [round(v, 1) for v in busy], "fit_steps_meanwhile": steps,
                      "cores": os.cpu_count()}))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("set", nargs="?", default="aws")
    ap.add_argument("--first", type=int, default=30, help="photos of the first half that are the table's set")
    ap.add_argument("--second", action="store_true",
                    help="the table's set is taken from the second half and the first half is read")
    ap.add_argument("--skip", type=int, default=0,
                    help="the table's set starts this many photos into the first half (another table)")
    ap.add_argument("--read", type=int, default=0,
                    help="read only the first N photos of the other half (default: all of them)")
    ap.add_argument("--steps", type=int, default=0, help="fit this many steps (default: --minutes)")
    ap.add_argument("--minutes", type=float, default=6.0)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--before", action="store_true", help="read the second half with the unfitted finder too")
    ap.add_argument("--out", type=Path, help="keep the fitted finder here")
    ap.add_argument("--no-renders", action="store_true",
                    help="the table's photos alone, without the rendered trays of polyhedral dice the "
                         "product adds (the forty-third session's first rows)")
    ap.add_argument("--frozen-backbone", action="store_true",
                    help="train the top-down path and the heads only (netfit.fit(frozen_backbone=True))")
    ap.add_argument("--step-time", action="store_true", help="print the cost of one step and stop")
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--beside", action="store_true", help="what a fit costs the camera's reader")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.beside:
        beside(args.set, args.first)
        return 0
    set_threads(1)
    if args.step_time:
        print(json.dumps(step_time(args.batch)))
        return 0
    first, second = split(ve.labelled(args.set, False), "halves")
    if args.second:
        first, second = second, first
    if args.read:
        second = second[: args.read]
    table = as_photos(first[args.skip: args.skip + args.first])
    taught = [p for i, p in enumerate(table) if i % HELD]
    trays = [] if args.no_renders else rendered_trays(len(taught), args.seed)   # as fit_here draws them
    taught += trays
    finder, faces, types = ve.leave_out_models(args.set)
    t0 = time.time()

    def going(step: int) -> float | None:
        if args.steps:
            return None if step >= args.steps else step / args.steps
        spent = (time.time() - t0) / (60 * args.minutes)
        return None if spent >= 1 else spent

    data, said = fit(Path(finder).read_bytes(), taught, np.random.default_rng(args.seed), going,
                     batch=args.batch, frozen_backbone=args.frozen_backbone)
    minutes = (time.time() - t0) / 60
    out = args.out or Path(f"/tmp/fit-here-{args.set}.onnx")
    out.write_bytes(data)
    held = table[::HELD]   # what the product's fit reads to decide whether to install (fit_here's rule)
    check = {tag: measure(held, (model, faces, types)) for tag, model in (("before", finder),
                                                                          ("after", str(out)))}
    decision = {"held_back_photos": len(held), "held_found": [check["before"]["found_pct"],
                                                               check["after"]["found_pct"]],
                "held_phantoms": [check["before"]["phantom_per_photo"], check["after"]["phantom_per_photo"]],
                "held_corrections": [check["before"]["corrections"], check["after"]["corrections"]],
                "would_install": better(check["before"], check["after"])}
    unseen = as_photos(second)
    rows = [("fitted", str(out))] + ([("before", finder)] if args.before else [])
    for tag, model in rows:
        r = ve.evaluate(args.set, second, lambda im, m=model: read_table(im, models=(m, faces, types)))
        row = {"finder": tag, "set": args.set, "table_photos": len(table), "taught": len(taught),
               "rendered_trays": len(trays),
               "read_photos": len(second), "dice": r["labelled"], **{k: r[k] for k in KEYS if k in r},
               "corrections": measure(unseen, (model, faces, types))["corrections"],
               "skip": args.skip, "table_half": "second" if args.second else "first",
               "frozen_backbone": args.frozen_backbone,
               "steps": said["steps"], "fit_minutes": round(minutes, 1), "seed": args.seed,
               "loss_first": said["loss_first"], "loss_last": said["loss_last"],
               **decision, "peak_mb": peak_mb()}
        print(json.dumps(row) if args.json else
              f"{tag:7s} {args.set} found {row['found_pct']}% right {row['right_pct']}% wrong&sure "
              f"{row['wrong_sure']} phantoms/photo {row['phantom_per_photo']} corrections "
              f"{row['corrections']} ({said['steps']} steps, "
              f"{row['fit_minutes']} min; held back {decision['held_found']} corrections "
              f"{decision['held_corrections']}, would install: "
              f"{decision['would_install']})", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
