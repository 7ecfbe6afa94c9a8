"""What another camera does to the reading: real photos enlarged until one die fills the frame, and the d6
sets left out as a dimmer, noisier, blurrier or turned camera would give them.

    python3 benchmarks/camera_probe.py --fill [--set burks|lurig] [--every N] [--size W H]
    python3 benchmarks/camera_probe.py --camera [--set nell|aws|matteop65] [--every N] [--looks dim,...]
                                      [--candidates DIR]

``--fill``: each photo of a one-die set is cut round its die (the shipped finder's strongest object) and
resized to ``--size`` (640x480) so that the die's box spans 0.3, 0.5, 0.7, 0.85 and 1.0 of the frame's short
side (issue 19: "one die per photo filling much of the frame"). A die is found whole when the largest die
``read_table`` reports is at least half that size; typed and valued against the labels (a d10's "0" is 10).
The shipped models read it (they learnt from these photos: the finding is what is probed, not the typing).

``--camera``: each photo of a boxed d6 set, read by the models trained without that set (``vision_eval.py
--leave-out``), as it is and as ``--looks`` change it (``LOOKS``); found, right, wrong and sure (>= 0.8) and
phantoms a photo, matched as ``vision_eval.py`` matches. Nothing here changes what the product does.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import vision_eval as ve

from vision import read_table
from vision.data import match_boxes, photo_set
from vision.finder import find_objects
from vision.settle import STILL_AVERAGE, still_mean

FILLS = (0.3, 0.5, 0.7, 0.85, 1.0)
Box = tuple[float, float, float, float]


def _scaled(image: np.ndarray, k: float, interp: int) -> np.ndarray:
    h, w = image.shape[:2]
    return cv2.resize(image, (round(w * k), round(h * k)), interpolation=interp)


def _jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def _turned(image: np.ndarray, boxes: list[Box]) -> tuple[np.ndarray, list[Box]]:
    h = image.shape[0]
    return cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE), [(h - y - bh, x, bh, bw) for x, y, bw, bh in boxes]


def _pixels(f: Callable[[np.ndarray, np.random.Generator], np.ndarray]
            ) -> Callable[[np.ndarray, list[Box], np.random.Generator], tuple[np.ndarray, list[Box]]]:
    def look(image: np.ndarray, boxes: list[Box], rng: np.random.Generator) -> tuple[np.ndarray, list[Box]]:
        return np.clip(f(image.astype(np.float32), rng), 0, 255).astype(np.uint8), boxes
    return look


def _still(f: Callable[[np.ndarray, np.random.Generator], np.ndarray]
           ) -> Callable[[np.ndarray, list[Box], np.random.Generator], tuple[np.ndarray, list[Box]]]:
    """The look ``f`` as the product reads a settled scene: the mean (``vision.still_mean``) of
    ``STILL_AVERAGE`` frames, each with noise of its own."""
    one = _pixels(f)

    def look(image: np.ndarray, boxes: list[Box], rng: np.random.Generator) -> tuple[np.ndarray, list[Box]]:
        return still_mean([one(image, boxes, rng)[0] for _ in range(STILL_AVERAGE)]), boxes
    return look


#: how each look changes a photo and its boxes (seeded noise)
LOOKS: dict[str, Callable[[np.ndarray, list[Box], np.random.Generator], tuple[np.ndarray, list[Box]]]] = {
    "as-shot": lambda image, boxes, rng: (image, boxes),
    "dim": _pixels(lambda x, rng: x * 0.35),                                     # a dark room, no gain
    "dim-noisy": _pixels(lambda x, rng: x * 0.35 + rng.normal(0, 6, x.shape)),   # the same, sensor noise
    "dim-noisy-still": _still(lambda x, rng: x * 0.35 + rng.normal(0, 6, x.shape)),
    "bright": _pixels(lambda x, rng: x * 1.6 + 20),                              # over-exposed, clipped
    "noisy": _pixels(lambda x, rng: x + rng.normal(0, 12, x.shape)),             # high ISO
    "noisy-still": _still(lambda x, rng: x + rng.normal(0, 12, x.shape)),        # the same, still frames
    "warm": _pixels(lambda x, rng: x * np.array([0.6, 0.9, 1.25], np.float32)),  # a lamp, no white balance
    "blur": lambda image, boxes, rng: (cv2.GaussianBlur(image, (0, 0), 1.5), boxes),  # out of focus
    "jpeg25": lambda image, boxes, rng: (_jpeg(image, 25), boxes),
    "turned": lambda image, boxes, rng: _turned(image, boxes),                   # mounted a quarter turn
    "closer": lambda image, boxes, rng: (_scaled(image, 2.0, cv2.INTER_CUBIC),   # dice twice as large
                                         [(x * 2, y * 2, w * 2, h * 2) for x, y, w, h in boxes]),
    "farther": lambda image, boxes, rng: (_scaled(image, 0.6, cv2.INTER_AREA),   # dice 0.6 as large
                                          [(x * .6, y * .6, w * .6, h * .6) for x, y, w, h in boxes]),
}


def enlarged(image: np.ndarray, cx: float, cy: float, side: float, fill: float, size: tuple[int, int]
             ) -> np.ndarray:
    """``image`` cut round (cx, cy) so that ``side`` spans ``fill`` of the short side of a ``size`` (w, h)
    frame."""
    w, h = size
    k = fill * min(w, h) / side
    half = 0.5 * k - 0.5      # pixel centres: (cx, cy) is a point, pixel i spans i..i+1
    m = np.float32([[k, 0, w / 2 - cx * k + half], [0, k, h / 2 - cy * k + half]])
    return cv2.warpAffine(image, m, (w, h), flags=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def probe_fill(name: str, every: int, size: tuple[int, int]) -> list[dict[str, object]]:
    rows = {f: {"set": name, "fill": f, "photos": 0, "found": 0, "typed": 0, "valued": 0, "wrong_sure": 0}
            for f in FILLS}
    for photo in [p for p in photo_set(name) if p.dice][::every]:
        image = photo.load()
        found = find_objects(image)
        if not found:
            continue
        die, want = found[0], photo.dice[0]
        value = 10 if (want.sides, want.value) == (10, 0) else want.value
        for fill, row in rows.items():
            frame = enlarged(image, die.cx, die.cy, die.side, fill, size)
            got = max(read_table(frame).dice, key=lambda d: d.bbox[2] * d.bbox[3], default=None)
            row["photos"] += 1  # type: ignore[operator]
            if got is None or max(got.bbox[2:]) < 0.5 * fill * min(size):
                continue
            typed = got.sides == want.sides
            ok = typed and (value is None or got.value == value)
            row["found"] += 1  # type: ignore[operator]
            row["typed"] += typed  # type: ignore[operator]
            row["valued"] += value is not None and ok  # type: ignore[operator]
            row["wrong_sure"] += got.confidence >= ve.SURE and not ok  # type: ignore[operator]
    return list(rows.values())


def probe_camera(name: str, every: int, looks: list[str], candidates: Path | None = None
                 ) -> list[dict[str, object]]:
    models = ve.leave_out_models(name, candidates)
    out = []
    for look in looks:
        rng = np.random.default_rng(20261203)
        n = found = right = wrong_sure = right_sure = phantoms = frames = 0
        for photo in photo_set(name)[::every]:
            boxes = [d.bbox for d in photo.dice]
            if not boxes or any(b is None for b in boxes):
                continue
            image, moved = LOOKS[look](photo.load(), boxes, rng)   # type: ignore[arg-type]
            dice = list(read_table(image, models=models).dice)
            pairs = match_boxes(moved, [d.bbox for d in dice])
            frames += 1
            n += len(moved)
            found += len(pairs)
            phantoms += len(dice) - len(pairs)
            for i, j in pairs:
                truth = photo.dice[i].value
                right += truth is not None and dice[j].value == truth
                wrong_sure += truth is not None and dice[j].value != truth and dice[j].confidence >= ve.SURE
                right_sure += truth is not None and dice[j].value == truth and dice[j].confidence >= ve.SURE
        out.append({"set": name, "look": look, "photos": frames, "dice": n,
                    "found_pct": round(100 * found / max(1, n), 2),
                    "right_pct": round(100 * right / max(1, n), 2),
                    "wrong_sure": wrong_sure, "right_sure": right_sure,
                    "phantom_per_photo": round(phantoms / max(1, frames), 3)})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    what = ap.add_mutually_exclusive_group(required=True)
    what.add_argument("--fill", action="store_true", help="one die enlarged until it fills the frame")
    what.add_argument("--camera", action="store_true", help="the d6 sets left out, as other cameras see them")
    ap.add_argument("--set", help="burks or lurig (--fill; default burks), nell, aws or matteop65 (--camera)")
    ap.add_argument("--every", type=int, default=1, help="one photo in N (speed)")
    ap.add_argument("--size", type=int, nargs=2, default=(640, 480), metavar=("W", "H"),
                    help="--fill's frame")
    ap.add_argument("--looks", default=",".join(LOOKS), help=f"--camera's looks, of: {', '.join(LOOKS)}")
    ap.add_argument("--candidates", type=Path, default=None, metavar="DIR",
                    help="--camera: read with DIR's finder-no-S.onnx / faces-no-S.onnx where it has them (as "
                         "vision_eval.py --leave-out --candidates)")
    args = ap.parse_args(argv)
    if args.every < 1:
        ap.error("--every must be 1 or more")
    cv2.setNumThreads(1)
    if args.fill:
        name = args.set or "burks"
        if name not in ("burks", "lurig"):
            ap.error("--fill reads burks or lurig (one die a photo)")
        for r in probe_fill(name, args.every, tuple(args.size)):
            print(f"{r['set']:6} fill {r['fill']:.2f}: photos {r['photos']} found whole {r['found']} "
                  f"typed {r['typed']} valued {r['valued']} wrong and sure {r['wrong_sure']}")
        return 0
    name = args.set or "nell"
    looks = [x for x in args.looks.split(",") if x]
    unknown = [x for x in looks if x not in LOOKS]
    if name not in ("nell", "aws", "matteop65") or unknown:
        ap.error(f"--camera reads nell, aws or matteop65 with looks of {', '.join(LOOKS)} (not {unknown})")
    for r in probe_camera(name, args.every, looks, args.candidates):
        print(f"{r['set']:9} {r['look']:9} photos {r['photos']} dice {r['dice']} found {r['found_pct']:.1f}% "
              f"right {r['right_pct']:.1f}% wrong and sure {r['wrong_sure']} "
              f"right and sure {r['right_sure']} phantoms {r['phantom_per_photo']} a photo")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
