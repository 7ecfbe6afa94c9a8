"""Accuracy and speed of ``vision.read_table`` on the labelled dice photos.

    python3 benchmarks/vision_eval.py [--set matteop65|chase|burks|all] [--split all|dev|held-out]
                                      [--sample N] [--errors] [--crops DIR] [--no-12mp] [--json]
    python3 benchmarks/vision_eval.py --time-only     # time per frame at 640x480, 2028x1520 and 12 MP, and
                                                      # the finder's forward pass alone (this machine's speed)

Per photo set it prints: dice found / missed / phantom, what the missed dice of whole photos are
(``miss_kinds``: cut by the frame's edge, inside a box matched to another die, elsewhere), values right /
wrong, a confusion table of faces,
and median and 95th-percentile milliseconds per frame (one OpenCV thread, ``cv2.setNumThreads(1)``;
decoding the JPEG is not counted, as the camera delivers decoded frames), both wall-clock and CPU time
(the process's CPU time is the fairer figure on a machine shared with other jobs).

Matching rule (documented because the sets label different things): the matteop65 boxes surround the
pip pattern of the top face, ours the estimated top face; a label and a detection match when the
distance between their box centres is at most 0.6 x the larger side of the two boxes, greedily, nearest
pairs first, one to one. Every unmatched detection is a phantom (also a die we report with
``value=None``); every unmatched label is missed. "Read right" = matched and same value; "wrong and
sure" = a wrong value read with confidence >= ``SURE`` (0.8), which the players would not be asked about.
The chase set is single-die crops (the whole crop is the die): found = at least one die, read right =
the most confident die has the label's value; extra dice are phantoms.
The burks set is one polyhedral die per photo (Vision II reads the numerals, through ``read_table``):
the most confident die is compared with the label: type right = same sides, value right = same sides
and value (a d10's "0" face is 10; a percentile d10, file D100_*, reports sides 10, ``percentile`` and
0 .. 90); the other dice are phantoms; the empty-tray photo's dice are phantoms. Per type: dice, type
right, value right.

12 MP timing: no 12-megapixel photo in the sets, so a matteop65 frame is upscaled to 4000x3000 and
timed (this measures the resize to the working size plus the same reading).
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.config import TURNS
from vision import read_table
from vision._cv import set_threads
from vision.data import LabelledDie, LabelledPhoto, iter_split, match_boxes, photo_set
from vision.finder import model_path
from vision.learned import MODELS
from vision.reading import Die

#: a wrong value read with at least this confidence is "wrong and sure": the players are not asked
SURE = 0.8


def match(labels: list[tuple[float, float, float, float]], dets: list[Die]) -> list[tuple[int, int]]:
    """Greedy one-to-one matching of label boxes to detections by centre (``vision.data.match_boxes``)."""
    return match_boxes(labels, [d.bbox for d in dets])


def turned_read(read: Callable[[np.ndarray], Any], degrees: int) -> Callable[[np.ndarray], Any]:
    """``read`` of each photo turned ``degrees`` clockwise (``hardware.sources.turned``: a camera mounted
    upside down or on its side, not set right by ``camera.turn``), the dice's boxes turned back into the
    photo's own pixels so the labels match them (seventy-first session)."""
    from dataclasses import replace

    from hardware.sources import turned

    def back(box: tuple[int, int, int, int], w: int, h: int) -> tuple[int, int, int, int]:
        x, y, bw, bh = box
        if degrees == 90:
            return y, h - x - bw, bh, bw
        if degrees == 180:
            return w - x - bw, h - y - bh, bw, bh
        return w - y - bh, x, bh, bw      # 270

    def read_turned(image: np.ndarray) -> Any:
        h, w = image.shape[:2]
        reading = read(turned(image, degrees))
        return replace(reading, width=w, height=h,
                       dice=tuple(replace(d, bbox=back(d.bbox, w, h)) for d in reading.dice))

    return read if degrees == 0 else read_turned


def enlarged_read(read: Callable[[np.ndarray], Any], factor: float) -> Callable[[np.ndarray], Any]:
    """``read`` of each photo enlarged ``factor`` times (``INTER_CUBIC``), the dice's boxes scaled back into
    the photo's own pixels: the same dice as a larger sensor would frame them, though softer than a real
    photo of that size (seventy-first session)."""
    from dataclasses import replace

    def read_enlarged(image: np.ndarray) -> Any:
        h, w = image.shape[:2]
        reading = read(cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_CUBIC))
        return replace(reading, width=w, height=h, dice=tuple(
            replace(d, bbox=tuple(round(v / factor) for v in d.bbox)) for d in reading.dice))

    return read if factor == 1 else read_enlarged


def percentile(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


ERRATA = Path(__file__).resolve().parent / "label_errata.json"


def with_errata(name: str, photos: list[LabelledPhoto], path: Path = ERRATA) -> list[LabelledPhoto]:
    """``photos`` with the label corrections of ``path`` for set ``name``: a die whose box is an entry's
    ``bbox`` (to 1 px) takes its ``value``; an ``add`` entry is a die the labels left out (a d6 unless it
    says ``sides``); a ``drop`` entry is a label boxing a die that another label boxes already. An entry
    that matches no photo or no die is an error (the labels it was written for have changed)."""
    from dataclasses import replace

    entries = json.loads(path.read_text(encoding="utf-8")).get(name, [])
    by_name = {p.path.name: i for i, p in enumerate(photos)}
    out = list(photos)
    for e in entries:
        if e["photo"] not in by_name:
            raise ValueError(f"errata: {name} has no photo {e['photo']!r}")
        i = by_name[e["photo"]]
        # a null box names the one die of a photo whose labels have no boxes (chase's single-die crops)
        box = None if e["bbox"] is None else tuple(float(v) for v in e["bbox"])
        dice = list(out[i].dice)
        if e.get("add"):
            dice.append(LabelledDie(int(e.get("sides", 6)), int(e["value"]), box))
        else:
            hit = [k for k, d in enumerate(dice)
                   if (d.bbox is None and box is None) or (d.bbox is not None and box is not None and max(
                       abs(a - b) for a, b in zip(d.bbox, box, strict=True)) <= 1)]
            if len(hit) != 1:
                raise ValueError(f"errata: {e['photo']} has {len(hit)} labels at {e['bbox']}, not one")
            if e.get("drop"):
                del dice[hit[0]]
            else:
                dice[hit[0]] = replace(dice[hit[0]], value=int(e["value"]))
        out[i] = replace(out[i], dice=tuple(dice))
    return out


def labelled(name: str, errata: bool) -> list[LabelledPhoto]:
    """The set's photos, with ``with_errata``'s corrections when ``errata``."""
    photos = photo_set(name)
    return with_errata(name, photos) if errata else photos


def half(photos: list[LabelledPhoto], which: str) -> list[LabelledPhoto]:
    """The first or second half of a set's photos, in the set's order (``"all"``: every photo): one half
    adapts a reader on its unlabelled crops (``tools/adabn_study.py``), the other measures it."""
    if which not in ("all", "first", "second"):
        raise ValueError(f"half must be all, first or second, not {which!r}")
    cut = len(photos) // 2
    return photos if which == "all" else photos[:cut] if which == "first" else photos[cut:]


#: a labelled box this close to the frame's edge (px) is a die the photo cuts
EDGE = 2.0
#: the kinds of missed dice ``miss_kinds`` counts, in the order it tests them
MISS_KINDS = ("cut by the frame's edge", "inside a box matched to another die", "elsewhere")


def miss_kinds(labels: list[tuple[float, float, float, float]], dice: list[Die], pairs: list[tuple[int, int]],
               shape: tuple[int, ...]) -> list[str]:
    """What each label missed in a whole photo is (``MISS_KINDS``): a die the photo's edge cuts (its box
    within ``EDGE`` px of it), else one whose centre lies inside the box of a reported die matched to another
    label (one box drawn round two dice lying together: sixtieth session), else elsewhere."""
    h, w = shape[:2]
    matched = {i for i, _ in pairs}
    shared = [dice[j].bbox for _, j in pairs]
    out = []
    for i, (x, y, bw, bh) in enumerate(labels):
        if i in matched:
            continue
        cx, cy = x + bw / 2, y + bh / 2
        if x <= EDGE or y <= EDGE or x + bw >= w - EDGE or y + bh >= h - EDGE:
            out.append(MISS_KINDS[0])
        elif any(dx <= cx <= dx + dw and dy <= cy <= dy + dh for dx, dy, dw, dh in shared):
            out.append(MISS_KINDS[1])
        else:
            out.append(MISS_KINDS[2])
    return out


def evaluate(name: str, photos: list[LabelledPhoto], read: Callable[[np.ndarray], Any] = read_table
             ) -> dict[str, Any]:
    stats = {"frames": 0, "labelled": 0, "found": 0, "missed": 0, "phantom": 0, "right": 0, "wrong": 0,
             "wrong_sure": 0, "unclear": 0}
    misses: dict[str, int] = {}
    #: (confidence, right) of every die reported: matched dice with a known value, and phantoms (wrong)
    reliability: list[tuple[float, bool]] = []
    confusion: dict[str, dict[str, int]] = {}
    ms: list[float] = []
    cpu: list[float] = []
    failures: list[str] = []
    crops: list[tuple[LabelledPhoto, str, Any, Any]] = []
    for photo in photos:
        image = photo.load()
        t0, c0 = time.perf_counter(), time.process_time()
        reading = read(image)
        ms.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        stats["frames"] += 1
        stats["labelled"] += len(photo.dice)
        stats["unclear"] += sum(d.value is None for d in photo.dice) if name != "burks" else 0
        dice = list(reading.dice)
        if name == "chase":
            truth = photo.dice[0].value
            if dice:
                best = max(dice, key=lambda d: d.confidence)
                stats["found"] += 1
                stats["phantom"] += len(dice) - 1
                got = "-" if best.value is None else str(best.value)
                confusion.setdefault(str(truth), {}).setdefault(got, 0)
                confusion[str(truth)][got] += 1
                ok = best.value == truth
                stats["right" if ok else "wrong"] += 1
                reliability.append((best.confidence, ok))
                reliability.extend((d.confidence, False) for d in dice if d is not best)
                whole = (0.0, 0.0, float(image.shape[1]), float(image.shape[0]))
                if not ok:
                    stats["wrong_sure"] += best.confidence >= SURE
                    failures.append(f"{photo.path.name}: {truth} read {got} at {best.bbox} "
                                    f"(confidence {best.confidence:.2f})")
                    crops.append((photo, "wrong", whole, best.bbox))
                for d in dice:
                    if d is not best:
                        failures.append(f"{photo.path.name}: phantom {d.value} at {d.bbox} "
                                        f"(confidence {d.confidence:.2f})")
                        crops.append((photo, "phantom", whole, d.bbox))
            else:
                stats["missed"] += 1
                confusion.setdefault(str(truth), {}).setdefault("missed", 0)
                confusion[str(truth)]["missed"] += 1
                failures.append(f"{photo.path.name}: {truth} missed")
                whole = (0.0, 0.0, float(image.shape[1]), float(image.shape[0]))
                crops.append((photo, "missed", whole, None))
            continue
        if name == "burks":
            stats["tokens"] = stats.get("tokens", 0) + len(reading.tokens)
            if not photo.dice:
                stats["phantom"] += len(dice)
                for d in dice:
                    failures.append(f"{photo.path.name}: phantom {_die_text(d)} at {d.bbox} (empty tray)")
                continue
            _score_burks(photo, dice, stats, confusion, failures)
            continue
        labels = [d.bbox for d in photo.dice if d.bbox is not None]
        pairs = match(labels, dice)
        stats["found"] += len(pairs)
        stats["missed"] += len(labels) - len(pairs)
        stats["phantom"] += len(dice) - len(pairs)
        matched_l = {i for i, _ in pairs}
        for kind in miss_kinds(labels, dice, pairs, image.shape):
            misses[kind] = misses.get(kind, 0) + 1
        for i, j in pairs:
            truth, got = photo.dice[i].value, dice[j].value
            if truth is None:   # the labeller could not tell: found, value not scored
                continue
            reliability.append((dice[j].confidence, got == truth))
            g = "-" if got is None else str(got)
            confusion.setdefault(str(truth), {}).setdefault(g, 0)
            confusion[str(truth)][g] += 1
            stats["right" if got == truth else "wrong"] += 1
            if got != truth:
                stats["wrong_sure"] += dice[j].confidence >= SURE
                failures.append(f"{photo.path.name}: {truth} read {g} at {dice[j].bbox} (label box "
                                f"{_box(photo.dice[i].bbox)}, confidence {dice[j].confidence:.2f})")
                crops.append((photo, "wrong", photo.dice[i].bbox, dice[j].bbox))
        for i, d in enumerate(photo.dice):
            if i not in matched_l:
                confusion.setdefault(str(d.value), {}).setdefault("missed", 0)
                confusion[str(d.value)]["missed"] += 1
                failures.append(f"{photo.path.name}: {d.value} missed at {_box(d.bbox)}")
                crops.append((photo, "missed", d.bbox, None))
        if len(dice) > len(pairs):
            used = {j for _, j in pairs}
            for j in range(len(dice)):
                if j not in used:
                    reliability.append((dice[j].confidence, False))
                    failures.append(f"{photo.path.name}: phantom {dice[j].value} at {dice[j].bbox} "
                                    f"(confidence {dice[j].confidence:.2f})")
                    crops.append((photo, "phantom", None, dice[j].bbox))
    labelled = max(1, stats["labelled"])
    valued = max(1, stats["labelled"] - stats["unclear"])
    sure = [ok for c, ok in reliability if c >= SURE]
    return {"set": name, **stats,
            "found_pct": round(100 * stats["found"] / labelled, 2),
            "right_pct": round(100 * stats["right"] / valued, 2),
            "wrong_sure_pct": round(100 * stats["wrong_sure"] / valued, 2),
            "sure_right_pct": round(100 * sum(sure) / len(sure), 2) if sure else None,
            "phantom_per_photo": round(stats["phantom"] / max(1, stats["frames"]), 3),
            "reliability": reliability,
            "phantom_per_100": round(100 * stats["phantom"] / max(1, stats["frames"]), 2),
            "ms_median": round(statistics.median(ms), 2) if ms else None,
            "ms_p95": round(percentile(ms, 95), 2),
            "cpu_ms_median": round(statistics.median(cpu), 2) if cpu else None,
            "cpu_ms_p95": round(percentile(cpu, 95), 2),
            "confusion": confusion, "failures": failures, "crops": crops, "misses": misses}


def burks_truth(photo: LabelledPhoto) -> tuple[str, int, int]:
    """(kind, sides, value) of a burks photo's one die, in ``read_table``'s terms: ``kind`` is d4 .. d20
    or d100 (the percentile d10, from the file name), a d10's "0" face is 10, a percentile die's
    "00" .. "90" are 0 .. 90."""
    label = photo.dice[0]
    kind = photo.path.name.split("_")[0].lower()
    sides = label.sides or 0
    value = label.value
    if sides == 10 and kind != "d100" and value == 0:
        value = 10
    return kind, sides, value


def _die_text(d: Die) -> str:
    if d.sides is None:
        return "unknown die"
    return f"d{d.sides}{'%' if d.percentile else ''}={d.value} ({d.confidence:.2f})"


def _score_burks(photo: LabelledPhoto, dice: list[Die], stats: dict[str, Any],
                 confusion: dict[str, dict[str, int]], failures: list[str]) -> None:
    """One polyhedral die per photo: the most confident die read is compared with the label (type =
    sides; value = sides, value and, for 10 sides, percentile or not); the other dice are phantoms."""
    kind, sides, value = burks_truth(photo)
    per = stats.setdefault("per_type", {}).setdefault(kind, [0, 0, 0])   # dice, type right, value right
    per[0] += 1
    if not dice:
        stats["missed"] += 1
        failures.append(f"{photo.path.name}: {kind}={value} missed")
        confusion.setdefault(kind, {}).setdefault("missed", 0)
        confusion[kind]["missed"] += 1
        return
    best = max(dice, key=lambda d: d.confidence)
    stats["found"] += 1
    stats["phantom"] += len(dice) - 1
    type_ok = best.sides == sides
    value_ok = type_ok and best.value == value and (sides != 10 or best.percentile == (kind == "d100"))
    stats["type_right"] = stats.get("type_right", 0) + type_ok
    per[1] += type_ok
    per[2] += value_ok
    got = "-" if best.sides is None else f"d{best.sides}{'%' if best.percentile else ''}"
    confusion.setdefault(kind, {}).setdefault(got, 0)
    confusion[kind][got] += 1
    stats["right" if value_ok else "wrong"] += 1
    if not value_ok:
        stats["wrong_sure"] += best.confidence >= SURE
        failures.append(f"{photo.path.name}: {kind}={value} read {_die_text(best)} at {best.bbox}")
    for d in dice:
        if d is not best:
            failures.append(f"{photo.path.name}: phantom {_die_text(d)} at {d.bbox}")


def _box(b: Any) -> Any:
    return None if b is None else tuple(round(v) for v in b)


def write_crops(r: dict[str, Any], folder: Path) -> None:
    """One PNG per error: the region around the label (green) and the detection (red), enlarged 3x."""
    folder.mkdir(parents=True, exist_ok=True)
    for k, (photo, kind, label, det) in enumerate(r["crops"]):
        image = photo.load()
        boxes = [b for b in (label, det) if b is not None]
        x0 = int(min(b[0] for b in boxes)) - 40
        y0 = int(min(b[1] for b in boxes)) - 40
        x1 = int(max(b[0] + b[2] for b in boxes)) + 40
        y1 = int(max(b[1] + b[3] for b in boxes)) + 40
        x0, y0 = max(0, x0), max(0, y0)
        crop = image[y0:y1, x0:x1].copy()
        crop = cv2.resize(crop, None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC)
        for b, colour in ((label, (0, 200, 0)), (det, (0, 0, 255))):
            if b is not None:
                bx, by, bw, bh = (round(3 * v) for v in (b[0] - x0, b[1] - y0, b[2], b[3]))
                cv2.rectangle(crop, (bx, by), (bx + bw, by + bh), colour, 1)
        cv2.imwrite(str(folder / f"{r['set']}_{k:02d}_{kind}_{photo.path.stem}.png"), crop)


def time_sizes(photo: LabelledPhoto, reader: str = "learned", repeats: int = 15) -> dict[str, Any]:
    """Time per frame at the three sizes of the targets: the photo as it is (640x480), upscaled to the
    Pi HQ camera's 2028x1520 and to 12 MP (4000x3000)."""
    out = {}
    for w, h in ((640, 480), (2028, 1520), (4000, 3000)):
        frame = cv2.resize(photo.load(), (w, h), interpolation=cv2.INTER_CUBIC)
        out[f"{w}x{h}"] = time_frame(frame, f"{photo.path.name} at {w}x{h}", len(photo.dice), reader, repeats)
    return out


def nested_frame(photo: LabelledPhoto) -> np.ndarray:
    """The hardest frame for the finder's frame rules tried so far (thirteenth session): ``photo`` filling a
    1536x1152 frame, with copies at 1.5, 0.75 and 0.375 times its size pasted over it, so that dice of
    many sizes lie inside the boxes of others (the most work ``vision.finder.HOLDS`` can get) and the
    finder stops at ``MAX_OBJECTS``."""
    image = photo.load()
    frame = cv2.resize(image, (1536, 1152), interpolation=cv2.INTER_CUBIC)
    for k, (x, y) in zip((1.5, 0.75, 0.375), ((0, 0), (768, 0), (768, 288)), strict=True):
        part = cv2.resize(image, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
        h, w = min(part.shape[0], 1152 - y), min(part.shape[1], 1536 - x)
        frame[y:y + h, x:x + w] = part[:h, :w]
    return frame


def time_frame(frame: np.ndarray, name: str, dice: int, reader: str = "learned",
               repeats: int = 5, clock: Callable[[], float] | None = None) -> dict[str, Any]:
    """Milliseconds per read of ``frame``, after one read that is not timed: the camera loop reads frame
    after frame, and a network's first run at a new input size sets up its buffers (the first read of a
    640x480 frame took 87 ms where the next took 31), which the p95 of a few reads would report.
    ``clock``: read by it (``read_table(clock=)``, as the live table and ``scan`` read); ``sure`` is then how
    many dice the last read reported sure."""
    read_table(frame, reader=reader, clock=clock)
    ms, cpu = [], []
    sure = 0
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        reading = read_table(frame, reader=reader, clock=clock)
        ms.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        sure = sum(d.confidence >= SURE for d in reading.dice)
    return {"source": name, "dice": dice, "ms_median": round(statistics.median(ms), 2),
            "ms_p95": round(percentile(ms, 95), 2), "cpu_ms_median": round(statistics.median(cpu), 2),
            "cpu_ms_p95": round(percentile(cpu, 95), 2), "sure": sure}


def machine_speed(repeats: int = 60) -> dict[str, Any]:
    """The shipped finder's forward pass alone on a fixed 512x384 input, median ms on one thread: most of a
    640x480 frame's time and the same work on every machine, so it tells a slower machine (or a busy one)
    from slower code. The same code's 640x480 frame measured 23 to 31 ms on one machine within an hour
    (thirty-fourth session), while this moved with it."""
    net = cv2.dnn.readNet(str(model_path("finder")))
    net.setInput(np.full((1, 3, 384, 512), 0.5, np.float32))
    net.forward()
    ms = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        net.forward()
        ms.append((time.perf_counter() - t0) * 1000)
    return {"finder_512x384_ms_median": round(statistics.median(ms), 2)}


def print_sizes(t: dict[str, Any]) -> None:
    for v in t.values():
        print(f"== {v['source']} ({v['dice']} dice): median {v['ms_median']} ms, p95 {v['ms_p95']} ms "
              f"(wall clock); CPU median {v['cpu_ms_median']} ms, p95 {v['cpu_ms_p95']} ms; "
              f"{v['sure']} reported sure")


def print_report(r: dict[str, Any], split: str, show_failures: int) -> None:
    print(f"== {r['set']} ({split}): {r['frames']} frames, {r['labelled']} labelled dice")
    print(f"   found {r['found']} ({r['found_pct']}%), missed {r['missed']}, phantom {r['phantom']} "
          f"({r['phantom_per_100']} per 100 frames)")
    if r.get("misses"):
        print("   missed: " + ", ".join(f"{r['misses'].get(k, 0)} {k}" for k in MISS_KINDS))
    print(f"   values right {r['right']} ({r['right_pct']}% of labelled with a value), wrong {r['wrong']} "
          f"({r['wrong_sure']} of them with confidence >= {SURE})")
    print(f"   ms per frame: median {r['ms_median']}, p95 {r['ms_p95']} (wall clock); "
          f"CPU median {r['cpu_ms_median']}, p95 {r['cpu_ms_p95']}")
    if "per_type" in r:
        typed = r.get("type_right", 0)
        print(f"   types right {typed} ({round(100 * typed / max(1, r['labelled']), 2)}% of labelled); "
              f"tokens reported {r.get('tokens', 0)}")
        print("   per type (dice, type right, value right): " + ", ".join(
            f"{k} {n}/{t}/{v} ({round(100 * v / max(1, n))}%)"
            for k, (n, t, v) in sorted(r["per_type"].items(), key=lambda kv: (len(kv[0]), kv[0]))))
    if r["confusion"]:
        cols = sorted({c for row in r["confusion"].values() for c in row}, key=lambda c: (len(c), c))
        print("   confusion (rows: label, columns: read; '-' = read as unknown)")
        print("   " + "label".ljust(6) + "".join(c.rjust(8) for c in cols))
        for row in sorted(r["confusion"]):
            print("   " + row.ljust(6) + "".join(str(r["confusion"][row].get(c, 0)).rjust(8) for c in cols))
    for f in r["failures"][:show_failures]:
        print("     " + f)


#: the sets with d6 dice that the leave-one-out table measures, and the finder each was left out of
LEAVE_OUT = ("matteop65", "chase", "aws", "nell")
#: where the leave-one-out models live (trained by tools/train_finder.py and tools/train_faces.py with
#: ``--leave-out S``; see vision/models/README.md)
LOO_MODELS = Path(__file__).resolve().parent / "models"
#: confidence bins of the reliability table
BINS = (0.0, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0001)


def leave_out_models(name: str, candidates: Path | None = None) -> tuple[str, str, str]:
    """(finder, face reader, type reader) as the product reads, the first two trained without set
    ``name``. chase has no whole frames, so no finder was ever trained on it: the shipped finder is
    used, with the face reader trained without chase. The type reader is the shipped one: it learnt
    from the Lurig and burks photos and renders only, never from a d6 set (before 2026-11-26, seventh
    session, the table was read without it, and Vision II typed the numeral dice itself).

    ``candidates``: a folder of models trained without ``name`` to measure before they are installed;
    its ``finder-no-<name>.onnx`` and ``faces-no-<name>.onnx`` (each with its card beside it) replace
    the installed ones where the folder has them."""
    def pick(kind: str) -> str:
        if candidates is not None and (candidates / f"{kind}-no-{name}.onnx").is_file():
            return str(candidates / f"{kind}-no-{name}.onnx")
        return str(LOO_MODELS / f"{kind}-no-{name}.onnx")

    finder = "finder" if name == "chase" else pick("finder")
    return finder, pick("faces"), "types"


def reliability_table(r: dict[str, Any]) -> list[tuple[str, int, float | None]]:
    rows = []
    for lo, hi in itertools.pairwise(BINS):
        got = [ok for c, ok in r["reliability"] if lo <= c < hi]
        pct = round(100 * sum(got) / len(got), 1) if got else None
        rows.append((f"{lo:.2f}-{min(hi, 1.0):.2f}", len(got), pct))
    return rows


def print_leave_out(results: list[dict[str, Any]]) -> None:
    print("== leave one out: each set read by models trained without it")
    print("   set        frames  dice  found%  right%  wrong&sure%  sure-right%  phantoms/photo  "
          "ms median (CPU)")
    for r in results:
        print(f"   {r['set']:<10} {r['frames']:>6} {r['labelled']:>5} {r['found_pct']:>7} "
              f"{r['right_pct']:>7} "
              f"{r['wrong_sure_pct']:>12} {r['sure_right_pct']!s:>12} {r['phantom_per_photo']:>15} "
              f"{r['cpu_ms_median']:>10}")


def print_calibration(r: dict[str, Any]) -> None:
    print(f"== reliability, {r['set']}: confidence bin, dice reported, % right (phantoms count as wrong)")
    for label, n, pct in reliability_table(r):
        print(f"   {label}  {n:>6}  {'-' if pct is None else pct}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--set", default="all", choices=["all", "matteop65", "chase", "burks", "aws", "nell"])
    ap.add_argument("--split", default="both", choices=["both", "all", "dev", "held-out"])
    ap.add_argument("--reader", default="learned", choices=["learned", "rules"])
    ap.add_argument("--leave-out", action="store_true",
                    help="read each d6 set with the models trained without it (the generalisation table)")
    ap.add_argument("--calibration", action="store_true",
                    help="print the reliability table (confidence bins against accuracy) per set")
    ap.add_argument("--sample", type=int, default=0, help="every Nth photo only (speed)")
    ap.add_argument("--half", default="all", choices=["all", "first", "second"],
                    help="with --leave-out: the first or second half of the set's photos only (the other "
                         "half adapted a candidate: tools/adabn_study.py)")
    ap.add_argument("--failures", type=int, default=0, help="print the first N failures")
    ap.add_argument("--errors", action="store_true",
                    help="list every wrong, missed and phantom die (file, label, read, boxes)")
    ap.add_argument("--crops", type=Path, default=None,
                    help="write a PNG crop of every error to this folder (label green, detection red)")
    ap.add_argument("--no-12mp", action="store_true")
    ap.add_argument("--time-only", action="store_true",
                    help="only the time per frame at the three sizes: a matteop65 photo of few dice and the "
                         "aws photo of the most dice (the second opinion's worst real frame)")
    ap.add_argument("--models", nargs=3, metavar=("FINDER", "FACES", "TYPES"),
                    help="read with these .onnx files (cards beside them) instead of the shipped models; "
                         "with --leave-out, only FINDER is used, and only for chase (no finder ever trained "
                         "on it): the left-out face readers come from --candidates DIR or the installed ones")
    ap.add_argument("--candidates", type=Path, default=None, metavar="DIR",
                    help="with --leave-out: read with DIR's finder-no-S.onnx / faces-no-S.onnx where it has "
                         "them (models trained without S, not yet installed), the installed ones otherwise")
    ap.add_argument("--errata", action="store_true",
                    help="correct the labels benchmarks/label_errata.json says a person can see are wrong "
                         "(an upper bound: they were found among the reader's sure mistakes)")
    ap.add_argument("--turn", type=int, default=0, choices=TURNS, metavar="DEG",
                    help="read each photo turned DEG degrees clockwise, as a camera mounted so and not set "
                         "right by camera.turn would see it (boxes turned back to match the labels)")
    ap.add_argument("--enlarge", type=float, default=1.0, metavar="F",
                    help="read each photo enlarged F times (1-8), boxes scaled back: the reader's scale "
                         "choice on frames the size of a phone's photo")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if not 1.0 <= args.enlarge <= 8.0:
        ap.error(f"--enlarge must be 1..8, not {args.enlarge}")
    if args.half != "all" and not args.leave_out:
        ap.error("--half measures half of a set left out: give --leave-out too")
    if args.candidates is not None and not args.candidates.is_dir():
        ap.error(f"--candidates {args.candidates}: no such folder")
    if args.leave_out and args.models and not args.candidates:
        print("--leave-out --models: FACES and TYPES are not read (each set's left-out face reader is the "
              "installed one; give a candidate with --candidates DIR)", file=sys.stderr)
    set_threads(1)
    results = []
    if args.time_only:
        speed = machine_speed()
        results.append({"set": "machine", **speed})
        if not args.json:
            print(f"== this machine: the finder's forward pass on a 512x384 input alone, median "
                  f"{speed['finder_512x384_ms_median']} ms (compare frame times across machines by it)")
        crowded = max(photo_set("aws"), key=lambda p: len(p.dice))
        for photo, repeats in ((photo_set("matteop65")[50], 15), (crowded, 5)):
            t = time_sizes(photo, args.reader, repeats)
            results.append({"set": "sizes", **t})
            if not args.json:
                print_sizes(t)
        worst = nested_frame(crowded)
        name = f"{crowded.path.name} nested at four scales in 1536x1152"
        nested = {"1536x1152": time_frame(worst, name, 4 * len(crowded.dice), args.reader),
                  # as the live table and ``scan`` read it (``vision.learned.FRAME_SECONDS``), and as a
                  # machine twice as slow would: its clock spends the frame's time at half of this one's
                  "clock": time_frame(worst, name + ", by the clock", 4 * len(crowded.dice), args.reader,
                                      clock=time.perf_counter),
                  "clock x2": time_frame(worst, name + ", by a clock running twice as fast",
                                         4 * len(crowded.dice), args.reader,
                                         clock=lambda: 2 * time.perf_counter())}
        # the crowded frame as the live table reads it: by the clock, the pip checks bounded by it
        # (``vision.learned.MAX_TIMED_OPINIONS``)
        frame = cv2.resize(crowded.load(), (640, 480), interpolation=cv2.INTER_CUBIC)
        nested["crowded clock"] = time_frame(frame, f"{crowded.path.name} at 640x480, by the clock",
                                             len(crowded.dice), args.reader, clock=time.perf_counter)
        results.append({"set": "nested", **nested})
        if not args.json:
            print_sizes(nested)
        if args.json:
            print(json.dumps(results))
        return 0
    if args.leave_out:
        names = LEAVE_OUT if args.set == "all" else [args.set]
        for name in names:
            chosen = half(labelled(name, args.errata), args.half)
            if args.sample > 1:
                chosen = chosen[:: args.sample]
            models = leave_out_models(name, args.candidates)
            if args.models and name == "chase":
                models = (args.models[0], models[1], models[2])
            r = evaluate(name, chosen, enlarged_read(turned_read(
                lambda im, m=models: read_table(im, models=m), args.turn), args.enlarge))
            r["split"] = "left out"
            results.append(r)
            if args.crops is not None:
                write_crops(r, args.crops)
            if not args.json:
                print_report(r, "left out", len(r["failures"]) if args.errors else args.failures)
                if args.calibration:
                    print_calibration(r)
        if not args.json:
            print_leave_out(results)
    else:
        names = ["matteop65", "chase", "aws", "nell", "burks"] if args.set == "all" else [args.set]
        splits = ["dev", "held-out"] if args.split == "both" else [args.split]
        for name in names:
            photos = labelled(name, args.errata)
            for split in splits if name == "matteop65" else ["all"]:
                chosen = list(iter_split(photos, split))
                if args.sample > 1:
                    chosen = chosen[:: args.sample]
                shipped = tuple(args.models) if args.models else MODELS
                read = turned_read(lambda im, m=shipped: read_table(im, reader=args.reader, models=m),
                                   args.turn)
                r = evaluate(name, chosen, enlarged_read(read, args.enlarge))
                r["split"] = split
                results.append(r)
                if args.crops is not None:
                    write_crops(r, args.crops)
                if not args.json:
                    print_report(r, split, len(r["failures"]) if args.errors else args.failures)
                    if args.calibration:
                        print_calibration(r)
    if not args.no_12mp and not args.leave_out:
        t = time_sizes(photo_set("matteop65")[50], args.reader)
        results.append({"set": "sizes", **t})
        if not args.json:
            print_sizes(t)
    if args.json:
        for r in results:
            r.pop("failures", None)
            r.pop("crops", None)
            if "reliability" in r:
                r["reliability"] = reliability_table(r)
        print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
